/**
 * List extraction (sources §6): the items of the page's main list — `{url, title,
 * publishedAt?}`, absolute and de-duplicated — and its pagination (`nextPage`, `pages`).
 *
 * The main list is the best-scoring link cluster (`clusters.ts`: runs of structurally similar
 * sibling records each holding a title-length link, penalised inside navigation/sidebar/footer
 * chrome). Clusters that continue it — the same record shape in sibling containers, as when a
 * list is split into several `<ul>` of five — are merged into it, other content lists of title
 * links join it (contentClusters), and lone records in the main list's title markup next to it
 * are added (strayTitles).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { langTag, type Page } from '../../src/core/page.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import type { ListEntry } from '../../src/core/item.js';
import { findDates, timezoneForLang } from '../../src/core/dates.js';
import { pageIndex, subtreeText, anchorsIn, type PageIndex } from '../../src/core/page-index.js';
import { Element } from 'domhandler';
import { findLinkClusters, classSignature, localSignature, anchorText, textWidth, DATE_LIKE, TITLE_MIN_WIDTH, DOWNLOAD_URL, type LinkCluster, type ClusterEntry, type ClusterOptions } from './clusters.js';
import { findPagination } from '../pagination/index.js';
import { extractTitle } from '../article/index.js';
import { clearOwnList, clusterShape, inLandmark, isFixedShape, isLearnedShape, knowsMainShapes, learnedEntries, openEntries, observeShapes, readShapes, type ListShapes } from './shapes.js';
import { urlParts } from '../../src/core/url.js';

export { findLinkClusters, type LinkCluster } from './clusters.js';
export { emptyShapes, readShapes, type ListShapes } from './shapes.js';
export { findPagination, type Pagination } from '../pagination/index.js';

export interface ListResult {
  items: ListEntry[];
  nextPage?: string;
  pages?: string[];
}

export interface ListOptions {
  /** IANA zone for item dates without an offset (default: the page language's). */
  timezone?: string;
  /** Cap on items returned (a link farm of 10,000 entries is still a list, but the crawl budget
   * cannot use more). */
  maxItems?: number;
  /** List-entry shapes learned from the site's other list pages (see shapes.ts): used when this
   * page's own main list is too short or in chrome. */
  shapes?: ListShapes;
}

/** Relative day words that findDates reads ("yesterday 20:48", "昨天 20:48"). */
const RELATIVE_DAY = /yesterday|today|昨天|今天|前天|刚刚|gestern|heute|hier|aujourd|ayer|hoy/i;

/** Default cap on items (see ListOptions.maxItems). */
export const MAX_ITEMS = 2000;
/** A cluster joins the main one when its score is at least this share of the best score and it
 * has the same record shape (measured: split lists score within a factor of 2 of each other;
 * sidebars fall far below because of the chrome penalty). */
const MERGE_SCORE_SHARE = 0.35;
/** Other content lists join the main one (contentClusters) from this share of the best score:
 * measured on the list bench, SERP side blocks (news carousel, videos) score 0.35–0.45 of the
 * organic results; teaser blocks of a news home page score 0.6–1. */
const UNION_SCORE_SHARE = 0.3;
/** Mean title width (see textWidth) of a joining list: headlines and result titles, not tag or
 * menu words (TITLE_GOOD_WIDTH in clusters.ts is where title fit is full). */
const UNION_MIN_WIDTH = 24;
/** Share of a joining list's links that must lead away from this page's path (and not to files:
 * images in a release note). */
const UNION_ELSEWHERE_SHARE = 0.5;
/** New items a block nested inside one record of the main list must add to join (a carousel of
 * stories absorbed as one record shows its first story as that record's link). */
const NESTED_BLOCK_NEW = 2;
/** Containers merged when they share an ancestor within this many levels. */
const MERGE_LEVELS = 3;

function ancestorWithin(dom: PageIndex, a: number, b: number, levels: number): boolean {
  const up = new Set<number>();
  for (let k = a, l = 0; k >= 0 && l <= levels; k = dom.parent[k]!, l++) up.add(k);
  for (let k = b, l = 0; k >= 0 && l <= levels; k = dom.parent[k]!, l++) if (up.has(k)) return true;
  return false;
}

const inside = (dom: PageIndex, i: number, root: number) => i >= root && i <= dom.end[root]!;

/**
 * Lists inside the records of `outer` (sources §6: "keep the deeper of nested parents"): a
 * page of sections, each a list, shows both as clusters — the sections (one link each) and the
 * lists in them. Returns the inner clusters (non-overlapping, best first) when together they
 * hold more entries than the outer one.
 */
function innerLists(dom: PageIndex, outer: LinkCluster, clusters: LinkCluster[]): LinkCluster[] | undefined {
  const inner: LinkCluster[] = [];
  for (const c of clusters) {
    if (c === outer || c.score < outer.score * MERGE_SCORE_SHARE || c.chromeFactor < outer.chromeFactor) continue;
    if (c.container === outer.container || !inside(dom, c.container, outer.container)) continue;
    // links in the records' text (issue numbers, tags) are not lists of items
    if (c.meanWidth < TITLE_MIN_WIDTH) continue;
    if (!outer.records.some((r) => inside(dom, c.container, r))) continue;
    if (inner.some((k) => inside(dom, c.container, k.container) || inside(dom, k.container, c.container))) continue;
    inner.push(c);
  }
  const total = inner.reduce((s, c) => s + c.entries.length, 0);
  return inner.length >= 2 && total > outer.entries.length ? inner : undefined;
}

/** The main list: the best cluster (or the lists nested in its records) plus same-shaped
 * clusters beside it. */
export function mainListClusters(page: Page, options: ClusterOptions = {}): LinkCluster[] {
  const clusters = findLinkClusters(page, options);
  if (!clusters.length) return [];
  const dom = pageIndex(page);
  const best = clusters[0]!;
  const chosen = innerLists(dom, best, clusters) ?? [best];
  const overlaps = (c: LinkCluster) => chosen.some((k) => inside(dom, c.container, k.container) || inside(dom, k.container, c.container));
  if (chosen.length === 1) {
    for (const c of clusters.slice(1)) {
      if (c.score < best.score * MERGE_SCORE_SHARE) break;
      if (c.recordTag !== best.recordTag || c.titlePath !== best.titlePath || overlaps(c)) continue;
      // beside it, or the same kind of record (same class signature) elsewhere on the page
      if (chosen.some((k) => ancestorWithin(dom, k.container, c.container, MERGE_LEVELS) || (k.recordClass !== '' && k.recordClass === c.recordClass))) chosen.push(c);
    }
  }
  return chosen;
}

/** Cluster options of the list extractor (see ClusterOptions). */
const EXTRACT_OPTIONS: ClusterOptions = { proseRecords: true, nestedTitles: true, labelRecords: true, shortTitles: true, fullPosts: true };

/** Path of a URL (no query, no fragment, no trailing slash), for "same page, other view" tests. */
function urlPath(u: string): string | undefined {
  const x = urlParts(u);
  return x && `${x.host}${x.pathname.replace(/\/+$/, '')}`;
}

/** Tag and class signature of an element and its two ancestors: `div.list>ul>li` style. */
function containerSignature(dom: PageIndex, i: number): string {
  const parts: string[] = [];
  for (let k = i, l = 0; k >= 0 && l < 3; k = dom.parent[k]!, l++) {
    const n = dom.page.nodes[k];
    parts.push(n instanceof Element ? `${n.name}.${classSignature(n)}` : '');
  }
  return parts.join('<');
}

/**
 * The main list plus other lists of the same kind of content items (a news home page with several
 * teaser blocks, a search result page whose organic results, news carousel, videos and ads are
 * differently shaped blocks). A cluster joins when it is outside page chrome, its links are
 * title-length, it does not overlap the records already chosen, and its links lead to other pages
 * (not to this page's own path with other parameters: sort orders, filters, related searches).
 */
export function contentClusters(page: Page): LinkCluster[] {
  const chosen = mainListClusters(page, EXTRACT_OPTIONS);
  if (!chosen.length) return chosen;
  const clusters = findLinkClusters(page, EXTRACT_OPTIONS);
  const dom = pageIndex(page);
  const best = chosen[0]!;
  const top = clusters[0]!.score;
  const here = urlPath(page.url);
  // covered[i] = 1 inside a chosen record; starts[i] = chosen records starting before i (prefix).
  const covered = new Uint8Array(dom.size);
  const startMark = new Int32Array(dom.size + 1);
  const cover = (c: LinkCluster) => {
    for (const r of c.records) {
      covered.fill(1, r, dom.end[r]! + 1);
      startMark[r + 1] = 1;
    }
  };
  for (const c of chosen) cover(c);
  let prefix = Int32Array.from(startMark);
  for (let i = 1; i <= dom.size; i++) prefix[i]! += prefix[i - 1]!;
  const chosenUrls = new Set(chosen.flatMap((c) => c.entries.map((e) => e.url)));
  // A cluster overlaps when one of its records holds a chosen record (it is the same list seen
  // coarser) or sits inside one — unless it is a block of several items nested in a single
  // record of the main list (a news carousel among search results): then it adds those items.
  const overlaps = (c: LinkCluster) => {
    if (c.records.some((r) => prefix[dom.end[r]! + 1]! - prefix[r]! > 0)) return true;
    if (!c.records.some((r) => covered[r] === 1)) return false;
    return c.entries.filter((e) => !chosenUrls.has(e.url)).length < NESTED_BLOCK_NEW;
  };
  // Sections of one list (a directory split by letter or region, one <dd> per section): clusters
  // in containers of the same signature as a chosen one, with the same record shape, join
  // whatever their score (short names score low on title fit but are one list).
  const sigs = new Set(chosen.map((c) => `${containerSignature(dom, c.container)}|${c.recordTag}|${c.titlePath}`));
  for (const c of clusters) {
    if (chosen.includes(c) || c.chromeFactor < best.chromeFactor || chosen.some((k) => k.container === c.container)) continue;
    if (!sigs.has(`${containerSignature(dom, c.container)}|${c.recordTag}|${c.titlePath}`) || overlaps(c)) continue;
    chosen.push(c);
    cover(c);
    for (const e of c.entries) chosenUrls.add(e.url);
    prefix = Int32Array.from(startMark);
    for (let i = 1; i <= dom.size; i++) prefix[i]! += prefix[i - 1]!;
  }
  for (const c of clusters) {
    if (chosen.includes(c) || c.score < top * UNION_SCORE_SHARE || c.chromeFactor < 1 || c.chromeFactor < best.chromeFactor) continue;
    if (c.meanWidth < UNION_MIN_WIDTH) continue;
    const elsewhere = c.entries.filter((e) => urlPath(e.url) !== here && !DOWNLOAD_URL.test(e.url)).length;
    if (elsewhere < c.entries.length * UNION_ELSEWHERE_SHARE) continue;
    if (overlaps(c)) continue;
    chosen.push(c);
    cover(c);
    for (const e of c.entries) chosenUrls.add(e.url);
    prefix = Int32Array.from(startMark);
    for (let i = 1; i <= dom.size; i++) prefix[i]! += prefix[i - 1]!;
  }
  return chosen;
}

/** Share of the main list's entries whose title links must share one markup signature before
 * lone records in that markup are looked for. */
const STRAY_SIGNATURE_SHARE = 0.8;

/**
 * Lone records of the main list outside its container: a search engine sets its first result
 * (the one with sitelinks) apart from the group of the others; a list's first teaser is wrapped
 * alone. Their title links sit in the same markup (tag and classes of the link and its nearest
 * ancestors, see localSignature) as the list's titles, within MERGE_LEVELS above its container.
 */
function strayTitles(dom: PageIndex, chosen: LinkCluster[], clusters: LinkCluster[]): ClusterEntry[] {
  const main = chosen[0]!;
  // the title link's markup up to and including its record (or four levels of it); when none of
  // that carries a class (`li > a`), up to and including the list holding the records
  // (`ul.listing > li > a`: an archive split by year, whose years of one or two posts are no list
  // of their own)
  const counts = new Map<string, number>();
  let withContainer = 0;
  for (const e of main.entries) {
    let sig = localSignature(dom, e.anchor, dom.parent[e.record]!);
    if (sig === undefined && dom.parent[e.record]! >= 0) {
      sig = localSignature(dom, e.anchor, dom.parent[dom.parent[e.record]!]!);
      if (sig !== undefined) withContainer++;
    }
    if (sig !== undefined) counts.set(sig, (counts.get(sig) ?? 0) + 1);
  }
  let sig: string | undefined;
  for (const [k, v] of counts) if (v >= main.entries.length * STRAY_SIGNATURE_SHARE) sig = k;
  if (sig === undefined) return [];
  const levels = sig.split('<').length;
  // levels of the signature inside a record (the record's own tag last)
  const recordLevels = withContainer * 2 > main.entries.length ? levels - 1 : levels;
  let scope = main.container;
  for (let l = 0; l < MERGE_LEVELS && dom.parent[scope]! >= 0; l++) scope = dom.parent[scope]!;
  const inRecord = (a: number) => chosen.some((c) => c.records.some((r) => inside(dom, a, r)));
  // a lone record, not an entry of another list (a sidebar list in the same markup); lists that
  // hold the main one (coarser views of the page) do not count
  const elsewhere = new Set<number>();
  for (const c of clusters) if (!chosen.includes(c) && !inside(dom, main.container, c.container)) for (const e of c.entries) elsewhere.add(e.anchor);
  const out: ClusterEntry[] = [];
  for (const a of anchorsIn(dom, scope)) {
    if (localSignature(dom, a, -1, levels) !== sig || inRecord(a) || elsewhere.has(a)) continue;
    const el = dom.page.nodes[a] as Element;
    const url = dom.page.resolve(el.attribs.href);
    const title = anchorText(el);
    if (!url || DOWNLOAD_URL.test(url) || textWidth(title) < TITLE_MIN_WIDTH) continue;
    // its record: the block its title markup spans (for the item's date)
    let record = a;
    for (let l = 1; l < recordLevels && dom.parent[record]! >= 0; l++) record = dom.parent[record]!;
    out.push({ url, title, anchor: a, record });
  }
  return out;
}

/** Text of the first heading element (h1–h6) inside a link, if any. */
function headingIn(dom: PageIndex, a: number): string | undefined {
  const e = dom.end[a]!;
  for (let k = a + 1; k <= e; k++) {
    const n = dom.page.nodes[k];
    if (n instanceof Element && /^h[1-6]$/.test(n.name) && dom.chars[k]! > 0) return subtreeText(dom, k);
  }
  return undefined;
}

/**
 * An item's title: the heading inside its link when the link holds one (a search result's
 * `<a><h3>title</h3><cite>site › path</cite></a>`), else the link text (or the record heading
 * the cluster took for a label link).
 */
function itemTitle(dom: PageIndex, e: ClusterEntry): string {
  // a title taken from the record's heading (label links) stands
  if (e.title !== anchorText(dom.page.nodes[e.anchor] as Element) || dom.chars[e.anchor] === 0) return e.title;
  return headingIn(dom, e.anchor) ?? e.title;
}

/**
 * The main list's entries as the extractor picks them (page order not yet applied): the page's own
 * clusters, or — when the site has shown list pages and this page's own list is not clear
 * evidence — its entries in the site's learned shapes. Memoised per page and shapes state (the
 * page-type stage reads the same entries before the list stage extracts them).
 */
export function listEntries(page: Page, shapes?: ListShapes): ClusterEntry[] {
  const memo = page.memo('list:entries', () => new WeakMap<object, { observed: number; entries: ClusterEntry[] }>());
  const key: object = shapes ?? NO_SHAPES;
  const hit = memo.get(key);
  if (hit && hit.observed === (shapes?.observed ?? -1)) return hit.entries;
  const entries = selectEntries(page, shapes);
  memo.set(key, { observed: shapes?.observed ?? -1, entries });
  return entries;
}
const NO_SHAPES = {};

function selectEntries(page: Page, shapes: ListShapes | undefined): ClusterEntry[] {
  const dom = pageIndex(page);
  const chosen = contentClusters(page);
  let entries = chosen.flatMap((c) => c.entries);
  if (chosen.length) entries.push(...strayTitles(dom, chosen, findLinkClusters(page, EXTRACT_OPTIONS)));
  // Too few entries to show repetition here (or only chrome repeats): the site's list-entry shape.
  // With nothing observed of the site yet (a page alone, the first page of a crawl) there is no
  // site evidence: the page extracts exactly as extractList(page) (issue 23).
  if (shapes && shapes.observed > 0 && !clearOwnList(page, chosen[0], shapes)) {
    const own = chosen[0] ? clusterShape(dom, chosen[0]) : undefined;
    if (!isLearnedShape(shapes, own)) {
      const learnt = learnedEntries(page, shapes);
      if (learnt) entries = learnt.entries;
      // what repeats here is what the site shows unchanged on its list pages (a side panel of
      // recent posts beside a term index): no entries of this page's own
      else if (isFixedShape(shapes, own)) entries = [];
      // the site's entries look known, none is here, and what repeats is menu words (a term
      // index: tag or category names with counts): no entries
      else if (chosen[0] && chosen[0].meanWidth < TITLE_MIN_WIDTH && knowsMainShapes(shapes)) entries = [];
      // nothing learned occurs here and the page's only repetition is a landmark of chrome (a
      // side panel) or menu words: the title links outside chrome landmarks are its entries
      else if (chosen[0] && (inLandmark(page, chosen[0].container) || chosen[0].meanWidth < TITLE_MIN_WIDTH)) entries = openEntries(page, shapes) ?? entries;
    }
  }
  return entries;
}

export function extractList(page: Page, options: ListOptions = {}): ListResult {
  const pagination = findPagination(page);
  const dom = pageIndex(page);
  const skip = new Set<string>([page.url.replace(/#.*$/, '')]);
  if (pagination.nextPage) skip.add(pagination.nextPage);
  for (const p of pagination.pages ?? []) skip.add(p);
  // The page language (for the zone) is only worked out when an item carries a date.
  let zone: string | undefined = options.timezone;
  let zoneKnown = zone !== undefined;
  const max = options.maxItems ?? MAX_ITEMS;
  const items: ListEntry[] = [];
  const seen = new Set<string>();
  const entries = [...listEntries(page, options.shapes)];
  entries.sort((a, b) => a.anchor - b.anchor);
  for (const e of entries) {
    if (seen.has(e.url) || skip.has(e.url)) continue;
    seen.add(e.url);
    const entry: ListEntry = { url: e.url };
    const title = itemTitle(dom, e);
    if (title) entry.title = title;
    if (dom.chars[e.record]! - dom.linkChars[e.record]! >= 4) {
      const text = subtreeText(dom, e.record).replace(e.title, ' ');
      // cheap pre-check before full date parsing (most records of most lists carry no date)
      if (DATE_LIKE.test(text) || RELATIVE_DAY.test(text)) {
        if (!zoneKnown) {
          zone = timezoneForLang(langTag(page));
          zoneKnown = true;
        }
        const date = findDates(text, { now: page.fetchedAt, timezone: zone })[0];
        if (date) entry.publishedAt = date.iso;
      }
    }
    items.push(entry);
    if (items.length >= max) break;
  }
  return { items, nextPage: pagination.nextPage, pages: pagination.pages };
}

/** Record what a list page teaches about the site's list shapes (mutates `shapes`). */
export function observeListPage(page: Page, shapes: ListShapes): ListShapes {
  return observeShapes(page, shapes, contentClusters(page)[0]);
}

/** Key of the learned list shapes in the site state. */
export const SHAPES_KEY = 'listShapes';

export const listMiddleware: MiddlewareFactory<ListOptions> = (options = {}) => ({
  name: 'list',
  process(ctx) {
    const shapes = readShapes(ctx.site.data[SHAPES_KEY]);
    const r = extractList(ctx.page, { timezone: ctx.timezone, shapes, ...options });
    ctx.site.data[SHAPES_KEY] = observeListPage(ctx.page, shapes);
    ctx.site.touch();
    ctx.item.kind = 'list';
    // the page's own title as the article extractor reads it (its heading, or <title> without the
    // site name): WCXB's gold titles of list-typed pages are those, not the raw <title>
    const title = extractTitle(ctx.page)?.title ?? ctx.page.title;
    if (title) ctx.item.title = title;
    ctx.item.items = r.items;
    if (r.nextPage) ctx.item.nextPage = r.nextPage;
    if (r.pages) ctx.item.pages = r.pages;
  },
});
