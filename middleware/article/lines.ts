/**
 * Which lines of a page are its main text: a logistic model over each line's own measures and its
 * place in the page (issue 11). The article body is one dense region; WCXB's gold main text of a
 * product, service or collection page is a set of short lines — a product's name, its selling
 * points, specs, the cards of a category page — spread between the site's chrome, where neither
 * the densest region nor the page's text without chrome fits (WCXB dev, mean per-page F1 on the
 * 92 product pages: article body 0.543, page text without navigation lines 0.567, the lines the
 * gold holds 0.866).
 *
 * A line is a segment of the page (`page.segments`). Its features (`lineFeatures`) are generic
 * facts, no site's names: the block tag, the length and link share, sentence punctuation, the
 * pre-clean rule that removed it (tree.ts), whether it is a navigation line, its place (share of
 * the page before it, before or after the page's headline, inside the article body the density
 * pass found), whether its block repeats among its siblings (a card, a list row) and whether its
 * text repeats on the page, the tags and class/id tokens of its ancestors (a token is a model
 * feature only when the training pages of at least MIN_FEATURE_SITES domains carry it, so no
 * single site's class names are learned), and the same few measures of the lines before and
 * after it.
 *
 * The model (`line-model.json`) is trained by `npm run train:lines` (bench/train-lines.ts) on
 * WCXB dev: the held-out figure is each half of the domains scored with the model trained on the
 * other half.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { loadJsonResource, loadShippedJson } from '../../src/core/resources.js';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildTree, classTokens, LINK_DENSITY_MAX, type SegInfo, type Tree } from './tree.js';
import { subtreeEnd } from './content.js';

/** Levels of ancestors whose tag and class tokens are features (a line's card, its list, its
 * column, its section: four to six levels on the pages looked at). */
const ANCESTOR_LEVELS = 6;
/** A navigation line: link text over half the line and shorter than a sentence with a link
 * (main-text.ts NAV_LINE_MAX). */
const NAV_LINE_MAX = 80;
/** A block that has at least this many like siblings (same tag and class) is a repeated card. */
const REPEAT_MIN = 3;
/** Ancestor tags that name a page region. */
const REGION_TAGS = new Set(['main', 'article', 'section', 'header', 'footer', 'nav', 'aside', 'form', 'table', 'ul', 'ol', 'dl', 'li', 'figure', 'details', 'dialog', 'blockquote', 'pre']);

export interface LineModel {
  format: 'gleaner-lines-1';
  /** Feature name → weight; features absent from the map weigh 0. */
  weights: Record<string, number>;
  bias: number;
  /** A line is main text when its probability reaches this. */
  threshold: number;
  /** Provenance: the pages and the figure the model was trained with. */
  trainedOn?: string;
}

/** The page's lines (segments inside the body element), in order, with the tree's measures. */
export interface Line {
  info: SegInfo;
  text: string;
}

const bucket = (x: number, edges: number[]) => {
  let k = 0;
  while (k < edges.length && x >= edges[k]!) k++;
  return k;
};
const LEN_EDGES = [3, 8, 15, 25, 40, 70, 140, 300, 700];
const POS_EDGES = [0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9];

function ruleOf(tree: Tree, el: number): string | undefined {
  for (let a = el; a >= 0; a = tree.parent[a]!) {
    const r = tree.reason.get(a);
    if (r) return r;
  }
  return undefined;
}

/** Like siblings (same tag and class attribute) of an element, itself included. The counts of a
 * parent's children are made once per parent and shared by every line under it (issue 24: the
 * children were rescanned per line, 84% of the time on a page of 40,000 sibling paragraphs). */
function likeCounter(): (el: Element) => number {
  const perParent = new Map<object, Map<string, number>>();
  const keyOf = (c: Element) => `${c.name}\u0000${c.attribs.class ?? ''}`;
  return (el) => {
    const parent = el.parent;
    if (!parent) return 1;
    let counts = perParent.get(parent);
    if (!counts) {
      counts = new Map();
      for (const c of parent.children) if (c instanceof Element) counts.set(keyOf(c), (counts.get(keyOf(c)) ?? 0) + 1);
      perParent.set(parent, counts);
    }
    return counts.get(keyOf(el)) ?? 1;
  };
}

/** Lines to the nearest paragraph, bucketed. */
const NEAR_MAX = 99;
const NEAR_EDGES = [1, 2, 4, 8, 16];
/** Lines of at most this many words carry their words as features. */
const SHORT_WORDS_MAX = 10;

/** Line features crossed with the page context. */
const CONTEXT_LINE = /^(?:tag:|len:|link:|nav$|good$|removed$|repeat$|body-|pos:|before-head|after-head)/;
const SHARE_EDGES = [0.1, 0.25, 0.5, 0.75, 0.9];

/**
 * What kind of page the lines are on, from the page itself (never the page-type label, which
 * another stage decides and may change): how much of the kept text the article body holds, how
 * much of it is link text and how much sits in repeated blocks, and the schema.org types the page
 * declares (JSON-LD `@type`, `og:type`).
 */
function pageContext(tree: Tree, lines: Line[], body?: { kept: Set<number> }): string[] {
  let kept = 0;
  let inBody = 0;
  let link = 0;
  for (const l of lines) {
    if (tree.removed[l.info.el]) continue;
    kept += l.info.len;
    link += l.info.len * l.info.linkShare;
    if (body?.kept.has(l.info.seg.index)) inBody += l.info.len;
  }
  kept = Math.max(1, kept);
  const out = [`ctx-body:${bucket(inBody / kept, SHARE_EDGES)}`, `ctx-link:${bucket(link / kept, SHARE_EDGES)}`];
  const types = new Set<string>();
  for (const o of tree.page.jsonLd()) {
    const t = o['@type'];
    for (const v of Array.isArray(t) ? t : [t]) if (typeof v === 'string' && /^[A-Za-z]+$/.test(v)) types.add(v.toLowerCase());
  }
  const og = tree.page.meta.get('og:type');
  if (og && /^[a-z.]+$/i.test(og)) types.add(`og-${og.toLowerCase()}`);
  for (const t of types) out.push(`ctx-type:${t}`);
  return out;
}

/** Short measures of a line, for its neighbours' features. */
function shortFeatures(s: SegInfo, removed: boolean): string[] {
  const nav = s.linkShare >= LINK_DENSITY_MAX && s.len < NAV_LINE_MAX;
  return [removed ? 'rm' : nav ? 'nav' : s.good ? 'good' : 'short'];
}

/**
 * Features of every line of the page: `names[i]` for line `lines[i]`. `body` is the DFS range of
 * the article body (the density pass's root), when one was found.
 */
export function lineFeatures(tree: Tree, body?: BodyRange, headline?: string): { lines: Line[]; names: string[][] } {
  const names: string[][] = [];
  const lines = visitLineFeatures(tree, body, headline, (_i, f) => void names.push(f));
  return { lines, names };
}

/**
 * The page's lines, each line's feature names handed to `visit` as they are made (not kept: the
 * ~50 names of each of 150,000 lines held 200 MB when they were, issue 24).
 */
function visitLineFeatures(tree: Tree, body: BodyRange | undefined, headline: string | undefined, visit: (i: number, names: string[]) => void): Line[] {
  const lines: Line[] = [];
  for (const s of tree.infos) if (s.el >= 0) lines.push({ info: s, text: s.seg.text });
  const total = lines.reduce((a, l) => a + l.info.len, 0) || 1;
  const textCount = new Map<string, number>();
  for (const l of lines) textCount.set(l.text, (textCount.get(l.text) ?? 0) + 1);
  // the headline: the first h1, else the first line equal to the title
  const normHead = headline?.replace(/\s+/g, ' ').trim().toLowerCase();
  let headAt = lines.findIndex((l) => l.info.seg.element.name === 'h1');
  if (headAt < 0 && normHead) headAt = lines.findIndex((l) => l.text.toLowerCase() === normHead);
  const ancCache = new Map<Element, string[]>();
  const ancestorsOf = (el: Element): string[] => {
    let v = ancCache.get(el);
    if (v) return v;
    const out = new Set<string>();
    let e: AnyNode | null = el;
    for (let k = 0; e instanceof Element && e.name !== 'body' && e.name !== 'html' && k < ANCESTOR_LEVELS; k++, e = e.parent) {
      if (REGION_TAGS.has(e.name)) out.add(`in:${e.name}`);
      for (const t of classTokens(e)) if (t.length > 2 && !/\d/.test(t)) out.add(`cls:${t}`);
      if (e.attribs.role) out.add(`role:${e.attribs.role.toLowerCase()}`);
      if (e.attribs.itemprop) out.add(`itemprop:${e.attribs.itemprop.toLowerCase()}`);
    }
    v = [...out];
    ancCache.set(el, v);
    return v;
  };
  const short = lines.map((l) => shortFeatures(l.info, !!tree.removed[l.info.el]));
  const context = pageContext(tree, lines, body);
  // distance (in lines) to the nearest paragraph outside the pre-cleaned chrome
  const near = new Array<number>(lines.length).fill(NEAR_MAX);
  for (let pass = 0; pass < 2; pass++) {
    let last = -NEAR_MAX;
    for (let k = 0; k < lines.length; k++) {
      const i = pass ? lines.length - 1 - k : k;
      const l = lines[i]!;
      if (l.info.good && !tree.removed[l.info.el]) last = i;
      near[i] = Math.min(near[i]!, Math.abs(i - last));
    }
  }
  // the page's declared main region (<main>, role=main), when it has exactly one
  const mains: number[] = [];
  tree.page.nodes.forEach((n, k) => {
    if (n instanceof Element && (n.name === 'main' || n.attribs.role?.toLowerCase() === 'main')) mains.push(k);
  });
  const mainRange = mains.length === 1 ? { from: mains[0]!, to: subtreeEnd(tree, mains[0]!) } : undefined;
  const likeCount = likeCounter();
  // a line's measures crossed with the page context: the same few names on every line, made once
  const crossed = new Map<string, string[]>();
  const cross = (b: string) => {
    let v = crossed.get(b);
    if (!v) crossed.set(b, (v = context.map((c) => `${c}&${b}`)));
    return v;
  };
  let before = 0;
  lines.forEach((l, i) => {
    const s = l.info;
    const el = s.seg.element;
    const removed = !!tree.removed[s.el];
    const f: string[] = [];
    const base: string[] = [];
    f.push(`tag:${el.name}`);
    if (removed) f.push('removed', `rule:${(ruleOf(tree, s.el) ?? '?').replace(/:.*$/, (m) => m)}`);
    const nav = s.linkShare >= LINK_DENSITY_MAX && s.len < NAV_LINE_MAX;
    if (nav) f.push('nav');
    f.push(`len:${bucket(s.len, LEN_EDGES)}`);
    f.push(s.linkShare === 0 ? 'link:0' : s.linkShare < LINK_DENSITY_MAX ? 'link:some' : s.linkShare < 1 ? 'link:most' : 'link:all');
    if (s.good) f.push('good');
    if (s.punct > 0) f.push('punct');
    if (/[.!?。！？]["'”’)）]?$/.test(l.text)) f.push('sentence-end');
    if (/\d/.test(l.text)) f.push('digit');
    if (/[$€£¥]|\b(?:usd|eur|gbp)\b/i.test(l.text)) f.push('currency');
    f.push(`pos:${bucket(before / total, POS_EDGES)}`);
    before += s.len;
    if (headAt >= 0) f.push(i < headAt ? 'before-head' : i === headAt ? 'head' : 'after-head');
    if (normHead && l.text.toLowerCase() === normHead) f.push('title');
    if (body) {
      if (body.kept.has(s.seg.index)) f.push('body-kept');
      else if (s.seg.index > body.from && s.seg.index <= body.to) f.push('body-in');
      else f.push(s.seg.index <= body.from ? 'body-before' : 'body-after');
    } else f.push('no-body');
    if (mainRange) f.push(s.seg.index > mainRange.from && s.seg.index <= mainRange.to ? 'in-main' : 'out-main');
    if (likeCount(el) >= REPEAT_MIN || (el.parent instanceof Element && likeCount(el.parent) >= REPEAT_MIN)) f.push('repeat');
    if ((textCount.get(l.text) ?? 0) > 1) f.push('dup');
    // the line's own measures, read in the page's context (a short list item is a spec on a
    // product page and a menu entry on an article page)
    for (const b of f) if (CONTEXT_LINE.test(b)) base.push(b);
    for (let k = 0; k < context.length; k++) for (const b of base) f.push(cross(b)[k]!);
    for (const c of context) f.push(c);
    f.push(`near:${bucket(near[i]!, NEAR_EDGES)}`);
    // the words of a short line (a button, a label, a menu entry, a copyright line): a word is a
    // feature only when the training pages of MIN_FEATURE_SITES domains use it
    const words = l.text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (words.length <= SHORT_WORDS_MAX) for (const w of new Set(words)) if (!/\d/.test(w)) f.push(`w:${w}`);
    for (const a of ancestorsOf(el)) f.push(a);
    for (const p of short[i - 1] ?? ['start']) f.push(`prev:${p}`);
    for (const p of short[i + 1] ?? ['end']) f.push(`next:${p}`);
    visit(i, f);
  });
  return lines;
}

/** The DFS range of an article body's root and its kept lines (segment indices). */
export interface BodyRange {
  from: number;
  to: number;
  kept: Set<number>;
}

/** The DFS range and kept lines of an article body, as lineFeatures reads them. */
export function bodyRange(tree: Tree, root: Element | undefined, kept: { index: number }[]): BodyRange | undefined {
  if (!root) return undefined;
  const from = tree.page.indexOf(root);
  if (from < 0) return undefined;
  return { from, to: subtreeEnd(tree, from), kept: new Set(kept.map((k) => k.index)) };
}

export function lineProbability(model: LineModel, names: string[]): number {
  let z = model.bias;
  for (const n of names) z += model.weights[n] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The shipped model's name beside this file (in the build: an entry of dist/data.json). */
const MODEL_NAME = 'line-model.json';
/** Environment variable naming another line model file (one `npm run train:lines` wrote: a model
 * trained on your own pages, or bench:content's leave-site-out folds). */
export const LINE_MODEL_ENV = 'GLEANER_LINE_MODEL';
const checkLineModel = (m: LineModel, f: string) => {
  if (m?.format !== 'gleaner-lines-1') throw new Error(`${f}: not a gleaner line model (format ${String(m?.format)})`);
};
/** The line model in use: the file GLEANER_LINE_MODEL names, else the one shipped beside this file. */
export function shippedLineModel(): LineModel {
  const file = process.env[LINE_MODEL_ENV];
  if (file) return loadJsonResource<LineModel>(file, checkLineModel, `line model ${file} not found (${LINE_MODEL_ENV})`);
  return loadShippedJson<LineModel>(here, MODEL_NAME, checkLineModel, `line model ${path.join(here, MODEL_NAME)} not found`);
}

/** Every line of the page with the model's probability that it is main text, in page order. */
export function scoreLines(page: Page, model: LineModel, o: { body?: BodyRange; headline?: string } = {}): { lines: Line[]; p: Float64Array } {
  const tree = buildTree(page);
  const p: number[] = [];
  const lines = visitLineFeatures(tree, o.body, o.headline, (i, names) => (p[i] = lineProbability(model, names)));
  return { lines, p: Float64Array.from(p) };
}

/** The main-text lines of a page by the model alone (probability ≥ its threshold), in page order. */
export function selectLines(page: Page, model: LineModel, o: { body?: BodyRange; headline?: string; threshold?: number } = {}): Line[] {
  const { lines, p } = scoreLines(page, model, o);
  const t = o.threshold ?? model.threshold;
  return lines.filter((_, i) => p[i]! >= t);
}
