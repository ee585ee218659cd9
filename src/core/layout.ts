/**
 * Layout boxes of a rendered page (issue 28, item 1; sources: 荆涛、左万利 2004 and Kovacevic et al.
 * 2002, the visual-layout method of the noise-removal source document).
 *
 * In the browser, one pass over the body (`BOX_SCRIPT`, run by the render fetcher and by
 * `gleaner extract --render` before the DOM is serialised) writes on every block-level element
 * (display other than `inline`/`contents`) its border box in page coordinates and its state:
 * `data-gleaner-box="x,y,w,h[,flags]"`, flags `h` hidden (display none or visibility hidden:
 * its subtree is not visited), `f` position fixed, `s` position sticky; and on `<html>` the
 * viewport and page size, `data-gleaner-view="vw,vh,pw,ph"`. The boxes travel with the DOM (to
 * the chain's worker threads, as any page does), and `readBoxes` maps them to the page model's DFS
 * numbers and takes the attributes off the tree, so no later stage (nor `contentHtml`) sees them.
 * A page without the view attribute (an HTTP crawl, a saved page) has no boxes.
 */
import { Element } from 'domhandler';
import type { MiddlewareSetting } from './middleware.js';
import type { Page } from './page.js';

/** Whether the `layout` stage runs when a spider does not say (README, "Visual layout"). */
export const LAYOUT_DEFAULT_ON = false;

/** Whether a spider's setting for the `layout` stage turns it on (the render fetcher runs the box
 * script only then). */
export function layoutEnabled(setting: MiddlewareSetting | undefined): boolean {
  return setting === undefined ? LAYOUT_DEFAULT_ON : setting !== false;
}

export const BOX_ATTR = 'data-gleaner-box';
export const VIEW_ATTR = 'data-gleaner-view';

export const FLAG_HIDDEN = 1;
export const FLAG_FIXED = 2;
export const FLAG_STICKY = 4;

/**
 * The in-page script (a function source: `page.evaluate(BOX_SCRIPT)`). One pass, iterative; it
 * first removes any box attributes the page itself carried, so only measured boxes are read.
 * Returns the number of boxes written.
 */
export const BOX_SCRIPT = `(() => {
  const A = ${JSON.stringify(BOX_ATTR)}, V = ${JSON.stringify(VIEW_ATTR)};
  for (const e of Array.from(document.querySelectorAll('[' + A + '],[' + V + ']'))) { e.removeAttribute(A); e.removeAttribute(V); }
  const body = document.body, root = document.documentElement;
  if (!body || !root) return 0;
  const sx = window.scrollX, sy = window.scrollY;
  const pw = Math.max(root.scrollWidth, body.scrollWidth), ph = Math.max(root.scrollHeight, body.scrollHeight);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK']);
  // read every box first, write the attributes after: a write between two reads would make the
  // browser recompute the styles for each element (attribute selectors may match)
  const els = [], vals = [];
  const stack = [body];
  while (stack.length) {
    const el = stack.pop();
    const cs = getComputedStyle(el);
    const d = cs.display;
    if (d === 'none') { els.push(el); vals.push('0,0,0,0,h'); continue; }
    if (d !== 'inline' && d !== 'contents') {
      const r = el.getBoundingClientRect();
      let f = cs.visibility === 'hidden' || cs.visibility === 'collapse' ? 'h' : '';
      if (cs.position === 'fixed') f += 'f'; else if (cs.position === 'sticky') f += 's';
      els.push(el);
      vals.push(Math.round(r.left + sx) + ',' + Math.round(r.top + sy) + ',' + Math.round(r.width) + ',' + Math.round(r.height) + (f ? ',' + f : ''));
    }
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) if (!SKIP.has(c.tagName) && c.namespaceURI === 'http://www.w3.org/1999/xhtml') stack.push(c);
  }
  for (let i = 0; i < els.length; i++) els[i].setAttribute(A, vals[i]);
  root.setAttribute(V, [window.innerWidth, window.innerHeight, pw, ph].join(','));
  return els.length;
})()`;

export interface View {
  /** Viewport width and height (CSS px). */
  vw: number;
  vh: number;
  /** Page (document) width and height. */
  pw: number;
  ph: number;
}

export interface Boxes {
  view: View;
  /** Per DFS index: 1 when the element carried a box. */
  has: Uint8Array;
  x: Float32Array;
  y: Float32Array;
  w: Float32Array;
  h: Float32Array;
  /** FLAG_* bits. */
  flags: Uint8Array;
  /** Elements with a box. */
  count: number;
}

function parseView(v: string | undefined): View | undefined {
  if (!v) return undefined;
  const [vw, vh, pw, ph] = v.split(',').map(Number);
  if (![vw, vh, pw, ph].every((n) => Number.isFinite(n) && n! > 0)) return undefined;
  return { vw: vw!, vh: vh!, pw: pw!, ph: ph! };
}

/**
 * The boxes the in-page script wrote, by DFS index, with the attributes taken off the tree (read
 * once per page: `page.memo`). Undefined when the page carries no measured view (not rendered).
 */
export function readBoxes(page: Page): Boxes | undefined {
  return page.memo('layout:boxes', () => read(page));
}

function read(page: Page): Boxes | undefined {
  const nodes = page.nodes;
  const root = nodes.find((n): n is Element => n instanceof Element && n.name === 'html');
  const view = parseView(root?.attribs[VIEW_ATTR]);
  if (root) delete root.attribs[VIEW_ATTR];
  const n = nodes.length;
  const b: Boxes = { view: view ?? { vw: 0, vh: 0, pw: 0, ph: 0 }, has: new Uint8Array(n), x: new Float32Array(n), y: new Float32Array(n), w: new Float32Array(n), h: new Float32Array(n), flags: new Uint8Array(n), count: 0 };
  for (let i = 0; i < n; i++) {
    const el = nodes[i];
    if (!(el instanceof Element)) continue;
    const a = el.attribs[BOX_ATTR];
    if (a === undefined) continue;
    delete el.attribs[BOX_ATTR];
    if (!view) continue;
    const [xs, ys, ws, hs, fs] = a.split(',');
    const x = Number(xs), y = Number(ys), w = Number(ws), h = Number(hs);
    if (![x, y, w, h].every(Number.isFinite)) continue;
    b.has[i] = 1;
    b.x[i] = x;
    b.y[i] = y;
    b.w[i] = Math.max(0, w);
    b.h[i] = Math.max(0, h);
    b.flags[i] = (fs?.includes('h') ? FLAG_HIDDEN : 0) | (fs?.includes('f') ? FLAG_FIXED : 0) | (fs?.includes('s') ? FLAG_STICKY : 0);
    b.count++;
  }
  return view && b.count ? b : undefined;
}
