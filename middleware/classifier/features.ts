/**
 * Page-type features (sources §7). Two sets:
 *
 * - `GERAPY_FEATURES`: Gerapy's recipe (GerapyAutoExtractor's classifier): link and total
 *   characters and their logs, link-character ratio, `<p>` and `<a>` counts, punctuation count
 *   and density, number of list clusters, text density of the page and its maximum over nodes,
 *   most `<p>` children of a node, publish-time meta, `<title>` vs h1/meta-title similarity.
 *   Kept for the benchmark's baseline.
 * - `FEATURES`: those plus what separates forum threads and lists better: repeated post blocks
 *   (long-text siblings carrying a date and a user link), the main link cluster's size, coverage
 *   and date share, the longest text block's share, sentence-like paragraphs, dated segments,
 *   forum vocabulary, structured-data types and the URL's shape; the article extractor's verdict
 *   (the share of the page's prose in the body it finds, and that body's link density); and what
 *   tells an article with a comment thread from a thread (the prose before the first post, and
 *   the longest prose run outside the posts against a post's length).
 *
 * Everything is read from one pass over `page.nodes` (via the page index, `pageIndex`), the segments and the
 * link clusters that the list extractor computes anyway.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { punctCount, hanCount, CJK_WIDTH } from '../../src/core/text.js';
import { pageIndex, subtreeText, subtreeTextPrefix, anchorsIn } from '../../src/core/page-index.js';
import { findLinkClusters, textWidth, DATE_LIKE } from '../list/clusters.js';
import { mainListClusters } from '../list/index.js';
import { buildTree } from '../article/tree.js';
import { extractContent } from '../article/content.js';

export const GERAPY_FEATURES = [
  'linkChars', 'logLinkChars', 'chars', 'logChars', 'linkCharRatio', 'pCount', 'aCount', 'punct', 'punctDensity',
  'clusterCount', 'textDensity', 'maxTextDensity', 'maxPChildren', 'publishMeta', 'titleSimilarity',
] as const;

export const EXTRA_FEATURES = [
  // list signals
  'logAnchors', 'titleAnchorShare', 'bestClusterSize', 'bestClusterScore', 'bestClusterLinkShare', 'bestClusterCharShare',
  'bestClusterDated', 'bestClusterTitleWidth', 'bestClusterChrome', 'clusterEntryShare', 'mainListEntries', 'mainListLinkShare',
  // detail signals
  'longestSegment', 'longestSegmentShare', 'top3SegmentShare', 'sentenceSegments', 'sentenceShare', 'mainLinkDensity',
  'h1Count', 'articleTags', 'ogArticle', 'ldArticle', 'articleMeta', 'longestRun', 'longestRunShare', 'formInputs', 'proseAfterHeadline', 'headlineSimilarity', 'proseOutsideListShare', 'proseOutsideList',
  'bodyShare', 'bodyLinkDensity',
  // forum signals
  'postBlocks', 'postBlockShare', 'postBlockDated', 'datedSlots', 'datedSlotMeanProse', 'datedSlotShare', 'postBlockMeanChars', 'postAuthorLinks', 'postTitleLinks', 'postLikeBlocks', 'postLikeShare', 'forumWords', 'ldForum', 'datedSegments',
  'datedSegmentShare', 'quoteBlocks', 'proseBeforePosts', 'runOutsidePosts',
  // URL shape (missing, not zero, when the page has no public URL: see urlFeatures)
  'urlDepth', 'urlNumericId', 'urlHtml', 'urlQuery', 'urlPageParam', 'urlForumToken', 'urlListToken',
  'urlDate', 'urlSlugWords', 'urlRoot', 'urlTrailingSlash',
] as const;

export const FEATURES = [...GERAPY_FEATURES, ...EXTRA_FEATURES] as const;

/** Non-space characters below which a page has no content to type (an empty shell, a script-only
 * app, an error page): "other" by rule, in training, cross-validation and classifyPage alike. */
export const MIN_CONTENT_CHARS = 100;
/** Index of the total-characters feature (the same in both feature sets: Gerapy's come first). */
const CHARS_FEATURE = 2;

/** The rule for pages without content, on a feature vector of either set. */
export function contentless(x: number[]): boolean {
  return x[CHARS_FEATURE]! < MIN_CONTENT_CHARS;
}
export type FeatureName = (typeof FEATURES)[number];

/** Sibling groups smaller than this are not repeated post blocks (a thread page with one post
 * has no repetition to see; its other signals still count). */
const MIN_POST_BLOCKS = 2;
/** Non-link characters a post block needs on average: a forum post is a paragraph or more, a
 * list teaser a title and a line (measured on webforum52 vs lists: posts median > 150). */
const POST_MIN_CHARS = 60;
/** Characters of text sampled to tell CJK pages (see scriptScale) and the Han share that does. */
const SCRIPT_SAMPLE = 3000;
const CJK_SHARE = 0.3;
/** Prose (non-link characters) after a date line that makes it a post rather than a teaser. */
const DATED_SLOT_MIN_PROSE = 100;
/** Segments scanned for a headline when there is no h1, and its longest plausible length. */
const HEADLINE_SCAN = 300;
const HEADLINE_MAX_CHARS = 120;
/** Link text in consecutive link-dominated segments that ends the prose after a headline (a list's
 * entries, a related-links box); less is a share bar or a by-line between headline and body. */
const HEADLINE_LINK_CHARS = 150;
/** Characters of a post searched for its date (dates sit in the post header). */
const POST_DATE_PREFIX = 600;
/** Link texts up to this many characters can be a user name; from TITLE_LINK_MIN on a title. */
const AUTHOR_LINK_MAX = 24;
const TITLE_LINK_MIN = 30;
/** Segment width that counts as sentence-like prose (with ≥ 2 punctuation marks). */
const SENTENCE_WIDTH = 80;
/** A link-dominated segment at least this long ends a run of prose (shorter ones are inline
 * references or "Share" buttons inside an article). */
const RUN_BREAK_CHARS = 4;
/** Forum chrome words, in short segments ("Reply", "Quote", "Posts: 123", "Joined" …). A list
 * of common board-software labels in the languages we see, not of sites. Ends with "not followed
 * by a Latin letter" rather than \b, which never matches after "回复" or "Re:" + space. */
const FORUM_WORDS =
  /^(?:reply|replies|quote|posts?:?|joined:?|registered:?|member|members|moderator|administrator|thread|topic|report|permalink|re:|回复|回帖|引用|发表于|發表於|楼主|樓主|沙发|板凳|帖子|主题|注册时间|积分|積分|精华|只看该作者|返回列表|beiträge:?|registriert:?|mitglied|zitieren|antworten|antwort|messages:?|inscrit|citer|répondre|respuesta|responder|citar|mensajes:?|registrado|risposta|rispondi|citazione|messaggi|ответить|цитата|сообщений|返信|引用する|投稿)(?![a-z])/i;
const PUBLISH_META = ['article:published_time', 'og:published_time', 'publishdate', 'pubdate', 'publish_date', 'date', 'dc.date', 'dc.date.issued', 'datepublished', 'article:modified_time', 'sailthru.date', 'parsely-pub-date'];
const LD_ARTICLE = /^(?:newsarticle|article|blogposting|reportagenewsarticle|scholarlyarticle|techarticle|analysisnewsarticle|opinionnewsarticle|liveblogposting)$/i;
const LD_FORUM = /^(?:discussionforumposting|qapage|question|socialmediaposting)$/i;
const URL_FORUM = /(?:^|[/_.?&=-])(?:thread|threads|topic|topics|viewtopic|showthread|forum|forums|board|boards|bbs|discussion|discussions|community|t|tid|showtopic|viewthread)(?:$|[/_.?&=-]|\d)/i;
const URL_LIST = /(?:^|[/_.?&=-])(?:list|lists|index|category|categories|cat|tag|tags|archive|archives|search|page|paged|news|blog|section|channel|column|topics)(?:$|[/_.?&=-]|\d)/i;
const URL_PAGE_PARAM = /[?&](?:page|p|pg|paged|pn|start|offset|pagenum|pageno)=\d|\/page\/\d|[_-]\d{1,3}\.html?$/i;

function log1p(x: number): number {
  return Math.log(1 + x);
}

/** Character-bigram Dice similarity (a real similarity: Gerapy's set "union" is an intersection). */
export function bigramSimilarity(a: string, b: string): number {
  const grams = (s: string) => {
    const t = s.toLowerCase().replace(/\s+/g, ' ').trim();
    const m = new Map<string, number>();
    for (let i = 0; i + 1 < t.length; i++) {
      const g = t.slice(i, i + 2);
      m.set(g, (m.get(g) ?? 0) + 1);
    }
    return m;
  };
  const ga = grams(a);
  const gb = grams(b);
  let inter = 0;
  let na = 0;
  let nb = 0;
  for (const v of ga.values()) na += v;
  for (const v of gb.values()) nb += v;
  for (const [g, v] of ga) inter += Math.min(v, gb.get(g) ?? 0);
  return na + nb ? (2 * inter) / (na + nb) : 0;
}

/** Number of URL features (the URL-shape block at the end of EXTRA_FEATURES). */
const URL_FEATURES = 11;

/**
 * URL features. A page without a public URL (a file path, a placeholder host without a dot such
 * as localhost or the readability set's "fakehost") has them *missing* (NaN), not zero:
 * standardisation maps a missing value to the training mean, so the URL says nothing either way.
 * Zeros (with a "URL known" flag) let the SVM learn which labelled collections come without URLs
 * (most article sets) and call every URL-less page an article, and shift the prior for pages
 * with a URL, which is every page a crawl sees.
 */
export function urlFeatures(url: string): number[] {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || !/^https?:$/.test(u.protocol) || !u.hostname.includes('.')) return new Array<number>(URL_FEATURES).fill(NaN);
  const segs = u.pathname.split('/').filter(Boolean);
  const last = segs[segs.length - 1] ?? '';
  const full = u.pathname + u.search;
  const slugWords = last.replace(/\.[a-z]{2,5}$/i, '').split(/[-_]/).filter((w) => /[a-z]{2,}/i.test(w)).length;
  return [
    Math.min(segs.length, 8),
    /\d{4,}/.test(full) ? 1 : 0,
    /\.s?html?$/i.test(u.pathname) ? 1 : 0,
    u.search.length > 1 ? 1 : 0,
    URL_PAGE_PARAM.test(full) ? 1 : 0,
    URL_FORUM.test(full) ? 1 : 0,
    URL_LIST.test(full) ? 1 : 0,
    /\/(?:19|20)\d\d\/(?:0?[1-9]|1[0-2])(?:\/|$)|(?:19|20)\d\d-?[01]\d-?[0-3]\d/.test(u.pathname) ? 1 : 0,
    Math.min(slugWords, 15),
    segs.length === 0 && u.search.length <= 1 ? 1 : 0,
    u.pathname.length > 1 && u.pathname.endsWith('/') ? 1 : 0,
  ];
}

/** Index of the first segment at or after DFS index `dfs` (segments are in DFS order). */
function firstSegmentAt(segments: Page['segments'], dfs: number): number {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.index < dfs) lo = mid + 1;
    else hi = mid;
  }
  return lo < segments.length ? lo : -1;
}

function jsonLdTypes(page: Page): string[] {
  const out: string[] = [];
  try {
    for (const o of page.jsonLd()) {
      const t = o['@type'];
      if (typeof t === 'string') out.push(t);
      else if (Array.isArray(t)) for (const x of t) if (typeof x === 'string') out.push(x);
    }
  } catch {
    /* unreadable JSON-LD: no types */
  }
  return out;
}

export interface PageFeatures {
  /** All features, in `FEATURES` order. */
  values: number[];
  /** Gerapy's subset, in `GERAPY_FEATURES` order. */
  gerapy: number[];
}

export function pageFeatures(page: Page): PageFeatures {
  const dom = pageIndex(page);
  const nodes = page.nodes;
  const bodyIdx = page.body === page.document ? -1 : page.indexOf(page.body as Element);
  const totalChars = bodyIdx >= 0 ? dom.chars[bodyIdx]! : dom.chars.reduce((s, v, i) => (dom.parent[i] === -1 ? s + v : s), 0);
  const totalLink = bodyIdx >= 0 ? dom.linkChars[bodyIdx]! : dom.linkChars.reduce((s, v, i) => (dom.parent[i] === -1 ? s + v : s), 0);

  // Character thresholds are written for Latin text; a Han/kana/hangul character carries about two
  // Latin letters (CJK_WIDTH, the factor textWidth uses), so CJK pages count each character so.
  let sample = '';
  for (const seg of page.segments) {
    sample += seg.text;
    if (sample.length >= SCRIPT_SAMPLE) break;
  }
  const scriptScale = sample && hanCount(sample) > CJK_SHARE * sample.replace(/\s+/g, '').length ? CJK_WIDTH : 1;

  // One pass over the elements: tag counts, densities, <p> children, h1 text.
  let pCount = 0;
  let h1Count = 0;
  let articleTags = 0;
  let quoteBlocks = 0;
  let formInputs = 0;
  let maxPChildren = 0;
  let maxTextDensity = 0;
  let h1Text = '';
  let h1Index = -1;
  let h1Sim = 0;
  const pChildren = new Map<number, number>();
  for (let i = 0; i < dom.size; i++) {
    const n = nodes[i];
    if (!(n instanceof Element)) continue;
    const name = n.name;
    if (name === 'p') {
      pCount++;
      const p = dom.parent[i]!;
      const c = (pChildren.get(p) ?? 0) + 1;
      pChildren.set(p, c);
      if (c > maxPChildren) maxPChildren = c;
    } else if (name === 'h1') {
      h1Count++;
      // several h1 (logo, headline, widget titles): keep the one most like the <title>
      const t = subtreeText(dom, i);
      const sim = page.title && t ? bigramSimilarity(page.title, t) : 0;
      if (h1Index < 0 || sim > h1Sim) {
        h1Text = t;
        h1Index = i;
        h1Sim = sim;
      }
    } else if (name === 'article') articleTags++;
    else if (name === 'blockquote') quoteBlocks++;
    else if (name === 'input' || name === 'select' || name === 'textarea') formInputs++;
    // Gerapy's text density: non-link text per non-link tag, over nodes with some text.
    const tags = dom.elementCount[i]! - dom.anchorCount[i]!;
    if (dom.chars[i]! >= 20 && tags > 0) {
      const d = (dom.chars[i]! - dom.linkChars[i]!) / tags;
      if (d > maxTextDensity) maxTextDensity = d;
    }
  }
  const aCount = dom.anchors.length;
  const bodyTags = bodyIdx >= 0 ? dom.elementCount[bodyIdx]! - dom.anchorCount[bodyIdx]! : dom.size;
  const textDensity = bodyTags > 0 ? (totalChars - totalLink) / bodyTags : 0;

  // Link clusters (lists), and which DFS indices lie inside the best list's records.
  const clusters = findLinkClusters(page);
  const best = clusters[0];
  const inList = new Uint8Array(dom.size);
  if (best) for (const r of best.records) inList.fill(1, r, dom.end[r]! + 1);
  let proseOutsideList = 0;

  // Segments: punctuation, longest blocks, sentence-like prose, dates, forum words.
  let punct = 0;
  let longest = 0;
  const widths: number[] = [];
  let sentenceSegments = 0;
  let sentenceChars = 0;
  let datedSegments = 0;
  let forumWords = 0;
  let longestSeg = -1;
  // Longest run of prose: consecutive segments not dominated by links (an article body is one
  // long run; a list's titles break it every line).
  let run = 0;
  let longestRun = 0;
  // Dated slots: the prose between one short dated line and the next. A forum thread is a chain
  // of them (date line, then a post body), whatever the markup (posts split over table rows
  // defeat sibling grouping); a list's dates are followed by a title and a line of teaser.
  let inSlot = false;
  let slotProse = 0;
  let datedSlots = 0;
  let datedSlotProse = 0;
  const closeSlot = () => {
    if (inSlot && slotProse * scriptScale >= DATED_SLOT_MIN_PROSE) {
      datedSlots++;
      datedSlotProse += slotProse;
    }
  };
  let proseChars = 0;
  for (let s = 0; s < page.segments.length; s++) {
    const seg = page.segments[s]!;
    const text = seg.text;
    const pc = punctCount(text);
    punct += pc;
    const w = textWidth(text);
    widths.push(w - seg.linkChars);
    if (w - seg.linkChars > longest) {
      longest = w - seg.linkChars;
      longestSeg = s;
    }
    if (w >= SENTENCE_WIDTH && pc >= 2 && seg.linkChars < text.length / 2) {
      sentenceSegments++;
      sentenceChars += text.length;
      if (!inList[seg.index]) proseOutsideList += text.length;
    }
    if (seg.linkChars * 2 > text.length && text.length >= RUN_BREAK_CHARS) run = 0;
    else {
      run += text.length - seg.linkChars;
      proseChars += text.length - seg.linkChars;
      if (run > longestRun) longestRun = run;
    }
    if (text.length <= 80 && DATE_LIKE.test(text)) {
      datedSegments++;
      closeSlot();
      slotProse = 0;
      inSlot = true;
    } else if (inSlot && seg.linkChars * 2 <= text.length) slotProse += text.length - seg.linkChars;
    if (text.length <= 40 && FORUM_WORDS.test(text)) forumWords++;
  }
  closeSlot();
  widths.sort((a, b) => b - a);

  // The headline (first h1, else the early segment most like the <title>) and the prose that
  // follows it: an article's body follows its headline; a list's heading is followed by links.
  let headline = -1;
  let headlineSim = 0;
  if (h1Index >= 0) {
    headline = firstSegmentAt(page.segments, h1Index);
    headlineSim = page.title && h1Text ? bigramSimilarity(page.title, h1Text) : 0;
  } else if (page.title) {
    const limit = Math.min(page.segments.length, HEADLINE_SCAN);
    for (let k = 0; k < limit; k++) {
      const t = page.segments[k]!.text;
      if (t.length < 4 || t.length > HEADLINE_MAX_CHARS) continue;
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
    for (let k = headline + 1; k < page.segments.length && linkRun < HEADLINE_LINK_CHARS; k++) {
      const seg = page.segments[k]!;
      if (seg.linkChars * 2 > seg.text.length) linkRun += seg.linkChars;
      else {
        linkRun = 0;
        proseAfterHeadline += seg.text.length - seg.linkChars;
      }
    }
  }
  const totalWidth = widths.reduce((s, v) => s + Math.max(0, v), 0) || 1;
  const top3 = (widths[0] ?? 0) + (widths[1] ?? 0) + (widths[2] ?? 0);

  // Link density of the main block: the block element around the longest segment's parent.
  let mainLinkDensity = 1;
  if (longestSeg >= 0) {
    const el = page.segments[longestSeg]!.element;
    let k = page.indexOf(el);
    // climb to a container of a few paragraphs (at least 3× the longest segment's text)
    while (k >= 0 && dom.parent[k]! >= 0 && dom.chars[k]! < 3 * longest && dom.parent[k] !== bodyIdx) k = dom.parent[k]!;
    if (k >= 0 && dom.chars[k]! > 0) mainLinkDensity = dom.linkChars[k]! / dom.chars[k]!;
  }

  // Link clusters (lists): computed above.
  let titleAnchors = 0;
  const seenTitle = new Set<number>();
  for (const c of clusters) for (const e of c.entries) if (!seenTitle.has(e.anchor) && textWidth(e.title) >= 20) seenTitle.add(e.anchor);
  titleAnchors = seenTitle.size;
  let bestLinkChars = 0;
  if (best) for (const e of best.entries) bestLinkChars += e.title.replace(/\s+/g, '').length;
  // The main list as the list extractor sees it (nested section lists and split lists merged).
  const main = mainListClusters(page);
  let mainEntries = 0;
  let mainLinkChars = 0;
  for (const c of main) {
    mainEntries += c.entries.length;
    for (const e of c.entries) mainLinkChars += e.title.replace(/\s+/g, '').length;
  }
  const goodClusters = clusters.filter((c) => c.score >= 1);
  const clusterEntries = goodClusters.reduce((s, c) => s + c.entries.length, 0);

  // Repeated post blocks: sibling elements of one tag+class signature, each with a long non-link
  // text; the share carrying a date and a link (the poster) is the forum signal.
  let postBlocks = 0;
  let postChars = 0;
  let postDated = 0;
  let postMean = 0;
  const groups = new Map<string, number[]>();
  for (let i = 0; i < dom.size; i++) {
    const n = nodes[i];
    if (!(n instanceof Element) || (dom.chars[i]! - dom.linkChars[i]!) * scriptScale < POST_MIN_CHARS) continue;
    const p = dom.parent[i]!;
    if (p < 0) continue;
    const key = `${p}|${n.name}|${(n.attribs.class ?? '').replace(/\d+/g, '').trim().split(/\s+/)[0] ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  }
  let postShortLinks = 0;
  let postTitleLinks = 0;
  // A post: a short link (its author), a date, prose, and no title-length link (a teaser's).
  const postLike = (i: number): { dated: boolean; short: boolean; title: boolean } => {
    let maxWidth = 0;
    let short = false;
    for (const a of anchorsIn(dom, i)) {
      const w = dom.linkChars[a]!;
      if (w > maxWidth) maxWidth = w;
      if (w >= 2 && w <= AUTHOR_LINK_MAX) short = true;
    }
    const dated = DATE_LIKE.test(subtreeTextPrefix(dom, i, POST_DATE_PREFIX));
    return { dated, short, title: maxWidth * scriptScale >= TITLE_LINK_MIN };
  };
  let postLikeBest = 0;
  let bestLike: number[] = [];
  for (const g of groups.values()) {
    if (g.length < MIN_POST_BLOCKS) continue;
    let dated = 0;
    let chars = 0;
    let likes = 0;
    let shorts = 0;
    let titles = 0;
    const like: number[] = [];
    for (const i of g) {
      chars += dom.chars[i]! - dom.linkChars[i]!;
      if (dom.anchorCount[i]! === 0) continue;
      const pl = postLike(i);
      if (pl.dated) dated++;
      if (pl.short) shorts++;
      if (pl.title) titles++;
      if (pl.dated && pl.short && !pl.title) {
        likes++;
        like.push(i);
      }
    }
    // the group with the most post-like blocks, then the most dated, then the most text
    if (likes > postLikeBest || (likes === postLikeBest && (dated > postDated || (dated === postDated && chars > postChars)))) {
      postLikeBest = likes;
      postDated = dated;
      postBlocks = g.length;
      postChars = chars;
      postMean = chars / g.length;
      postShortLinks = shorts;
      postTitleLinks = titles;
      bestLike = like;
    }
  }

  // Article body vs comment thread. A thread opens with its first post; an article's comments
  // follow a body that is no post: the prose before the first post-like block, and the longest
  // run of prose outside them against the mean prose of a post (a long article body beside short
  // comments vs a thread whose longest text is inside a post).
  const postsFound = postLikeBest >= MIN_POST_BLOCKS;
  const inPost = new Uint8Array(postsFound ? dom.size : 0);
  if (postsFound) for (const b of bestLike) inPost.fill(1, b, dom.end[b]! + 1);
  const firstPost = postsFound ? bestLike[0]! : Infinity;
  let outRun = 0;
  let longestOutside = 0;
  let proseBeforePosts = 0;
  let proseInPosts = 0;
  for (const seg of page.segments) {
    const linky = seg.linkChars * 2 > seg.text.length && seg.text.length >= RUN_BREAK_CHARS;
    const inside = postsFound && inPost[seg.index] === 1;
    const prose = seg.text.length - seg.linkChars;
    if (linky || inside) outRun = 0;
    else {
      outRun += prose;
      if (outRun > longestOutside) longestOutside = outRun;
    }
    if (!linky && !inside && seg.index < firstPost) proseBeforePosts += prose;
    if (!linky && inside) proseInPosts += prose;
  }

  // The article extractor's verdict: the share of the page's prose in the body it finds (an
  // article's body is most of its prose, whatever link blocks surround it) and the body's link
  // density.
  let bodyShare = 0;
  let bodyLinkDensity = 1;
  try {
    const body = extractContent(page, {}, buildTree(page));
    if (body) {
      bodyShare = Math.min(1, textWidth(body.content) / totalWidth);
      const r = page.indexOf(body.root);
      if (r >= 0 && dom.chars[r]! > 0) bodyLinkDensity = dom.linkChars[r]! / dom.chars[r]!;
    }
  } catch {
    /* no body: the defaults say so */
  }

  // Metadata.
  let publishMeta = 0;
  for (const k of PUBLISH_META) if (page.meta.has(k)) publishMeta = 1;
  const ogType = (page.meta.get('og:type') ?? '').toLowerCase();
  const ld = jsonLdTypes(page);
  const metaTitle = page.meta.get('og:title') ?? page.meta.get('twitter:title') ?? '';
  const titleSimilarity = Math.max(page.title && h1Text ? bigramSimilarity(page.title, h1Text) : 0, page.title && metaTitle ? bigramSimilarity(page.title, metaTitle) * 0.999 : 0);

  const gerapy = [
    totalLink, log1p(totalLink), totalChars, log1p(totalChars), totalChars ? totalLink / totalChars : 0, pCount, aCount, punct,
    totalChars ? punct / totalChars : 0, clusters.length, textDensity, maxTextDensity, maxPChildren, publishMeta, titleSimilarity,
  ];
  const extra = [
    log1p(aCount),
    aCount ? titleAnchors / aCount : 0,
    log1p(best?.entries.length ?? 0),
    best?.score ?? 0,
    totalLink ? bestLinkChars / totalLink : 0,
    totalChars && best ? best.chars / totalChars : 0,
    best?.datedShare ?? 0,
    log1p(best?.meanWidth ?? 0),
    best?.chromeFactor ?? 0,
    aCount ? clusterEntries / aCount : 0,
    log1p(mainEntries),
    totalLink ? Math.min(1, mainLinkChars / totalLink) : 0,
    log1p(longest),
    longest / totalWidth,
    top3 / totalWidth,
    log1p(sentenceSegments),
    totalChars ? Math.min(1, sentenceChars / totalChars) : 0,
    mainLinkDensity,
    Math.min(h1Count, 5),
    log1p(articleTags),
    ogType === 'article' ? 1 : 0,
    ld.some((t) => LD_ARTICLE.test(t)) ? 1 : 0,
    // Any of the three ways a page declares itself one article (a publish date, og:type article,
    // an Article type in JSON-LD). Sites use one or another; alone each is a weak, sparse signal
    // the linear model under-weights, together they are on 60% of articles and 8% of lists.
    publishMeta || ogType === 'article' || ld.some((t) => LD_ARTICLE.test(t)) ? 1 : 0,
    // lengths of prose in Latin-letter units (CJK characters count double, as in textWidth)
    log1p(longestRun * scriptScale),
    proseChars ? longestRun / proseChars : 0,
    log1p(formInputs),
    log1p(proseAfterHeadline * scriptScale),
    headlineSim,
    totalChars ? Math.min(1, proseOutsideList / totalChars) : 0,
    log1p(proseOutsideList * scriptScale),
    bodyShare,
    bodyLinkDensity,
    log1p(postBlocks),
    totalChars ? Math.min(1, postChars / totalChars) : 0,
    postBlocks ? postDated / postBlocks : 0,
    log1p(datedSlots),
    datedSlots ? log1p(datedSlotProse / datedSlots) : 0,
    proseChars ? Math.min(1, datedSlotProse / proseChars) : 0,
    log1p(postMean),
    postBlocks ? postShortLinks / postBlocks : 0,
    postBlocks ? postTitleLinks / postBlocks : 0,
    log1p(postLikeBest),
    postBlocks ? postLikeBest / postBlocks : 0,
    log1p(forumWords),
    ld.some((t) => LD_FORUM.test(t)) ? 1 : 0,
    log1p(datedSegments),
    page.segments.length ? datedSegments / page.segments.length : 0,
    log1p(quoteBlocks),
    postsFound && proseChars ? Math.min(1, proseBeforePosts / proseChars) : 0,
    postsFound && proseInPosts ? Math.min(4, longestOutside / (proseInPosts / bestLike.length)) : 0,
    ...urlFeatures(page.url),
  ];
  return { values: [...gerapy, ...extra], gerapy };
}
