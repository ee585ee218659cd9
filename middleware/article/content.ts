/**
 * Article body: GNE's text/symbol density locates the body (sources §5, without the `ln σ`
 * factor), a link-density block balance decides how far it extends (§8.3), and a trafilatura-like
 * pass keeps the paragraphs inside it: headings and lists stay, captions, bylines, share and
 * "read more" lines go, and the text stops at a comment section.
 *
 * Works on the domhandler tree and the page's segments (one pass each way over `page.nodes`).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, Text, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { buildTree, LINK_DENSITY_MAX, PARAGRAPH_MIN, SENTENCE_MIN, type SegInfo, type Tree } from './tree.js';

/** Penalty weight of non-content text in the block balance: one character of link text cancels
 * one character of paragraph text (balance, §8.3). */
const NOISE_WEIGHT = 1;
/** Block tags whose short plain lines are data, not labels (no SHORT_LINE_PENALTY). */
const DATA_LINE_TAGS = new Set(['td', 'th', 'li', 'dd']);
/** Short non-link lines count a little against a block (a label, a date, a button text). */
const SHORT_LINE_PENALTY = 3;
/** The GNE region is kept unless another region's block balance exceeds it by this factor
 * (measured on AEB: 1 would ignore GNE entirely, large values trust it always). */
const GNE_TRUST = 0.8;
/** Inside the chosen body, a long punctuated line is dropped only above this link share. */
const BODY_LINK_DENSITY_MAX = 0.8;
/** Levels above the root searched for like siblings (the chunk wrapper is often a grid cell
 * two levels up: `div.grid > div.grid-item > div.body`). */
const SIBLING_LEVELS = 2;
/** Weight of non-paragraph lines when deciding whether a body is long enough to be an article. */
const SHORT_LINE_WEIGHT = 0.5;
/** Body text below this weighted length is no article (Readability's charThreshold is 500 chars
 * on the whole article; a short news brief is ~ 2 sentences). */
export const MIN_ARTICLE_LENGTH = 140;

/** Short lines that are never article text, in several languages (share bars, ads, prompts): a
 * word table, one entry a regex fragment, earlier entries tried first. */
const JUNK_WORDS = [
  // ads and sponsored blocks
  'advertisement', 'advertising', 'advert', "don'?t miss",
  'this (?:slideshow|video|content|feature|embed) requires javascript', String.raw`\[\/?\w+[^\]]*\]`,
  'sponsored( content)?', 'ad',
  // prompts and share bars
  'read more', 'continue reading', 'read (the )?full (story|article)', String.raw`share( this( article| story)?| on \w+)?`,
  'follow us', 'sign up', 'subscribe( now)?', 'related( articles| stories| content| posts)?', 'recommended( for you)?',
  'more from', 'see also', 'also read', 'read also', 'click here', 'tap here',
  // picture credits
  'image:', 'photo:', 'getty images', '(photo|image) (credit|courtesy)', 'credit:',
  // page controls
  'loading', 'print', 'email', 'comments?', 'top', 'back to top',
  // Chinese
  '更多', '相关(阅读|新闻|文章|推荐)', '责任编辑', '分享到', '点击', '广告', '扫描二维码', '关注我们', '返回', '打印', '关闭(窗口)?',
  '上一篇', '下一篇', '推荐阅读', '热门推荐', '延伸阅读',
];
const JUNK_LINE = new RegExp(String.raw`^(?:${JUNK_WORDS.join('|')})\b`, 'i');
/** Picture captions and credits written as text: "… (Image: GETTY)", "Photo: Reuters". */
const CAPTION = /\((?:image|photo|picture|pic|credit|foto|bild|illustration)s?\s*:[^)]*\)\s*$|^(?:image|photo|picture|credit|foto|bild)s?\s*:|\b(?:getty images|shutterstock|istock)\s*$/i;
/** Captions are short: only lines below this (weighted) are tested against CAPTION. */
const CAPTION_MAX = 300;
/** Only lines shorter than this (weighted) are tested against JUNK_LINE. */
const JUNK_LINE_MAX = 90;
/** A heading like these starts the comment section: stop there (trafilatura stops at comments). */
const COMMENT_WORDS = [
  'comments?', 'responses?', 'replies', 'discussion', 'leave a (reply|comment)', 'post a comment', 'add a comment',
  'join the (conversation|discussion)', 'reader comments', 'tell us what you think', String.raw`what do you think\?`,
  'kommentare?', 'commentaires?', 'comentarios?', 'comentários', 'commenti', 'reacties',
  'отзывы', 'комментарии', 'добавить (?:отзыв|комментарий)', 'コメント',
  '评论', '网友评论', '发表评论', '留言', '读者评论',
];
const COMMENT_HEADING = new RegExp(String.raw`^(?:\d+\s+)?(?:${COMMENT_WORDS.join('|')})\b`, 'i');
/** A heading (or short line) like these starts a list of other articles: the body ends there. */
const RELATED_WORDS = [
  'related', 'want more (?:stories|news|articles)',
  'самые популярные', 'читайте также', 'похожие (?:статьи|новости)', 'популярное', '関連記事', 'おすすめ記事',
  'more (?:stories|news|from|on|articles|coverage)', 'read (?:next|more)', 'you (?:may|might) (?:also )?(?:like|be interested|enjoy)',
  'recommended', 'most (?:popular|read|viewed)', 'trending', 'popular (?:posts|stories)', 'latest (?:news|stories|posts)',
  'also (?:on|in)', 'what to read next', 'further reading',
  'você pode gostar', 'veja também', 'leia também', 'mais lidas', 'te puede interesar', 'lee también', 'le puede interesar',
  'à lire aussi', 'vous aimerez aussi', 'lire aussi', 'das könnte sie auch interessieren', 'mehr zum thema', 'ähnliche artikel',
  'leggi anche', 'potrebbe interessarti',
  '相关(?:阅读|新闻|文章|推荐|报道)', '推荐阅读', '热门(?:文章|推荐|新闻)', '延伸阅读', '猜你喜欢', '更多(?:新闻|文章)',
];
const RELATED_HEADING = new RegExp(`^(?:${RELATED_WORDS.join('|')})`, 'i');
/** Closing lines of newsroom boilerplate (contact, newsletter, rights), dropped from the end of the body. */
const TAIL_JUNK = /subscribe|newsletter|sign up|follow (?:us|him|her|me|them) on|may be reached at|can be reached at|contact (?:him|her|them|us) at|未经授权|转载请注明|本文来源|责任编辑/i;
/** Only short closing lines are tested against TAIL_JUNK (weighted length). */
const TAIL_JUNK_MAX = 220;
/** A line before the body that starts with a date, or holds two or more meta cues, is the
 * article's meta line ("2020-11-23 10:22 出处：快科技 作者：宪瑞 编辑：宪瑞 评论(18)"). */
const LEADING_DATE = /^\s*(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4})/i;
const META_CUES = /来源|出处|作者|编辑|责编|阅读|浏览|评论|字号|点击|发布|updated|published|posted|comments|min read|share/gi;
/** Meta lines are short (characters). */
const META_LINE_MAX = 120;

function countMatches(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
}

/** Lines that are a byline or a dateline, dropped at the head of the body. */
const BYLINE = /^(?:by|von|par|por|di|door|posted|published|updated|written|作者|记者|文|撰文|来源|编辑|发布时间|时间)\s*[:：/\s]/i;

interface Seg extends SegInfo {
  /** Allowed by the site template (true when no template is known). */
  allowed: boolean;
}

export interface ContentOptions {
  /** Segments that are not site boilerplate (page minus site template), when known. */
  segments?: Segment[];
  /** true when `segments` was narrowed by a site template. */
  templateApplied?: boolean;
  /** The title, so a heading that repeats it is not part of the body. */
  title?: string;
  /** Weighted body length below which the page holds no article (default MIN_ARTICLE_LENGTH): lower
   * for a page known to be one of its site's posts (see ArticleOptions.sitePost). */
  minLength?: number;
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

/**
 * Extract the article body, or undefined when the page holds no body text.
 * (Its steps are functions of their own: V8's optimising compiler took 130–230 ms per compile of
 * the one 3 kB function, several times per thread as type feedback grew.)
 */
export function extractContent(page: Page, options: ContentOptions = {}, tree: Tree = buildTree(page)): ContentResult | undefined {
  const nodes = page.nodes;
  const n = nodes.length;
  if (!n) return undefined;
  const minLength = options.minLength ?? MIN_ARTICLE_LENGTH;
  const short = minLength < MIN_ARTICLE_LENGTH;
  const infos = contentSegs(tree, options);
  const stats = gneStats(tree, infos, options, short);
  const bodyIndex = Math.max(0, page.indexOf(page.body as AnyNode));
  const best = densestNode(tree, stats, bodyIndex, minLength);
  if (best < 0) return undefined;
  let root = balanceRoot(tree, stats.balance, best, bodyIndex);
  // Stage 2 (trafilatura's first stage, here as a check on the density pick): an element that the
  // page marks as the article body by convention (itemprop=articleBody, `entry-content`,
  // `article-body`, `post_content` …) and that holds the densest node is the body, wider or
  // narrower than the balance says: it excludes teaser lists around the article that have
  // paragraph-like text too.
  const marked = markedBody(tree, best, root, infos.length ? goodTextOf(tree) : undefined, minLength);
  if (marked >= 0) root = marked;
  const rootEl = nodes[root] as Element;

  // Keep the paragraphs inside the root.
  const roots = bodyRoots(tree, root, bodyIndex);
  // mark the DFS ranges of the roots once (many like siblings on long pages: no range search per segment)
  const inside = new Uint8Array(n);
  for (const r of roots) inside.fill(1, r + 1, subtreeEnd(tree, r) + 1);
  const inRoot = infos.filter((s) => inside[s.seg.index] === 1);
  const kept = selectParagraphs(inRoot, options.title, tree, new Set(roots), short);
  // short lines (table rows, list items) count at half weight: a results table or a schedule is
  // an article of its own, a page of link lists is not (their lines are dropped above)
  const keptLen = kept.reduce((a, s) => a + (s.good ? s.len : SHORT_LINE_WEIGHT * s.len * (1 - s.linkShare)), 0);
  if (keptLen < minLength) return undefined;

  const paragraphs = kept.map((s) => s.seg);
  const keepText = new Uint8Array(n);
  for (const s of paragraphs) for (let i = s.index; i <= s.end; i++) keepText[i] = 1;
  const { html, images } = serialise(page, tree, roots.map((r) => nodes[r] as Element), keepText);
  return { content: paragraphs.map((s) => s.text).join('\n'), contentHtml: html, images, root: rootEl, paragraphs, tree };
}

/** Segments outside pre-cleaned blocks; `allowed` = not site template. */
function contentSegs(tree: Tree, options: ContentOptions): Seg[] {
  const { removed } = tree;
  const allowedSet = options.templateApplied && options.segments ? new Set(options.segments.map((s) => s.index)) : undefined;
  // A line that repeats an allowed line of the page is allowed too: the set difference keeps one
  // copy of a repeated path+text (a page read as a set, seed 001), but an article may repeat its
  // own lines (a meal plan's recipes, a refrain) and the reader sees every copy (AEB through the
  // batch path lost 0.004 to this).
  const allowedText = allowedSet ? new Set<string>() : undefined;
  const infos: Seg[] = [];
  for (const s of tree.infos) {
    if (s.el < 0 || removed[s.el]) continue;
    let allowed = !allowedSet || allowedSet.has(s.seg.index);
    if (allowedText) {
      if (allowed) allowedText.add(s.seg.text);
      else if (allowedText.has(s.seg.text)) allowed = true;
    }
    // a literal, not `{ ...s, allowed }`: object spread was the hottest line of a 100,000-line page
    infos.push({ seg: s.seg, el: s.el, len: s.len, linkShare: s.linkShare, punct: s.punct, good: s.good, allowed });
  }
  return infos;
}

/** GNE statistics per element (T, LT, TG, LTG, Sb, PNum) and the block balance, summed bottom-up. */
interface GneStats {
  T: Float64Array;
  LT: Float64Array;
  SB: Float64Array;
  TG: Float64Array;
  LTG: Float64Array;
  PN: Float64Array;
  balance: Float64Array;
}

function gneStats(tree: Tree, infos: Seg[], options: ContentOptions, short: boolean): GneStats {
  const { parent, removed } = tree;
  const nodes = tree.page.nodes;
  const n = nodes.length;
  const T = new Float64Array(n);
  const LT = new Float64Array(n);
  const SB = new Float64Array(n);
  const TG = new Float64Array(n);
  const LTG = new Float64Array(n);
  const PN = new Float64Array(n);
  const balance = new Float64Array(n);
  for (const s of infos) {
    const nonLink = s.len * (1 - s.linkShare);
    T[s.el] = T[s.el]! + s.len;
    LT[s.el] = LT[s.el]! + s.len * s.linkShare;
    SB[s.el] = SB[s.el]! + s.punct;
    if (!s.allowed) balance[s.el] = balance[s.el]! - (s.len * NOISE_WEIGHT);
    // (beside a short post, its title repeated and a bare URL — a licence box's permalink — are no text of it)
    // and its links (a post of links to others) no navigation of the page's own
    else if (short && (s.seg.text === options.title || BARE_URL.test(s.seg.text) || (!s.good && s.linkShare >= LINK_DENSITY_MAX))) {
      /* neither text nor noise */
    } else if (s.good) balance[s.el] = balance[s.el]! + nonLink;
    else if (s.linkShare >= LINK_DENSITY_MAX) balance[s.el] = balance[s.el]! - (s.len * s.linkShare * NOISE_WEIGHT);
    // table cells are data (standings, schedules), and plain-text list items are a list's content
    // (specs, steps, bullet points; menus are links and pay above), not interface labels
    // (a site's short post is all short lines: there they count as its text, at half weight)
    else if (!DATA_LINE_TAGS.has(s.seg.element.name) && !short) balance[s.el] = balance[s.el]! - (SHORT_LINE_PENALTY);
    // and a list item without any link counts at half weight, like a short line of the body
    // (a product's specs extend the body to their list; a teaser with a link does not)
    else if (s.linkShare === 0) balance[s.el] = balance[s.el]! + SHORT_LINE_WEIGHT * nonLink;
    // a <br>-separated run counts as a paragraph for PNum (old Chinese pages have no <p>)
    if (s.good && s.seg.element.name !== 'p') PN[s.el] = PN[s.el]! + 1;
  }
  for (let i = n - 1; i > 0; i--) {
    const node = nodes[i]!;
    if (removed[i] || !(node instanceof Element)) continue;
    const p = parent[i]!;
    if (p < 0) continue;
    T[p] = T[p]! + T[i]!;
    LT[p] = LT[p]! + LT[i]!;
    SB[p] = SB[p]! + SB[i]!;
    TG[p] = TG[p]! + TG[i]! + 1;
    LTG[p] = LTG[p]! + LTG[i]! + (node.name === 'a' ? 1 : 0);
    PN[p] = PN[p]! + PN[i]! + (node.name === 'p' ? 1 : 0);
    balance[p] = balance[p]! + balance[i]!;
  }
  return { T, LT, SB, TG, LTG, PN, balance };
}

/** GNE: the element of best score = TD · log10(PNum + 2) · ln(SbD), TD = (T − LT)/(TG − LTG),
 * SbD = (T − LT)/(Sb + 1), among those with enough text; -1 when none. */
function densestNode(tree: Tree, { T, LT, SB, TG, LTG, PN }: GneStats, bodyIndex: number, minLength: number): number {
  const { removed } = tree;
  const nodes = tree.page.nodes;
  let best = -1;
  let bestScore = -Infinity;
  for (let i = bodyIndex; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (removed[i] || !(node instanceof Element)) continue;
    const text = T[i]! - LT[i]!;
    if (text < minLength) continue;
    const td = text / Math.max(1, TG[i]! - LTG[i]!);
    const sbd = Math.max(1, text / (SB[i]! + 1));
    const score = td * Math.log10(PN[i]! + 2) * Math.log(sbd);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/** Extent: the ancestor-or-self of the GNE node with the best block balance (siblings of the
 * dense node that are paragraphs too are recovered; navigation around it costs). */
function balanceRoot(tree: Tree, balance: Float64Array, best: number, bodyIndex: number): number {
  const { parent, removed } = tree;
  const nodes = tree.page.nodes;
  let root = best;
  for (let a = best; a >= 0; a = parent[a]!) {
    if (removed[a]) break;
    if (balance[a]! > balance[root]!) root = a;
    if (a === bodyIndex) break;
  }
  // GNE's density favours small dense blocks (a footer address, one long paragraph): when another
  // region of the page has a clearly better balance, the density pick was wrong.
  let globalBest = root;
  for (let i = bodyIndex; i < nodes.length; i++) if (!removed[i] && nodes[i] instanceof Element && balance[i]! > balance[globalBest]!) globalBest = i;
  if (balance[globalBest]! * GNE_TRUST > balance[root]!) root = globalBest;
  return root;
}

/** The root and, by sibling recovery (trafilatura), its like siblings: an article split into several
 * containers of one class (`<div class="body__inner">` × 3 between ads) continues in them. */
function bodyRoots(tree: Tree, root: number, bodyIndex: number): number[] {
  const roots = [root];
  for (let a = root, level = 0; a >= 0 && level <= SIBLING_LEVELS; a = tree.parent[a]!, level++) {
    if (a === bodyIndex) break;
    const sibs = likeSiblings(tree, a);
    if (sibs.length) {
      roots.push(...sibs);
      roots.sort((x, y) => x - y);
      break;
    }
  }
  return roots;
}

/** Class names (letters only, lower-case) of article-body containers by convention. */
const BODY_CLASS = /(?:article|entry|post|story|news|blog|single|detail)(?:body|content|text|txt|copy|main|entry)|(?:content|body)(?:article|text|txt|story|post)|^(?:bodytext|richtext|articlebody|artibody|tcontent|trseditor|contentbody)$/;
/** A marked body must hold this share of the paragraph text of the marked chain's largest member
 * (nested markers: `<div class="post-content"><div class="entry-text">` …, the deepest that still
 * holds most of the text wins). */
const MARKED_SHARE = 0.7;

/** Elements that can hold a whole article (a marker on a `<p>` names a paragraph style). */
const CONTAINER_TAGS = new Set(['div', 'section', 'article', 'main', 'td', 'span', 'font', 'center', 'blockquote']);

function isMarkedBody(el: Element): boolean {
  if (!CONTAINER_TAGS.has(el.name)) return false;
  const a = el.attribs;
  if ((a.itemprop ?? '').toLowerCase() === 'articlebody') return true;
  const raw = `${a.class ?? ''} ${a.id ?? ''}`;
  if (raw.length < 4) return false;
  for (const name of raw.split(/\s+/)) {
    const k = name.toLowerCase().replace(/[^a-z]/g, '');
    if (k && BODY_CLASS.test(k)) return true;
  }
  return false;
}

function goodTextOf(tree: Tree): Float64Array {
  return tree.goodText;
}

/** The deepest marked body container on the chain from the densest node up; else the marked
 * container with the most paragraph text inside the balance root; else -1. */
function markedBody(tree: Tree, best: number, root: number, good: Float64Array | undefined, minLength = MIN_ARTICLE_LENGTH): number {
  if (!good) return -1;
  const nodes = tree.page.nodes;
  const eligible = (a: number) => {
    const el = nodes[a];
    return el instanceof Element && !tree.removed[a] && isMarkedBody(el) && good[a]! >= minLength;
  };
  const deepest = (chain: number[]) => {
    let most = 0;
    for (const a of chain) most = Math.max(most, good[a]!);
    for (const a of chain) if (good[a]! >= MARKED_SHARE * most) return a;
    return -1;
  };
  const chain: number[] = [];
  for (let a = best; a >= 0; a = tree.parent[a]!) {
    const el = nodes[a];
    if (el instanceof Element && (el.name === 'body' || el.name === 'html')) break;
    if (eligible(a)) chain.push(a);
  }
  if (chain.length) return deepest(chain);
  // the densest node sits outside every marked body (a teaser, a caption): take the marked body
  // with the most paragraph text under the root
  const end = subtreeEnd(tree, root);
  let top = -1;
  for (let a = root; a <= end; a++) if (eligible(a) && (top < 0 || good[a]! > good[top]!)) top = a;
  if (top < 0) return -1;
  const chain2: number[] = [];
  const topEnd = subtreeEnd(tree, top);
  for (let a = top; a <= topEnd; a++) if (eligible(a)) chain2.push(a);
  // nested markers inside the top one, deepest first
  chain2.reverse();
  const most = good[top]!;
  for (const a of chain2) if (good[a]! >= MARKED_SHARE * most) return a;
  return top;
}

/** The largest container below the body roots that starts with this segment (a box headed by it), or -1. */
function boxOf(tree: Tree, s: SegInfo, roots: Set<number>): number {
  let box = -1;
  let a = s.el;
  while (a >= 0 && !roots.has(a)) {
    const p = tree.parent[a]!;
    if (p < 0 || roots.has(p)) break;
    // the parent starts with our segment when no text precedes it inside the parent
    if (firstTextIndex(tree, p) < s.seg.index) break;
    box = p;
    a = p;
  }
  return box;
}

function firstTextIndex(tree: Tree, i: number): number {
  const end = subtreeEnd(tree, i);
  const nodes = tree.page.nodes;
  for (let k = i + 1; k <= end; k++) if (!(nodes[k] instanceof Element)) return k;
  return end + 1;
}

/** Inside a <blockquote> (a few levels up: tweets nest `blockquote > p > a`). */
function inQuote(el: Element): boolean {
  let p: Element | null = el;
  for (let k = 0; p && k < 4; k++, p = p.parent instanceof Element ? p.parent : null) if (p.name === 'blockquote') return true;
  return false;
}

/** Siblings of the root with the same tag and class that hold paragraph text. */
function likeSiblings(tree: Tree, root: number): number[] {
  const el = tree.page.nodes[root];
  if (!(el instanceof Element) || !el.attribs.class || el.name === 'body') return [];
  const out: number[] = [];
  for (const dir of ['prev', 'next'] as const) {
    for (let sib = el[dir]; sib; sib = sib[dir]) {
      if (!(sib instanceof Element) || sib.name !== el.name || sib.attribs.class !== el.attribs.class) continue;
      const i = tree.page.indexOf(sib);
      if (i >= 0 && !tree.removed[i] && tree.goodText[i]! > 0) out.push(i);
    }
  }
  return out;
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
/** A line that is one URL and nothing else. */
const BARE_URL = /^\s*(?:https?:\/\/|www\.)\S+\s*$/i;
/** A date in a line (a short post's leading meta line: "发表于 2022-05-14 分类于 工程化"). */
const DATE_IN_LINE = /\d{4}\s*[-/.年]\s*\d{1,2}/;
const NUMBERS_ONLY = /^[\d\s]+$/;
/** A link to the previous or next post: "« Older post", "上一篇 …", "… 下一篇". */
const PREV_NEXT = /^\s*(?:[«‹<←]\s*)?(?:上一篇|下一篇|上一页|下一页|previous|prev|next|older|newer)\b|(?:上一篇|下一篇|previous(?: post)?|next(?: post)?|older(?: post)?|newer(?: post)?)\s*(?:[»›>→]\s*)?$/iu;

function selectParagraphs(segs: Seg[], title: string | undefined, tree: Tree, roots: Set<number>, short = false): Seg[] {
  const out: Seg[] = [];
  const normTitle = title ? title.replace(/\s+/g, ' ').trim().toLowerCase() : undefined;
  let seenGood = false;
  let skipUntil = -1;
  for (const s of segs) {
    if (!s.allowed || s.seg.index <= skipUntil) continue;
    const text = s.seg.text;
    const tag = s.seg.element.name;
    const heading = /^h[1-6]$/.test(tag);
    if (seenGood && heading && COMMENT_HEADING.test(text)) break;
    if (seenGood && (heading || s.len < JUNK_LINE_MAX) && s.linkShare < LINK_DENSITY_MAX && RELATED_HEADING.test(text)) {
      // a box of links to other articles: skip the box when it is nested in the body (the article
      // may continue after it); at the body's own level the rest of the body is that list
      const box = boxOf(tree, s, roots);
      if (box >= 0) {
        skipUntil = subtreeEnd(tree, box);
        continue;
      }
      if (heading) break;
      continue;
    }
    if (seenGood && !heading && s.len < JUNK_LINE_MAX && COMMENT_HEADING.test(text) && s.linkShare < LINK_DENSITY_MAX) {
      if (/^(?:\d+\s+)?comments?$|^评论$/i.test(text)) break;
    }
    // inside the body, long sentences full of links are still prose (news digests, link posts);
    // short link lines are navigation
    // quoted posts (embedded tweets) are link-heavy by nature: kept inside a blockquote
    if (s.linkShare >= LINK_DENSITY_MAX && !s.good && (s.linkShare >= BODY_LINK_DENSITY_MAX || s.len < 2 * PARAGRAPH_MIN || s.punct < 2) && !inQuote(s.seg.element) && !short) continue;
    if (s.len < JUNK_LINE_MAX && JUNK_LINE.test(text)) continue;
    // a line that is a bare URL beside a short post is its permalink (a licence box), not its text
    if (short && BARE_URL.test(text)) continue;
    // and a link to the previous or next post is the page's navigation (the body extractor leaves
    // links out of a long body; a short post keeps its own)
    if (short && s.linkShare >= LINK_DENSITY_MAX && PREV_NEXT.test(text)) continue;
    if (s.len < CAPTION_MAX && CAPTION.test(text)) continue;
    if (normTitle && (heading || !seenGood) && text.toLowerCase() === normTitle) continue;
    if (tag === 'h1' && !seenGood) continue;
    if (!seenGood && !s.good && (BYLINE.test(text) || (s.len < SENTENCE_MIN && tag !== 'li' && !short))) continue;
    // a short post's lines are all short: there a meta line is told by its date, and a line of
    // numbers alone is a code block's line-number gutter
    if (short && !s.good && ((s.seg.text.length < META_LINE_MAX && DATE_IN_LINE.test(text)) || NUMBERS_ONLY.test(text))) continue;
    if (!seenGood && s.seg.text.length < META_LINE_MAX && (LEADING_DATE.test(text) || countMatches(META_CUES, text) >= 2)) continue;
    if (s.good) seenGood = true;
    out.push(s);
  }
  // drop trailing short non-sentences (tags, credits, "share") and newsroom boilerplate after the
  // last paragraph — but not a closing list of plain-text items (a product's specs, a recipe's
  // steps): tag lists are links, credits are one line
  const listRun = trailingListRun(out);
  for (;;) {
    const last = out[out.length - 1];
    if (!last || (listRun >= MIN_TAIL_LIST && out.length > 0 && isPlainItem(last))) break;
    if ((!short && !last.good && last.len < SENTENCE_MIN) || (last.len < TAIL_JUNK_MAX && TAIL_JUNK.test(last.seg.text))) out.pop();
    else break;
  }
  return out;
}

/** A closing run of at least this many plain-text list items is content (the first fixture of a
 * product page's specs had five; three is the shortest list that reads as a list). */
const MIN_TAIL_LIST = 3;
const isPlainItem = (s: SegInfo) => (s.seg.element.name === 'li' || s.seg.element.name === 'dd' || s.seg.element.name === 'td') && s.linkShare < LINK_DENSITY_MAX;
function trailingListRun(out: SegInfo[]): number {
  let n = 0;
  for (let k = out.length - 1; k >= 0 && isPlainItem(out[k]!); k--) n++;
  return n;
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
function serialise(page: Page, tree: Tree, roots: Element[], keepText: Uint8Array): { html: string; images: string[] } {
  const out: string[] = [];
  const images: string[] = [];
  // Elements left empty by the cleaning are dropped as they close: each open element remembers the
  // output length and the content count at its start (one pass, no regex clean-up afterwards).
  let content = 0;
  type Frame = { node: AnyNode } | { close: string; pos: number; content: number };
  const stack: Frame[] = [];
  for (let k = roots.length - 1; k >= 0; k--) {
    const root = roots[k]!;
    if (k < roots.length - 1) stack.push({ close: '\n', pos: -1, content: -1 });
    for (let i = root.children.length - 1; i >= 0; i--) stack.push({ node: root.children[i]! });
  }
  while (stack.length) {
    const f = stack.pop()!;
    if ('close' in f) {
      if (f.pos >= 0 && f.content === content) out.length = f.pos;
      else out.push(f.close);
      continue;
    }
    const node = f.node;
    const idx = page.indexOf(node);
    if (node instanceof Text) {
      if (idx >= 0 && keepText[idx]) {
        out.push(escapeText(node.data));
        content++;
      }
      continue;
    }
    if (!(node instanceof Element) || idx < 0 || tree.removed[idx]) continue;
    const name = node.name;
    if (name === 'img') {
      const src = imageUrl(page, node);
      if (src) {
        images.push(src);
        out.push(`<img src="${escapeAttr(src)}"${node.attribs.alt ? ` alt="${escapeAttr(node.attribs.alt)}"` : ''}>`);
        content++;
      }
      continue;
    }
    const pos = out.length;
    if (KEEP_TAGS.has(name)) {
      if (name === 'a') {
        const href = page.resolve(node.attribs.href);
        out.push(href ? `<a href="${escapeAttr(href)}">` : '<a>');
      } else out.push(`<${name}>`);
      if (VOID.has(name)) continue;
      stack.push({ close: `</${name}>`, pos, content });
    } else if (name === 'div' || name === 'section' || name === 'article' || name === 'main') {
      // block wrappers become line breaks between their content
      stack.push({ close: '\n', pos, content });
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]! });
  }
  const html = out.join('').replace(/\n\s*\n+/g, '\n').trim();
  return { html, images: [...new Set(images)] };
}
