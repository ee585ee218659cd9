/**
 * The one per-page index every algorithm reads (issue 10): flat arrays over `page.nodes` (DFS
 * pre-order) — parent, subtree end, depth, text and link-text counts, anchors — and the segments'
 * start positions with prefix sums. Built lazily on first use and held on the page
 * (`page.memo`), so the list, forum, article and page-type code share one build per page.
 *
 * DFS numbering turns subtree questions into index ranges (docs/sources.md, seed 000): a child
 * always has a larger index than its parent, so one forward pass inherits and one backward pass
 * aggregates, with no recursion — a 10,000-deep page cannot overflow the stack.
 */
import { Element, Text } from 'domhandler';
import type { Page, Segment } from './page.js';
import { lowerBound } from './positions.js';
import { codePointCounter } from './text.js';

export interface PageIndex {
  page: Page;
  /** Node count (= page.nodes.length). */
  size: number;
  /** DFS index of the parent element, -1 for top-level nodes. */
  parent: Int32Array;
  /** Last DFS index inside the subtree (itself for leaves). */
  end: Int32Array;
  /** Depth below the document. */
  depth: Int32Array;
  /** Non-space characters of text in the subtree. */
  chars: Int32Array;
  /** Non-space characters of text inside `<a href>` in the subtree. */
  linkChars: Int32Array;
  /** `<a href>` elements in the subtree. */
  anchorCount: Int32Array;
  /** Element descendants (incl. itself) in the subtree. */
  elementCount: Int32Array;
  /** 1 when the node is inside (or is) an `<a href>`. */
  inAnchor: Uint8Array;
  /** DFS indices of `<a href>` elements, ascending. */
  anchors: number[];
  /** Non-space length of each text node (0 for elements). */
  textLen: Int32Array;
  /** `page.segments` (in DFS order) and the DFS index of each one's first text node. */
  segments: Segment[];
  segStart: Int32Array;
  /** Prefix sums over segments: characters (collapsed text) and characters outside links;
   * `preChars[b] - preChars[a]` is the text of segments a..b-1. */
  preChars: Float64Array;
  preNonLink: Float64Array;
}

/** A DFS range [start, end] of node indices: a subtree. */
export interface Range {
  start: number;
  end: number;
}

const SPACE = /\s+/g;

/** Non-space character count (whitespace-insensitive: templates indent differently). */
export function solidLength(text: string): number {
  // the length less the white space (the same count as `text.replace(/\s+/g, '').length`, without
  // the copy: this runs on every text node of every page; `\s` holds no astral character)
  return text.length - countSpaces(text);
}
const countSpaces = codePointCounter(/\s/g);

/** The page's index, built on first use. */
export function pageIndex(page: Page): PageIndex {
  return page.memo('core:page-index', () => build(page));
}

function build(page: Page): PageIndex {
  const nodes = page.nodes;
  const n = nodes.length;
  const parent = new Int32Array(n).fill(-1);
  const end = new Int32Array(n);
  const depth = new Int32Array(n);
  const chars = new Int32Array(n);
  const linkChars = new Int32Array(n);
  const anchorCount = new Int32Array(n);
  const elementCount = new Int32Array(n);
  const inAnchor = new Uint8Array(n);
  const textLen = new Int32Array(n);
  const anchors: number[] = [];
  for (let i = 0; i < n; i++) {
    const node = nodes[i]!;
    end[i] = i;
    const p = node.parent ? page.indexOf(node.parent) : -1;
    parent[i] = p;
    depth[i] = p >= 0 ? depth[p]! + 1 : 0;
    const pa = p >= 0 ? inAnchor[p]! : 0;
    if (node instanceof Element) {
      elementCount[i] = 1;
      if (node.name === 'a' && node.attribs.href !== undefined) {
        inAnchor[i] = 1;
        anchorCount[i] = 1;
        anchors.push(i);
      } else inAnchor[i] = pa;
    } else if (node instanceof Text) {
      inAnchor[i] = pa;
      const len = solidLength(node.data);
      textLen[i] = len;
      chars[i] = len;
      if (pa) linkChars[i] = len;
    }
  }
  // Backward pass: children have larger indices than their parent, so each subtree is complete
  // when its root is reached.
  for (let i = n - 1; i >= 0; i--) {
    const p = parent[i]!;
    if (p < 0) continue;
    if (end[i]! > end[p]!) end[p] = end[i]!;
    chars[p] = chars[p]! + chars[i]!;
    linkChars[p] = linkChars[p]! + linkChars[i]!;
    anchorCount[p] = anchorCount[p]! + anchorCount[i]!;
    elementCount[p] = elementCount[p]! + elementCount[i]!;
  }
  const segments = page.segments;
  const m = segments.length;
  const segStart = new Int32Array(m);
  const preChars = new Float64Array(m + 1);
  const preNonLink = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) {
    const s = segments[i]!;
    segStart[i] = s.index;
    preChars[i + 1] = preChars[i]! + s.text.length;
    preNonLink[i + 1] = preNonLink[i]! + Math.max(0, s.text.length - s.linkChars);
  }
  return { page, size: n, parent, end, depth, chars, linkChars, anchorCount, elementCount, inAnchor, anchors, textLen, segments, segStart, preChars, preNonLink };
}

/** Collapsed text of the subtree rooted at DFS index `i` (text nodes only, in order). */
export function subtreeText(ix: PageIndex, i: number): string {
  const parts: string[] = [];
  const nodes = ix.page.nodes;
  const e = ix.end[i]!;
  for (let k = i; k <= e; k++) {
    const node = nodes[k];
    if (node instanceof Text) parts.push(node.data);
  }
  return parts.join(' ').replace(SPACE, ' ').trim();
}

/** The first `max` characters (about) of a subtree's text: cheap on large subtrees. */
export function subtreeTextPrefix(ix: PageIndex, i: number, max: number): string {
  const parts: string[] = [];
  const nodes = ix.page.nodes;
  const e = ix.end[i]!;
  let len = 0;
  for (let k = i; k <= e && len < max; k++) {
    const node = nodes[k];
    if (node instanceof Text) {
      parts.push(node.data);
      len += node.data.length;
    }
  }
  return parts.join(' ').replace(SPACE, ' ').trim();
}

/** Anchors (DFS indices) inside the subtree of `i`. */
export function anchorsIn(ix: PageIndex, i: number): number[] {
  const from = lowerBound(ix.anchors, i);
  const e = ix.end[i]!;
  const out: number[] = [];
  for (let k = from; k < ix.anchors.length && ix.anchors[k]! <= e; k++) out.push(ix.anchors[k]!);
  return out;
}

/** The DFS range of an element's subtree (empty when the node was not numbered). */
export function rangeOf(ix: PageIndex, node: import('domhandler').AnyNode): Range {
  const s = ix.page.indexOf(node);
  return s < 0 ? { start: 0, end: -1 } : { start: s, end: ix.end[s]! };
}

/** Segment index span [a, b) of the segments that start inside the range. */
export function segSpan(ix: PageIndex, r: Range): [number, number] {
  return [lowerBound(ix.segStart, r.start), lowerBound(ix.segStart, r.end + 1)];
}

/** Characters of the segments inside the range (collapsed text). */
export function rangeChars(ix: PageIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.preChars[b]! - ix.preChars[a]!;
}

/** Characters outside links of the segments inside the range. */
export function rangeNonLinkChars(ix: PageIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.preNonLink[b]! - ix.preNonLink[a]!;
}

/** The segments inside the range. */
export function segmentsIn(ix: PageIndex, r: Range): Segment[] {
  const [a, b] = segSpan(ix, r);
  return ix.segments.slice(a, b);
}

export function contains(outer: Range, inner: Range): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}
