/**
 * The `layout` stage (issue 28): on a rendered page (one that carries the box script's boxes), the
 * page's regions — header, footer, left and right borders, centre — as a signal the later stages
 * read through `layoutOf(page)`:
 *
 *   - the article pre-clean (middleware/article/tree.ts) removes elements drawn in a border region
 *     (`layout:<region>`, under the same cover limits as its semantic rules), which the article
 *     body, the main lines of list/other pages and the line model all start from;
 *   - the list extractor (middleware/list/clusters.ts) scores link clusters drawn in a border as
 *     page chrome (the main list is in the centre).
 *
 * Without boxes (HTTP crawls, saved pages that were not rendered) `layoutOf` is undefined and
 * nothing changes. It runs before the page-type stage, whose features share the pre-clean.
 */
import type { Page } from '../../src/core/page.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { readBoxes } from '../../src/core/layout.js';
import { computeRegions, REGION_CENTRE, REGION_NAMES, REGION_NONE, type RegionName, type Regions } from './regions.js';

export { BOX_SCRIPT, BOX_ATTR, VIEW_ATTR, LAYOUT_DEFAULT_ON, layoutEnabled, readBoxes, type Boxes, type View } from '../../src/core/layout.js';
export { computeRegions, REGION_NAMES, type RegionName, type Regions } from './regions.js';

/** Where the stage leaves a page's regions (held by the page: its memo). */
const holder = (page: Page) => page.memo('layout:regions', () => ({ regions: undefined as Regions | undefined }));

/** The page's regions, when the layout stage ran on a page with boxes. */
export function layoutOf(page: Page): Regions | undefined {
  return holder(page).regions;
}

/** The border region an element's own box starts (`header`, `footer`, `left`, `right`, `hidden`),
 * or undefined (centre, no box, no layout). */
export function borderStart(layout: Regions | undefined, index: number): RegionName | undefined {
  const r = layout?.own[index];
  return r === undefined || r === REGION_NONE || r === REGION_CENTRE ? undefined : REGION_NAMES[r];
}

/** The region a node is drawn in (its own box's, else its nearest boxed ancestor's), or undefined
 * without a layout (or outside every box). */
export function regionAt(layout: Regions | undefined, index: number): RegionName | undefined {
  const r = layout?.region[index];
  return r === undefined || r === REGION_NONE ? undefined : REGION_NAMES[r];
}

/** Whether a node is drawn in a border region (or hidden). */
export function inBorder(layout: Regions | undefined, index: number): boolean {
  const r = layout?.region[index];
  return r !== undefined && r !== REGION_NONE && r !== REGION_CENTRE;
}

/** The stage's priority: before the page-type stage (its features read the pre-clean). */
export const LAYOUT_PRIORITY = 50;

/** Computes and publishes the regions of a page; takes the box attributes off the tree either way. */
export function applyLayout(page: Page): Regions | undefined {
  const boxes = readBoxes(page);
  if (!boxes) return undefined;
  const r = computeRegions(page, boxes);
  if (r) holder(page).regions = r;
  return r;
}

export const layoutMiddleware: MiddlewareFactory = () => ({
  name: 'layout',
  process(ctx) {
    const r = applyLayout(ctx.page);
    if (r && ctx.log.debugEnabled) {
      const counts = new Map<string, number>();
      for (const o of r.own) {
        const name = o > REGION_CENTRE ? REGION_NAMES[o] : undefined;
        if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      ctx.log.debug(`layout: centre column at DFS ${r.column} (${Math.round(r.centre.w)}×${Math.round(r.centre.h)} at ${Math.round(r.centre.x)},${Math.round(r.centre.y)}); borders ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
    }
  },
});
