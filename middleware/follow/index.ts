/**
 * Link following for crawls: every `<a href>` of the page with its anchor text (the crawler keeps
 * only allowed domains, applies follow rules and the page budget), plus the labelled links that
 * extractors found (list items → detail, next pages → list/forum). Crawl-only.
 */
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { textOf, collapse } from '../../src/core/page.js';
import { Element } from 'domhandler';

export interface FollowOptions {
  /** Follow every link, not only the ones extractors labelled (default true: a spider with only
   * start URLs crawls its allowed domains). */
  all?: boolean;
}

export const followMiddleware: MiddlewareFactory<FollowOptions> = (options = {}) => ({
  name: 'follow',
  process(ctx) {
    const item = ctx.item;
    // Labelled links first: the crawler keeps the first label it sees for a URL.
    for (const e of item.items ?? []) ctx.follow.push({ url: e.url, label: 'detail', anchorText: e.title });
    const pageLabel = item.kind === 'forum' ? 'forum' : 'list';
    if (item.nextPage) ctx.follow.push({ url: item.nextPage, label: pageLabel });
    for (const p of item.pages ?? []) ctx.follow.push({ url: p, label: pageLabel });
    if (options.all === false) return;
    for (const node of ctx.page.nodes) {
      if (!(node instanceof Element) || node.name !== 'a') continue;
      const url = ctx.page.resolve(node.attribs.href);
      if (!url) continue;
      const text = collapse(textOf(node)) || node.attribs.title?.trim();
      ctx.follow.push({ url, anchorText: text || undefined });
    }
  },
});
