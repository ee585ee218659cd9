/**
 * List signals: the page's link clusters as the list extractor finds them (`list/signals.ts`) —
 * title-length anchors, the best cluster's size, score, link and character coverage, dates,
 * title width and chrome penalty, entries in good clusters, and the main list's size and link
 * coverage.
 */
import { log1p, type PageScan } from './features-scan.js';
import { textWidth } from '../list/signals.js';

export const LIST_FEATURES = [
  'logAnchors', 'titleAnchorShare', 'bestClusterSize', 'bestClusterScore', 'bestClusterLinkShare', 'bestClusterCharShare',
  'bestClusterDated', 'bestClusterTitleWidth', 'bestClusterChrome', 'clusterEntryShare', 'mainListEntries', 'mainListLinkShare',
] as const;

/** Width (see textWidth) from which a cluster entry's link counts as a title. */
const TITLE_ANCHOR_WIDTH = 20;
/** Clusters from this score on are counted in clusterEntryShare (a score of 1: a few records of
 * full title fit outside chrome). */
const GOOD_CLUSTER_SCORE = 1;

export function listFeatures(s: PageScan): Record<(typeof LIST_FEATURES)[number], number> {
  const { clusters, mainList } = s.list;
  const { aCount, totalLink, totalChars } = s;
  const best = clusters[0];
  const seenTitle = new Set<number>();
  for (const c of clusters) for (const e of c.entries) if (!seenTitle.has(e.anchor) && textWidth(e.title) >= TITLE_ANCHOR_WIDTH) seenTitle.add(e.anchor);
  const titleAnchors = seenTitle.size;
  let bestLinkChars = 0;
  if (best) for (const e of best.entries) bestLinkChars += e.title.replace(/\s+/g, '').length;
  let mainEntries = 0;
  let mainLinkChars = 0;
  for (const c of mainList) {
    mainEntries += c.entries.length;
    for (const e of c.entries) mainLinkChars += e.title.replace(/\s+/g, '').length;
  }
  const clusterEntries = clusters.filter((c) => c.score >= GOOD_CLUSTER_SCORE).reduce((n, c) => n + c.entries.length, 0);
  return {
    logAnchors: log1p(aCount),
    titleAnchorShare: aCount ? titleAnchors / aCount : 0,
    bestClusterSize: log1p(best?.entries.length ?? 0),
    bestClusterScore: best?.score ?? 0,
    bestClusterLinkShare: totalLink ? bestLinkChars / totalLink : 0,
    bestClusterCharShare: totalChars && best ? best.chars / totalChars : 0,
    bestClusterDated: best?.datedShare ?? 0,
    bestClusterTitleWidth: log1p(best?.meanWidth ?? 0),
    bestClusterChrome: best?.chromeFactor ?? 0,
    clusterEntryShare: aCount ? clusterEntries / aCount : 0,
    mainListEntries: log1p(mainEntries),
    mainListLinkShare: totalLink ? Math.min(1, mainLinkChars / totalLink) : 0,
  };
}
