/** Forum floors. PLACEHOLDER until issue 6 lands: the whole body as one post. */
import type { Page } from '../../src/page/page.js';
import type { MiddlewareFactory } from '../../src/middleware/types.js';
import type { ForumPost } from '../../src/item.js';

export interface ForumResult {
  title?: string;
  posts: ForumPost[];
  nextPage?: string;
  pages?: string[];
}

export function extractForum(page: Page): ForumResult {
  return { title: page.title || undefined, posts: [{ content: page.segments.map((s) => s.text).join('\n'), isMain: true }] };
}

export const forumMiddleware: MiddlewareFactory = () => ({
  name: 'forum',
  priority: 600,
  kinds: ['forum'],
  process(ctx) {
    Object.assign(ctx.item, { kind: 'forum', ...extractForum(ctx.page) });
  },
});
