/**
 * Article title (sources §5 "Title", seed 004): the displayed headline (h1–h3) that shares the
 * longest common substring with `<title>` or the meta title; else the meta title (og:title,
 * twitter:title, JSON-LD headline); else the anchor text that led to the page; else `<title>` cut
 * at its site suffix; else the first h1.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { collapse, textOf } from '../../src/core/page.js';
import { classTokens, type Tree } from './tree.js';


/** Separators between a headline and the site name in `<title>` (` - `, ` | `, ` _ `, ` – `, ` — `, ` :: `, ` · `). */
const TITLE_SEPARATOR = /\s+(?:[-|_–—·•»/]|::)\s+|\s*[|_｜]\s*|——|－/;
/** Separators between Han text in Chinese titles (no spaces around them). */
const CJK_SEPARATOR = /(?<=\p{Script=Han}|[)）」》”])\s*(?:--|——|[-_|｜])\s*(?=\p{Script=Han}|[(（「《“])|(?<=\p{Script=Han})\s+(?=[\p{Script=Han}]{2,12}$)/u;
const HAN_ONE = /\p{Script=Han}/u;
/** A heading must share this share of its characters with a reference title to be the headline. */
const HEADING_MATCH = 0.6;
/** Headings shorter than this are section labels, not headlines. */
const MIN_HEADLINE = 4;
/** Longer "headings" are paragraphs styled as headings. */
const MAX_HEADLINE = 200;
/** Class tokens of headline elements. */
const TITLE_TOKENS = new Set(['title', 'headline', 'heading', 'tit', 'biaoti']);
/** Cheap pre-test before tokenising class names (most elements have no title class). */
const TITLE_HINT = /tit|head|biaoti/i;
/** A class-marked headline ranks after h1/h2 and before h3 among equal matches. */
const CLASS_TITLE_LEVEL = 2.5;
/** Elements too small to be a headline container. */
const BLOCKLESS = new Set(['a', 'span', 'img', 'i', 'b', 'em', 'strong', 'time', 'label', 'button', 'li', 'ul', 'ol', 'body', 'html', 'title']);
/** The headline must cover this share of the reference title once the site name is cut away
 * (a section heading "Videos" shares all its letters with "Embedded videos test" but is not it). */
const REFERENCE_COVER = 0.5;
/** Segments searched for a displayed headline (it sits above the body, in the first few hundred). */
const MAX_TITLE_SEGMENTS = 300;
/** A headline longer than the reference title by at most this many characters carries a badge. */
const MAX_BADGE = 4;
/** Headings inspected (a page's headline is among the first). */
const MAX_HEADINGS = 40;
/** A meta title sharing a common run of at least this share of the longer of it and the shown
 * headline is a variant of the same headline (one word or the quote marks differ), not another
 * title (section pages and home pages declare their own). */
const META_VARIANT_SHARE = 0.5;
/** …or shares this Dice share of its words (punctuation rewritten: "Dropbox ATF: an async" shown,
 * "Dropbox’s ATF - an async" declared). Word titles only; Chinese has no spaces and uses the run. */
const META_VARIANT_WORDS = 0.8;

const WORD = /[\p{L}\p{N}]+/gu;
function wordDice(a: string, b: string): number {
  const x = new Set(a.toLowerCase().match(WORD) ?? []);
  const y = new Set(b.toLowerCase().match(WORD) ?? []);
  if (x.size < 3 || y.size < 3) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}

/** JSON-LD types that name a party, not a work ("NewsMediaOrganization" matches /news/). */
const NOT_A_WORK = /organization|person|brand/i;
/** Meta and JSON-LD types that describe the article itself. */
const ARTICLE_TYPES = /article|posting|report|news|blog|webpage|creativework|review/i;

/** Longest common substring length (dynamic programming over two short strings, O(n·m)). */
export function longestCommonSubstring(a: string, b: string): number {
  if (!a || !b) return 0;
  const x = a.length > 400 ? a.slice(0, 400) : a;
  const y = b.length > 400 ? b.slice(0, 400) : b;
  let prev = new Uint16Array(y.length + 1);
  let cur = new Uint16Array(y.length + 1);
  let best = 0;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      cur[j] = x.charCodeAt(i - 1) === y.charCodeAt(j - 1) ? prev[j - 1]! + 1 : 0;
      if (cur[j]! > best) best = cur[j]!;
    }
    [prev, cur] = [cur, prev];
    cur.fill(0);
  }
  return best;
}

export function jsonLdArticles(page: Page): Record<string, unknown>[] {
  return page.jsonLd().filter((o) => {
    const t = o['@type'];
    const types = Array.isArray(t) ? t.join(' ') : String(t ?? '');
    return ARTICLE_TYPES.test(types);
  });
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return collapse(v) || undefined;
  if (Array.isArray(v)) return str(v[0]);
  return undefined;
}

/** The keys one `name`/`property`/`itemprop` attribute declares: its space-separated tokens,
 * lower-cased, Dublin Core separators unified. */
export function metaKeys(attr: string): string[] {
  return attr.trim().toLowerCase().split(/\s+/).filter(Boolean).map((raw) => raw.replace(/^(dc|dcterms?)[.:-]/, '$1:'));
}

/**
 * Meta fields keyed by every token of `name` and `property` (RDFa allows several space-separated
 * properties: `property="dc:creator og:author"`; a tag may carry both attributes), lower-cased,
 * Dublin Core separators unified (`DC.title`, `dc:title`, `dc-title` → `dc:title`). First value
 * wins. The core's `page.meta` keys one attribute verbatim, which misses those forms.
 */
export function metaFields(page: Page): Map<string, string> {
  return page.memo('article:meta-fields', () => readMetaFields(page));
}

function readMetaFields(page: Page): Map<string, string> {
  const out = new Map<string, string>();
  // RDFa `property` first, then `name`, then microdata `itemprop`: a page that declares the same key
  // both ways (`<meta property="dc:title">` and `<meta name="DC.title">`) is read by its RDFa form,
  // the typed vocabulary (as Readability does); within one attribute kind the first tag wins.
  const metas = page.nodes.filter((n): n is Element => n instanceof Element && n.name === 'meta' && Boolean(n.attribs.content?.trim()));
  for (const attrName of ['property', 'name', 'itemprop'] as const) {
    for (const n of metas) {
      const attr = n.attribs[attrName];
      if (!attr) continue;
      for (const key of metaKeys(attr)) if (!out.has(key)) out.set(key, n.attribs.content!.trim());
    }
  }
  return out;
}

/** Meta title keys in the order Readability reads them (Dublin Core first: a publisher's catalogue
 * title; og:title is often written for sharing), then other publishers' fields. */
const META_TITLE_KEYS = ['dc:title', 'dcterm:title', 'dcterms:title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title', 'headline', 'sailthru.title'];

/** The meta title: JSON-LD headline, Dublin Core, og:title, twitter:title … */
export function metaTitle(page: Page): string | undefined {
  for (const o of jsonLdArticles(page)) {
    // `name` of an article object is its headline; of a NewsMediaOrganization, the outlet's name
    const t = String(o['@type']);
    const h = str(o.headline) ?? (/article|posting|news/i.test(t) && !NOT_A_WORK.test(t) ? str(o.name) : undefined);
    if (h) return decodeEntities(h);
  }
  const meta = metaFields(page);
  for (const k of META_TITLE_KEYS) {
    const v = meta.get(k);
    if (v && collapse(v)) return decodeEntities(collapse(v));
  }
  return undefined;
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|quot|#39|apos|lt|gt|nbsp);/g, (_m, e: string) => ({ amp: '&', quot: '"', '#39': "'", apos: "'", lt: '<', gt: '>', nbsp: ' ' })[e] ?? _m);
}

const HAN_ALL = /\p{Script=Han}/gu;
/** Length with Han characters counted twice (their information per character is about a word's). */
function displayWidth(s: string): number {
  return s.length + (s.match(HAN_ALL)?.length ?? 0);
}

/** `<title>` cut at its site suffix (or prefix): the longest part between separators. */
export function cutSiteName(title: string): string {
  let parts = title.split(TITLE_SEPARATOR).map((p) => p.trim()).filter(Boolean);
  // Chinese titles join the site name without spaces: 标题-新华网, 栏目--标题, 标题 东区办事处
  if (parts.length < 2 && HAN_ONE.test(title)) parts = title.split(CJK_SEPARATOR).map((p) => p.trim()).filter(Boolean);
  if (parts.length < 2) return title.trim();
  // the headline is the longest part; a Han character carries about a word, so it counts double
  // against Latin letters ("社会资本与再就业(页 1) - powered by Discuz! Archiver")
  let best = parts[0]!;
  for (const p of parts) if (displayWidth(p) > displayWidth(best)) best = p;
  return best;
}

function headings(page: Page, tree: Tree | undefined): { text: string; level: number; el: Element }[] {
  const out: { text: string; level: number; el: Element }[] = [];
  for (let i = 0; i < page.nodes.length && out.length < MAX_HEADINGS; i++) {
    const node = page.nodes[i]!;
    if (!(node instanceof Element)) continue;
    let level = /^h[1-3]$/.test(node.name) ? Number(node.name[1]) : 0;
    // headlines that are styled divs (`<div class="article-title">`, `<p class="headline">`)
    if (!level && TITLE_HINT.test(`${node.attribs.class ?? ''} ${node.attribs.id ?? ''}`) && !BLOCKLESS.has(node.name) && classTokens(node).some((t) => TITLE_TOKENS.has(t))) level = CLASS_TITLE_LEVEL;
    if (!level) continue;
    // headlines often sit in a <header>: only nav/aside/footer chrome is excluded here
    if (tree && tree.removed[i] && insideChrome(node)) continue;
    const text = collapse(textOf(node));
    if (text.length >= MIN_HEADLINE && text.length <= MAX_HEADLINE) out.push({ text, level, el: node });
  }
  return out;
}

function insideChrome(node: AnyNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p instanceof Element && (p.name === 'nav' || p.name === 'aside' || p.name === 'footer')) return true;
  }
  return false;
}

export interface TitleResult {
  title: string;
  /** The heading element that displays it, when one does. */
  element?: Element;
  /** Found as a displayed line that the `<title>` contains (no heading element matched): weaker. */
  displayedLine?: boolean;
}

export function extractTitle(page: Page, options: { anchorText?: string; tree?: Tree } = {}): TitleResult | undefined {
  const meta = metaTitle(page);
  const html = page.title ? decodeEntities(page.title) : '';
  const anchor = options.anchorText ? collapse(options.anchorText) : undefined;
  const refs = [meta, html, anchor].filter((s): s is string => Boolean(s));
  const hs = headings(page, options.tree);
  const cutRefs = refs.map(cutSiteName);
  let best: { text: string; el: Element; score: number } | undefined;
  const matched: { text: string; el: Element; score: number; share: number }[] = [];
  const site = siteLabels(page, html);
  for (const h of hs) {
    // the site's logo heading ("<h1><a href="/">Site</a></h1>") names the site, not the article
    if (site.has(labelKey(h.text)) || isHomeLink(h.el, page.url)) continue;
    let share = 0;
    for (let k = 0; k < refs.length; k++) {
      const r = refs[k]!;
      // containment is the common case and needs no dynamic programming
      const lcs = r.includes(h.text) ? h.text.length : longestCommonSubstring(h.text, r);
      if (lcs >= REFERENCE_COVER * cutRefs[k]!.length || lcs >= REFERENCE_COVER * r.length) share = Math.max(share, lcs / h.text.length);
    }
    if (share < HEADING_MATCH) continue;
    // prefer fuller matches, then h1 over h2/h3, then the first
    const score = share + (4 - h.level) * 0.05;
    matched.push({ text: h.text, el: h.el, score, share });
    if (!best || score > best.score + 1e-9) best = { text: h.text, el: h.el, score };
  }
  // a section heading that repeats a word of the headline ("https" under "https初探") matches as
  // fully as the headline itself: a matching heading above it that holds its text is the headline
  // (a section heading below the headline may extend it: "X" then "X Display")
  if (best) {
    const b = best;
    const bShare = matched.find((m) => m.el === b.el)!.share;
    // …and that matches the reference as fully ("正在阅读：<headline>" in a reading bar does not)
    const fuller = matched.find((m) => m.text.length > b.text.length && m.text.includes(b.text) && m.share >= bShare);
    if (fuller && page.indexOf(fuller.el) < page.indexOf(b.el)) best = fuller;
  }
  if (best) {
    // a badge glued to the headline ("原创", "独家", "Exclusive"): the reference title without it
    for (const r of cutRefs) {
      if (r.length < MIN_HEADLINE || best.text === r || !best.text.includes(r) || best.text.length - r.length > MAX_BADGE) continue;
      // a column name joined by a separator ("棱镜|…") is part of the displayed headline
      if (/[|｜:：\-–—_]/.test(best.text.replace(r, ''))) continue;
      return { title: r, element: best.el };
    }
    // the publisher's own metadata title for the same headline, worded or typeset slightly
    // differently ("The seven secrets …" shown, "Seven secrets …" declared; curly vs straight
    // quotes): the declared form is the one the publisher chose to describe the article (as
    // Readability reads it). Not when one holds the other (a site suffix, a badge).
    if (meta && meta !== best.text && !meta.includes(best.text) && !best.text.includes(meta)) {
      const declared = cutIfSuffix(meta, html);
      const lcs = longestCommonSubstring(declared, best.text);
      if (lcs >= META_VARIANT_SHARE * Math.max(declared.length, best.text.length) || wordDice(declared, best.text) >= META_VARIANT_WORDS) return { title: declared, element: best.el };
    }
    return { title: best.text, element: best.el };
  }
  // a displayed line (not a heading element) that the <title> contains: the headline of pages
  // that style it with a table cell or a bare div
  const shown = displayedInTitle(page, cutRefs);
  if (shown) return shown;
  if (meta) return { title: meta.includes(' | ') || meta.includes(' - ') || meta.includes('_') ? cutIfSuffix(meta, html) : meta };
  if (anchor && anchor.length >= MIN_HEADLINE) return { title: anchor };
  if (html) return { title: cutSiteName(html) };
  const h1 = hs.find((h) => h.level === 1);
  return h1 ? { title: h1.text, element: h1.el } : undefined;
}

/** Comparable form of a label: lower case, letters and figures only. */
function labelKey(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Names of the site: og:site_name / application-name, and the last part of a `<title>` of several
 * parts when that part is not the headline (the site suffix "Headline | Site"). */
function siteLabels(page: Page, html: string): Set<string> {
  const out = new Set<string>();
  const meta = metaFields(page);
  for (const k of ['og:site_name', 'application-name']) {
    const v = meta.get(k);
    if (v) out.add(labelKey(v));
  }
  const parts = html.split(TITLE_SEPARATOR).map((p) => p.trim()).filter((p) => labelKey(p));
  if (parts.length >= 2) {
    const last = parts[parts.length - 1]!;
    if (last !== cutSiteName(html)) out.add(labelKey(last));
  }
  out.delete('');
  return out;
}

/** A link to the site's home page ("/", "./", "index.html", an origin). */
const HOME_HREF = /^(?:\.{0,2}\/|(?:\.{1,2}\/)*index\.[a-z]+|https?:\/\/([^/?#]+)\/?)$/i;

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A heading whose whole text is one link to the site's home page (a logo). */
export function isHomeLink(el: Element, pageUrl: string): boolean {
  const stack: AnyNode[] = [...el.children];
  let link: Element | undefined;
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof Element) {
      if (n.name === 'a') {
        if (link) return false;
        link = n;
      } else stack.push(...n.children);
    }
  }
  const m = link ? HOME_HREF.exec((link.attribs.href ?? '').trim()) : null;
  if (!link || !m) return false;
  // an absolute link is the home page of this site only (not another site's front page)
  if (m[1] && hostOf(pageUrl) !== m[1].toLowerCase().replace(/^www\./, '')) return false;
  return collapse(textOf(link)) === collapse(textOf(el));
}

/** The longest early segment contained in a reference title and covering most of it. */
function displayedInTitle(page: Page, cutRefs: string[]): TitleResult | undefined {
  let best: Segment | undefined;
  const segs = page.segments;
  const n = Math.min(segs.length, MAX_TITLE_SEGMENTS);
  for (let i = 0; i < n; i++) {
    const s = segs[i]!;
    if (s.text.length < MIN_HEADLINE || s.linkChars > s.text.length / 2) continue;
    for (const r of cutRefs) {
      if (s.text.length >= REFERENCE_COVER * r.length && r.includes(s.text) && (!best || s.text.length > best.text.length)) best = s;
    }
  }
  return best ? { title: best.text, element: best.element, displayedLine: true } : undefined;
}

/** Cut a meta title at a separator only when `<title>` has the same suffix (a site name). */
function cutIfSuffix(meta: string, html: string): string {
  const parts = meta.split(TITLE_SEPARATOR);
  if (parts.length < 2) return meta;
  const last = parts[parts.length - 1]!.trim();
  return last && html.endsWith(last) ? cutSiteName(meta) : meta;
}
