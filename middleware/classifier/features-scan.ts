/**
 * The shared pass over a page that every feature group reads: page totals, the script scale, one
 * pass over the elements (tag counts, densities, the headline h1) and one over the segments
 * (widths, punctuation, prose), the metadata, and the list signals. Groups add their own loops;
 * nothing here is a feature by itself.
 */
import { Element } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { punctCount, hanCount, CJK_WIDTH } from '../../src/core/text.js';
import { pageIndex, subtreeText, type PageIndex } from '../../src/core/page-index.js';
import { textWidth, listSignals, type ListSignals } from '../list/signals.js';

/** Characters of text sampled to tell CJK pages (see scriptScale) and the Han share that does. */
const SCRIPT_SAMPLE = 3000;
const CJK_SHARE = 0.3;
/** A link-dominated segment at least this long ends a run of prose (shorter ones are inline
 * references or "Share" buttons inside an article). */
export const RUN_BREAK_CHARS = 4;
/** Meta names that carry a publish date (Gerapy's publish-time feature, widened to the names
 * news sites use). */
const PUBLISH_META = ['article:published_time', 'og:published_time', 'publishdate', 'pubdate', 'publish_date', 'date', 'dc.date', 'dc.date.issued', 'datepublished', 'article:modified_time', 'sailthru.date', 'parsely-pub-date'];
/** Gerapy's text density counts only nodes with at least this much text. */
const DENSITY_MIN_CHARS = 20;
/** schema.org microdata types (`itemtype`, last path part) of one post of a discussion, and of
 * one article. The same vocabulary as the JSON-LD types; microdata is how board software and
 * comment plugins mark posts up (measured: on 19 of the 112 WCXB forum threads, 6 of the 711
 * articles carry such a type, as a comment section). */
const ITEM_DISCUSSION = /^(?:comment|answer|discussionforumposting|socialmediaposting|question|qapage)$/i;
const ITEM_ARTICLE = /^(?:article|newsarticle|blogposting|reportagenewsarticle|techarticle|scholarlyarticle)$/i;

export interface PageScan {
  page: Page;
  /** The page's shared index (src/core/page-index.ts). */
  dom: PageIndex;
  /** DFS index of <body>, -1 when the page has none. */
  bodyIdx: number;
  /** Non-space characters of the body, and of its link text. */
  totalChars: number;
  totalLink: number;
  /** CJK_WIDTH on CJK pages (the factor textWidth uses), else 1: character thresholds are
   * written for Latin text. */
  scriptScale: number;
  // one pass over the elements
  pCount: number;
  h1Count: number;
  articleTags: number;
  quoteBlocks: number;
  formInputs: number;
  /** Most <p> children of one element. */
  maxPChildren: number;
  /** Gerapy's text density (non-link text per non-link tag) over the body, and its node maximum. */
  textDensity: number;
  maxTextDensity: number;
  /** Anchors (`<a href>`) on the page. */
  aCount: number;
  /** The h1 most like the <title> (several h1: logo, headline, widget titles), -1 / '' if none. */
  h1Index: number;
  h1Text: string;
  /** Elements with a discussion / article microdata type (see ITEM_DISCUSSION), `<time>` or
   * `datetime` elements. */
  itemDiscussion: number;
  itemArticle: number;
  timeTags: number;
  // one pass over the segments
  /** textWidth of each segment's text, and its sentence punctuation. */
  segWidth: Int32Array;
  segPunct: Int32Array;
  /** Sentence punctuation on the page. */
  punct: number;
  /** Widest segment (width minus link characters) and its index (-1: none). */
  longest: number;
  longestSeg: number;
  /** Segment widths (minus link characters), widest first, and their positive sum (at least 1). */
  widths: number[];
  totalWidth: number;
  /** Non-link characters of the segments not dominated by links (see linky). */
  proseChars: number;
  // metadata
  publishMeta: number;
  ogType: string;
  ldTypes: string[];
  metaTitle: string;
  list: ListSignals;
}

/** A segment dominated by links and long enough to break a run of prose. */
export function linky(seg: Segment): boolean {
  return seg.linkChars * 2 > seg.text.length && seg.text.length >= RUN_BREAK_CHARS;
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

export function scanPage(page: Page): PageScan {
  const dom = pageIndex(page);
  const nodes = page.nodes;
  const bodyIdx = page.body === page.document ? -1 : page.indexOf(page.body as Element);
  const totalChars = bodyIdx >= 0 ? dom.chars[bodyIdx]! : dom.chars.reduce((s, v, i) => (dom.parent[i] === -1 ? s + v : s), 0);
  const totalLink = bodyIdx >= 0 ? dom.linkChars[bodyIdx]! : dom.linkChars.reduce((s, v, i) => (dom.parent[i] === -1 ? s + v : s), 0);

  let sample = '';
  for (const seg of page.segments) {
    sample += seg.text;
    if (sample.length >= SCRIPT_SAMPLE) break;
  }
  const scriptScale = sample && hanCount(sample) > CJK_SHARE * sample.replace(/\s+/g, '').length ? CJK_WIDTH : 1;

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
  let itemDiscussion = 0;
  let itemArticle = 0;
  let timeTags = 0;
  const pChildren = new Map<number, number>();
  for (let i = 0; i < dom.size; i++) {
    const n = nodes[i];
    if (!(n instanceof Element)) continue;
    const name = n.name;
    const itemtype = n.attribs.itemtype;
    if (itemtype) {
      const t = itemtype.trim().replace(/^.*\//, '');
      if (ITEM_DISCUSSION.test(t)) itemDiscussion++;
      else if (ITEM_ARTICLE.test(t)) itemArticle++;
    }
    if (name === 'time' || n.attribs.datetime !== undefined) timeTags++;
    if (name === 'p') {
      pCount++;
      const p = dom.parent[i]!;
      const c = (pChildren.get(p) ?? 0) + 1;
      pChildren.set(p, c);
      if (c > maxPChildren) maxPChildren = c;
    } else if (name === 'h1') {
      h1Count++;
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
    const tags = dom.elementCount[i]! - dom.anchorCount[i]!;
    if (dom.chars[i]! >= DENSITY_MIN_CHARS && tags > 0) {
      const d = (dom.chars[i]! - dom.linkChars[i]!) / tags;
      if (d > maxTextDensity) maxTextDensity = d;
    }
  }
  const aCount = dom.anchors.length;
  const bodyTags = bodyIdx >= 0 ? dom.elementCount[bodyIdx]! - dom.anchorCount[bodyIdx]! : dom.size;
  const textDensity = bodyTags > 0 ? (totalChars - totalLink) / bodyTags : 0;

  const segs = page.segments;
  const segWidth = new Int32Array(segs.length);
  const segPunct = new Int32Array(segs.length);
  let punct = 0;
  let longest = 0;
  let longestSeg = -1;
  let proseChars = 0;
  const widths: number[] = [];
  for (let s = 0; s < segs.length; s++) {
    const seg = segs[s]!;
    const pc = punctCount(seg.text);
    const w = textWidth(seg.text);
    segPunct[s] = pc;
    segWidth[s] = w;
    punct += pc;
    widths.push(w - seg.linkChars);
    if (w - seg.linkChars > longest) {
      longest = w - seg.linkChars;
      longestSeg = s;
    }
    if (!linky(seg)) proseChars += seg.text.length - seg.linkChars;
  }
  widths.sort((a, b) => b - a);
  const totalWidth = widths.reduce((s, v) => s + Math.max(0, v), 0) || 1;

  let publishMeta = 0;
  for (const k of PUBLISH_META) if (page.meta.has(k)) publishMeta = 1;

  return {
    page, dom, bodyIdx, totalChars, totalLink, scriptScale,
    pCount, h1Count, articleTags, quoteBlocks, formInputs, maxPChildren, textDensity, maxTextDensity, aCount, h1Index, h1Text,
    itemDiscussion, itemArticle, timeTags,
    segWidth, segPunct, punct, longest, longestSeg, widths, totalWidth, proseChars,
    publishMeta,
    ogType: (page.meta.get('og:type') ?? '').toLowerCase(),
    ldTypes: jsonLdTypes(page),
    metaTitle: page.meta.get('og:title') ?? page.meta.get('twitter:title') ?? '',
    list: listSignals(page),
  };
}

export function log1p(x: number): number {
  return Math.log(1 + x);
}
