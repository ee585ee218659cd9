/**
 * Page types from site evidence (issues 12 and 23): what one page cannot tell, the site it belongs
 * to can. A crawl (or a batch of one site's pages) meets pages one after another; each page's
 * classifier result is re-decided by a small model over evidence that any theme shows — and the
 * decision then becomes evidence for the site's later pages:
 *
 * - **what the site's lists point to**: a page a list of the site listed as an entry is one of
 *   its posts; the URL shapes of those entries (`/2022/05/04/<slug>/`, `/posts/<slug>/`) are the
 *   shapes of its posts, also of posts no list has reached yet;
 * - **how the site's pages of a URL shape were typed**: per shape (`tags/*`, `categories/a/*`) and
 *   per first path segment (`tags/…`), how many were lists, posts, other pages — a tag page with
 *   one post sits among tag pages with ten; and, read from no decision, what the classifier made
 *   of them (`shape_looks`, `section_looks`) and how many of the site's pages list a page in their
 *   own main list (`linked_from`);
 * - **the site's list markup**: entries of this page in the list-entry markup the site's list
 *   pages taught (middleware/list/shapes.ts), leading to its posts; the page's own main list and
 *   how much of it leads to the site's posts;
 * - **the page itself**: the classifier's probabilities, whether the URL is a later page of a list
 *   (`/page/3/`, `?page=3`).
 *
 * The model (`siteTypeModel`) is a multinomial logistic regression over these features, trained by
 * `npm run train:site-types` (bench/train-site-types.ts) on whole generated sites with per-URL truth,
 * leave-one-site-out; it ships as `site-model.ts` (generated) and `GLEANER_SITE_TYPE_MODEL=file.json`
 * selects another (bench:sites and bench:site-types score each site with the model trained without
 * it). It names no site, theme, class or path: its inputs are counts and shares of the site's own
 * evidence. Feeds, sitemaps and JSON stay `other` by rule; pages the classifier calls forum threads
 * keep that type (no development site has forum pages to learn from); a page the model types list
 * whose list entries nearly all leave the site (a links page) is no list of the site's pages, by
 * rule too (offsiteList).
 *
 * The state is plain JSON in the site state, bounded (shapes and URLs kept per site are capped), so
 * it is cheap to hand to a crawl's worker threads page after page.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageLabel, PageTypeResult } from '../../src/core/item.js';
import { decideLabel } from '../../src/core/middleware.js';
import { loadJsonResource } from '../../src/core/resources.js';
import { SITE_TYPE_MODEL, type SiteTypeModel } from './site-model.js';
import { urlParts, type UrlParts } from '../../src/core/url.js';

// ---------------------------------------------------------------------------------------------
// URL shapes

/** Numeric path segments (years, ids) read as `N`. */
const NUMERIC = /^\d+$/;

/**
 * The URL's shape: its path segments, numbers as `N`, the last segment (the slug) as `*`; the
 * query is left out. Undefined for a URL that cannot be parsed or has no path (the site root).
 */
export function urlShape(url: string): { shape: string; depth: number } | undefined {
  const segs = pathSegments(url);
  if (!segs?.length) return undefined;
  const shape = segs.map((s, i) => (i === segs.length - 1 ? '*' : NUMERIC.test(s) ? 'N' : s.toLowerCase())).join('/');
  return { shape, depth: segs.length };
}

/** The URL's first path segment (numbers as `N`) followed by `/…` when the path goes deeper;
 * `*` for a top-level page, undefined for the root: the section a page belongs to. */
export function urlSection(url: string): string | undefined {
  const segs = pathSegments(url);
  if (!segs?.length) return undefined;
  if (segs.length === 1) return '*';
  return `${NUMERIC.test(segs[0]!) ? 'N' : segs[0]!.toLowerCase()}/…`;
}

function pathSegments(url: string): string[] | undefined {
  const u = urlParts(url);
  if (!u) return undefined;
  return u.pathname.replace(/\/index\.html?$/i, '/').split('/').filter(Boolean);
}

/** Page N of a list named in the URL (`/page/3/`, `/page3/`, `?page=3`, `list_3.html`): N ≥ 2 says
 * the page is a later page of a list. */
const LATER_PAGE = /(?:\/page[-/]?|[?&](?:page|paged|pg|p|pn|pagenum)=|_)(\d{1,5})(?:\/|\.html?|&|$)/i;
export function laterPage(url: string): boolean {
  const m = LATER_PAGE.exec(url.replace(/#.*$/, ''));
  return !!m && Number(m[1]) >= 2;
}

/** A URL as the site's pages are keyed: host, path without `index.html` and trailing slash, query;
 * no fragment. */
export function pageKey(url: string): string | undefined {
  const u = urlParts(url);
  return u && urlKey(u);
}

/** pageKey of a parsed URL. */
function urlKey(u: UrlParts): string {
  return `${u.host}${u.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '')}${u.search}`;
}

/** Order-free fingerprint of a set of URLs (a main list), as a string key. */
export function fingerprint(urls: readonly string[]): string {
  return hash([...new Set(urls.map((u) => pageKey(u) ?? u))].sort().join('\n')).toString(36);
}

/** FNV-1a of a string (32 bits): how the state keeps URLs (a number each). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

// ---------------------------------------------------------------------------------------------
// State

/** Shapes and sections kept per site (the least recently seen go first): a site's URL scheme has a
 * handful; a site that puts ids in folder names has many, and the old ones matter less. */
export const MAX_SHAPES = 120;
/** Main-list fingerprints kept per site (the least recently seen go first), and the pages that must
 * have shown one before it counts as the template's (the page itself being the third). */
export const MAX_BLOCKS = 64;
export const TEMPLATE_BLOCK_PAGES = 2;
/** Pages typed before the site showed evidence that are kept to be typed again (the first pages
 * of a crawl: its start page and the pages it links to before any list was read), the list
 * entries kept with each, and revisions kept until the crawl takes them. */
export const MAX_EARLY = 16;
const MAX_EARLY_ENTRIES = 60;
export const MAX_REVISIONS = 64;
/** Listed URLs kept per site (the oldest go first): a crawl meets a list's entries soon after the
 * list (breadth first), so the recent ones are the ones still to be typed. */
export const MAX_LISTED = 3000;
/** Lists of the site that must have listed entries in a page's URL shape before the page counts
 * as one of the site's posts (sitePost); the site's home page counts as that many. */
const POST_SHAPE_LISTS = 2;

/** Pages of a shape typed detail / list / other, and list entries in that shape. */
export interface ShapeCounts {
  d: number;
  l: number;
  o: number;
  /** Entries of the site's lists in this shape. */
  i: number;
  /** Pages of this shape typed forum (absent in state written before it). */
  f?: number;
  /** List pages that listed entries in this shape, the home page counting as POST_SHAPE_LISTS
   * (absent in state written before it). */
  k?: number;
  /** Observation counter when last touched (pruning). */
  t: number;
  /** The classifier's own probabilities of detail / list / other summed over the pages of this
   * shape it typed (a page without content adding none), and how many pages that is: what the site's
   * pages of the shape look like, whatever the site model decided for them (absent in state
   * written before it). */
  c?: [number, number, number];
  cn?: number;
}

export interface SiteTypeState {
  version: 2;
  /** Pages observed. */
  pages: number;
  /** List entries observed (same host). */
  items: number;
  /** Entries of the site's list pages that lead off the site (absent in state written before it):
   * with `items`, how much of what the site's lists list is the site's own (offsiteList). */
  offsiteItems?: number;
  /** Per URL shape (urlShape). */
  shapes: Record<string, ShapeCounts>;
  /** Per section (urlSection). */
  sections: Record<string, ShapeCounts>;
  /** URLs the site's lists listed (hashes of pageKey, oldest first) and how many lists did. */
  listed: number[];
  listedCount: number[];
  /** URLs typed forum (hashes of pageKey, oldest first; absent in state written before it): a
   * forum's thread pages, which its board pages list. */
  forum?: number[];
  /** URLs the main lists of the site's pages pointed to, whatever the pages were typed (hashes of
   * pageKey, oldest first), and how many pages did (absent in state written before it). */
  linked?: number[];
  linkedCount?: number[];
  /** Main lists seen (fingerprint of their URLs → pages that showed it, and when last): a block
   * of links shown unchanged on many pages (a side panel of recent posts) is the template's, not a
   * page's own list. */
  blocks: Record<string, { n: number; t: number }>;
  /** Pages typed before the site showed any evidence (see reviseEarlyPages), with what they showed. */
  early: EarlyPage[];
  /** Pages whose type changed once the evidence came (see takeRevisions). */
  revisions: Revision[];
  /** The early pages once the site showed evidence, and the pages typed in the SETTLE_PAGES after,
   * with the type each counts as now: their items wait for the crawl's end, when each page is typed
   * again from its body against what the site has taught by then (takeHeldPage; absent in state
   * written before it). */
  held?: HeldPage[];
  /** Pages observed when the site first showed evidence (absent before it does). */
  knownAt?: number;
  /** Whether the held pages' types were taken out of the site's evidence (takeHeldPage). */
  heldOut?: boolean;
  /** Pages observed when the held pages' types were taken out. */
  heldOutAt?: number;
  /** Held pages typed again whose new types do not count yet (countHeldPage). */
  recount?: HeldPage[];
}

/** A held page (SiteTypeState.held): the type it counts as and, when it was counted as a list, the
 * entries it counted as listed (heldListed), taken out of the site's evidence with its type while
 * the held pages are typed again: a page's own entries must not tell that it is a list. */
export interface HeldPage {
  url: string;
  label: PageLabel;
  listed?: string[];
  /** The main-list entries it counted as linked (linkedEntries). */
  linked?: string[];
  /** (typed again, state.recount) The entries it counted as listed, now that it is no list. */
  unlisted?: string[];
}

/** Entries of a held list page kept to be taken out again (the first ones: a list page lists some
 * tens; an archive of thousands is taken out in part). */
export const MAX_HELD_LISTED = 100;
function heldListed(label: PageLabel, listed: readonly string[] | undefined): string[] | undefined {
  return label === 'list' && listed?.length ? listed.slice(0, MAX_HELD_LISTED) : undefined;
}
function heldLinked(linked: readonly string[] | undefined): string[] | undefined {
  return linked?.length ? linked.slice(0, MAX_HELD_LISTED) : undefined;
}

/** A page typed before the site showed evidence: what is needed to type it again. */
export interface EarlyPage {
  url: string;
  label: PageLabel;
  /** The classifier's own result (before the site model). */
  result: PageTypeResult;
  evidence: PageListEvidence;
  /** The type the link that led there suggested (a list's entry → detail), if any. */
  hint?: string;
  /** The entries it counted as listed, when it was counted as a list, and as linked
   * (observeTypedPage). */
  listed?: string[];
  linked?: string[];
}

/** A page typed again: its item, stored as `from`, should be re-emitted as `to` (see takeRevisions). */
export interface Revision {
  url: string;
  from: PageLabel;
  to: PageLabel;
  pageType: PageTypeResult;
}

export function emptySiteTypeState(): SiteTypeState {
  return { version: 2, pages: 0, items: 0, shapes: {}, sections: {}, listed: [], listedCount: [], blocks: {}, early: [], revisions: [] };
}

/** The state read back from site data; anything else (an old or foreign value) starts empty. */
export function readSiteTypeState(value: unknown): SiteTypeState {
  const v = value as SiteTypeState | undefined;
  return v && v.version === 2 && typeof v.shapes === 'object' && Array.isArray(v.listed) && Array.isArray(v.listedCount) && typeof v.blocks === 'object' && Array.isArray(v.early) && Array.isArray(v.revisions) ? v : emptySiteTypeState();
}

function bump(map: Record<string, ShapeCounts>, key: string | undefined, field: 'd' | 'l' | 'o' | 'i' | 'f', t: number): void {
  if (key === undefined) return;
  const c = entry(map, key, t);
  c[field] = (c[field] ?? 0) + 1;
}

/** The counts of a shape (or section), made when new (the least recently seen going when the map
 * is full), touched at `t`. */
function entry(map: Record<string, ShapeCounts>, key: string, t: number): ShapeCounts {
  let c = map[key];
  if (!c) {
    const keys = Object.keys(map);
    if (keys.length >= MAX_SHAPES) {
      let oldest = keys[0]!;
      for (const k of keys) if (map[k]!.t < map[oldest]!.t) oldest = k;
      delete map[oldest];
    }
    c = map[key] = { d: 0, l: 0, o: 0, i: 0, t };
  }
  c.t = t;
  return c;
}

/** What the page showed beside its type (observeTypedPage): the classifier's own result (not for a
 * document or a page a follow rule labelled) and whether its main list sits outside chrome. */
export interface ObservedPage {
  classified?: PageTypeResult;
  mainOpen?: boolean;
}

/** The main-list entries of a page that observeTypedPage counts as linked (countLinked): its main
 * list when it sits outside chrome and is no block the site shows unchanged on many pages. */
export function linkedEntries(state: SiteTypeState, mainList: readonly string[] | undefined, mainOpen: boolean | undefined): readonly string[] {
  return mainOpen && mainList?.length && (state.blocks[fingerprint(mainList)]?.n ?? 0) < TEMPLATE_BLOCK_PAGES ? mainList : [];
}

/** Count the page's main-list entries (same host, not itself) as linked once more (`sign` -1:
 * once less, a held page's taken out). */
function countLinked(state: SiteTypeState, url: string, entries: readonly string[], sign: 1 | -1 = 1): void {
  const host = hostOf(url);
  const self = pageKey(url);
  const linked = (state.linked ??= []);
  const counts = (state.linkedCount ??= []);
  const index = new Map<number, number>();
  linked.forEach((h, i) => index.set(h, i));
  const seen = new Set<string>();
  for (const u of entries) {
    const k = pageKey(u);
    if (k === undefined || k === self || seen.has(k) || hostOf(u) !== host) continue;
    seen.add(k);
    const h = hash(k);
    const at = index.get(h);
    if (sign < 0) {
      if (at !== undefined && counts[at]! > 0) counts[at]!--;
    } else if (at !== undefined) counts[at]!++;
    else {
      index.set(h, linked.length);
      linked.push(h);
      counts.push(1);
    }
  }
  if (linked.length > MAX_LISTED) {
    linked.splice(0, linked.length - MAX_LISTED);
    counts.splice(0, counts.length - MAX_LISTED);
  }
}

/** How many of the site's pages listed the URL in their own main list (countLinked). */
function linkedCount(state: SiteTypeState, url: string): number {
  const k = pageKey(url);
  if (k === undefined || !state.linked) return 0;
  const i = state.linked.indexOf(hash(k));
  return i < 0 ? 0 : state.linkedCount![i]!;
}

/** How many of the site's lists listed the URL (0 when it is not among the kept ones). */
export function listedCount(state: SiteTypeState, url: string, index: Map<number, number> = listedIndex(state)): number {
  const k = pageKey(url);
  if (k === undefined) return 0;
  const i = index.get(hash(k));
  return i === undefined ? 0 : state.listedCount[i]!;
}

/** hash → position in `state.listed`, built once per use: a page's many lookups stay linear (a list
 * of 100,000 entries must not scan the kept URLs for each). */
function listedIndex(state: SiteTypeState): Map<number, number> {
  const index = new Map<number, number>();
  state.listed.forEach((h, i) => index.set(h, i));
  return index;
}

/**
 * Record a typed page: its label counts for its shape and section; a list page's entries (the
 * items its list extractor returns, same host only) count as listed URLs and as entries of their
 * shapes. Mutates and returns `state`.
 */
export function observeTypedPage(state: SiteTypeState, url: string, label: PageLabel, listItems: readonly string[] = [], mainList?: readonly string[], observed: ObservedPage = {}): SiteTypeState {
  state.pages++;
  const t = state.pages;
  const { classified } = observed;
  const fp = mainList?.length ? fingerprint(mainList) : undefined;
  // the pages the page's own main list points to, whatever the page was typed: how many of the
  // site's pages list a page (not a block the site shows unchanged on many pages)
  const linked = linkedEntries(state, mainList, observed.mainOpen);
  if (linked.length) countLinked(state, url, linked);
  if (classified) {
    const p = classifierTypes(classified);
    for (const [map, key] of [[state.shapes, urlShape(url)?.shape], [state.sections, urlSection(url)]] as const) {
      if (key === undefined) continue;
      const c = entry(map, key, t);
      const sums = (c.c ??= [0, 0, 0]);
      for (let j = 0; j < 3; j++) sums[j] = Number((sums[j]! + p[j]!).toFixed(4));
      c.cn = (c.cn ?? 0) + 1;
    }
  }
  if (fp !== undefined) {
    const b = (state.blocks[fp] ??= { n: 0, t });
    b.n++;
    b.t = t;
    const keys = Object.keys(state.blocks);
    if (keys.length > MAX_BLOCKS) {
      let oldest = keys[0]!;
      for (const k of keys) if (state.blocks[k]!.t < state.blocks[oldest]!.t) oldest = k;
      delete state.blocks[oldest];
    }
  }
  const field = label === 'list' ? 'l' : label === 'other' ? 'o' : label === 'detail' ? 'd' : label === 'forum' ? 'f' : undefined;
  if (field) {
    bump(state.shapes, urlShape(url)?.shape, field, t);
    bump(state.sections, urlSection(url), field, t);
  }
  if (label === 'forum') {
    const k = pageKey(url);
    const forum = (state.forum ??= []);
    if (k !== undefined && !forum.includes(hash(k))) forum.push(hash(k));
    if (forum.length > MAX_LISTED) forum.splice(0, forum.length - MAX_LISTED);
  }
  if (label === 'list') countListed(state, url, listItems, t);
  return state;
}

/** The distinct entries of a page's list on the page's own host, other than the page, with their
 * page keys (each URL parsed once). */
function* ownEntries(url: string, listItems: readonly string[]): Generator<[string, string]> {
  const host = hostOf(url);
  if (host === undefined) return;
  const self = pageKey(url);
  const seen = new Set<string>();
  for (const [item, u] of parsedEntries(listItems)) {
    if (u.host !== host) continue;
    const k = urlKey(u);
    if (k === self || seen.has(k)) continue;
    seen.add(k);
    yield [item, k];
  }
}

/** A list page's entries (same host, not itself) counted as listed URLs and as entries of their
 * URL shapes. */
function countListed(state: SiteTypeState, url: string, listItems: readonly string[], t: number, sign: 1 | -1 = 1): void {
  if (!listItems.length) return;
  if (sign < 0) return uncountListed(state, url, listItems);
  const shapesListed = new Set<string>();
  // (positions of the kept URLs; the new ones are added as they come)
  const index = listedIndex(state);
  for (const [item, k] of ownEntries(url, listItems)) {
    state.items++;
    const itemShape = urlShape(item)?.shape;
    bump(state.shapes, itemShape, 'i', t);
    if (itemShape !== undefined) shapesListed.add(itemShape);
    bump(state.sections, urlSection(item), 'i', t);
    const h = hash(k);
    const at = index.get(h);
    if (at !== undefined) state.listedCount[at]!++;
    else {
      index.set(h, state.listed.length);
      state.listed.push(h);
      state.listedCount.push(1);
    }
  }
  // (the entries that leave the site: all but the own ones, the page itself and repeats aside)
  const offsite = offsiteEntries(url, listItems).size;
  if (offsite) state.offsiteItems = (state.offsiteItems ?? 0) + offsite;
  // (the site's home page counts as two lists: a home page that is a list lists the posts)
  const lists = urlShape(url) === undefined ? POST_SHAPE_LISTS : 1;
  for (const sh of shapesListed) {
    const c = state.shapes[sh];
    if (c) c.k = (c.k ?? 0) + lists;
  }
  if (state.listed.length > MAX_LISTED) {
    state.listed.splice(0, state.listed.length - MAX_LISTED);
    state.listedCount.splice(0, state.listedCount.length - MAX_LISTED);
  }
}

/** countListed undone (a held page's entries taken out of the site's evidence, takeHeldPage). */
function uncountListed(state: SiteTypeState, url: string, listItems: readonly string[]): void {
  const shapesListed = new Set<string>();
  const index = listedIndex(state);
  const down = (map: Record<string, ShapeCounts>, key: string | undefined) => {
    const c = key === undefined ? undefined : map[key];
    if (c && c.i > 0) c.i--;
  };
  for (const [item, k] of ownEntries(url, listItems)) {
    const at = index.get(hash(k));
    // (an entry no longer kept was counted long ago: the shape counts keep it too)
    if (at === undefined) continue;
    if (state.listedCount[at]! > 0) state.listedCount[at]!--;
    if (state.items > 0) state.items--;
    const itemShape = urlShape(item)?.shape;
    down(state.shapes, itemShape);
    if (itemShape !== undefined) shapesListed.add(itemShape);
    down(state.sections, urlSection(item));
  }
  const lists = urlShape(url) === undefined ? POST_SHAPE_LISTS : 1;
  for (const sh of shapesListed) {
    const c = state.shapes[sh];
    if (c) c.k = Math.max(0, (c.k ?? 0) - lists);
  }
  const offsite = offsiteEntries(url, listItems).size;
  if (offsite && state.offsiteItems) state.offsiteItems = Math.max(0, state.offsiteItems - offsite);
}

/** The distinct entries of a page's list that lead off the page's host (page keys; entries that are
 * no URL are left out). */
function offsiteEntries(url: string, listItems: readonly string[]): Set<string> {
  const host = hostOf(url);
  const out = new Set<string>();
  if (host === undefined) return out;
  for (const [, u] of parsedEntries(listItems)) if (u.host !== host) out.add(urlKey(u));
  return out;
}

/** A list's entries with their parsed URLs; an entry that is no URL is left out. */
function* parsedEntries(listItems: readonly string[]): Generator<[string, UrlParts]> {
  for (const item of listItems) {
    const u = urlParts(item);
    if (u) yield [item, u];
  }
}

// ---------------------------------------------------------------------------------------------
// Features

/** What the page shows of itself, beside its classifier result (computed by the caller from the
 * list module's signals: see middleware/list/signals.ts siteListSignals). */
export interface PageListEvidence {
  /** URLs of the page's main list (the classifier's view of it), same host or not. */
  mainEntries: readonly string[];
  /** Whether that main list sits outside page chrome. */
  mainOpen: boolean;
  /** URLs of the page's links in the site's learned list-entry markup, outside chrome landmarks. */
  learnedEntries: readonly string[];
  /** Distinct pages of the site linked below this page's path (its section's pages). */
  childLinks: number;
  /** The entries the list extractor would give the page with the site's learned shapes, when the
   * page may be a list at all (see LIST_EVIDENCE_MIN); undefined otherwise. */
  listItems?: readonly string[];
}

/** The classifier's list probability from which a page's list entries are worked out as evidence
 * (a confident post skips the extractor's clustering: most of a crawl's pages are posts). */
export const LIST_EVIDENCE_MIN = 0.05;

/** Whether a page's list entries are worked out as evidence (see LIST_EVIDENCE_MIN): the classifier
 * gives its list type some probability, or typed it other for want of content. */
export function needsListItems(result: PageTypeResult): boolean {
  return (result.probabilities.list ?? 0) >= LIST_EVIDENCE_MIN || (result.label === 'other' && (result.probabilities.other ?? 0) >= 1);
}

/**
 * Features of a page, two kinds. Per-type evidence (`SITE_TYPED_FEATURES`) has one value per type
 * (detail, list, other) and one weight shared by the three types: the classifier's probability of
 * the type, the share of the site's pages of this URL shape (and section) typed so. Sharing the
 * weight lets the rare type learn from the common ones (other pages are 2% of the development
 * pages: what "a shape whose pages were lists" teaches holds for "a shape whose pages were other").
 * The rest (`SITE_FEATURES`) has one value and a weight per type.
 *
 * Order: the shares of the types given (`shape_share`, `section_share`) read the site model's own
 * decisions on earlier pages — positive feedback: a few tag pages typed other early make the next
 * ones other (hexo-ash, in process: lists 1.000 breadth first, 0.408 in jittered orders). The
 * `*_looks` shares and `linked_from` read no decision. The shipped model uses the decision shares
 * (and leaves the others at weight 0); `site-model-order-free.json` (`siteModel: 'order-free'`) is
 * trained without them
 * (`npm run train:site-types` with SITE_MASK, see bench/train-site-types.ts): far steadier across
 * orders, but it loses the one site whose section of other pages (publications) was typed other
 * only through those shares. Measured figures: README, zero-config section.
 */
export const SITE_TYPED_FEATURES = ['classifier', 'shape_share', 'section_share', 'shape_looks', 'section_looks'] as const;
export const SITE_FEATURES = [
  'later_page',
  'listed',
  'listed_many',
  'shape_items',
  'section_items',
  'open_entries',
  'open_to_posts',
  'child_links',
  'learned_to_posts',
  'items_to_posts',
  'evidence',
  'section_seen',
  'contentless',
  'linked_from',
  'entries_linked_elsewhere',
  'offsite_entries',
] as const;
/** Bump when a feature's definition changes: models trained on another version are refused. */
export const SITE_FEATURES_VERSION = 11;

export interface SiteFeatureVector {
  /** SITE_FEATURES order. */
  x: number[];
  /** SITE_TYPED_FEATURES order, each [detail, list, other]. */
  typed: number[][];
}

/** List entries of the site seen before shape evidence counts (a handful of posts: the first index
 * page of a crawl shows ten). */
const MIN_ITEMS = 5;
/** Pages of a section typed before at which the section counts as seen. */
const SECTION_SEEN = 2;
/** Share of the site's list entries in one shape (or section) at which that shape counts fully as
 * the posts' (a site whose posts live in three sections gives each about a third). */
const ITEM_SHARE_FULL = 0.2;

/** Whether a URL leads to one of the site's posts as far as the site knows: a list listed it, or
 * its shape is that of at least two list entries. */
function postLike(state: SiteTypeState, url: string, index: Map<number, number>): boolean {
  if (listedCount(state, url, index) > 0) return true;
  const s = urlShape(url)?.shape;
  return s !== undefined && (state.shapes[s]?.i ?? 0) >= 2;
}

/** Whether a page is one of the site's posts by the site's own evidence: the site has shown
 * evidence, a list of the site listed the page or its URL shape is that of the lists' entries, and
 * that shape is the posts' — the home page or several of the site's lists (the index, its later
 * pages, tags, archives) list entries in it, and it holds a good share of all the entries (ITEM_SHARE_FULL) —
 * not a section that one list points to (a publications page, a project page). */
export function sitePost(state: SiteTypeState, url: string): boolean {
  if (!siteKnows(state)) return false;
  const shape = urlShape(url)?.shape;
  const c = shape === undefined ? undefined : state.shapes[shape];
  if (!c || (c.k ?? 0) < POST_SHAPE_LISTS || c.i < ITEM_SHARE_FULL * state.items) return false;
  return postLike(state, url, listedIndex(state));
}

/** The classifier's probabilities of detail / list / other as site evidence: none for a page
 * without content (typed other by rule, not by the model). */
function classifierTypes(result: PageTypeResult): [number, number, number] {
  const p = result.probabilities;
  if (contentless(result)) return [0, 0, 0];
  return [p.detail ?? 0, p.list ?? 0, p.other ?? 0];
}

/** A page typed other by the classifier's rule for pages without content, not by its model. */
function contentless(result: PageTypeResult): boolean {
  return result.label === 'other' && (result.probabilities.other ?? 0) >= 1;
}

/** The page's feature vector from the site's state before the page. */
export function siteFeatures(state: SiteTypeState, url: string, result: PageTypeResult, evidence: PageListEvidence): SiteFeatureVector {
  const shape = urlShape(url);
  const sc = shape ? state.shapes[shape.shape] : undefined;
  const sec = state.sections[urlSection(url) ?? ''];
  const known = state.items >= MIN_ITEMS;
  const index = listedIndex(state);
  const listed = listedCount(state, url, index);
  const host = urlParts(url)?.host ?? '';
  const self = pageKey(url);
  const others = (urls: readonly string[]) =>
    urls.filter((u) => urlParts(u)?.host === host && pageKey(u) !== self);
  // the page's own main list: outside chrome, and not a block the site shows unchanged elsewhere
  const template = evidence.mainEntries.length > 0 && (state.blocks[fingerprint(evidence.mainEntries)]?.n ?? 0) >= TEMPLATE_BLOCK_PAGES;
  // (one pass, each URL read once: the same-host entries other than the page, with their keys, and
  // how much of the whole list leads off the site)
  const main: string[] = [];
  const mainKeys: string[] = [];
  let mainAll = 0;
  let offsite = 0;
  if (evidence.mainOpen && !template) {
    for (const e of evidence.mainEntries) {
      const u = urlParts(e);
      if (!u) continue;
      if (u.host !== host) {
        offsite++;
        mainAll++;
        continue;
      }
      const k = urlKey(u);
      if (k === self) continue;
      mainAll++;
      main.push(e);
      mainKeys.push(k);
    }
  }
  // (the URLs some page's main list pointed to)
  const linkedIndex = new Set<number>();
  if (main.length) {
    (state.linked ?? []).forEach((h, i) => {
      if (state.linkedCount![i]! > 0) linkedIndex.add(h);
    });
  }
  const mainPosts = main.filter((u) => postLike(state, u, index)).length;
  const learnedPosts = new Set(others(evidence.learnedEntries).filter((u) => postLike(state, u, index)).map(pageKey)).size;
  const itemPosts = new Set(others(evidence.listItems ?? []).filter((u) => postLike(state, u, index)).map(pageKey)).size;
  const looks = (c: ShapeCounts | undefined) => {
    const n = c?.cn ?? 0;
    return [(c?.c?.[0] ?? 0) / (n + 1), (c?.c?.[1] ?? 0) / (n + 1), (c?.c?.[2] ?? 0) / (n + 1)];
  };
  const shares = (c: ShapeCounts | undefined) => {
    const n = c ? c.d + c.l + c.o : 0;
    // one pseudo-count: a shape seen once says less than one seen ten times
    return [(c?.d ?? 0) / (n + 1), (c?.l ?? 0) / (n + 1), (c?.o ?? 0) / (n + 1)];
  };
  // (the site root has no shape nor section: those features are missing there, NaN, and count as
  // the training pages' mean — the root is no page "outside the posts' sections")
  const itemShare = (c: ShapeCounts | undefined) => (!shape ? NaN : known ? Math.min(1, (c?.i ?? 0) / state.items / ITEM_SHARE_FULL) : 0);
  return {
    x: [
      laterPage(url) ? 1 : 0,
      listed > 0 ? 1 : 0,
      listed > 1 ? 1 : 0,
      itemShare(sc),
      itemShare(sec),
      Math.log1p(main.length) / Math.log(11),
      main.length ? mainPosts / main.length : 0,
      Math.log1p(evidence.childLinks) / Math.log(11),
      Math.log1p(learnedPosts) / Math.log(11),
      Math.log1p(itemPosts) / Math.log(11),
      known ? 1 : 0,
      // pages of the page's own section typed before: the site's evidence about pages like it
      shape ? Math.min(1, ((sec?.d ?? 0) + (sec?.l ?? 0) + (sec?.o ?? 0)) / SECTION_SEEN) : NaN,
      contentless(result) ? 1 : 0,
      Math.log1p(linkedCount(state, url)) / Math.log(11),
      // read from no decision: how much of the page's own main list other pages of the site also
      // list in theirs (an archive's posts are the index's and the tags'; a publications page's
      // papers, a project page's subpages are its own), and how much of it leads off the site (a
      // links page)
      main.length ? mainKeys.filter((k) => linkedIndex.has(hash(k))).length / main.length : 0,
      mainAll ? offsite / mainAll : 0,
    ],
    // a page without content is `other` by the classifier's rule, not by its model: that is no
    // probability of the other type (the short list of a tag with one post has little text too)
    typed: [classifierTypes(result), shares(sc), shares(sec), looks(sc), looks(sec)],
  };
}

// ---------------------------------------------------------------------------------------------
// Model

/** The labels the site model decides between. */
export const SITE_LABELS = ['detail', 'list', 'other'] as const;

export type { SiteTypeModel } from './site-model.js';

export function checkSiteTypeModel(m: SiteTypeModel, file = 'the site model'): void {
  if (m?.format !== 'gleaner-site-types/2') throw new Error(`${file} is not a Gleaner site-type model of this version (format ${String(m?.format)}); retrain it with npm run train:site-types`);
  if (m.featuresVersion !== SITE_FEATURES_VERSION || m.features?.join(',') !== SITE_FEATURES.join(',') || m.typedFeatures?.join(',') !== SITE_TYPED_FEATURES.join(',')) {
    throw new Error(`${file} was trained on other site features than this version computes; retrain it with npm run train:site-types`);
  }
  const d = SITE_FEATURES.length;
  const k = SITE_LABELS.length;
  if (m.labels?.join(',') !== SITE_LABELS.join(',') || m.mean?.length !== d || m.std?.length !== d || m.weights?.length !== k || m.weights.some((w) => w.length !== d) || m.typed?.length !== SITE_TYPED_FEATURES.length || m.bias?.length !== k) {
    throw new Error(`${file} is damaged (dimensions do not match); retrain it with npm run train:site-types`);
  }
}

/** Environment variable naming another site-type model file (bench:sites' leave-one-site-out folds,
 * or a model trained on your own sites). */
export const SITE_TYPE_MODEL_ENV = 'GLEANER_SITE_TYPE_MODEL';

/** The name that selects the order-free site model (`siteModel: 'order-free'`, or
 * GLEANER_SITE_TYPE_MODEL=order-free): trained without the features that read the model's own
 * earlier decisions (see SITE_TYPED_FEATURES). An experiment, in the source tree only: the package
 * does not ship it (issue 15 holds the tarball to 60 files), so there the name gives a clear
 * "not found"; GLEANER_SITE_TYPE_MODEL=/path/to/site-model-order-free.json works anywhere. */
export const ORDER_FREE_SITE_MODEL = 'order-free';
const here = path.dirname(fileURLToPath(import.meta.url));

/** The site model in use: the file named by the option or GLEANER_SITE_TYPE_MODEL (or
 * `order-free`), else the shipped one. */
export function siteTypeModel(file?: string): SiteTypeModel {
  let f = file || process.env[SITE_TYPE_MODEL_ENV];
  if (!f) return SITE_TYPE_MODEL;
  if (f === ORDER_FREE_SITE_MODEL) {
    f = path.join(here, 'site-model-order-free.json');
    // (the built code of a checkout, dist/, reads it from the sources)
    if (!existsSync(f)) f = path.join(here, '..', 'middleware', 'classifier', 'site-model-order-free.json');
  }
  return loadJsonResource<SiteTypeModel>(f, checkSiteTypeModel, `site-type model ${f} not found${file ? '' : ` (${SITE_TYPE_MODEL_ENV})`}`);
}

/** Type scores (logits, SITE_LABELS order) of the model for a feature vector. */
export function siteScores(model: SiteTypeModel, f: SiteFeatureVector): number[] {
  return model.weights.map((w, c) => {
    let s = model.bias[c]!;
    // a missing feature (NaN) counts as the mean of the training pages
    for (let j = 0; j < w.length; j++) if (!Number.isNaN(f.x[j]!)) s += w[j]! * ((f.x[j]! - model.mean[j]!) / (model.std[j]! || 1));
    for (let k = 0; k < model.typed.length; k++) s += model.typed[k]! * f.typed[k]![c]!;
    return s;
  });
}

/** Type probabilities of the model for a feature vector (SITE_LABELS order). */
export function siteProbabilities(model: SiteTypeModel, f: SiteFeatureVector): number[] {
  const z = siteScores(model, f);
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/**
 * The page's type with the site's evidence: the classifier's result re-decided by the site model
 * among detail / list / other. Documents typed other by rule and pages typed forum keep their
 * type, and so does every page while the site has shown no evidence (siteKnows). The probabilities
 * are the model's (the forum share kept as the classifier gave it).
 */
export function decideOnSite(model: SiteTypeModel, state: SiteTypeState, url: string, result: PageTypeResult, evidence: PageListEvidence, document: boolean): PageTypeResult {
  // (a site that has shown no evidence yet — a single page, a crawl's first pages — has nothing to
  // say against the classifier: its pages keep the classifier's type, and those of a crawl are
  // typed again once the site shows evidence: reviseEarlyPages)
  if (document || result.label === 'forum' || !siteKnows(state) || forumBoard(state, url, result, evidence)) return result;
  const x = siteFeatures(state, url, result, evidence);
  const probs = siteProbabilities(model, x);
  // (a list of other sites' pages is no list of this site's: the list verdict is withdrawn, the
  // page takes the likelier of the other two types — a rule, see offsiteList)
  if (probs[1]! > probs[0]! && probs[1]! > probs[2]! && offsiteList(state, url, evidence)) {
    const rest = probs[0]! + probs[2]! || 1;
    probs[0] = probs[0]! / rest;
    probs[2] = probs[2]! / rest;
    probs[1] = 0;
  }
  const forum = result.probabilities.forum ?? 0;
  const probabilities: Record<string, number> = { forum: Number(forum.toFixed(4)) };
  let best = 0;
  SITE_LABELS.forEach((l, i) => {
    probabilities[l] = Number((probs[i]! * (1 - forum)).toFixed(4));
    if (probs[i]! > probs[best]!) best = i;
  });
  return { label: SITE_LABELS[best]!, probabilities: { detail: probabilities.detail!, list: probabilities.list!, forum: probabilities.forum!, other: probabilities.other! } };
}

/** Share of a page's list entries that lead off the site from which the site model's list verdict
 * is withdrawn (offsiteList), and the entries the page must show. */
export const OFFSITE_LIST_SHARE = 0.9;
export const OFFSITE_LIST_MIN = 3;

/**
 * Whether a page's list is a list of other sites' pages (a rule, issue 23; not learned: the
 * development sites hold two such pages, too few to fit a weight leave-one-site-out, and the
 * feature trained into the site model cost other sites' about pages — docs/notes/2026-12-02/sites-6.md
 * and sites-7.md): at least OFFSITE_LIST_MIN distinct entries of its list (the entries the list stage
 * would give, else its main list), OFFSITE_LIST_SHARE of them off the page's host, on a site whose
 * own lists lead mostly to its own pages (the entries of the pages typed list so far). A links page
 * (friends, a blogroll, a page of resources) is such a page: the items a crawl's list yields are the
 * site's pages the crawl goes on to, and a links page yields none. A site whose lists all point
 * elsewhere (a link aggregator) keeps its lists: there the site's lists themselves lead off it.
 */
export function offsiteList(state: SiteTypeState, url: string, evidence: PageListEvidence): boolean {
  if ((state.offsiteItems ?? 0) >= state.items) return false;
  const entries = evidence.listItems?.length ? evidence.listItems : evidence.mainEntries;
  const host = hostOf(url);
  if (host === undefined || entries.length < OFFSITE_LIST_MIN) return false;
  const self = pageKey(url);
  const keys = new Set<string>();
  let offsite = 0;
  for (const [, u] of parsedEntries(entries)) {
    const k = urlKey(u);
    if (k === self || keys.has(k)) continue;
    keys.add(k);
    if (u.host !== host) offsite++;
  }
  return keys.size >= OFFSITE_LIST_MIN && offsite >= OFFSITE_LIST_SHARE * keys.size;
}

/** Entries of a page, led to pages typed forum, at which (and at FORUM_BOARD_SHARE of its entries)
 * the page is a board of the site's forum. */
const FORUM_BOARD_MIN = 2;
const FORUM_BOARD_SHARE = 0.5;

/**
 * Whether a page the classifier calls a list is a board of the site's forum: most of its entries
 * (its list items, else its main list) lead to pages typed forum — each one's URL was, or its URL
 * shape is one whose typed pages were mostly forum threads. Such a page keeps the classifier's type,
 * as the forum threads do: the site model has learned from blogs, where a list page in the posts'
 * URL shape is a post with a list of related posts; no development site has a forum to learn from.
 */
export function forumBoard(state: SiteTypeState, url: string, result: PageTypeResult, evidence: PageListEvidence): boolean {
  if (result.label !== 'list' || !state.forum?.length) return false;
  const forum = new Set(state.forum);
  const host = hostOf(url);
  if (host === undefined) return false;
  const self = pageKey(url);
  const entries = new Set<string>();
  for (const u of evidence.listItems?.length ? evidence.listItems : evidence.mainEntries) {
    const k = pageKey(u);
    if (k !== undefined && k !== self && urlParts(u)?.host === host) entries.add(u);
  }
  let threads = 0;
  for (const u of entries) {
    const c = state.shapes[urlShape(u)?.shape ?? ''];
    if (forum.has(hash(pageKey(u)!)) || (c && (c.f ?? 0) >= FORUM_BOARD_MIN && (c.f ?? 0) > c.d + c.l + c.o)) threads++;
  }
  return threads >= FORUM_BOARD_MIN && threads >= FORUM_BOARD_SHARE * entries.size;
}

// ---------------------------------------------------------------------------------------------
// Revisions

/** Whether the site has shown evidence (enough list entries) for its pages' types. */
export function siteKnows(state: SiteTypeState): boolean {
  return state.items >= MIN_ITEMS;
}

/** Keep a page typed before the site showed evidence, to type it again once it does. */
export function rememberEarlyPage(state: SiteTypeState, page: EarlyPage): void {
  if (siteKnows(state) || state.early.length >= MAX_EARLY || state.early.some((e) => e.url === page.url)) return;
  const cap = (xs: readonly string[]) => xs.slice(0, MAX_EARLY_ENTRIES);
  state.early.push({ ...page, listed: heldListed(page.label, page.listed), linked: heldLinked(page.linked), evidence: { ...page.evidence, mainEntries: cap(page.evidence.mainEntries), learnedEntries: cap(page.evidence.learnedEntries) } });
}

/**
 * Issue 23: a type decided on evidence that later pages contradict is revised. The pages typed
 * before the site showed any evidence (rememberEarlyPage) are typed again, with what they showed
 * then and what the site shows now, as soon as the site shows evidence. A page whose type changes
 * is counted under its new type, and a revision is kept for the crawl to take (takeRevisions) and
 * re-emit the page's item. Returns the new revisions.
 */
export function reviseEarlyPages(state: SiteTypeState, model: SiteTypeModel, recheck = false): Revision[] {
  if (!state.early.length || !siteKnows(state)) return [];
  const out: Revision[] = [];
  const held: HeldPage[] = [];
  for (const e of state.early) {
    const pageType = decideOnSite(model, state, e.url, e.result, e.evidence, false);
    const to = decideLabel({ labelHint: e.hint }, pageType);
    // (its entries counted as listed when it came typed a list: a revision moves its type only)
    held.push({ url: e.url, label: to ?? e.label, listed: heldListed(e.label, e.listed), linked: e.linked });
    if (!to || to === e.label) continue;
    moveLabel(state, e.url, e.label, to);
    out.push({ url: e.url, from: e.label, to, pageType });
  }
  state.early = [];
  if (recheck) {
    state.held = held;
    state.knownAt = state.pages;
  }
  state.revisions.push(...out);
  if (state.revisions.length > MAX_REVISIONS) state.revisions.splice(0, state.revisions.length - MAX_REVISIONS);
  return out;
}

/** A page's count for its URL shape and section moved from one type to another (`from` or `to`
 * undefined: only the other half). */
function moveLabel(state: SiteTypeState, url: string, from: PageLabel | undefined, to: PageLabel | undefined): void {
  const field = (l: PageLabel | undefined) => (l === 'list' ? 'l' : l === 'other' ? 'o' : l === 'detail' ? 'd' : undefined);
  for (const [map, key] of [[state.shapes, urlShape(url)?.shape], [state.sections, urlSection(url)]] as const) {
    const c = key === undefined ? undefined : map[key];
    const f = field(from);
    const t = field(to);
    if (!c) continue;
    if (f && c[f] > 0) c[f]--;
    if (t) c[t]++;
  }
}

/**
 * Pages the site types after it first showed evidence that are held with its early pages
 * (holdUnsettledPage): they were typed while it had shown little. All of them are typed again
 * from their bodies at the crawl's end (SiteTypeState.held; src/crawler/run/revisions.ts holds
 * their items), when the site has taught the markup of its list entries and which pages its lists
 * point to — which the early pages could not show when they came (a tag page of one post, fetched
 * before any list of the site, showed one entry in markup nothing had taught yet) — and whatever
 * order the crawl met the pages in (at its end, not when some later page happens to finish). Each
 * is typed against the pages typed for good, the held ones left out (takeHeldPage, countHeldPage):
 * so they are typed alike whichever came first (an archive page typed right after the about page
 * would follow the about page's type through the URL shape they share).
 * `npx tsx bench/sites.ts` (leave one site out, worst of 3 orders): 8 against 32 — at 32 most of a
 * small site's pages are held and lose what the pages typed before them teach (jekyll-dcreager's
 * other pages 7/7 → 1/7).
 */
export const SETTLE_PAGES = 8;

/** Whether the site has typed SETTLE_PAGES pages since it showed evidence (no more are held). */
function settled(state: SiteTypeState): boolean {
  return state.knownAt !== undefined && state.pages >= state.knownAt + SETTLE_PAGES;
}

/**
 * The page is one of the site's held early pages, come back through the chain to be typed again
 * (src/crawler/run/revisions.ts): it leaves the held pages and its count for its URL shape and
 * section is taken out, and so are the entries it counted as listed and linked: the page is typed
 * as though it came now, its own list telling nothing of itself (countHeldPage puts it back under
 * its new type). Returns the held page (the type it counted as), or undefined for any other page.
 */
export function takeHeldPage(state: SiteTypeState, url: string): HeldPage | undefined {
  const i = state.held?.findIndex((h) => h.url === url) ?? -1;
  if (i < 0) return undefined;
  // (the first one back takes every held page's type out of the site's evidence: they are typed
  // again against the pages typed for good, each counting again as it is)
  if (!state.heldOut) {
    for (const h of state.held!) moveLabel(state, h.url, h.label, undefined);
    state.heldOutAt = state.pages;
  }
  state.heldOut = true;
  const [h] = state.held!.splice(i, 1);
  // (its own entries out while it is typed: countHeldPage puts them back)
  if (h!.listed) countListed(state, h!.url, h!.listed, state.pages, -1);
  if (h!.linked) countLinked(state, h!.url, h!.linked, -1);
  return h!;
}

/** Pages held a site at most (early pages and those of the SETTLE_PAGES after). */
export const MAX_HELD = 24;

/** Hold a page typed by the classifier in the SETTLE_PAGES after the site showed evidence. */
export function holdUnsettledPage(state: SiteTypeState, url: string, label: PageLabel, listed?: readonly string[], linked?: readonly string[]): void {
  if (!state.held || state.heldOut || state.knownAt === undefined || settled(state) || state.held.length >= MAX_HELD || state.held.some((h) => h.url === url)) return;
  state.held.push({ url, label, listed: heldListed(label, listed), linked: heldLinked(linked) });
}

/** A held page typed again (takeHeldPage) counted under its new type; a page that is a list now
 * and was not counts its entries as listed. */
export function countHeldPage(state: SiteTypeState, held: HeldPage, label: PageLabel, listItems: readonly string[]): void {
  // (its own entries back as they counted; the type, and the entries of a page that became a list or
  // stopped being one, count for the site once every held page is typed again: each is typed
  // against the pages typed for good and the held ones as they came, not against the held ones
  // typed again before it)
  if (held.listed) countListed(state, held.url, held.listed, state.pages);
  if (held.linked) countLinked(state, held.url, held.linked);
  const became = label === 'list' && !held.listed;
  (state.recount ??= []).push({ url: held.url, label, listed: became ? heldListed(label, listItems) : undefined, unlisted: label !== 'list' && held.listed ? held.listed : undefined });
  if (!state.held?.length) countHeldTypes(state);
}

/** The held pages typed again so far counted under their new types (countHeldPage; also once
 * MAX_HELD pages not held came since they went out: one that never came back — a page met again
 * outside a crawl, whose other held pages never come back — holds none up, and the held pages
 * still out count again under the types they had). */
export function countHeldTypes(state: SiteTypeState, force = true): void {
  if (!force && state.pages < (state.heldOutAt ?? 0) + MAX_HELD) return;
  for (const r of state.recount ?? []) {
    moveLabel(state, r.url, undefined, r.label);
    if (r.listed) countListed(state, r.url, r.listed, state.pages);
    if (r.unlisted) countListed(state, r.url, r.unlisted, state.pages, -1);
  }
  state.recount = [];
  if (force) return;
  for (const h of state.held ?? []) {
    moveLabel(state, h.url, undefined, h.label);
  }
  state.held = [];
}

/**
 * The revisions a crawl has not taken yet, removed from the state (site data as the page-type
 * stage keeps it, `data.pageType`): each names a page whose item was stored as `from` and should be
 * extracted again as `to` (the request's label set to `to`) and stored in place of the first.
 */
export function takeRevisions(siteData: Record<string, unknown>, key = 'pageType'): Revision[] {
  const v = siteData[key] as SiteTypeState | undefined;
  if (!v || !Array.isArray(v.revisions) || !v.revisions.length) return [];
  const out = v.revisions;
  v.revisions = [];
  return out;
}

/**
 * What a crawl holds back (src/crawler/run/revisions.ts), read without changing the state: the pages
 * typed before the site showed evidence, whose type may still change (`early`: their items are not
 * final), the revisions made so far (`revisions`: the type each such page has now), and whether the
 * site has shown evidence (`known`: its later pages are typed for good).
 */
export function provisionalPages(siteData: Record<string, unknown>, key = 'pageType'): { early: Set<string>; revisions: Map<string, Revision>; known: boolean; recheck: Set<string> } {
  const v = siteData[key] as SiteTypeState | undefined;
  const early = new Set<string>(Array.isArray(v?.early) ? v.early.map((e) => e.url) : []);
  const revisions = new Map<string, Revision>(Array.isArray(v?.revisions) ? v.revisions.map((r) => [r.url, r]) : []);
  const recheck = new Set<string>(Array.isArray(v?.held) ? v.held.map((h) => h.url) : []);
  // (held pages wait for the crawl's end)
  for (const u of recheck) early.add(u);
  // (known: the site's later pages are typed for good — once SETTLE_PAGES more came when pages are held)
  const known = !!v && typeof v.items === 'number' && siteKnows(v) && (v.knownAt === undefined || settled(v));
  return { early, revisions, known, recheck };
}

/** A URL's host (with its port), or undefined when it does not parse. */
function hostOf(url: string): string | undefined {
  return urlParts(url)?.host;
}
