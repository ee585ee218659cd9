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
import { cachedByString } from '../../src/core/string-cache.js';
import { borderStart, layoutOf } from '../layout/index.js';

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
/** The same state prefixes written in camelCase (`hasSidebar`, `withComments`, `isHeader`). */
const STATE_CAMEL = /^(?:has|with|no|is|show)[A-Z]/;
/** Class-name prefixes of page builders (Elementor, Divi, WPBakery, Gutenberg blocks, Beaver
 * Builder, Avada, Bricks): their `…-widget-…`, `…-column-…` names are layout, the same wrapper
 * around every block of the page, so their layout words are not read as roles (issue 11: 80
 * Elementor pages of WCXB dev lost all their text to `widget`). */
const BUILDER_PREFIX = /^(?:elementor|et_pb|et-pb|vc_|wpb_|wp-block|fl-|fusion-|brxe-|kt-|uagb-|gb-|av_|avia-)/i;
/** Layout words that page builders put in every wrapper's class name. */
const BUILDER_LAYOUT = new Set(['widget', 'widgets', 'wrap', 'module', 'element', 'column', 'section', 'row', 'container', 'inner', 'extra', 'more']);
/** WordPress-style post classes (`post-67202 type-post status-publish author-sarah tag-news`): on
 * an element carrying this signature, author-/tag-/category- classes name taxonomy terms. */
const POST_CLASS_SIGNATURE = /(?:^|\s)(?:type|status)-\w|(?:^|\s)post-\d+(?:\s|$)|(?:^|\s)hentry(?:\s|$)/;
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
/** A removal rule whose matching elements together hold at least this share of the page's
 * paragraph text is not applied on the page (see build). Same figure as WRAPPER_SHARE: a rule
 * that would remove most of the prose has met the page's content, not its chrome. */
const RULE_COVER_SHARE = 0.5;
/** The same for semantic chrome (`<nav>`, `<aside>`, role=complementary, `sidebar`): a side column
 * of teasers can hold as much prose as a short article beside it (an AEB page: 0.55), so only a
 * rule that would leave under a fifth of the prose gives way. WCXB dev, article mode: semantic
 * rules at 0.5 gained 3 pages and lost 4 against this. */
const SEMANTIC_COVER_SHARE = 0.8;
/** Class tokens of a side column. */
const COLUMN_TOKENS = new Set(['sidebar', 'rail', 'aside']);
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
export function classTokens(el: Element): readonly string[] {
  const raw = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  if (raw.length < 2) return NO_TOKENS;
  // pages repeat their class strings: split each once (a profile of the zero-config batch showed
  // the splitting at 3 % of its CPU)
  return cachedClassTokens(raw);
}

const NO_TOKENS: readonly string[] = Object.freeze([]);

const cachedClassTokens = cachedByString(splitClassTokens);

function splitClassTokens(raw: string): readonly string[] {
  const out: string[] = [];
  const taxonomy = POST_CLASS_SIGNATURE.test(raw);
  for (const name of raw.split(/\s+/)) {
    if (!name || STATE_CLASS.test(name.toLowerCase()) || STATE_CAMEL.test(name)) continue;
    if (taxonomy && TAXONOMY_CLASS.test(name)) continue;
    const builder = BUILDER_PREFIX.test(name);
    for (const t of name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/)) if (t && !(builder && BUILDER_LAYOUT.has(t))) out.push(t);
  }
  return out;
}

/**
 * The removal rule an element matches by itself (hidden, a chrome tag or role, a negative class
 * token), as a key (`hidden`, `tag:footer`, `role:navigation`, `class:share`), or undefined.
 * Shares and the page-level cover are applied by the caller.
 */
function removalKey(el: Element, tokens: readonly string[]): { key: string; comment: boolean } | undefined {
  const a = el.attribs;
  if (a.hidden !== undefined || (a.style && HIDDEN_STYLE.test(a.style)) || (a.class && SCREEN_READER.test(a.class))) return { key: 'hidden', comment: false };
  if (BOILERPLATE_TAGS.has(el.name)) return { key: `tag:${el.name}`, comment: false };
  if (a.role === 'navigation' || a.role === 'complementary' || a.role === 'contentinfo' || a.role === 'banner') return { key: `role:${a.role}`, comment: false };
  // elements that declare the main content are never chrome by their class (`<main class="hasSidebar">`)
  if (el.name === 'main' || a.role === 'main') return undefined;
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
  // embedded posts (`social-media-embed`, `twitter-tweet`) are quoted content, not a share bar
  if (tokens.some((t) => EMBED_TOKENS.has(t)) && hasQuote(el)) return undefined;
  if (strong) return { key: `class:${strong}`, comment };
  if (weak && !positive) return { key: `class:${weak}`, comment };
  return undefined;
}

/** The cover above which a rule is not applied on a page (see build). */
function coverLimit(k: { key: string; comment: boolean }): number {
  if (k.comment) return COMMENT_WRAPPER_SHARE;
  // a semantic chrome tag or role (and a class naming a side column) is chosen by the author for
  // the page's frame: it gives way only when it would take nearly all of the prose
  if (!k.key.startsWith('class:') || COLUMN_TOKENS.has(k.key.slice(6))) return SEMANTIC_COVER_SHARE;
  return RULE_COVER_SHARE;
}

/** A hidden copy: most of the paragraph text in the subtree [from, to] also appears outside it. */
function duplicated(infos: SegInfo[], from: number, to: number): boolean {
  const outside = new Set<string>();
  for (const s of infos) if (s.good && (s.seg.index < from || s.seg.index > to)) outside.add(s.seg.text);
  let inside = 0;
  let shown = 0;
  for (const s of infos) {
    if (!s.good || s.seg.index < from || s.seg.index > to) continue;
    inside += s.len;
    if (outside.has(s.seg.text)) shown += s.len;
  }
  return shown > inside / 2;
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
  const { parent, end } = pageIndex(page);
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
  // Pass 1: the rule each element matches, and per rule the paragraph text of the outermost
  // elements matching it. A rule whose elements together hold most of the page's prose names the
  // page's content wrappers (every post of a thread classed `comment`, every card of a list
  // carrying `author-…`, a builder's `widget` on every block), not its chrome: it is not applied
  // on this page.
  const keys: (ReturnType<typeof removalKey>)[] = new Array(n);
  const cover = new Map<string, number>();
  const coverEnd = new Map<string, number>();
  // a rendered page's border regions (the layout stage: middleware/layout), as semantic chrome
  const layout = layoutOf(page);
  for (let i = bodyIndex + 1; i < n; i++) {
    const node = nodes[i]!;
    if (!(node instanceof Element) || node.name === 'html' || node.name === 'body') continue;
    const border = borderStart(layout, i);
    const k = removalKey(node, classTokens(node)) ?? (border ? { key: border === 'hidden' ? 'hidden' : `layout:${border}`, comment: false } : undefined);
    if (!k) continue;
    keys[i] = k;
    if (i <= (coverEnd.get(k.key) ?? -1)) continue;
    coverEnd.set(k.key, end[i]!);
    cover.set(k.key, (cover.get(k.key) ?? 0) + goodText[i]!);
  }
  const removed = new Uint8Array(n);
  const reason = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p >= 0 && removed[p]) {
      removed[i] = 1;
      continue;
    }
    const k = keys[i];
    if (!k) continue;
    const share = goodText[i]! / total;
    const limit = k.comment ? COMMENT_WRAPPER_SHARE : WRAPPER_SHARE;
    // hidden copies of the text (a print or mobile duplicate of the article) stay hidden
    // a wrapper with a misleading class or tag holds the article itself; a hidden one is the page's
    // text revealed by a script (tabs, a lazy reveal), unless it is a copy of text shown elsewhere
    // (a print or mobile duplicate of the article)
    if (share >= limit && (k.key !== 'hidden' || !duplicated(infos, i, end[i]!))) continue;
    if (k.key !== 'hidden') {
      if (cover.get(k.key)! / total >= coverLimit(k)) continue;
    }
    removed[i] = 1;
    reason.set(i, k.key);
  }
  return { page, infos, goodText, parent, removed, reason };
}
