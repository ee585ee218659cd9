/**
 * Regions of a rendered page from its layout boxes (issue 28, item 2): the visual-layout method of
 * the noise-removal source document (荆涛、左万利 2004; Kovacevic et al., ICDM 2002): split the page
 * into a header, a footer, left and right borders and the centre, keep the centre's content.
 *
 * The papers place the borders at fixed distances from the page edges (a header within the top
 * 200 px …). Blog and news themes vary too much for that (a 500 px banner, a centred 700 px column
 * in a 1280 px viewport), so the centre is found from the page's own boxes:
 *
 *   1. the main box: the deepest element holding at least half of the page's visible text (links
 *      weigh half; preformatted text does not count: a long code listing is not a column),
 *      found top-down over the DFS tree;
 *   2. the centre column: the main box, widened to its outermost ancestor of about the same width
 *      (the column that holds the title and the body above it, or the list's heading); its width
 *      narrowed, when children on the way down to the main box are drawn side by side (a sidebar
 *      floated beside the body in the same container, a grid's second track), to the heaviest
 *      group of them by horizontal overlap, and then its height to that group's (a header row
 *      spanning the grid's tracks is above it);
 *   3. every other box is classified against that rectangle: entirely above it → header,
 *      entirely below → footer, entirely left / right of it → left / right border, else centre;
 *      the column and its ancestors are the centre; a fixed or sticky bar (wide
 *      or tall against the viewport) outside the column is a border wherever it is drawn (header
 *      or footer by its place in the viewport; a tall narrow one left or right); a hidden element
 *      (display none, visibility hidden) is `hidden`.
 *
 * Elements without a box of their own (inline elements, text) take their parent's region. Because
 * the regions come from where the boxes are drawn, not from the DOM order, they hold for layout
 * tables, floats, CSS grids with the sidebar first in the DOM but drawn on the right, and fixed bars.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { pageIndex } from '../../src/core/page-index.js';
import { textWidth } from '../../src/core/text.js';
import { FLAG_FIXED, FLAG_HIDDEN, FLAG_STICKY, type Boxes } from '../../src/core/layout.js';

export const REGION_NONE = 0;
export const REGION_CENTRE = 1;
export const REGION_HEADER = 2;
export const REGION_FOOTER = 3;
export const REGION_LEFT = 4;
export const REGION_RIGHT = 5;
export const REGION_HIDDEN = 6;
export const REGION_NAMES = ['none', 'centre', 'header', 'footer', 'left', 'right', 'hidden'] as const;
export type RegionName = (typeof REGION_NAMES)[number];

/** A segment inside preformatted text. */
const PRE_PATH = /(?:^|\/)pre(?:\/|$)/;

/** Share of the page's visible text the main box holds at least. */
const MAIN_SHARE = 0.5;
/** An ancestor of the main box is still its column while at most this much wider (plus padding). */
const COLUMN_WIDEN = 1.15;
const COLUMN_PAD = 48;
/** Pixels a box may overlap the column and still lie beside it (borders, rounding, shadows). */
const TOLERANCE = 4;
/** A fixed or sticky element is a bar when at least this share of the viewport wide (or tall). */
const BAR_SHARE = 0.5;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Regions {
  /** Region of each DFS index (inherited by nodes without a box of their own). */
  region: Uint8Array;
  /** Region an element's own box gave it (REGION_NONE without a box): where a border starts. */
  own: Uint8Array;
  /** DFS index of the main box and of the centre column. */
  main: number;
  column: number;
  /** The centre column's rectangle. */
  centre: Rect;
}

/** Visible text weight of each subtree (links weigh half), through the page index. */
function textWeights(page: Page, boxes: Boxes, parent: Int32Array): Float64Array {
  const n = page.nodes.length;
  const weight = new Float64Array(n);
  for (const s of page.segments) {
    const el = page.indexOf(s.element);
    // preformatted text (code blocks) is content, not a column of the layout: a long listing
    // would otherwise be the main box, and the post's own paragraphs above it a header
    if (el < 0 || PRE_PATH.test(s.path)) continue;
    const linkShare = s.linkChars / Math.max(1, s.text.length);
    weight[el] = weight[el]! + textWidth(s.text) * (1 - 0.5 * linkShare);
  }
  // hidden subtrees carry no visible text
  for (let i = 0; i < n; i++) if (boxes.has[i] && boxes.flags[i]! & FLAG_HIDDEN) weight[i] = -Infinity;
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p >= 0 && weight[i]! > 0) weight[p] = weight[p]! + weight[i]!;
  }
  return weight;
}

/** The deepest element with a box that holds at least MAIN_SHARE of the visible text. */
function mainBox(page: Page, boxes: Boxes, parent: Int32Array, end: Int32Array, weight: Float64Array): number {
  const bodyIndex = page.indexOf(page.body as Element);
  if (bodyIndex < 0) return -1;
  const total = weight[bodyIndex]!;
  if (!(total > 0)) return -1;
  let best = boxes.has[bodyIndex] ? bodyIndex : -1;
  let at = bodyIndex;
  for (;;) {
    let next = -1;
    // the children of `at`: DFS indices in (at, end[at]] whose parent is `at`
    for (let i = at + 1; i <= end[at]!; i = end[i]! + 1) {
      if (parent[i] === at && weight[i]! >= MAIN_SHARE * total) {
        next = i;
        break;
      }
    }
    if (next < 0) break;
    at = next;
    if (boxes.has[at] && boxes.w[at]! > 0 && boxes.h[at]! > 0) best = at;
  }
  return best;
}

/** The main box widened to its outermost ancestor of about the same width (not the body). */
function centreColumn(page: Page, boxes: Boxes, parent: Int32Array, main: number): number {
  const bodyIndex = page.indexOf(page.body as Element);
  const limit = boxes.w[main]! * COLUMN_WIDEN + COLUMN_PAD;
  let col = main;
  for (let p = parent[main]!; p > bodyIndex && p >= 0; p = parent[p]!) {
    if (!boxes.has[p]) continue;
    if (boxes.w[p]! > limit) break;
    col = p;
  }
  return col;
}

function classify(boxes: Boxes, i: number, c: Rect): number {
  const x = boxes.x[i]!, y = boxes.y[i]!, w = boxes.w[i]!, h = boxes.h[i]!;
  const f = boxes.flags[i]!;
  const { vw, vh } = boxes.view;
  if (f & FLAG_FIXED && (w >= BAR_SHARE * vw || h >= BAR_SHARE * vh)) {
    // a fixed bar: where the viewport shows it (boxes are measured at scroll 0)
    if (h >= BAR_SHARE * vh && w < BAR_SHARE * vw) return x + w / 2 < vw / 2 ? REGION_LEFT : REGION_RIGHT;
    return y + h / 2 < vh / 2 ? REGION_HEADER : REGION_FOOTER;
  }
  // a sticky bar is drawn at its place in the flow until the page scrolls: classified from there
  if (f & FLAG_STICKY && y + h <= c.y + TOLERANCE && w >= BAR_SHARE * vw) return REGION_HEADER;
  if (w <= 0 || h <= 0) return REGION_NONE;
  if (y + h <= c.y + TOLERANCE) return REGION_HEADER;
  if (y >= c.y + c.h - TOLERANCE) return REGION_FOOTER;
  if (x + w <= c.x + TOLERANCE) return REGION_LEFT;
  if (x >= c.x + c.w - TOLERANCE) return REGION_RIGHT;
  return REGION_CENTRE;
}

/** Children wider than this share of their parent span its tracks and do not split them. */
const SPANNING_SHARE = 0.8;

/** The element children of `at` that have a box and visible text. */
function boxedChildren(boxes: Boxes, parent: Int32Array, end: Int32Array, weight: Float64Array, at: number): number[] {
  const out: number[] = [];
  for (let i = at + 1; i <= end[at]!; i = end[i]! + 1) {
    if (parent[i] !== at || !(weight[i]! > 0)) continue;
    if (boxes.has[i] && boxes.w[i]! > 0 && !(boxes.flags[i]! & FLAG_HIDDEN)) out.push(i);
  }
  return out;
}

/**
 * The centre inside the column: when the column's children (or those of a descendant on the way
 * down to the main box) are drawn side by side — a sidebar floated beside the body in the
 * same container, a grid's second track — the children are grouped by horizontal overlap
 * (children spanning the tracks, a header row, do not split them) and the heaviest group is the
 * centre, when it outweighs the spanning children; its rectangle is the group's. Otherwise the
 * column's own box.
 */
function centreRect(boxes: Boxes, parent: Int32Array, end: Int32Array, weight: Float64Array, column: number, main: number): Rect {
  const whole: Rect = { x: boxes.x[column]!, y: boxes.y[column]!, w: boxes.w[column]!, h: boxes.h[column]! };
  let at = column;
  for (let depth = 0; depth < 50; depth++) {
    const kids = boxedChildren(boxes, parent, end, weight, at);
    const width = boxes.w[at]!;
    let spanning = 0;
    // [x0, x1, weight, y0, y1]
    const spans: Array<[number, number, number, number, number]> = [];
    for (const k of kids) {
      if (boxes.w[k]! > SPANNING_SHARE * width) spanning += weight[k]!;
      else spans.push([boxes.x[k]!, boxes.x[k]! + boxes.w[k]!, weight[k]!, boxes.y[k]!, boxes.y[k]! + boxes.h[k]!]);
    }
    spans.sort((p, q) => p[0] - q[0]);
    const groups: Array<[number, number, number, number, number]> = [];
    for (const sp of spans) {
      const cur = groups[groups.length - 1];
      if (cur && sp[0] < cur[1] - TOLERANCE) {
        cur[1] = Math.max(cur[1], sp[1]);
        cur[2] += sp[2];
        cur[3] = Math.min(cur[3], sp[3]);
        cur[4] = Math.max(cur[4], sp[4]);
      } else groups.push([...sp]);
    }
    if (groups.length >= 2) {
      const best = groups.reduce((p, q) => (q[2] > p[2] ? q : p));
      if (best[2] > spanning) return { x: best[0], y: best[3], w: best[1] - best[0], h: best[4] - best[3] };
      return whole;
    }
    // no split here: look inside the child that holds the main box (not below the main box)
    const next = at === main ? undefined : kids.find((k) => k <= main && main <= end[k]!);
    if (next === undefined) return whole;
    at = next;
  }
  return whole;
}

/** The regions of a page with boxes; undefined when no main box is found (no visible text). */
export function computeRegions(page: Page, boxes: Boxes): Regions | undefined {
  const { parent, end } = pageIndex(page);
  const n = page.nodes.length;
  const weight = textWeights(page, boxes, parent);
  const main = mainBox(page, boxes, parent, end, weight);
  if (main < 0) return undefined;
  const column = centreColumn(page, boxes, parent, main);
  const centre = centreRect(boxes, parent, end, weight, column, main);
  const own = new Uint8Array(n);
  const region = new Uint8Array(n);
  // the column's ancestors hold it: centre
  for (let p = column; p >= 0; p = parent[p]!) own[p] = REGION_CENTRE;
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    const inherited = p >= 0 ? region[p]! : REGION_NONE;
    if (own[i]) {
      region[i] = own[i]!;
      continue;
    }
    if (inherited !== REGION_CENTRE && inherited !== REGION_NONE) {
      // inside a border (or a hidden subtree): the same region, which starts above
      region[i] = inherited;
      continue;
    }
    if (!(page.nodes[i] instanceof Element) || !boxes.has[i]) {
      region[i] = inherited;
      continue;
    }
    const r = boxes.flags[i]! & FLAG_HIDDEN ? REGION_HIDDEN : classify(boxes, i, centre);
    if (r === REGION_NONE || r === REGION_CENTRE) {
      region[i] = r === REGION_CENTRE ? r : inherited;
      continue;
    }
    own[i] = r;
    region[i] = r;
  }
  return { region, own, main, column, centre };
}
