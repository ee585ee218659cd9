/**
 * List shapes learned per site (issue 12 item 2: lists of any length). A list of one or two
 * entries shows no repetition on its own page — a tag page with one post, the last index page —
 * so the link clusters find the menu or a side panel instead. The entries still sit in the markup
 * the site uses for list entries elsewhere: the title link's tag and classes and those of its
 * nearest ancestors (`a.post-title-link < div.post-title < header.post-header < article`).
 *
 * A crawl observes every list page of a site: the markup of its confident main list (enough
 * title-length records, outside page chrome or changing from page to page), and the markup of every
 * title-length link with the links it held. A markup is an entry shape of the site when it held a
 * confident main list on some page, or when it appeared on several list pages with different links
 * each time (fixed links of the template — a side panel of recent posts, an author box — show the
 * same links everywhere). On a page whose own main list is not confident, the links in the best
 * entry shape found there are the items; when none is there and what repeats is fixed template
 * links or menu words (a term index), there are no items. The state is plain JSON (`ctx.site.data.listShapes`), bounded, and persisted by the site
 * store between runs.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { pageIndex, subtreeText, type PageIndex } from '../../src/core/page-index.js';
import { anchorText, DOWNLOAD_URL, localSignature, pageChrome, textWidth, TITLE_MIN_WIDTH, type ClusterEntry, type LinkCluster } from './clusters.js';

/** Link + ancestors in a shape (the twin-title markup depth of clusters.ts: the title link, its
 * heading or wrapper, the record header, the record). The outermost level counts by its tag only:
 * themes mark the page kind there (`archive` vs `archive tag-page`) — see shapeOf. */
export const SHAPE_LEVELS = 4;
/** A main list with at least this many entries, outside chrome, speaks for itself; below it (or in
 * chrome) a learned shape found on the page wins. Measured on bench:sites: the tag pages whose
 * clusters are a side panel or the menu have 0–2 entries in their main column; index pages show 9–10. */
export const CONFIDENT_ENTRIES = 5;
/** Shapes kept per site (the least observed go first): a blog theme uses a handful. */
export const MAX_SHAPES = 64;
/** Share of a main list's entries that must share one shape for the list to teach it. */
const SHAPE_MAJORITY = 0.8;

export interface ShapeStats {
  /** List pages where this shape held the confident main list. */
  main: number;
  /** List pages where title-length links in this shape appeared outside chrome. */
  pages: number;
  /** Whether those links differed between two pages (not fixed links of the template). */
  varies: boolean;
  /** Whether they appeared outside page chrome on some page. */
  open: boolean;
  /** Fingerprint of the links it held on the last page (URLs hashed). */
  last: number;
  /** Observation counter when last seen (pruning). */
  seen: number;
}

export interface ListShapes {
  version: 1;
  /** Pages observed. */
  observed: number;
  shapes: Record<string, ShapeStats>;
}

export function emptyShapes(): ListShapes {
  return { version: 1, observed: 0, shapes: {} };
}

/** Shapes read back from site state; anything else (an old or foreign value) starts empty. */
export function readShapes(value: unknown): ListShapes {
  const v = value as ListShapes | undefined;
  return v && v.version === 1 && typeof v.shapes === 'object' && v.shapes !== null ? v : emptyShapes();
}

function learned(s: ShapeStats): boolean {
  return s.main >= 1 || (s.pages >= 2 && s.varies);
}

/** A shape whose links are the same on every list page that shows it: template, not entries. */
function fixed(s: ShapeStats | undefined): boolean {
  return s !== undefined && s.pages >= 2 && !s.varies;
}

/** Whether a shape is one of the site's list-entry shapes. */
export function isLearnedShape(shapes: ListShapes, shape: string | undefined): boolean {
  const s = shape === undefined ? undefined : shapes.shapes[shape];
  return s !== undefined && learned(s);
}

interface TitleLink {
  anchor: number;
  url: string;
  title: string;
  shape: string;
  /** Inside page chrome (see clusters.ts: a `tag` class on a tag page's content column counts). */
  chrome: boolean;
  /** Title-length text (TITLE_MIN_WIDTH): only such links teach shapes; a short title ("Welcome")
   * still counts in a learned shape. */
  long: boolean;
}

/** Title-length links with a classed shape, in page order (once per page). */
function titleLinks(page: Page): TitleLink[] {
  return page.memo('list:title-links', () => {
    const dom = pageIndex(page);
    const chrome = pageChrome(page);
    const here = page.url.replace(/#.*$/, '');
    const out: TitleLink[] = [];
    for (const a of dom.anchors) {
      const el = page.nodes[a] as Element;
      const url = page.resolve(el.attribs.href);
      if (!url || url.replace(/#.*$/, '') === here || DOWNLOAD_URL.test(url)) continue;
      // a link without words laid over a card (`<a class="entry-link" aria-label="…">`) takes the
      // card's heading
      const title = anchorText(el) || headingAround(dom, a);
      if (!title) continue;
      const shape = shapeOf(dom, a);
      if (shape !== undefined) out.push({ anchor: a, url, title, shape, chrome: chrome[a]! < 1, long: textWidth(title) >= TITLE_MIN_WIDTH });
    }
    return out;
  });
}

/** A link's shape: tag and classes of the link and its nearest ancestors (SHAPE_LEVELS − 1 of
 * them), then the tag of the next one; undefined when none of them has a class (bare `li/a`
 * markup is every menu's). */
export function shapeOf(dom: PageIndex, a: number): string | undefined {
  const inner = localSignature(dom, a, -1, SHAPE_LEVELS - 1);
  if (inner === undefined) return undefined;
  let k = a;
  for (let l = 0; l < SHAPE_LEVELS - 1 && k >= 0; l++) k = dom.parent[k]!;
  const outer = k >= 0 ? (dom.page.nodes[k] as Element).name : '';
  return `${inner}<${outer}`;
}

/** The first heading (h1–h6) inside the nearest ancestor of a link that holds one, within
 * SHAPE_LEVELS: the title of the card the link covers. */
function headingAround(dom: PageIndex, a: number): string {
  for (let k = dom.parent[a]!, l = 1; k >= 0 && l < SHAPE_LEVELS; k = dom.parent[k]!, l++) {
    const end = dom.end[k]!;
    for (let j = k + 1; j <= end; j++) {
      const n = dom.page.nodes[j];
      if (n instanceof Element && /^h[1-6]$/.test(n.name) && dom.chars[j]! > 0) return subtreeText(dom, j);
    }
  }
  return '';
}

/** The shape most entries of a cluster share, if a clear majority does. */
export function clusterShape(dom: PageIndex, c: LinkCluster): string | undefined {
  const counts = new Map<string, number>();
  for (const e of c.entries) {
    const s = shapeOf(dom, e.anchor);
    if (s !== undefined) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  for (const [s, n] of counts) if (n >= c.entries.length * SHAPE_MAJORITY) return s;
  return undefined;
}

/** FNV-1a over the URLs (order-free): a fingerprint of the links a shape held on one page. */
function fingerprint(urls: string[]): number {
  let h = 0x811c9dc5;
  for (const u of [...new Set(urls)].sort()) {
    for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ 10, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Whether a page's main list speaks for itself: enough entries (CONFIDENT_ENTRIES) with title-length
 * links (TITLE_MIN_WIDTH), outside chrome
 * or in a shape whose links change from page to page (chrome words in class names are loose: a
 * tag page's column `page-tag`), and not a shape the site shows unchanged on every page.
 */
export function confidentList(page: Page, c: LinkCluster | undefined, shapes: ListShapes | undefined): boolean {
  // (menu words — tag names, categories — do not make a list of entries speak for itself)
  if (c === undefined || c.entries.length < CONFIDENT_ENTRIES || c.meanWidth < TITLE_MIN_WIDTH) return false;
  const shape = shapes ? clusterShape(pageIndex(page), c) : undefined;
  const s = shape === undefined ? undefined : shapes!.shapes[shape];
  if (fixed(s)) return false;
  return c.chromeFactor >= 1 || (s !== undefined && s.varies);
}

/** Mean non-link characters per record from which a list of short links is one of records with a
 * body (members with a profile line, products with a price): clusters.ts's RICH_RECORD_CHARS. */
const RICH_RECORD_CHARS = 80;
/** Entries from which a list of short links outside chrome is a directory (cities, members,
 * products by name) whatever its link widths: a blog theme's term index in the main column lists a
 * few categories (4–11 on the development sites), a tag cloud sits in tag-cloud chrome. */
export const DIRECTORY_ENTRIES = 50;

/**
 * Whether a page's own main list is clear evidence that no site shape may override (issue 23):
 * a confident list (confidentList), or enough records (CONFIDENT_ENTRIES) outside chrome — by class
 * and by landmark — in a shape the site does not show unchanged everywhere, whose links are titles,
 * whose records carry text of their own, or that are many (a directory). Only a short list, one in
 * chrome, or a few bare short links (a term index, a menu) leaves room for the site's shapes.
 */
export function clearOwnList(page: Page, c: LinkCluster | undefined, shapes: ListShapes): boolean {
  if (confidentList(page, c, shapes)) return true;
  if (c === undefined || c.entries.length < CONFIDENT_ENTRIES || c.chromeFactor < 1 || inLandmark(page, c.container)) return false;
  if (fixed(shapes.shapes[clusterShape(pageIndex(page), c) ?? ''])) return false;
  if (c.meanWidth >= TITLE_MIN_WIDTH || c.entries.length >= DIRECTORY_ENTRIES) return true;
  const dom = pageIndex(page);
  let own = 0;
  for (const e of c.entries) own += dom.chars[e.record]! - dom.linkChars[e.record]!;
  return own / c.entries.length >= RICH_RECORD_CHARS;
}

/** Whether a shape is one the site shows unchanged on its list pages (a side panel). */
export function isFixedShape(shapes: ListShapes, shape: string | undefined): boolean {
  return shape !== undefined && fixed(shapes.shapes[shape]);
}

/**
 * Record what a list page shows (mutates and returns `shapes`): its title-link shapes with the
 * links they held, and the shape of its main list when that list is confident.
 */
export function observeShapes(page: Page, shapes: ListShapes, main: LinkCluster | undefined): ListShapes {
  shapes.observed++;
  const byShape = new Map<string, { urls: string[]; open: boolean }>();
  for (const t of titleLinks(page)) {
    if (!t.long) continue;
    let g = byShape.get(t.shape);
    if (!g) byShape.set(t.shape, (g = { urls: [], open: false }));
    g.urls.push(t.url);
    if (!t.chrome) g.open = true;
  }
  for (const [shape, g] of byShape) {
    const fp = fingerprint(g.urls);
    const s = (shapes.shapes[shape] ??= { main: 0, pages: 0, varies: false, open: false, last: fp, seen: 0 });
    s.pages++;
    if (s.last !== fp) s.varies = true;
    if (g.open) s.open = true;
    s.last = fp;
    s.seen = shapes.observed;
  }
  if (confidentList(page, main, shapes)) {
    const shape = clusterShape(pageIndex(page), main!);
    if (shape !== undefined) {
      const s = (shapes.shapes[shape] ??= { main: 0, pages: 1, varies: false, open: main!.chromeFactor >= 1, last: 0, seen: shapes.observed });
      s.main++;
    }
  }
  const keys = Object.keys(shapes.shapes);
  if (keys.length > MAX_SHAPES) {
    const rank = (k: string) => {
      const s = shapes.shapes[k]!;
      return (learned(s) ? 1e9 : 0) + s.main * 1e6 + s.seen;
    };
    keys.sort((a, b) => rank(a) - rank(b));
    for (const k of keys.slice(0, keys.length - MAX_SHAPES)) delete shapes.shapes[k];
  }
  return shapes;
}

/**
 * The page's entries in the best learned shape found on it (the shape that held main lists most
 * often, then the one with more links here), or undefined when no learned shape occurs. `except`
 * names a shape to pass over (the page's own main list, already considered).
 */
export function learnedEntries(page: Page, shapes: ListShapes, except?: string, outsideLandmarks = false): { shape: string; entries: ClusterEntry[] } | undefined {
  const links = titleLinks(page);
  const byShape = new Map<string, TitleLink[]>();
  for (const t of links) {
    const s = shapes.shapes[t.shape];
    if (!s || !learned(s) || t.shape === except || (outsideLandmarks && inLandmark(page, t.anchor))) continue;
    // (a short title — "Welcome", "https初探" — counts in a learned shape: the markup says title)
    let arr = byShape.get(t.shape);
    if (!arr) byShape.set(t.shape, (arr = []));
    arr.push(t);
  }
  let best: { shape: string; links: TitleLink[]; rank: number[] } | undefined;
  for (const [shape, arr] of byShape) {
    const s = shapes.shapes[shape]!;
    // held main lists, then seen outside chrome, then more links here, then seen on more pages
    const rank = [s.main, s.open ? 1 : 0, arr.length, s.pages];
    if (!best || before(rank, best.rank)) best = { shape, links: arr, rank };
  }
  if (!best) return undefined;
  const dom = pageIndex(page);
  const anchors = best.links.map((t) => t.anchor);
  const entries = best.links.map((t) => ({ url: t.url, title: t.title, anchor: t.anchor, record: recordOf(dom, t.anchor, anchors) }));
  return { shape: best.shape, entries };
}

/** Elements that are page chrome by their tag or landmark role (not by class words, which are
 * loose: a tag page's column `content tag`). A `header`/`footer` is the page's banner or footer
 * only outside sectioning content (HTML-AAM): inside an `article` it is the entry's own header. */
const LANDMARK_TAGS = new Set(['nav', 'aside', 'menu']);
const PAGE_BAND_TAGS = new Set(['header', 'footer']);
const SECTIONING_TAGS = new Set(['article', 'section', 'main', 'aside', 'nav']);
const LANDMARK_ROLES = /^(?:navigation|banner|contentinfo|complementary|menu|menubar)$/;

/** Per node: inside a landmark of page chrome (see LANDMARK_TAGS), computed once per page. */
function landmarks(page: Page): Uint8Array {
  return page.memo('list:landmarks', () => {
    const dom = pageIndex(page);
    // bit 1: inside chrome; bit 2: inside sectioning content
    const f = new Uint8Array(dom.size);
    for (let i = 0; i < dom.size; i++) {
      const p = dom.parent[i]!;
      const up = p >= 0 ? f[p]! : 0;
      const n = page.nodes[i];
      let v = up;
      if (n instanceof Element) {
        const band = PAGE_BAND_TAGS.has(n.name) && !(up & 2);
        if (band || LANDMARK_TAGS.has(n.name) || LANDMARK_ROLES.test(n.attribs.role ?? '')) v |= 1;
        if (SECTIONING_TAGS.has(n.name)) v |= 2;
      }
      f[i] = v;
    }
    return f;
  });
}

/** Whether a DFS index lies inside a chrome landmark (nav, header, footer, aside …). */
export function inLandmark(page: Page, i: number): boolean {
  return (landmarks(page)[i]! & 1) === 1;
}

/**
 * Before the site has taught a shape that occurs here: the title-length links outside chrome
 * landmarks, in a classed shape the site does not show unchanged everywhere — the entries of a
 * short list whose only repetition is a side panel or a menu. Undefined when there are none.
 */
export function openEntries(page: Page, shapes: ListShapes): ClusterEntry[] | undefined {
  const dom = pageIndex(page);
  const links = titleLinks(page).filter((t) => t.long && !inLandmark(page, t.anchor) && !fixed(shapes.shapes[t.shape]));
  if (!links.length) return undefined;
  const anchors = links.map((t) => t.anchor);
  return links.map((t) => ({ url: t.url, title: t.title, anchor: t.anchor, record: recordOf(dom, t.anchor, anchors) }));
}

/** Whether the site has taught at least one shape of its main lists. */
export function knowsMainShapes(shapes: ListShapes): boolean {
  return Object.values(shapes.shapes).some((s) => s.main >= 1);
}

/** Lexicographic order of ranks: whether `a` ranks before `b`. */
function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** An entry's record: its highest ancestor within the shape that holds no other entry. */
function recordOf(dom: PageIndex, a: number, anchors: number[]): number {
  let record = a;
  for (let k = dom.parent[a]!, l = 1; k >= 0 && l < SHAPE_LEVELS; k = dom.parent[k]!, l++) {
    const end = dom.end[k]!;
    if (anchors.some((b) => b !== a && b >= k && b <= end)) break;
    record = k;
  }
  return record;
}
