/**
 * DFS-range helpers over the page model: every numbered node's subtree is the index range
 * [start, end]; counts of anchors and text inside an element become O(log n) range queries.
 * All passes are iterative (no recursion over the DOM).
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { SKIP_TAGS } from '../../src/core/page.js';

/** Sentence punctuation (seed 003 §2.3: commas and full stops mark post text; signatures and
 * buttons rarely have any). CJK marks always count; a Latin mark counts when it follows a letter
 * or closing quote (French puts a space before `!`) and ends the word (so `1.599`, `2. Juli 2007`,
 * `2,5m` in user panels do not); a run (`..`, `?!`) is one mark. */
export const CONTENT_PUNCT = /(?<=[\p{L})"'’”]\s?)[,.;!?…]+(?=[\s"'’”)]|$)|[，。；！？…]/gu;

/** Noise inside a floor (seed 003 §2.3: signatures and buttons rarely carry content). Class/id
 * words of board templates; quotes are content and never noise. */
export const NOISE_HINT = /(signature|(^|[\s_-])sig($|[\s_-])|postbit_?sig|button|btn|toolbar|post-?actions|post-?controls|quick-?reply|share-?buttons|reactions?-?bar|likes?-?bar|like-?list)/i;

export interface DomIndex {
  page: Page;
  /** Last DFS index inside node i's subtree. */
  end: Int32Array;
  /** Segments sorted by DFS index (page order). */
  segments: Segment[];
  segStart: Int32Array;
  /** Prefix sums over segments: non-link characters, punctuation marks, all characters. */
  preNonLink: Float64Array;
  prePunct: Float64Array;
  preChars: Float64Array;
  /** Per segment: inside a noise element (signature, buttons). */
  noise: Uint8Array;
}

/**
 * @param labelStarts DFS indices of segments that are date labels (short dated lines such as
 * "Ingo78, 10. April 2020"): their commas are metadata, not sentence punctuation.
 */
export function buildIndex(page: Page, labelStarts: ReadonlySet<number> = new Set()): DomIndex {
  const n = page.nodes.length;
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const p = page.nodes[i]!.parent;
    if (!p) continue;
    const j = page.indexOf(p);
    if (j >= 0 && end[i]! > end[j]!) end[j] = end[i]!;
  }
  const segments = page.segments;
  const m = segments.length;
  const segStart = new Int32Array(m);
  const preNonLink = new Float64Array(m + 1);
  const prePunct = new Float64Array(m + 1);
  const preChars = new Float64Array(m + 1);
  const noise = new Uint8Array(m);
  const memo = new Map<AnyNode, boolean>();
  const isNoise = (el: AnyNode): boolean => {
    // Iterative with memo: walk up to the first known ancestor, then fill the chain.
    const chain: AnyNode[] = [];
    let n: AnyNode | null = el;
    let v = false;
    while (n) {
      const known = memo.get(n);
      if (known !== undefined) {
        v = known;
        break;
      }
      chain.push(n);
      n = n.parent;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k]!;
      if (!v && c instanceof Element) {
        const a = `${c.attribs.class ?? ''} ${c.attribs.id ?? ''}`;
        if (a.length > 1 && NOISE_HINT.test(a) && !/quote/i.test(a)) v = true;
      }
      memo.set(c, v);
    }
    return v;
  };
  for (let i = 0; i < m; i++) {
    const s = segments[i]!;
    segStart[i] = s.index;
    noise[i] = isNoise(s.element) ? 1 : 0;
    preNonLink[i + 1] = preNonLink[i]! + Math.max(0, s.text.length - s.linkChars);
    const counts = !noise[i] && s.linkChars < s.text.length / 2 && !labelStarts.has(s.index);
    prePunct[i + 1] = prePunct[i]! + (counts ? punctIn(s.text) : 0);
    preChars[i + 1] = preChars[i]! + s.text.length;
  }
  return { page, end, segments, segStart, preNonLink, prePunct, preChars, noise };
}

export function punctIn(text: string): number {
  CONTENT_PUNCT.lastIndex = 0;
  let k = 0;
  while (CONTENT_PUNCT.exec(text)) k++;
  return k;
}

import { lowerBound } from '../../src/core/positions.js';
export { lowerBound };

export interface Range {
  start: number;
  end: number;
}

export function rangeOf(ix: DomIndex, el: AnyNode): Range {
  const s = ix.page.indexOf(el);
  return s < 0 ? { start: 0, end: -1 } : { start: s, end: ix.end[s]! };
}

/** Segment index span [a, b) of segments starting inside the range. */
export function segSpan(ix: DomIndex, r: Range): [number, number] {
  return [lowerBound(ix.segStart, r.start), lowerBound(ix.segStart, r.end + 1)];
}

export function nonLinkChars(ix: DomIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.preNonLink[b]! - ix.preNonLink[a]!;
}

export function punctMarks(ix: DomIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.prePunct[b]! - ix.prePunct[a]!;
}

export function chars(ix: DomIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.preChars[b]! - ix.preChars[a]!;
}

export function segmentsIn(ix: DomIndex, r: Range): Segment[] {
  const [a, b] = segSpan(ix, r);
  return ix.segments.slice(a, b);
}

export function contains(outer: Range, inner: Range): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** Element children that can hold content (no script/style). */
export function elementChildren(el: AnyNode): Element[] {
  const out: Element[] = [];
  if (!('children' in el)) return out;
  for (const c of (el as Element).children) if (c instanceof Element && !SKIP_TAGS.has(c.name)) out.push(c);
  return out;
}

const DIGITS = /\d+/g;

/** Class tokens with digits stripped (`bg1`/`bg2` → `bg`, `post-123` → `post-`). */
export function classTokens(el: Element): string[] {
  const c = el.attribs.class;
  if (!c) return [];
  const out: string[] = [];
  for (const t of c.split(/\s+/)) {
    const s = t.replace(DIGITS, '');
    if (s && s !== '-' && s !== '_') out.push(s.toLowerCase());
  }
  return [...new Set(out)].sort();
}

/** `post_123` → `post_#`; ids without digits are kept as they are. */
export function idPattern(el: Element): string | undefined {
  const id = el.attribs.id;
  if (!id) return undefined;
  return id.replace(DIGITS, '#');
}

/** One step of a structural path: tag plus digit-free classes (`div.message.post`). */
export function stepKey(el: Element): string {
  const cls = classTokens(el);
  return cls.length ? `${el.name}.${cls.join('.')}` : el.name;
}

export function jaccard(a: string[], b: string[]): number {
  if (!a.length && !b.length) return 1;
  let inter = 0;
  const sb = new Set(b);
  for (const x of a) if (sb.has(x)) inter++;
  return inter / (a.length + b.length - inter);
}

/** Path of steps from `root` (exclusive) down to `el` (inclusive); undefined if not inside. */
export function relPath(root: Element, el: AnyNode): string | undefined {
  const steps: string[] = [];
  let n: AnyNode | null = el;
  while (n && n !== root) {
    if (n instanceof Element) steps.push(stepKey(n));
    n = n.parent;
  }
  if (n !== root) return undefined;
  return steps.reverse().join('/');
}

/** Whether any ancestor (up to `root`, exclusive) satisfies the test. */
export function hasAncestor(el: AnyNode, root: AnyNode | null, test: (e: Element) => boolean): boolean {
  for (let n: AnyNode | null = el; n && n !== root; n = n.parent) {
    if (n instanceof Element && test(n)) return true;
  }
  return false;
}
