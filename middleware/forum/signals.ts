/**
 * What the page-type classifier may read from the forum floor splitter (issue 18 item 3: the
 * classifier reads forum internals only through this module, as it reads list and article through
 * theirs): the splitter's own verdict on the whole page — how many floors it finds, how much of the
 * page's text they hold, and how thread-like they are (floors with both an author and a date,
 * distinct authors, dates in page order, the first floor's share of the posts' text, replies and
 * quotes inside floors). Counts only; the classifier turns them into features.
 *
 * The floors are found on the page alone: no learned site layout, the page language's time zone
 * (a crawl's layout or time zone changes the item, never the page type).
 *
 * Versioned: bump `SIGNALS_VERSION` whenever a value returned here changes for some page (a change
 * to the splitter's records or fields moves them too). The golden feature vectors
 * (`test/classifier/golden.test.ts`) fail when that happens unnoticed; the shipped model records
 * the version it was trained with and `loadModel` refuses another one, so a bump means `gleaner
 * train-classifier` and new golden files.
 */
import type { Page } from '../../src/core/page.js';
import { pageIndex, rangeChars, rangeNonLinkChars, solidLength } from '../../src/core/page-index.js';
import { extractForumDebug } from './index.js';

/** 2: floors chosen by the floor model (issue 29). 3: the floors' link characters (`floorLinkChars`). */
export const SIGNALS_VERSION = 3;

export interface FloorSignals {
  /** Floors the splitter finds (0: none, the page is not a thread to it). */
  readonly floors: number;
  /** Non-space characters of the page's text inside the floors (the records' DFS ranges). */
  readonly floorChars: number;
  /** Of those, the characters inside links (`<a href>`): a board's records are led by a title link
   * and meta links, a thread's floors hold prose around an author link. */
  readonly floorLinkChars: number;
  /** Non-space characters of the posts' own text (quotes included, replies left out), and of
   * the first floor's. */
  readonly postChars: number;
  readonly firstPostChars: number;
  /** Floors with an author, with both an author and a date. */
  readonly authored: number;
  readonly authoredDated: number;
  /** Distinct author names over the floors. */
  readonly distinctAuthors: number;
  /** Consecutive pairs of dated floors, and those whose second date is not earlier (a thread
   * reads oldest first; a comment stream may read newest first). */
  readonly datedPairs: number;
  readonly ascendingPairs: number;
  /** Replies inside floors (comments under an answer, 楼中楼) and floors quoting another post. */
  readonly replies: number;
  readonly quoting: number;
}

const NONE: FloorSignals = {
  floors: 0, floorChars: 0, floorLinkChars: 0, postChars: 0, firstPostChars: 0, authored: 0, authoredDated: 0, distinctAuthors: 0, datedPairs: 0, ascendingPairs: 0, replies: 0, quoting: 0,
};

/** The floor signals of a page (computed once per page: `page.memo`). */
export function floorSignals(page: Page): FloorSignals {
  return page.memo('forum:signals', () => {
    let r: ReturnType<typeof extractForumDebug>;
    try {
      r = extractForumDebug(page);
    } catch {
      return NONE;
    }
    if (!r?.posts.length) return NONE;
    const ix = pageIndex(page);
    const posts = r.posts;
    let floorChars = 0;
    let floorLinkChars = 0;
    for (const rec of r.records) {
      // Floors read from the page's <noscript> view (extractForumDebug's fallback) are not in this
      // page's index: their text is what they hold (and no link is counted in them).
      const own = !rec.roots.length || page.indexOf(rec.roots[0]!) >= 0;
      if (!own) continue;
      const chars = rangeChars(ix, rec.range);
      floorChars += chars;
      floorLinkChars += chars - rangeNonLinkChars(ix, rec.range);
    }
    const lens = posts.map((p) => solidLength(p.content));
    const postChars = lens.reduce((a, b) => a + b, 0);
    if (!floorChars) floorChars = postChars;
    const times = posts.map((p) => (p.publishedAt ? Date.parse(p.publishedAt) : NaN));
    let datedPairs = 0;
    let ascendingPairs = 0;
    for (let i = 1; i < times.length; i++) {
      if (Number.isNaN(times[i]!) || Number.isNaN(times[i - 1]!)) continue;
      datedPairs++;
      if (times[i]! >= times[i - 1]!) ascendingPairs++;
    }
    return {
      floors: posts.length,
      floorChars,
      floorLinkChars,
      postChars,
      firstPostChars: lens[0] ?? 0,
      authored: posts.filter((p) => p.author).length,
      authoredDated: posts.filter((p) => p.author && p.publishedAt).length,
      distinctAuthors: new Set(posts.map((p) => p.author).filter(Boolean)).size,
      datedPairs,
      ascendingPairs,
      replies: posts.reduce((s, p) => s + (p.replies?.length ?? 0), 0),
      quoting: posts.filter((p) => p.quotes?.length).length,
    };
  });
}
