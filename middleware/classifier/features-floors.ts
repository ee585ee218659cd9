/**
 * Floor signals: the forum floor splitter's own verdict on the page (`forum/signals.ts`), as the
 * detail group reads the article extractor's — how many floors it finds, the share of the page's
 * text inside them, the floors that carry both an author and a date, how many distinct people
 * write, whether the dates run in page order, the first floor's share of the posts' text (an
 * article above its comments holds most of it), and replies inside floors; and (version 4) the
 * floors with an author (dated or not), the consecutive floors both dated, the floors quoting
 * another, the posts' share of the floors' text (a list's records read as floors are mostly
 * titles, links and meta lines; a thread's floors mostly posts) and a post's mean length; and (version 7)
 * the share of the floors' text inside links (a board index or a member list read as floors is
 * link-led records: a title or name link and meta links; a thread's floors are prose around an
 * author link). A thread of an
 * unseen board is split by the same general mechanisms the extractor uses, where the page-level
 * forum signals (`features-forum.ts`) rely on markup habits seen in training (issue 18 item 3).
 */
import { log1p, type PageScan } from './features-scan.js';
import { floorSignals } from '../forum/signals.js';

export const FLOOR_FEATURES = [
  'floorCount', 'floorTextShare', 'floorAuthorDated', 'floorDistinctAuthors', 'floorAscending', 'floorFirstShare', 'floorReplies',
  'floorAuthored', 'floorDated', 'floorQuoting', 'floorPostShare', 'floorMeanPost', 'floorLinkShare',
] as const;

/** floorAscending when the floors carry fewer than two dates: no order to see (between a thread's
 * 1 and a newest-first stream's 0). */
const NO_ORDER = 0.5;
/** Pairs of dated floors, half of them ascending, added before the ascending share is taken (version
 * 6): one dated pair is weak evidence of a thread's order — a small board index whose two records
 * each carry their latest post's date reads 1 from it — and with the prior it reads 0.67; a thread
 * of 20 dated floors moves by a few hundredths. With no dated pair the share is NO_ORDER, as before. */
const ORDER_PRIOR_PAIRS = 2;

export function floorFeatures(s: PageScan): Record<(typeof FLOOR_FEATURES)[number], number> {
  const f = floorSignals(s.page);
  const n = f.floors;
  return {
    floorCount: log1p(n),
    floorTextShare: s.totalChars && n ? Math.min(1, f.floorChars / s.totalChars) : 0,
    floorAuthorDated: n ? f.authoredDated / n : 0,
    floorDistinctAuthors: n > 1 ? Math.max(0, f.distinctAuthors - 1) / (n - 1) : 0,
    floorAscending: !n ? 0 : (f.ascendingPairs + NO_ORDER * ORDER_PRIOR_PAIRS) / (f.datedPairs + ORDER_PRIOR_PAIRS),
    floorFirstShare: f.postChars ? f.firstPostChars / f.postChars : 0,
    floorReplies: log1p(f.replies),
    floorAuthored: n ? f.authored / n : 0,
    floorDated: n > 1 ? f.datedPairs / (n - 1) : f.authoredDated,
    floorQuoting: n ? f.quoting / n : 0,
    floorPostShare: f.floorChars ? Math.min(1, f.postChars / f.floorChars) : 0,
    floorMeanPost: n ? log1p((f.postChars / n) * s.scriptScale) : 0,
    floorLinkShare: f.floorChars ? Math.min(1, f.floorLinkChars / f.floorChars) : 0,
  };
}
