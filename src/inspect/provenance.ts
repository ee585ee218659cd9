/**
 * The `provenance` middleware (issue 27, `--explain`): adds `provenance` to the item — for each
 * field, list entry and post, the CSS selector and DFS number of the element it came from
 * (src/inspect/locate.ts). Off unless enabled (`--explain`, or `middleware: { provenance: true }`
 * in a spider): default items are unchanged (item shape contract, ARCHITECTURE §4; an unknown key
 * such as `provenance` is one that consumers ignore).
 */
import type { Element } from 'domhandler';
import type { MiddlewareFactory } from '../core/middleware.js';
import type { Page } from '../core/page.js';
import { PINNED_SCRATCH, type PinnedRecord } from '../chain/pinned.js';
import { cssSelector } from './selector.js';
import { pageTree } from './tree.js';
import { locateProvenance, type Origin, type PostOrigin, type Provenance } from './locate.js';

/** Item key the provenance is written under. */
export const PROVENANCE_KEY = 'provenance';

/** A pinned element's origin: its own selector (resolves in the page), and the spider's. */
function pinnedOrigin(page: Page, element: Element, spec?: string, attr?: string): Origin {
  return { selector: cssSelector(pageTree(page), element) ?? '', dfs: page.indexOf(element), source: 'pinned', ...(spec ? { pinned: spec } : {}), ...(attr ? { attr } : {}) };
}

/** What the pinned-fields stage already knows: those fields' selectors are the spider's own. */
export function pinnedProvenance(page: Page, record: PinnedRecord | undefined): Provenance {
  const out: Provenance = {};
  if (!record) return out;
  for (const [f, p] of Object.entries(record.fields)) if (p) out[f as 'title'] = pinnedOrigin(page, p.element, p.selector, p.attr);
  if (record.posts) {
    out.posts = record.posts.map((r): PostOrigin => {
      const o: PostOrigin = { root: pinnedOrigin(page, r.root) };
      for (const [f, p] of Object.entries(r.fields)) if (p) o[f as 'author'] = pinnedOrigin(page, p.element, p.selector, p.attr);
      return o;
    });
  }
  return out;
}

export const provenanceMiddleware: MiddlewareFactory = () => ({
  name: 'provenance',
  process(ctx) {
    const known = pinnedProvenance(ctx.page, ctx.scratch[PINNED_SCRATCH] as PinnedRecord | undefined);
    const prov = locateProvenance(ctx.page, ctx.item, known);
    (ctx.item as Record<string, unknown>)[PROVENANCE_KEY] = prov;
  },
});
