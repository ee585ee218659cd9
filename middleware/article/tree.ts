/**
 * Flat views of the page tree for the article extractor: parent indices, subtree text sizes and
 * the pre-cleaning flags (ALGORITHMS §5 "pre-cleaning", §8.3 block analysis). Everything is
 * computed over `page.nodes` (DFS pre-order) with plain loops: a child always has a larger index
 * than its parent, so one backward pass aggregates subtrees and one forward pass inherits flags —
 * no recursion, so a 10,000-deep page cannot overflow the stack.
 */
import { Element, Text, type AnyNode } from 'domhandler';
import type { Page } from '../../src/page/page.js';

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
  'trending', 'popular', 'mostread', 'footer', 'copyright', 'toolbar', 'tools', 'rss', 'print', 'widget', 'widgets', 'masthead', 'banner',
  'hidden', 'hide', 'invisible', 'skip', 'login', 'author', 'bio', 'follow', 'nav', 'navbar', 'navigation', 'menu', 'topbar', 'header',
]);
/** Weak negative tokens: removed only when no positive token vouches for the block. */
const WEAK_NEGATIVE = new Set(['side', 'extra', 'more', 'community', 'aside', 'supplemental', 'links', 'list', 'foot', 'top', 'bottom', 'rail', 'right', 'left']);
/** Tokens of content containers (Readability's `okMaybeItsACandidate`). */
const POSITIVE = new Set(['article', 'body', 'content', 'main', 'post', 'entry', 'story', 'text', 'blog', 'news', 'detail', 'column']);

/** Class names that describe a state, not a role (`has-sidebar`, `comments-open`): ignored. */
const STATE_CLASS = /^(?:has|with|no|is|show|js|wp|hide-on|template|page|single|layout|theme)-|-(?:open|closed|enabled|disabled|active|template|layout)$/;
/** Hidden by markup (Readability `_isProbablyVisible`). */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Screen-reader-only helpers carry text no reader sees. */
const SCREEN_READER = /(?:^|\s)(?:sr-only|screen-reader-text|visually-hidden|visuallyhidden|a11y-hidden|offscreen)(?:\s|$)/i;

/** A negatively classed block is kept when it holds at least this share of the page's text and no
 * strong token (a page wrapper with a misleading class); measured on AEB pages with whole-page
 * wrappers such as `<div class="main-wrap sidebar-right">`. */
const WRAPPER_SHARE = 0.5;
/** Above this share of the page's text nothing is removed by class (safety net). */
const NEVER_REMOVE_SHARE = 0.8;

export interface Tree {
  page: Page;
  /** Parent DFS index of node i (-1 for roots). */
  parent: Int32Array;
  /** Raw text characters (trimmed) in the subtree of node i. */
  rawText: Float64Array;
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
  for (const name of raw.split(/\s+/)) {
    if (!name || STATE_CLASS.test(name.toLowerCase())) continue;
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
  if (share >= NEVER_REMOVE_SHARE) return undefined;
  const tokens = classTokens(el);
  if (!tokens.length) return undefined;
  let strong: string | undefined;
  let weak: string | undefined;
  let positive = false;
  for (const t of tokens) {
    if (STRONG_NEGATIVE.has(t)) strong ??= t;
    else if (WEAK_NEGATIVE.has(t)) weak ??= t;
    if (POSITIVE.has(t)) positive = true;
  }
  if (strong && !(positive && share >= WRAPPER_SHARE)) return `class:${strong}`;
  if (weak && !positive && share < WRAPPER_SHARE) return `class:${weak}`;
  return undefined;
}

/** Build the flat tree views and the pre-cleaning flags. */
export function buildTree(page: Page): Tree {
  const nodes = page.nodes;
  const n = nodes.length;
  const parent = new Int32Array(n).fill(-1);
  const rawText = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    const p = node.parent;
    parent[i] = p ? page.indexOf(p as AnyNode) : -1;
    if (node instanceof Text) rawText[i] = node.data.trim().length;
  }
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p >= 0) rawText[p] += rawText[i]!;
  }
  const bodyIndex = page.indexOf(page.body as AnyNode);
  const total = Math.max(1, bodyIndex >= 0 ? rawText[bodyIndex]! : rawText.reduce((a, b) => Math.max(a, b), 0));
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
    const why = boilerplateReason(node, rawText[i]! / total);
    if (why) {
      removed[i] = 1;
      reason.set(i, why);
    }
  }
  return { page, parent, rawText, removed, reason };
}
