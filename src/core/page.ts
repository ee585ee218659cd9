/**
 * The page model every middleware reads: decoded once, parsed once (htmlparser2 — about 9× faster
 * than parse5, which cheerio 1.2's default `load()` uses), every node numbered in depth-first order
 * (seed 000), and the text cut into segments `(tag path, text, DFS index)` (seed 001).
 *
 * Everything here is iterative: a 10,000-deep document must not overflow the stack.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { parseDocumentLinear } from './html-parser.js';
import { Document, Element, Text, type AnyNode, type ChildNode, type ParentNode } from 'domhandler';
import { createRequire } from 'node:module';
import type { CheerioAPI } from 'cheerio';
import { decodeBody } from './decode.js';
import { detectLang, dominantScript } from './text.js';

/** Depth beyond which subtrees are flattened (their leaves kept in order). Recursive helpers in
 * dom-serializer/cheerio overflow the stack past ~3,000 levels; no real layout needs 200. */
export const MAX_DEPTH = 200;
/** Elements a page model holds at most; the rest of the page is not read (html-parser.ts), and the
 * item says so in `error`. Issue 24: 1e6 sibling `<p>` (8 MB) took 533 MB of heap to parse and
 * 2.5 GB through the chain. Real pages hold far fewer: at most 51,048 over the 4,085 pages of
 * ../shared/data (a 1 MB forum thread; median 182–978 per data set). 100,000 keeps an 8–10 MB page
 * of any markup under 500 MB peak RSS through the whole chain (test/faults/extract-bounds.test.ts). */
export const MAX_ELEMENTS = 100_000;

/** Elements whose text is never page text. */
export const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas',
  'title', 'select', 'textarea', 'button',
]);
// Not `head`: htmlparser2 leaves the body inside an unclosed `<head>` (browsers move it out), and
// on such pages skipping `head` lost all the text (14 of the 502 `sites/` pages, issue 3 note).
// Head's own children are title/meta/link/script/style, which carry no segment text anyway.

/** Elements that start a new line of text (a new segment). Inline elements (a, span, b, font …)
 * stay inside their block's segment. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir',
  'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'li', 'main', 'menu', 'nav', 'ol', 'p',
  'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'td', 'th', 'tr', 'ul', 'br',
  'caption', 'legend', 'option', 'img', 'video', 'audio', 'picture',
]);

export interface Segment {
  /** DFS index of the segment's first text node. */
  index: number;
  /** DFS index of its last text node. */
  end: number;
  /** Tag names from the root to the block that holds the text, e.g. `html/body/div/p`. */
  path: string;
  /** Text with whitespace collapsed. */
  text: string;
  /** Characters of `text` that sit inside `<a href>`. */
  linkChars: number;
  /** The block element that holds the text. */
  element: Element;
}

export interface PageInput {
  url: string;
  body: Uint8Array | string;
  /** Content-Type header (charset hint). */
  contentType?: string | undefined;
  fetchedAt?: Date | undefined;
}

export interface Page {
  url: string;
  html: string;
  charset: string;
  charsetSource: string;
  fetchedAt: Date;
  document: Document;
  /** Every element and non-blank text node, in depth-first pre-order; `nodes[i]` has DFS index i. */
  nodes: AnyNode[];
  /** Text runs in document order. */
  segments: Segment[];
  /** `<title>` text, whitespace collapsed. */
  title: string;
  /** `<html lang>` (or content-language meta), lower-case, if any. */
  declaredLang?: string;
  /** `<base href>` resolved against the URL, else the URL. */
  baseUrl: string;
  /** `<meta name|property|itemprop|http-equiv>` → content; keys lower-case, first value wins. */
  meta: Map<string, string>;
  /** `<body>` (or the document when there is none). */
  body: ParentNode;
  /** DFS index of a node (-1 for nodes that were not numbered, e.g. inside `<script>`). */
  indexOf(node: AnyNode): number;
  /** Parsed JSON-LD objects (flattened `@graph`), computed on first use. */
  jsonLd(): Record<string, unknown>[];
  /** A cheerio view over the same tree (no second parse), created on first use. */
  $(): CheerioAPI;
  /** Resolve a link against the base URL; undefined for javascript:, mailto:, bad URLs. */
  resolve(href: string | undefined): string | undefined;
  /** Primary language subtag (`zh`, `en` …): `<html lang>` when present, else detected from the
   * text; computed on first use. */
  lang(): string | undefined;
  /** Per-page memo: the value `build` returns, computed once per page and key. Analyses that
   * several algorithms share (the page index, the article tree, link clusters) live here rather
   * than in module-level caches, so their lifetime is the page's. Keys are namespaced by the
   * module that owns them (`core:page-index`, `article:tree` …). */
  memo<T>(key: string, build: () => T): T;
}

const WS = /\s+/g;
const CJK_LANGS = new Set(['zh', 'ja', 'ko']);
/** A run of two white-space characters, or one that is not a plain space. */
const WS_TO_COLLAPSE = /\s\s|(?! )\s/;
export function collapse(text: string): string {
  // most texts hold no run of white space and no white space but ' ': then only the ends change
  return WS_TO_COLLAPSE.test(text) ? text.replace(WS, ' ').trim() : text.trim();
}

/** Flatten subtrees deeper than MAX_DEPTH, keeping their text and images in order. */
function capDepth(doc: Document): void {
  // two parallel stacks (no tuple per element: this walk runs over every page)
  const stack: ParentNode[] = [doc];
  const depths: number[] = [0];
  while (stack.length) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth >= MAX_DEPTH) {
      const leaves: ChildNode[] = [];
      const inner: ChildNode[] = [...node.children].reverse();
      while (inner.length) {
        const n = inner.pop()!;
        if (n instanceof Element && n.children.length) {
          if (SKIP_TAGS.has(n.name)) continue;
          for (let i = n.children.length - 1; i >= 0; i--) inner.push(n.children[i]!);
          if (BLOCK_TAGS.has(n.name)) leaves.push(new Text(' '));
        } else leaves.push(n);
      }
      for (const leaf of leaves) {
        leaf.parent = node;
      }
      for (let i = 0; i < leaves.length; i++) {
        leaves[i]!.prev = leaves[i - 1] ?? null;
        leaves[i]!.next = leaves[i + 1] ?? null;
      }
      node.children = leaves;
      continue;
    }
    for (const child of node.children) {
      if (child instanceof Element) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
}

const CDATA_OPEN = '<![CDATA[';
/** `<![CDATA[`, or the start or end tag of an element inside which it is not markup: raw text
 * (scripts, styles) or foreign content (SVG, MathML: a real CDATA section there). */
const CDATA_SCAN = /<!\[CDATA\[|<(\/?)(script|style|svg|math)(?=[\s/>])/gi;

/**
 * `<![CDATA[` in HTML content is a bogus comment that ends at the next `>` (HTML5 tokenizer,
 * "markup declaration open state"); htmlparser2 reads it as a comment up to `]]>`, so a page
 * that opens one and never closes it (a theme's stray `<![CDATA[` after `<body>`) lost its whole
 * body (5 of the 1,358 WCXB dev pages, forum threads among them). Browser semantics: drop from
 * the `<![CDATA[` to the next `>`, except inside raw-text and foreign elements. One forward scan
 * (linear: a page of repeated `<![CDATA[` must not cost its length per occurrence).
 */
export function dropBogusCdata(html: string): string {
  if (!html.includes(CDATA_OPEN)) return html;
  let out = '';
  let from = 0;
  /** Inside a raw-text element: the tag name whose end tag closes it. */
  let rawText: string | undefined;
  /** Open svg/math elements. */
  let foreign = 0;
  CDATA_SCAN.lastIndex = 0;
  for (let m = CDATA_SCAN.exec(html); m; m = CDATA_SCAN.exec(html)) {
    if (m[2]) {
      const tag = m[2].toLowerCase();
      const closing = m[1] === '/';
      if (rawText) {
        if (closing && tag === rawText) rawText = undefined;
      } else if (tag === 'script' || tag === 'style') {
        if (!closing) rawText = tag;
      } else foreign = Math.max(0, foreign + (closing ? -1 : 1));
      continue;
    }
    if (rawText || foreign > 0) continue;
    const close = html.indexOf('>', m.index + CDATA_OPEN.length);
    out += html.slice(from, m.index);
    from = close < 0 ? html.length : close + 1;
    CDATA_SCAN.lastIndex = Math.max(CDATA_SCAN.lastIndex, from);
  }
  return out + html.slice(from);
}

/** Parse HTML into a domhandler Document (htmlparser2, HTML mode, entities decoded). */
export function parseHtml(html: string): Document {
  const doc = parseDocumentLinear(dropBogusCdata(html), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }, MAX_ELEMENTS);
  capDepth(doc);
  return doc;
}

/** Below this much visible text, `<noscript>` content is read as page text. */
export const NOSCRIPT_FALLBACK_CHARS = 200;

function visibleChars(segments: Segment[]): number {
  let n = 0;
  for (const s of segments) n += s.text.length;
  return n;
}

interface Walk {
  nodes: AnyNode[];
  index: Map<AnyNode, number>;
  segments: Segment[];
}

/**
 * One iterative pre-order walk: numbers nodes, builds segments, reads `<title>`.
 * A segment is a maximal run of inline text inside one block element.
 */
function walk(doc: Document, readNoscript = false): Walk {
  const nodes: AnyNode[] = [];
  const index = new Map<AnyNode, number>();
  const segments: Segment[] = [];
  // Current run
  let runParts: string[] = [];
  let runStart = -1;
  let runEnd = -1;
  let runLink = 0;
  let runBlock: Element | null = null;
  let runPath = '';

  const flush = () => {
    if (runStart >= 0 && runBlock) {
      const text = collapse(runParts.join(''));
      if (text) {
        // link chars were counted on raw text; clamp to the collapsed length
        segments.push({ index: runStart, end: runEnd, path: runPath, text, linkChars: Math.min(runLink, text.length), element: runBlock });
      }
    }
    runParts = [];
    runStart = -1;
    runEnd = -1;
    runLink = 0;
    runBlock = null;
  };

  // Stack entries: node to visit, or a marker to close a block.
  type Frame = { node: ChildNode; path: string; block: Element | null; blockPath: string; inLink: boolean } | { close: Element };
  const stack: Frame[] = [];
  for (let i = doc.children.length - 1; i >= 0; i--) stack.push({ node: doc.children[i]!, path: '', block: null, blockPath: '', inLink: false });

  while (stack.length) {
    const f = stack.pop()!;
    if ('close' in f) {
      flush();
      continue;
    }
    const { node } = f;
    if (node instanceof Element) {
      const name = node.name;
      if (SKIP_TAGS.has(name) && !(readNoscript && name === 'noscript')) {
        index.set(node, nodes.length);
        nodes.push(node);
        continue;
      }
      index.set(node, nodes.length);
      nodes.push(node);
      const path = f.path ? `${f.path}/${name}` : name;
      const isBlock = BLOCK_TAGS.has(name);
      if (isBlock) flush();
      const block = isBlock ? node : f.block;
      const blockPath = isBlock ? path : f.blockPath;
      const inLink = f.inLink || (name === 'a' && node.attribs.href !== undefined);
      if (isBlock) stack.push({ close: node });
      for (let i = node.children.length - 1; i >= 0; i--) {
        stack.push({ node: node.children[i]!, path, block, blockPath, inLink });
      }
    } else if (node instanceof Text) {
      const data = node.data;
      if (!data.trim()) {
        if (runStart >= 0) runParts.push(' ');
        continue;
      }
      const i = nodes.length;
      index.set(node, i);
      nodes.push(node);
      if (!f.block) continue; // text outside any block (before <html>): ignore
      if (runBlock !== f.block) {
        flush();
        runBlock = f.block;
        runPath = f.blockPath;
        runStart = i;
      }
      runEnd = i;
      runParts.push(data);
      if (f.inLink) runLink += collapse(data).length;
    }
  }
  flush();
  return { nodes, index, segments };
}

/** Text content of a subtree, iteratively, skipping script/style. Inline joins without spaces;
 * blocks and `<br>` are separated by a space. */
export function textOf(root: AnyNode): string {
  const out: string[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof Text) out.push(n.data);
    else if (n instanceof Element || n instanceof Document) {
      if (n instanceof Element) {
        if (n !== root && SKIP_TAGS.has(n.name)) continue;
        if (BLOCK_TAGS.has(n.name)) out.push(' ');
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out.join('');
}

/** Text of a link: its text, else its title attribute, else the alt text of an image in it. */
export function anchorText(el: Element): string {
  const t = collapse(textOf(el));
  if (t) return t;
  return anchorFallbackText(el);
}

/** Title attribute or image alt of a link without text. */
export function anchorFallbackText(el: Element): string {
  const title = el.attribs.title?.trim();
  if (title) return collapse(title);
  const stack = [...el.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (c instanceof Element) {
      if (c.name === 'img' && c.attribs.alt?.trim()) return collapse(c.attribs.alt);
      stack.push(...c.children);
    }
  }
  return '';
}

function readMeta(doc: Document): { meta: Map<string, string>; lang?: string; base?: string; bodyEl?: Element; title: string } {
  const meta = new Map<string, string>();
  let title: string | undefined;
  let lang: string | undefined;
  let base: string | undefined;
  let bodyEl: Element | undefined;
  const stack: AnyNode[] = [...doc.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    if (n.name === 'meta') {
      const key = (n.attribs.property ?? n.attribs.name ?? n.attribs.itemprop ?? n.attribs['http-equiv'])?.trim().toLowerCase();
      const content = n.attribs.content;
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content.trim());
    } else if (n.name === 'html' && n.attribs.lang && !lang) {
      lang = n.attribs.lang.trim().toLowerCase();
    } else if (n.name === 'base' && n.attribs.href && !base) {
      base = n.attribs.href;
    } else if (n.name === 'body' && !bodyEl) {
      bodyEl = n;
    } else if (n.name === 'title' && title === undefined) {
      title = collapse(textOf(n));
    }
    if (n.name === 'script' || n.name === 'style' || n.name === 'svg') continue;
    // reversed so that popping visits nodes in document order ("first value wins")
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  if (!lang) {
    const cl = meta.get('content-language') ?? meta.get('language') ?? meta.get('og:locale');
    if (cl) lang = cl.split(/[,;]/)[0]!.trim().toLowerCase().replace('_', '-');
  }
  return { meta, lang: lang || undefined, base, bodyEl, title: title ?? '' };
}

const JSONLD_WRAPPER = /^\s*(?:<!\[CDATA\[|<!--)|(?:\]\]>|-->)\s*$/g;

function collectJsonLd(nodes: readonly AnyNode[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  // (three functions, not one with closures: V8 compiled the one five times per thread, its
  // JSON side meeting objects of every shape)
  for (const s of jsonLdScripts(nodes)) {
    // Some pages wrap their JSON-LD in `<![CDATA[ … ]]>` or an HTML comment, which JSON.parse rejects.
    const raw = s.children.map((c) => (c instanceof Text ? c.data : '')).join('').replace(JSONLD_WRAPPER, '').trim();
    if (!raw) continue;
    try {
      flattenJsonLd(JSON.parse(raw), out);
    } catch {
      // Some sites put raw newlines or trailing commas in JSON-LD: try once more, cleaned.
      try {
        flattenJsonLd(JSON.parse(raw.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1')), out);
      } catch {
        /* unreadable JSON-LD is ignored */
      }
    }
  }
  return out;
}

/** The page's `<script type="application/ld+json">` elements, in document order. The page's flat
 * node list is in document order; the subtrees it does not enter (noscript, template …) are
 * searched in place (a profile of the batch showed a walk of the whole document here at 2 % of
 * its CPU). */
function jsonLdScripts(nodes: readonly AnyNode[]): Element[] {
  const scripts: Element[] = [];
  const take = (n: Element) => {
    if ((n.attribs.type ?? '').toLowerCase().includes('ld+json')) scripts.push(n);
  };
  for (const n of nodes) {
    if (!(n instanceof Element) || !SKIP_TAGS.has(n.name)) continue;
    if (n.name === 'script') take(n);
    else scriptsBelow(n, take);
  }
  return scripts;
}

/** Every object of a parsed JSON-LD value, `@graph` members after their container. */
function flattenJsonLd(v: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(v)) for (const x of v) flattenJsonLd(x, out);
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    out.push(o);
    if (o['@graph']) flattenJsonLd(o['@graph'], out);
  }
}

/** The <script> elements below an element, in document order. */
function scriptsBelow(root: Element, take: (n: Element) => void): void {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    if (n.name === 'script') take(n);
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}

export function resolveUrl(href: string | undefined, base: string): string | undefined {
  if (!href) return undefined;
  const h = href.trim();
  if (!h || /^(javascript|mailto|tel|data|about):/i.test(h) || h.startsWith('#')) return undefined;
  try {
    const u = new URL(h, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/** cheerio is loaded on the first `page.$()` (it costs ~120 ms of start-up and most pages never
 * need it); `require` keeps `$()` synchronous. */
let cheerioLoad: typeof import('cheerio').load | undefined;
function loadCheerio(): typeof import('cheerio').load {
  return (cheerioLoad ??= (createRequire(import.meta.url)('cheerio') as typeof import('cheerio')).load);
}

/** Build the page model from raw bytes (or an already decoded string). */
export function createPage(input: PageInput): Page {
  const resolved = new Map<string, string | undefined>();
  const decoded = decodeBody(input.body, input.contentType);
  const document = parseHtml(decoded.text);
  let { nodes, index, segments } = walk(document);
  if (visibleChars(segments) < NOSCRIPT_FALLBACK_CHARS) {
    // Script-rendered sites (Discourse …) serve the real page inside <noscript>: read it when the
    // visible body is (nearly) empty and the noscript view holds more.
    const withNoscript = walk(document, true);
    if (visibleChars(withNoscript.segments) > 2 * visibleChars(segments)) ({ nodes, index, segments } = withNoscript);
  }
  const { meta, lang, base, bodyEl, title } = readMeta(document);
  let baseUrl = input.url;
  if (base) {
    try {
      baseUrl = new URL(base, input.url).href;
    } catch {
      /* bad <base>: keep the URL */
    }
  }
  let jsonLdCache: Record<string, unknown>[] | undefined;
  let $cache: CheerioAPI | undefined;
  let langCache: { v: string | undefined } | undefined;
  const memos = new Map<string, unknown>();
  const computeLang = () => {
    const declared = lang?.split('-')[0];
    // A declared lang is trusted unless the text's script contradicts it (templates often keep
    // lang="en" on Chinese pages): detection on the text decides then.
    const sample = segments.slice(0, 400).map((s) => s.text).join(' ');
    const valid = declared !== undefined && /^[a-z]{2,3}$/.test(declared);
    // A declared non-CJK language on a page in Latin script (or none) stands whatever the stop
    // words say (the rule below keeps it): the script alone decides, no word count needed (the
    // stop-word detector was ~5 % of the crawl chain's CPU on the realistic site).
    if (valid && !CJK_LANGS.has(declared!)) {
      const script = dominantScript(sample);
      if (script === 'latin' || script === 'other') return declared;
    }
    const detected = detectLang(sample);
    if (valid) {
      if (detected && (CJK_LANGS.has(detected) !== CJK_LANGS.has(declared) || (CJK_LANGS.has(detected) && detected !== declared))) return detected;
      return declared;
    }
    return detected;
  };
  return {
    url: input.url,
    html: decoded.text,
    charset: decoded.charset,
    charsetSource: decoded.source,
    fetchedAt: input.fetchedAt ?? new Date(),
    document,
    nodes,
    segments,
    title,
    declaredLang: lang,
    baseUrl,
    meta,
    body: bodyEl ?? document,
    indexOf: (node) => index.get(node) ?? -1,
    jsonLd: () => (jsonLdCache ??= collectJsonLd(nodes)),
    $: () => ($cache ??= loadCheerio()(document as never, {}, false)),
    resolve: (href) => {
      // each stage resolves the page's links again (classifier, lists, follow …): once per href
      if (!href) return undefined;
      if (resolved.has(href)) return resolved.get(href);
      const url = resolveUrl(href, baseUrl);
      resolved.set(href, url);
      return url;
    },
    lang: () => (langCache ??= { v: computeLang() }).v,
    memo<T>(key: string, build: () => T): T {
      if (memos.has(key)) return memos.get(key) as T;
      const value = build();
      memos.set(key, value);
      return value;
    },
  };
}

/** The page's language tag with its region when the declared tag agrees with the detected language
 * (`pt-BR`, `en-GB`), else the detected language: what zone and date-order defaults key on. */
export function langTag(page: Pick<Page, 'lang' | 'declaredLang'>): string | undefined {
  const lang = page.lang();
  const declared = page.declaredLang?.trim().toLowerCase().replace('_', '-');
  return lang && declared && declared.split('-')[0] === lang ? declared : lang;
}
