/**
 * Detail (article) signals: the widest segments and their share of the page's text,
 * sentence-like prose (inside and outside the best list), the link density of the block around
 * the widest segment, headings and `<article>` tags, the ways a page declares itself an article
 * (publish-date meta, og:type, JSON-LD), the longest run of prose, the prose that follows the
 * headline, form inputs, and the article extractor's verdict (`article/signals.ts`: the share of
 * the page's prose in the body it finds, and that body's link density).
 */
import type { Segment } from '../../src/core/page.js';
import { bigramSimilarity, linky, log1p, type PageScan } from './features-scan.js';
import { textWidth } from '../list/signals.js';
import { articleBody } from '../article/signals.js';

export const DETAIL_FEATURES = [
  'longestSegment', 'longestSegmentShare', 'top3SegmentShare', 'sentenceSegments', 'sentenceShare', 'mainLinkDensity',
  'h1Count', 'articleTags', 'ogArticle', 'ldArticle', 'articleMeta', 'longestRun', 'longestRunShare', 'formInputs', 'proseAfterHeadline', 'headlineSimilarity', 'proseOutsideListShare', 'proseOutsideList',
  'bodyShare', 'bodyLinkDensity', 'itemArticle',
] as const;

/** JSON-LD types of one article. */
export const LD_ARTICLE = /^(?:newsarticle|article|blogposting|reportagenewsarticle|scholarlyarticle|techarticle|analysisnewsarticle|opinionnewsarticle|liveblogposting)$/i;
/** Segment width that counts as sentence-like prose (with ≥ SENTENCE_PUNCT punctuation marks). */
const SENTENCE_WIDTH = 80;
const SENTENCE_PUNCT = 2;
/** Segments scanned for a headline when there is no h1, its shortest and longest plausible
 * length. */
const HEADLINE_SCAN = 300;
const HEADLINE_MIN_CHARS = 4;
const HEADLINE_MAX_CHARS = 120;
/** Link text in consecutive link-dominated segments that ends the prose after a headline (a list's
 * entries, a related-links box); less is a share bar or a by-line between headline and body. */
const HEADLINE_LINK_CHARS = 150;
/** The main block climbs to a container holding at least this many times the widest segment's
 * text (a few paragraphs). */
const MAIN_BLOCK_FACTOR = 3;
/** h1 elements counted at most (several are common; many say nothing more). */
const MAX_H1 = 5;

/** Index of the first segment at or after DFS index `dfs` (segments are in DFS order). */
function firstSegmentAt(segments: Segment[], dfs: number): number {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.index < dfs) lo = mid + 1;
    else hi = mid;
  }
  return lo < segments.length ? lo : -1;
}

export function detailFeatures(s: PageScan): Record<(typeof DETAIL_FEATURES)[number], number> {
  const { page, dom, bodyIdx, totalChars, totalWidth, widths, longest, longestSeg, scriptScale, proseChars } = s;
  const segments = page.segments;

  // Which DFS indices lie inside the best list's records: prose there is a list's teasers.
  const best = s.list.clusters[0];
  const inList = new Uint8Array(dom.size);
  if (best) for (const r of best.records) inList.fill(1, r, dom.end[r]! + 1);

  let sentenceSegments = 0;
  let sentenceChars = 0;
  let proseOutsideList = 0;
  // Longest run of prose: consecutive segments not dominated by links (an article body is one
  // long run; a list's titles break it every line).
  let run = 0;
  let longestRun = 0;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    const text = seg.text;
    if (s.segWidth[k]! >= SENTENCE_WIDTH && s.segPunct[k]! >= SENTENCE_PUNCT && seg.linkChars < text.length / 2) {
      sentenceSegments++;
      sentenceChars += text.length;
      if (!inList[seg.index]) proseOutsideList += text.length;
    }
    if (linky(seg)) run = 0;
    else {
      run += text.length - seg.linkChars;
      if (run > longestRun) longestRun = run;
    }
  }

  // The headline (the h1 most like the <title>, else the early segment most like it) and the
  // prose that follows it: an article's body follows its headline; a list's heading is followed
  // by links.
  let headline = -1;
  let headlineSim = 0;
  if (s.h1Index >= 0) {
    headline = firstSegmentAt(segments, s.h1Index);
    headlineSim = page.title && s.h1Text ? bigramSimilarity(page.title, s.h1Text) : 0;
  } else if (page.title) {
    const limit = Math.min(segments.length, HEADLINE_SCAN);
    for (let k = 0; k < limit; k++) {
      const t = segments[k]!.text;
      if (t.length < HEADLINE_MIN_CHARS || t.length > HEADLINE_MAX_CHARS) continue;
      const sim = bigramSimilarity(page.title, t);
      if (sim > headlineSim) {
        headlineSim = sim;
        headline = k;
      }
    }
  }
  let proseAfterHeadline = 0;
  if (headline >= 0) {
    let linkRun = 0;
    for (let k = headline + 1; k < segments.length && linkRun < HEADLINE_LINK_CHARS; k++) {
      const seg = segments[k]!;
      if (seg.linkChars * 2 > seg.text.length) linkRun += seg.linkChars;
      else {
        linkRun = 0;
        proseAfterHeadline += seg.text.length - seg.linkChars;
      }
    }
  }
  const top3 = (widths[0] ?? 0) + (widths[1] ?? 0) + (widths[2] ?? 0);

  // Link density of the main block: the block element around the widest segment's parent.
  let mainLinkDensity = 1;
  if (longestSeg >= 0) {
    let k = page.indexOf(segments[longestSeg]!.element);
    while (k >= 0 && dom.parent[k]! >= 0 && dom.chars[k]! < MAIN_BLOCK_FACTOR * longest && dom.parent[k] !== bodyIdx) k = dom.parent[k]!;
    if (k >= 0 && dom.chars[k]! > 0) mainLinkDensity = dom.linkChars[k]! / dom.chars[k]!;
  }

  let bodyShare = 0;
  let bodyLinkDensity = 1;
  const body = articleBody(page);
  if (body) {
    bodyShare = Math.min(1, textWidth(body.content) / totalWidth);
    if (body.root >= 0 && dom.chars[body.root]! > 0) bodyLinkDensity = dom.linkChars[body.root]! / dom.chars[body.root]!;
  }

  const ogArticle = s.ogType === 'article' ? 1 : 0;
  const ldArticle = s.ldTypes.some((t) => LD_ARTICLE.test(t)) ? 1 : 0;
  return {
    longestSegment: log1p(longest),
    longestSegmentShare: longest / totalWidth,
    top3SegmentShare: top3 / totalWidth,
    sentenceSegments: log1p(sentenceSegments),
    sentenceShare: totalChars ? Math.min(1, sentenceChars / totalChars) : 0,
    mainLinkDensity,
    h1Count: Math.min(s.h1Count, MAX_H1),
    articleTags: log1p(s.articleTags),
    ogArticle,
    ldArticle,
    // Any of the three ways a page declares itself one article (a publish date, og:type article,
    // an Article type in JSON-LD). Sites use one or another; alone each is a weak, sparse signal
    // the linear model under-weights, together they are on 60% of articles and 8% of lists.
    articleMeta: s.publishMeta || ogArticle || ldArticle ? 1 : 0,
    // lengths of prose in Latin-letter units (CJK characters count double, as in textWidth)
    longestRun: log1p(longestRun * scriptScale),
    longestRunShare: proseChars ? longestRun / proseChars : 0,
    formInputs: log1p(s.formInputs),
    proseAfterHeadline: log1p(proseAfterHeadline * scriptScale),
    headlineSimilarity: headlineSim,
    proseOutsideListShare: totalChars ? Math.min(1, proseOutsideList / totalChars) : 0,
    proseOutsideList: log1p(proseOutsideList * scriptScale),
    bodyShare,
    bodyLinkDensity,
    itemArticle: s.itemArticle ? 1 : 0,
  };
}
