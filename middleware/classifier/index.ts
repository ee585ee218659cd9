/**
 * Page-type classifier (list / detail / forum / other). PLACEHOLDER until issue 5 lands: a crude
 * link-share rule so the chain runs end to end; the SVM replaces it.
 */
import type { Page } from '../../src/page/page.js';
import type { MiddlewareFactory } from '../../src/middleware/types.js';
import type { PageLabel, PageTypeResult } from '../../src/item.js';

export function classifyPage(page: Page): PageTypeResult {
  let all = 0;
  let link = 0;
  for (const s of page.segments) {
    all += s.text.length;
    link += s.linkChars;
  }
  const share = all ? link / all : 1;
  const label: PageLabel = all < 50 ? 'other' : share > 0.5 ? 'list' : 'detail';
  return { label, probabilities: { [label]: 1 } };
}

export const LABELS: PageLabel[] = ['detail', 'list', 'forum', 'other'];

/** Types pages that no follow rule labelled. */
export const pageTypeMiddleware: MiddlewareFactory = () => ({
  name: 'page-type',
  priority: 100,
  process(ctx) {
    const known = ctx.request.label && (LABELS as string[]).includes(ctx.request.label) ? (ctx.request.label as PageLabel) : undefined;
    if (known) {
      ctx.label = known;
      return;
    }
    const result = classifyPage(ctx.page);
    ctx.label = result.label as PageLabel;
    ctx.item.pageType = result;
  },
});
