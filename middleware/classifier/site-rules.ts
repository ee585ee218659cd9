/**
 * Site-level evidence for the page type (issue 12 item 1), which one page alone cannot give: on a
 * site whose posts share a URL shape (`/2022/05/04/<slug>/`, `/posts/<slug>/`), a page that the
 * classifier calls an article but that sits at the top of the site in a shape no post of the site
 * has (`/about/`, `/contact/`, `/privacy/`) is a site page, `other`. The posts' shapes come from
 * the same site's earlier pages in the crawl (or the batch): the entries of its main lists (a
 * list's items are the site's posts — the first page of a crawl is usually such an index) and the
 * pages confidently typed `detail`. They are kept in the site state (`ctx.site`), so the rule
 * learns nothing from other sites and names none.
 *
 * The same evidence, the other way: a page in the shape of the site's posts that the classifier
 * calls a list (a post that is itself a list of links or tools), on a site where no list page has
 * that shape, is one of the posts.
 */
import type { PageTypeResult } from '../../src/core/item.js';

/** Detail pages of the site seen before the rule may fire, and the share of them the most common
 * shape must hold (a site whose posts are spread over many shapes gives no evidence). Chosen a
 * priori (a handful of posts, a clear majority), not fitted: see the README's page-type figures. */
export const MIN_SITE_DETAILS = 5;
export const DOMINANT_SHAPE_SHARE = 0.8;
/** A page counts as one of the site's posts only when the classifier is this sure of it. */
export const CONFIDENT_DETAIL = 0.8;
/** Shapes kept per site (the state stays small on sites with many URL schemes). */
const MAX_SHAPES = 50;

export interface SiteTypeState {
  /** Pages confidently typed detail, per URL shape. */
  detailShapes: Record<string, number>;
  details: number;
  /** Main-list entries (same host) of pages typed list, per URL shape: the posts a crawl has not
   * reached yet (the first page of a crawl is usually an index). */
  itemShapes: Record<string, number>;
  items: number;
  /** Pages typed list, per URL shape of their own URL. */
  listShapes: Record<string, number>;
}

/** Share of a list page's main-list entries that must lead off the host, or be the site's menu,
 * for the list to be no list of the site's content (a blogroll, a page whose only repeated
 * links are the navigation). */
export const FOREIGN_ENTRY_SHARE = 0.8;
/** Entries below which a list says too little to be called a menu or a blogroll (the list
 * extractor's own minimum of records). */
const MIN_LIST_ENTRIES = 3;

/** Numeric path segments (years, ids) read as `N`. */
const NUMERIC = /^\d+$/;

/**
 * The URL's shape: its path segments, numbers as `N`, the last segment (the slug) as `*`; the
 * query is left out. Undefined for a URL that cannot be parsed or has no path (the site root).
 */
export function urlShape(url: string): { shape: string; depth: number } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const segs = u.pathname.replace(/\/index\.html?$/i, '/').split('/').filter(Boolean);
  if (!segs.length) return undefined;
  const shape = segs.map((s, i) => (i === segs.length - 1 ? '*' : NUMERIC.test(s) ? 'N' : s.toLowerCase())).join('/');
  return { shape, depth: segs.length };
}

export function emptySiteTypeState(): SiteTypeState {
  return { detailShapes: {}, details: 0, itemShapes: {}, items: 0, listShapes: {} };
}

/** Count one URL under its shape in `shapes` (at most MAX_SHAPES shapes). */
function count(shapes: Record<string, number>, url: string): boolean {
  const s = urlShape(url);
  if (!s || (!(s.shape in shapes) && Object.keys(shapes).length >= MAX_SHAPES)) return false;
  shapes[s.shape] = (shapes[s.shape] ?? 0) + 1;
  return true;
}

/**
 * Record what a typed page (its label after applySiteEvidence, the classifier's probabilities)
 * shows of the site: a confident detail page is a post; a list page's own URL is a list shape
 * and its main-list entries on the same host are items. Returns whether the state changed.
 */
export function observePage(state: SiteTypeState, url: string, result: PageTypeResult, listItems: readonly string[] = []): boolean {
  if (result.label === 'detail' && (result.probabilities.detail ?? 0) >= CONFIDENT_DETAIL) {
    if (!count(state.detailShapes, url)) return false;
    state.details++;
    return true;
  }
  if (result.label !== 'list') return false;
  let changed = count(state.listShapes, url);
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return changed;
  }
  for (const item of listItems) {
    try {
      if (new URL(item).host === host && count(state.itemShapes, item)) {
        state.items++;
        changed = true;
      }
    } catch {
      /* not a URL */
    }
  }
  return changed;
}

/** Whether a page's main list is not a list of the site's content: most entries lead off the
 * host, or the list holds the site's root and the page itself (it is the site menu). */
function noContentList(url: string, entries: readonly string[]): boolean {
  if (entries.length < MIN_LIST_ENTRIES) return false;
  let here: URL;
  try {
    here = new URL(url);
  } catch {
    return false;
  }
  const path = (u: URL) => u.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '') || '/';
  let foreign = 0;
  let root = false;
  let self = false;
  for (const e of entries) {
    let u: URL;
    try {
      u = new URL(e);
    } catch {
      continue;
    }
    if (u.host !== here.host) foreign++;
    else if (path(u) === '/') root = true;
    else if (path(u) === path(here)) self = true;
  }
  return foreign >= FOREIGN_ENTRY_SHARE * entries.length || (root && self);
}

/** The one URL shape most of `shapes` (n of them) share, if enough were seen. */
function dominant(shapes: Record<string, number>, n: number): string | undefined {
  if (n < MIN_SITE_DETAILS) return undefined;
  let best: string | undefined;
  for (const [shape, k] of Object.entries(shapes)) if (!best || k > shapes[best]!) best = shape;
  return best && shapes[best]! >= DOMINANT_SHAPE_SHARE * n ? best : undefined;
}

/** The shape of the site's posts: from its detail pages once enough are seen, else from the items
 * of its lists (list entries also hold year and tag links: the detail pages are the better
 * evidence once a crawl has them). */
function postShape(state: SiteTypeState): string | undefined {
  return state.details >= MIN_SITE_DETAILS ? dominant(state.detailShapes, state.details) : dominant(state.itemShapes, state.items);
}

/**
 * The result with the site's evidence applied, on a site whose posts share one URL shape: a
 * top-level page typed detail in a shape none of the site's posts has becomes `other`; a page in
 * the posts' shape typed list, where no list page of the site has that shape, becomes the more
 * probable of detail and forum.
 */
export function applySiteEvidence(state: SiteTypeState, url: string, result: PageTypeResult, listItems: readonly string[] = []): PageTypeResult {
  if (result.label !== 'detail' && result.label !== 'list') return result;
  const s = urlShape(url);
  if (!s) return result;
  // A top-level "list" whose best cluster is the site menu or links off the site: no list of
  // the site's content (a page's own evidence; no history needed).
  if (result.label === 'list' && s.depth === 1 && noContentList(url, listItems)) return { ...result, label: 'other' };
  const posts = postShape(state);
  if (!posts) return result;
  if (result.label === 'detail') return s.depth === 1 && !state.detailShapes[s.shape] && !state.itemShapes[s.shape] ? { ...result, label: 'other' } : result;
  if (s.shape !== posts || state.listShapes[s.shape]) return result;
  const p = result.probabilities;
  return { ...result, label: (p.forum ?? 0) > (p.detail ?? 0) ? 'forum' : 'detail' };
}
