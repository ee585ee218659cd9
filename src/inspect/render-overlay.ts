/**
 * `gleaner inspect --screenshot` (issue 27): the page itself rendered in Chromium (render mode:
 * its own HTML with its scripts run, every request but the page's own file refused), with the
 * report's boxes drawn on it — fields, list entries numbered and the next-page link, forum floors
 * in alternating colours with their number and author/date chips, links by follow decision.
 *
 * The boxes are placed by the provenance selectors, which are computed on the HTML standard's tree
 * (src/inspect/tree.ts), the tree the browser builds: `OVERLAY_SCRIPT` runs in the rendered page,
 * marks each selector's element with the report's `data-gl-*` attributes and adds the report's
 * page style (src/inspect/report.ts: PAGE_STYLE). A page whose scripts rebuilt the part a
 * selector named has that box missing: the count of boxes drawn is returned. The line fates of the
 * report (kept / template / rule filters) are not drawn: they are numbered in the page model's
 * tree, which has no selector per line.
 */
import type { PageTrace } from './trace.js';
import { chips, fieldOrigins, PAGE_STYLE } from './report.js';

export interface OverlayBox {
  path: string;
  selector: string;
  floor?: number;
  alt?: number;
  entry?: number;
  pinned?: boolean;
}

export interface OverlaySpec {
  boxes: OverlayBox[];
  chips: Record<string, string>;
  style: string;
  /** The page's base URL and the URLs followed with a label (links are marked as in the report). */
  base: string;
  labelled: string[];
}

export function overlaySpec(trace: PageTrace): OverlaySpec {
  const boxes: OverlayBox[] = [];
  for (const [path, o] of fieldOrigins(trace)) {
    const b: OverlayBox = { path, selector: o.selector };
    if (/^posts\.\d+$/.test(path)) {
      const k = Number(path.split('.')[1]);
      b.floor = (trace.item.kind === 'forum' && trace.item.posts?.[k]?.floor) || k + 1;
      b.alt = k % 2;
    }
    if (/^items\.\d+$/.test(path)) b.entry = Number(path.split('.')[1]) + 1;
    if (o.source === 'pinned') b.pinned = true;
    boxes.push(b);
  }
  return { boxes, chips: chips(trace), style: PAGE_STYLE, base: trace.page.baseUrl, labelled: trace.follow.map((f) => f.url) };
}

/** Runs in the rendered page (`(OVERLAY_SCRIPT)(spec)`): marks the boxes; returns how many were drawn. */
export const OVERLAY_SCRIPT = `(spec) => {
  const d = document;
  const style = d.createElement('style');
  style.textContent = spec.style;
  (d.head || d.documentElement).appendChild(style);
  let drawn = 0;
  const marked = new Map();
  for (const b of spec.boxes) {
    let el = null;
    try { el = d.querySelector(b.selector); } catch (e) {}
    if (!el) continue;
    drawn++;
    el.setAttribute('data-gl-f', ((el.getAttribute('data-gl-f') || '') + ' ' + b.path).trim());
    if (b.floor !== undefined) { el.setAttribute('data-gl-floor', String(b.floor)); el.setAttribute('data-gl-alt', String(b.alt)); }
    if (b.entry !== undefined) el.setAttribute('data-gl-entry', String(b.entry));
    if (b.pinned) el.setAttribute('data-gl-pinned', '');
    marked.set(b.path, el);
  }
  for (const [path, chip] of Object.entries(spec.chips)) {
    const el = marked.get(path);
    if (!el) continue;
    const c = d.createElement('span'); c.className = 'gl-chip'; c.textContent = chip; el.prepend(c);
  }
  const labelled = new Set(spec.labelled);
  let host = '';
  try { host = new URL(spec.base).host; } catch (e) {}
  for (const a of d.querySelectorAll('a[href]')) {
    let u;
    try { u = new URL(a.getAttribute('href'), spec.base); } catch (e) { continue; }
    if (!/^https?:$/.test(u.protocol)) continue;
    u.hash = '';
    a.setAttribute('data-gl-follow', labelled.has(u.href) ? 'labelled' : u.host === host ? 'same-host' : 'off-site');
  }
  d.body && d.body.classList.add('gl-fields', 'gl-links');
  return drawn;
}`;
