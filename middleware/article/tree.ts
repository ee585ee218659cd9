/**
 * Flat views of the page tree for the article extractor: parent indices, subtree text sizes and
 * the pre-cleaning flags (sources §5 "pre-cleaning", §8.3 block analysis). Everything is
 * computed over `page.nodes` (DFS pre-order) with plain loops: a child always has a larger index
 * than its parent, so one backward pass aggregates subtrees and one forward pass inherits flags —
 * no recursion, so a 10,000-deep page cannot overflow the stack.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { pageIndex } from '../../src/core/page-index.js';
import { textWidth, punctCount } from '../../src/core/text.js';

/** Tags whose subtree is never article text (site chrome, forms, captions). */
const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'footer', 'header', 'form', 'figcaption', 'dialog', 'menu', 'address', 'input', 'label', 'option']);

/**
 * Class/id tokens of non-content blocks (Readability's `unlikelyCandidates`, trafilatura's
 * discard list and GNE's noise classes, as tokens rather than substrings so `addthis` ≠ `add`).
 * "Strong" tokens remove a block even when it also carries a positive token (`article-comments`,
 * `post-share`, `entry-meta`).
 */
const STRONG_NEGATIVE = new Set([
  'comment', 'comments', 'commentlist', 'respond', 'reply', 'replies', 'disqus', 'discuss', 'discussion',
  'share', 'shares', 'sharing', 'sharebar', 'sharetools', 'social', 'socials', 'addthis', 'sharethis',
  'related', 'relatedposts', 'recommend', 'recommended', 'recommendation', 'recommendations', 'recirc', 'outbrain', 'taboola',
  'sidebar', 'breadcrumb', 'breadcrumbs', 'crumbs', 'pagination', 'pager', 'newsletter', 'subscribe', 'subscription', 'signup',
  'ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertising', 'adslot', 'adunit', 'dfp', 'sponsor', 'sponsored', 'promo', 'promotion',
  'byline', 'caption', 'credit', 'credits', 'meta', 'tags', 'tagcloud', 'keywords', 'popup', 'modal', 'cookie', 'cookies', 'consent', 'gdpr',
  'trending', 'popular', 'mostread', 'footer', 'copyright', 'toolbar', 'tools', 'rss', 'print', 'masthead', 'banner',
  'skip', 'login', 'author', 'bio', 'follow', 'nav', 'navbar', 'navigation', 'menu', 'topbar', 'header',
]);
/** Tokens of embedded posts quoted by the article. */
const EMBED_TOKENS = new Set(['embed', 'embedded', 'tweet', 'oembed']);
/** Weak negative tokens: removed only when no positive token vouches for the block. */
const WEAK_NEGATIVE = new Set(['widget', 'widgets', 'extra', 'more', 'community', 'aside', 'supplemental', 'links', 'foot', 'rail']);
/** Tokens of content containers (Readability's `okMaybeItsACandidate`). */
const POSITIVE = new Set(['article', 'body', 'content', 'main', 'post', 'entry', 'story', 'text', 'blog', 'news', 'detail', 'column']);

/** Class names that describe a state or a taxonomy, not a role (`has-sidebar`, `comments-open`,
 * WordPress post classes `author-sarah`, `tag-news`): ignored. */
const STATE_CLASS = /^(?:has|with|no|is|show|js|wp|hide-on|template|page|single|layout|theme)-|-(?:open|closed|enabled|disabled|active|template|layout)$/;
/** WordPress-style post classes (`post-67202 type-post status-publish author-sarah tag-news`): on
 * an element carrying this signature, author-/tag-/category- classes name taxonomy terms. */
const POST_CLASS_SIGNATURE = /(?:^|\s)(?:type|status)-\w|(?:^|\s)post-\d+(?:\s|$)/;
const TAXONOMY_CLASS = /^(?:author|category|tag|format|post_tag|term)-/i;
/** Hidden by markup (Readability `_isProbablyVisible`). */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Screen-reader-only helpers carry text no reader sees. */
const SCREEN_READER = /(?:^|\s)(?:sr-only|screen-reader-text|visually-hidden|visuallyhidden|a11y-hidden|offscreen)(?:\s|$)/i;

/** A negatively classed block that holds at least this share of the page's paragraph text is a
 * wrapper with a misleading class (`<div class="container penci_sidebar">` around the article,
 * `<div class="widget Blog">` on Blogger), not the chrome its class names: kept. Sidebars,
 * share bars and related-links boxes hold little paragraph text; measured on AEB pages. */
const WRAPPER_SHARE = 0.5;
/** Comment sections may hold more paragraph text than a short article: their tokens remove them
 * unless they hold nearly all of it. */
const COMMENT_WRAPPER_SHARE = 0.9;
const COMMENT_TOKENS = new Set(['comment', 'comments', 'commentlist', 'respond', 'reply', 'replies', 'disqus', 'discuss', 'discussion',
  // page footers hold a long imprint paragraph on some sites: a short article has less text
  'footer', 'copyright']);

/** Measures of one segment shared by the stages. */
export interface SegInfo {
  seg: Segment;
  /** DFS index of the segment's block element. */
  el: number;
  /** Length with CJK characters weighted (textWidth). */
  len: number;
  /** Share of the text inside links. */
  linkShare: number;
  /** Sentence punctuation marks. */
  punct: number;
  /** Paragraph-like: long enough (or a sentence) and not link text. */
  good: boolean;
}



/** A segment whose link characters exceed this share is navigation (§8.3; Readability and
 * trafilatura both use 0.5). */
export const LINK_DENSITY_MAX = 0.5;
/** Minimum weighted length of a "paragraph" (a sentence of ~10 words; jusText's length_low 70). */
export const PARAGRAPH_MIN = 70;
/** Shorter text still counts as a paragraph when it ends like a sentence (jusText length_low 25). */
export const SENTENCE_MIN = 25;
const SENTENCE_END = /[.!?。！？]["'”’)）]?$/;

/** Length in Latin letters (CJK characters weighted: the core's textWidth), so the same length
 * thresholds serve Chinese and English. */
export const weightedLength = textWidth;

/** Sentence marks in a text (the core's one set, SENTENCE_PUNCT: GNE's symbol set). */
export const punctuation = punctCount;

export function segInfo(page: Page, seg: Segment): SegInfo {
  const len = weightedLength(seg.text);
  const linkShare = seg.linkChars / Math.max(1, seg.text.length);
  const p = punctuation(seg.text);
  const good = linkShare < LINK_DENSITY_MAX && (len >= PARAGRAPH_MIN || (len >= SENTENCE_MIN && p > 0 && SENTENCE_END.test(seg.text)));
  return { seg, el: page.indexOf(seg.element), len, linkShare, punct: p, good };
}

export interface Tree {
  page: Page;
  /** Measures of every segment, in order. */
  infos: SegInfo[];
  /** Paragraph text (weighted, non-link) in the subtree of node i, before pre-cleaning. */
  goodText: Float64Array;
  /** Parent DFS index of node i (-1 for roots). */
  parent: Int32Array;
  /** Node i is inside a pre-cleaned (boilerplate) subtree. */
  removed: Uint8Array;
  /** Why node i was removed itself (the first removed ancestor holds the reason). */
  reason: Map<number, string>;
}

/** Split class and id into lower-case tokens (`articleBody` → article, body; `post-share` → post, share). */
export function classTokens(el: Element): string[] {
  const raw = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  if (raw.length < 2) return [];
  const out: string[] = [];
  const taxonomy = POST_CLASS_SIGNATURE.test(raw);
  for (const name of raw.split(/\s+/)) {
    if (!name || STATE_CLASS.test(name.toLowerCase())) continue;
    if (taxonomy && TAXONOMY_CLASS.test(name)) continue;
    for (const t of name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/)) if (t) out.push(t);
  }
  return out;
}

/** Why an element is boilerplate by itself (tag, class, hidden), or undefined. */
function boilerplateReason(el: Element, share: number): string | undefined {
  const a = el.attribs;
  if (a.hidden !== undefined || (a.style && HIDDEN_STYLE.test(a.style)) || (a.class && SCREEN_READER.test(a.class))) return 'hidden';
  if (BOILERPLATE_TAGS.has(el.name)) {
    // a whole-page <form> (ASP.NET) or <header> wrapper is layout, not chrome
    return share >= WRAPPER_SHARE ? undefined : `tag:${el.name}`;
  }
  if (a.role === 'navigation' || a.role === 'complementary' || a.role === 'contentinfo' || a.role === 'banner') {
    return share >= WRAPPER_SHARE ? undefined : `role:${a.role}`;
  }
  const tokens = classTokens(el);
  if (!tokens.length) return undefined;
  let strong: string | undefined;
  let weak: string | undefined;
  let comment = false;
  let positive = false;
  for (const t of tokens) {
    if (STRONG_NEGATIVE.has(t)) strong ??= t;
    else if (WEAK_NEGATIVE.has(t)) weak ??= t;
    if (COMMENT_TOKENS.has(t)) comment = true;
    if (POSITIVE.has(t)) positive = true;
  }
  if (comment) return share >= COMMENT_WRAPPER_SHARE ? undefined : `class:${strong}`;
  // embedded posts (`social-media-embed`, `twitter-tweet`) are quoted content, not a share bar
  if (tokens.some((t) => EMBED_TOKENS.has(t)) && hasQuote(el)) return undefined;
  if (share >= WRAPPER_SHARE) return undefined;
  if (strong) return `class:${strong}`;
  if (weak && !positive) return `class:${weak}`;
  return undefined;
}

/** Whether a <blockquote> is among the first descendants (an embedded post quotes its text). */
function hasQuote(el: Element): boolean {
  const stack: AnyNode[] = [...el.children];
  for (let seen = 0; stack.length && seen < 200; seen++) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    if (n.name === 'blockquote') return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}

/** The flat tree views and the pre-cleaning flags of a page: built once per page (the page-type
 * features and the article extractor share it, through the page's memo) and never modified after. */
export function buildTree(page: Page): Tree {
  return page.memo('article:tree', () => build(page));
}

function build(page: Page): Tree {
  const nodes = page.nodes;
  const n = nodes.length;
  const { parent } = pageIndex(page);
  const goodText = new Float64Array(n);
  const infos = page.segments.map((s) => segInfo(page, s));
  let total = 0;
  for (const s of infos) {
    if (s.good && s.el >= 0) {
      goodText[s.el] = goodText[s.el]! + s.len * (1 - s.linkShare);
      total += s.len * (1 - s.linkShare);
    }
  }
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p >= 0) goodText[p] = goodText[p]! + goodText[i]!;
  }
  total = Math.max(1, total);
  const bodyIndex = page.indexOf(page.body as AnyNode);
  const removed = new Uint8Array(n);
  const reason = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p >= 0 && removed[p]) {
      removed[i] = 1;
      continue;
    }
    const node = nodes[i]!;
    if (!(node instanceof Element) || i <= bodyIndex || node.name === 'html' || node.name === 'body') continue;
    const why = boilerplateReason(node, goodText[i]! / total);
    if (why) {
      removed[i] = 1;
      reason.set(i, why);
    }
  }
  return { page, infos, goodText, parent, removed, reason };
}
