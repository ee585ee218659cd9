/**
 * Gerapy's recipe (GerapyAutoExtractor's page classifier): link and total characters and their
 * logs, link-character ratio, `<p>` and `<a>` counts, punctuation count and density, number of
 * list clusters, text density of the page and its maximum over nodes, most `<p>` children of a
 * node, publish-time meta, `<title>` vs h1/meta-title similarity. Kept as the benchmark's
 * baseline, and the first block of our own features.
 */
import { bigramSimilarity, log1p, type PageScan } from './features-scan.js';

export const GERAPY_FEATURES = [
  'linkChars', 'logLinkChars', 'chars', 'logChars', 'linkCharRatio', 'pCount', 'aCount', 'punct', 'punctDensity',
  'clusterCount', 'textDensity', 'maxTextDensity', 'maxPChildren', 'publishMeta', 'titleSimilarity',
] as const;

/** Weight of the meta title's similarity against the h1's: the h1 wins a tie. */
const META_TITLE_WEIGHT = 0.999;

export function gerapyFeatures(s: PageScan): Record<(typeof GERAPY_FEATURES)[number], number> {
  const { page, totalChars, totalLink, h1Text, metaTitle } = s;
  return {
    linkChars: totalLink,
    logLinkChars: log1p(totalLink),
    chars: totalChars,
    logChars: log1p(totalChars),
    linkCharRatio: totalChars ? totalLink / totalChars : 0,
    pCount: s.pCount,
    aCount: s.aCount,
    punct: s.punct,
    punctDensity: totalChars ? s.punct / totalChars : 0,
    clusterCount: s.list.clusters.length,
    textDensity: s.textDensity,
    maxTextDensity: s.maxTextDensity,
    maxPChildren: s.maxPChildren,
    publishMeta: s.publishMeta,
    titleSimilarity: Math.max(page.title && h1Text ? bigramSimilarity(page.title, h1Text) : 0, page.title && metaTitle ? bigramSimilarity(page.title, metaTitle) * META_TITLE_WEIGHT : 0),
  };
}
