/** Article extraction. PLACEHOLDER until issue 4 lands: title from <title>, long segments as content. */
import type { Page, Segment } from '../../src/page/page.js';
import type { MiddlewareFactory } from '../../src/middleware/types.js';
import type { Item } from '../../src/item.js';

export interface ArticleOptions {
  segments?: Segment[];
  anchorText?: string;
  timezone?: string;
}

export function extractArticle(page: Page, options: ArticleOptions = {}): Partial<Item> | null {
  const segs = (options.segments ?? page.segments).filter((s) => s.text.length > 40 && s.linkChars < s.text.length / 2);
  if (!segs.length) return null;
  return { kind: 'article', title: page.title || undefined, content: segs.map((s) => s.text).join('\n') };
}

export const articleMiddleware: MiddlewareFactory = () => ({
  name: 'article',
  priority: 600,
  kinds: ['article'],
  process(ctx) {
    const a = extractArticle(ctx.page, { segments: ctx.segments, anchorText: ctx.request.anchorText, timezone: ctx.timezone });
    if (a) Object.assign(ctx.item, a);
  },
});
