/**
 * Debug lines at the middleware decisions worth knowing (issue 16 item 5), written after each
 * built-in stage when the log is at debug: the page type with its probabilities, the content
 * block the article extractor chose, the list entries and next page, the floors found, the links
 * to follow. Built from what the stage left in the context, so the extractors stay pure; nothing
 * is computed unless debug lines are written.
 */
import type { PageContext } from '../core/middleware.js';

const clip = (s: string | undefined, n = 60) => (s === undefined ? '' : s.length > n ? `${s.slice(0, n)}…` : s);

export function describeDecision(stage: string, ctx: PageContext): string | undefined {
  const it = ctx.item;
  switch (stage) {
    case 'page-type': {
      const p = it.pageType?.probabilities;
      const probs = p
        ? Object.entries(p)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => `${k} ${v.toFixed(2)}`)
            .join(', ')
        : 'no classifier run (label from the request)';
      return `page type ${ctx.label ?? '?'} (${probs})`;
    }
    case 'template-learner':
      return `template ${ctx.templateApplied ? 'applied' : 'not yet learned'} for site ${ctx.siteKey}`;
    case 'article': {
      if (it.kind === 'other' || !it.content) return 'article: no content block';
      const paragraphs = it.content.split('\n').length;
      return `article: content block of ${it.content.length} chars in ${paragraphs} paragraphs ("${clip(it.content, 40)}"), title "${clip(it.title)}", author ${it.author ?? '-'}, published ${it.publishedAt ?? it.publishedAtText ?? '-'}, ${it.images?.length ?? 0} images`;
    }
    case 'list':
      return `list: ${it.items?.length ?? 0} entries${it.items?.[0] ? ` (first "${clip(it.items[0].title, 40)}")` : ''}, next page ${it.nextPage ?? '-'}, ${it.pages?.length ?? 0} page links`;
    case 'forum': {
      const posts = it.posts ?? [];
      const floors = posts.map((p) => `${p.floor ?? '?'}:${clip(p.author, 12) || '?'}`).join(' ');
      return `forum: ${posts.length} floors${posts.length ? ` [${clip(floors, 200)}]` : ''}`;
    }
    case 'follow':
      return `follow: ${ctx.follow.length} links`;
    default:
      return undefined;
  }
}
