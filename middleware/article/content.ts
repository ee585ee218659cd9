/**
 * Article body: GNE's text/symbol density locates the body (ALGORITHMS §5, without the `ln σ`
 * factor), a link-density block balance decides how far it extends (§8.3), and a trafilatura-like
 * pass keeps the paragraphs inside it: headings and lists stay, captions, bylines, share and
 * "read more" lines go, and the text stops at a comment section.
 *
 * Works on the domhandler tree and the page's segments (one pass each way over `page.nodes`).
 */
import { Element, Text, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/page/page.js';
import { buildTree, type Tree } from './tree.js';

/** Sentence punctuation (GNE's symbol set: Latin and CJK sentence marks). */
const PUNCT = /[,.;:!?，。；：！？、…]/g;
const HAN = /\p{Script=Han}/gu;

/** A Han character carries about as much as a short Latin word (≈ 2.5 chars with its space);
 * weighting Han text lets the same length thresholds serve Chinese and English. */
const HAN_WEIGHT = 2.5;
/** A segment whose link characters exceed this share is navigation (§8.3, Readability 0.5 for
 * lists; trafilatura uses 0.5 too). */
const LINK_DENSITY_MAX = 0.5;
/** Minimum weighted length of a "paragraph" (a sentence of ~10 words; jusText's length_low 70). */
const PARAGRAPH_MIN = 70;
/** Shorter text still counts as a paragraph when it ends like a sentence (jusText length_low 25). */
const SENTENCE_MIN = 25;
/** Penalty weight of non-content text in the block balance: one character of link text cancels
 * one character of paragraph text (balance, §8.3). */
const NOISE_WEIGHT = 1;
/** Short non-link lines count a little against a block (a label, a date, a button text). */
const SHORT_LINE_PENALTY = 3;
/** Body text below this weighted length is no article (Readability's charThreshold is 500 chars
 * on the whole article; a short news brief is ~ 2 sentences). */
export const MIN_ARTICLE_LENGTH = 140;

/** Short lines that are never article text, in several languages (share bars, ads, prompts). */
const JUNK_LINE =
  /^(?:advertisement|advertising|sponsored( content)?|ad|read more|continue reading|read (the )?full (story|article)|share( this( article| story)?| on \w+)?|follow us|sign up|subscribe( now)?|related( articles| stories| content| posts)?|recommended( for you)?|more from|see also|also read|read also|click here|tap here|image:|photo:|getty images|(photo|image) (credit|courtesy)|credit:|loading|print|email|comments?|top|back to top|更多|相关(阅读|新闻|文章|推荐)|责任编辑|分享到|点击|广告|扫描二维码|关注我们|返回|打印|关闭(窗口)?|上一篇|下一篇|推荐阅读|热门推荐|延伸阅读)\b/i;
/** Only lines shorter than this (weighted) are tested against JUNK_LINE. */
const JUNK_LINE_MAX = 90;
/** A heading like these starts the comment section: stop there (trafilatura stops at comments). */
const COMMENT_HEADING = /^(?:\d+\s+)?(?:comments?|responses?|replies|discussion|leave a (reply|comment)|post a comment|add a comment|join the (conversation|discussion)|reader comments|kommentare?|commentaires?|comentarios?|评论|网友评论|发表评论|留言|读者评论)\b/i;
/** Lines that are a byline or a dateline, dropped at the head of the body. */
const BYLINE = /^(?:by|von|par|por|di|door|作者|记者|文|撰文|来源|编辑|发布时间|时间)\s*[:：/\s]/i;

export interface ContentOptions {
  /** Segments that are not site boilerplate (page minus site template), when known. */
  segments?: Segment[];
  /** true when `segments` was narrowed by a site template. */
  templateApplied?: boolean;
  /** The title, so a heading that repeats it is not part of the body. */
  title?: string;
}

export interface ContentResult {
  content: string;
  contentHtml: string;
  images: string[];
  /** The element chosen as the article body. */
  root: Element;
  /** Kept segments, in order. */
  paragraphs: Segment[];
  tree: Tree;
}

function weightedLength(text: string): number {
  HAN.lastIndex = 0;
  let han = 0;
  while (HAN.exec(text)) han++;
  return text.length - han + han * HAN_WEIGHT;
}

function punct(text: string): number {
  PUNCT.lastIndex = 0;
  let n = 0;
  while (PUNCT.exec(text)) n++;
  return n;
}

interface SegInfo {
  seg: Segment;
  el: number;
  len: number;
  linkShare: number;
  good: boolean;
  /** Allowed by the site template (true when no template is known). */
  allowed: boolean;
}

/**
 * Extract the article body, or undefined when the page holds no body text.
 */
export function extractContent(page: Page, options: ContentOptions = {}, tree: Tree = buildTree(page)): ContentResult | undefined {
  const { parent, removed } = tree;
  const nodes = page.nodes;
  const n = nodes.length;
  if (!n) return undefined;
  const allowedSet = options.templateApplied && options.segments ? new Set(options.segments.map((s) => s.index)) : undefined;

  // Per-segment measures.
  const infos: SegInfo[] = [];
  for (const seg of page.segments) {
    const el = page.indexOf(seg.element);
    if (el < 0 || removed[el]) continue;
    const len = weightedLength(seg.text);
    const linkShare = seg.linkChars / Math.max(1, seg.text.length);
    const p = punct(seg.text);
    const good = linkShare < LINK_DENSITY_MAX && (len >= PARAGRAPH_MIN || (len >= SENTENCE_MIN && p > 0 && /[.!?。！？]["'”’)]?$/.test(seg.text)));
    infos.push({ seg, el, len, linkShare, good, allowed: !allowedSet || allowedSet.has(seg.index) });
  }

  // GNE statistics per element (T, LT, TG, LTG, Sb, PNum) and the block balance, bottom-up.
  const T = new Float64Array(n);
  const LT = new Float64Array(n);
  const SB = new Float64Array(n);
  const TG = new Float64Array(n);
  const LTG = new Float64Array(n);
  const PN = new Float64Array(n);
  const balance = new Float64Array(n);
  for (const s of infos) {
    const nonLink = s.len * (1 - s.linkShare);
    T[s.el] += s.len;
    LT[s.el] += s.len * s.linkShare;
    SB[s.el] += punct(s.seg.text);
    if (!s.allowed) balance[s.el] -= s.len * NOISE_WEIGHT;
    else if (s.good) balance[s.el] += nonLink;
    else if (s.linkShare >= LINK_DENSITY_MAX) balance[s.el] -= s.len * s.linkShare * NOISE_WEIGHT;
    else balance[s.el] -= SHORT_LINE_PENALTY;
    // a <br>-separated run counts as a paragraph for PNum (old Chinese pages have no <p>)
    if (s.good && s.seg.element.name !== 'p') PN[s.el] += 1;
  }
  for (let i = n - 1; i > 0; i--) {
    const node = nodes[i]!;
    if (removed[i] || !(node instanceof Element)) continue;
    const p = parent[i]!;
    if (p < 0) continue;
    T[p] += T[i]!;
    LT[p] += LT[i]!;
    SB[p] += SB[i]!;
    TG[p] += TG[i]! + 1;
    LTG[p] += LTG[i]! + (node.name === 'a' ? 1 : 0);
    PN[p] += PN[i]! + (node.name === 'p' ? 1 : 0);
    balance[p] += balance[i]!;
  }

  // GNE: score = TD · log10(PNum + 2) · ln(SbD), TD = (T − LT)/(TG − LTG), SbD = (T − LT)/(Sb + 1).
  let best = -1;
  let bestScore = -Infinity;
  const bodyIndex = Math.max(0, page.indexOf(page.body as AnyNode));
  for (let i = bodyIndex; i < n; i++) {
    const node = nodes[i]!;
    if (removed[i] || !(node instanceof Element)) continue;
    const text = T[i]! - LT[i]!;
    if (text < MIN_ARTICLE_LENGTH) continue;
    const td = text / Math.max(1, TG[i]! - LTG[i]!);
    const sbd = Math.max(1, text / (SB[i]! + 1));
    const score = td * Math.log10(PN[i]! + 2) * Math.log(sbd);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0) return undefined;

  // Extent: the ancestor-or-self of the GNE node with the best block balance (siblings of the
  // dense node that are paragraphs too are recovered; navigation around it costs).
  let root = best;
  for (let a = best; a >= 0; a = parent[a]!) {
    if (removed[a]) break;
    if (balance[a]! > balance[root]!) root = a;
    if (a === bodyIndex) break;
  }
  const rootEl = nodes[root] as Element;

  // Keep the paragraphs inside the root.
  const rootEnd = subtreeEnd(tree, root);
  const inRoot = infos.filter((s) => s.seg.index > root && s.seg.index <= rootEnd);
  const kept = selectParagraphs(inRoot, options.title);
  const keptLen = kept.reduce((a, s) => a + (s.good ? s.len : 0), 0);
  if (keptLen < MIN_ARTICLE_LENGTH) return undefined;

  const paragraphs = kept.map((s) => s.seg);
  const keepText = new Uint8Array(n);
  for (const s of paragraphs) for (let i = s.index; i <= s.end; i++) keepText[i] = 1;
  const { html, images } = serialise(page, tree, rootEl, keepText);
  return { content: paragraphs.map((s) => s.text).join('\n'), contentHtml: html, images, root: rootEl, paragraphs, tree };
}

/** Last DFS index inside the subtree of node i. */
export function subtreeEnd(tree: Tree, i: number): number {
  const nodes = tree.page.nodes;
  let node: AnyNode | null = nodes[i]!;
  // the next node in pre-order after the subtree is the next sibling of the closest ancestor that has one
  while (node) {
    let sib: AnyNode | null = node.next;
    while (sib && tree.page.indexOf(sib) < 0) sib = sib.next;
    if (sib) return tree.page.indexOf(sib) - 1;
    node = node.parent as AnyNode | null;
  }
  return nodes.length - 1;
}

/** trafilatura-like paragraph pass over the segments of the chosen root. */
function selectParagraphs(segs: SegInfo[], title: string | undefined): SegInfo[] {
  const out: SegInfo[] = [];
  const normTitle = title ? title.replace(/\s+/g, ' ').trim().toLowerCase() : undefined;
  let seenGood = false;
  for (const s of segs) {
    if (!s.allowed) continue;
    const text = s.seg.text;
    const tag = s.seg.element.name;
    const heading = /^h[1-6]$/.test(tag);
    if (seenGood && heading && COMMENT_HEADING.test(text)) break;
    if (seenGood && !heading && s.len < JUNK_LINE_MAX && COMMENT_HEADING.test(text) && s.linkShare < LINK_DENSITY_MAX) {
      if (/^(?:\d+\s+)?comments?$|^评论$/i.test(text)) break;
    }
    if (s.linkShare >= LINK_DENSITY_MAX && !s.good) continue;
    if (s.len < JUNK_LINE_MAX && JUNK_LINE.test(text)) continue;
    if (normTitle && (heading || !seenGood) && text.toLowerCase() === normTitle) continue;
    if (tag === 'h1' && !seenGood) continue;
    if (!seenGood && !s.good && (BYLINE.test(text) || s.len < SENTENCE_MIN)) continue;
    if (s.good) seenGood = true;
    out.push(s);
  }
  // drop trailing short non-sentences (tags, credits, "share") after the last paragraph
  while (out.length && !out[out.length - 1]!.good && out[out.length - 1]!.len < SENTENCE_MIN) out.pop();
  return out;
}

const KEEP_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'pre', 'code', 'em', 'strong', 'b', 'i', 'u', 'sub', 'sup', 'a', 'img', 'br', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'figure', 'q', 'cite', 'mark', 's', 'del', 'ins']);
const VOID = new Set(['img', 'br']);
/** Images smaller than this in a declared dimension are icons or tracking pixels. */
const MIN_IMAGE_SIDE = 48;

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

export function imageUrl(page: Page, el: Element): string | undefined {
  const a = el.attribs;
  const w = Number.parseInt(a.width ?? '', 10);
  const h = Number.parseInt(a.height ?? '', 10);
  if ((w && w < MIN_IMAGE_SIDE) || (h && h < MIN_IMAGE_SIDE)) return undefined;
  const lazy = a['data-src'] ?? a['data-original'] ?? a['data-lazy-src'] ?? a['data-url'];
  let src = lazy ?? a.src;
  if ((!src || src.startsWith('data:')) && a.srcset) src = a.srcset.split(',')[0]!.trim().split(/\s+/)[0];
  if (!src || src.startsWith('data:')) return undefined;
  return page.resolve(src);
}

/** Cleaned HTML of the kept text under the root (iterative; attributes dropped except href/src). */
function serialise(page: Page, tree: Tree, root: Element, keepText: Uint8Array): { html: string; images: string[] } {
  const out: string[] = [];
  const images: string[] = [];
  type Frame = { node: AnyNode } | { close: string };
  const stack: Frame[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push({ node: root.children[i]! });
  while (stack.length) {
    const f = stack.pop()!;
    if ('close' in f) {
      out.push(f.close);
      continue;
    }
    const node = f.node;
    const idx = page.indexOf(node);
    if (node instanceof Text) {
      if (idx >= 0 && keepText[idx]) out.push(escapeText(node.data));
      continue;
    }
    if (!(node instanceof Element) || idx < 0 || tree.removed[idx]) continue;
    const name = node.name;
    if (name === 'img') {
      const src = imageUrl(page, node);
      if (src) {
        images.push(src);
        out.push(`<img src="${escapeAttr(src)}"${node.attribs.alt ? ` alt="${escapeAttr(node.attribs.alt)}"` : ''}>`);
      }
      continue;
    }
    const keep = KEEP_TAGS.has(name);
    if (keep) {
      if (name === 'a') {
        const href = page.resolve(node.attribs.href);
        out.push(href ? `<a href="${escapeAttr(href)}">` : '<a>');
      } else out.push(`<${name}>`);
      if (VOID.has(name)) continue;
      stack.push({ close: `</${name}>` });
    } else if (name === 'div' || name === 'section' || name === 'article' || name === 'main') {
      // block wrappers become line breaks between their content
      stack.push({ close: '\n' });
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]! });
  }
  let html = out.join('');
  // drop elements left empty by the cleaning (repeat: nesting)
  const EMPTY = /<(p|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|code|em|strong|b|i|u|a|table|thead|tbody|tr|td|th|figure|q|cite|mark|s|del|ins|sub|sup)>\s*<\/\1>/g;
  for (let k = 0; k < 20; k++) {
    const next = html.replace(EMPTY, '');
    if (next === html) break;
    html = next;
  }
  html = html.replace(/\n\s*\n+/g, '\n').trim();
  return { html, images: [...new Set(images)] };
}
