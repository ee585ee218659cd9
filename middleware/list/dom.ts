/**
 * Flat per-node arrays over `page.nodes` (DFS pre-order): parent, subtree end, text and link-text
 * counts, anchors. One forward and one backward pass, no recursion, so both the list extractor and
 * the page-type features read subtree aggregates in O(1) (seed 000: DFS numbering turns subtree
 * questions into index ranges).
 */
import { Element, Text } from 'domhandler';
import type { Page } from '../../src/core/page.js';

export interface DomIndex {
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
}

const SPACE = /\s+/g;

/** Non-space character count (whitespace-insensitive: templates indent differently). */
export function solidLength(text: string): number {
  return text.replace(SPACE, '').length;
}

const cache = new WeakMap<Page, DomIndex>();

export function domIndex(page: Page): DomIndex {
  const hit = cache.get(page);
  if (hit) return hit;
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
  const idx: DomIndex = { page, size: n, parent, end, depth, chars, linkChars, anchorCount, elementCount, inAnchor, anchors, textLen };
  cache.set(page, idx);
  return idx;
}

/** Collapsed text of the subtree rooted at DFS index `i` (text nodes only, in order). */
export function subtreeText(dom: DomIndex, i: number): string {
  const parts: string[] = [];
  const nodes = dom.page.nodes;
  const e = dom.end[i]!;
  for (let k = i; k <= e; k++) {
    const node = nodes[k];
    if (node instanceof Text) parts.push(node.data);
  }
  return parts.join(' ').replace(SPACE, ' ').trim();
}

/** The first `max` characters (about) of a subtree's text: cheap on large subtrees. */
export function subtreeTextPrefix(dom: DomIndex, i: number, max: number): string {
  const parts: string[] = [];
  const nodes = dom.page.nodes;
  const e = dom.end[i]!;
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

import { lowerBound } from '../../src/core/positions.js';
export { lowerBound };

/** Anchors (DFS indices) inside the subtree of `i`. */
export function anchorsIn(dom: DomIndex, i: number): number[] {
  const from = lowerBound(dom.anchors, i);
  const e = dom.end[i]!;
  const out: number[] = [];
  for (let k = from; k < dom.anchors.length && dom.anchors[k]! <= e; k++) out.push(dom.anchors[k]!);
  return out;
}
