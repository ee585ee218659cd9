/** List extraction. PLACEHOLDER until issue 5 lands: every in-page link with a title-length text. */
import type { Page } from '../../src/page/page.js';
import type { MiddlewareFactory } from '../../src/middleware/types.js';
import type { ListEntry } from '../../src/item.js';

export interface ListResult {
  items: ListEntry[];
  nextPage?: string;
  pages?: string[];
}

export function extractList(page: Page): ListResult {
  const seen = new Set<string>();
  const items: ListEntry[] = [];
  for (const a of page.$()('a[href]').toArray()) {
    const url = page.resolve(a.attribs.href);
    const title = page.$()(a).text().trim();
    if (!url || seen.has(url) || title.length < 8) continue;
    seen.add(url);
    items.push({ url, title });
  }
  return { items };
}

export const listMiddleware: MiddlewareFactory = () => ({
  name: 'list',
  priority: 600,
  kinds: ['list'],
  process(ctx) {
    const r = extractList(ctx.page);
    Object.assign(ctx.item, { kind: 'list', title: ctx.page.title || undefined, ...r });
  },
});
