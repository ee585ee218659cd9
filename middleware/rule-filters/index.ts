/**
 * Rule filters (seed 001) as middleware: narrows `ctx.segments` to what reads as language, dates
 * and usernames. The pure entry point is `filterSegments` (./filters.ts).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { filterSegments, type FilterOptions } from './filters.js';

export * from './filters.js';

export interface RuleFiltersOptions extends Omit<FilterOptions, 'lang' | 'now'> {
  /** Filter only pages narrowed by a site template (the seed applies the rules to the effective
   * text). Default true: the built-in reader of the narrowed segments, the article extractor,
   * reads them only when a template applied (it analyses the whole page otherwise), so filtering
   * other pages would be work nobody reads. `false` filters every page, for user middleware. */
  onlyWithTemplate?: boolean;
}

export const ruleFiltersMiddleware: MiddlewareFactory<RuleFiltersOptions> = (options = {}) => ({
  name: 'rule-filters',
  process(ctx) {
    if ((options.onlyWithTemplate ?? true) && !ctx.templateApplied) return;
    // On a list page the links are the content: link lists stay (seed 004's rule is for detail pages).
    const dropLinkLists = options.dropLinkLists ?? ctx.label !== 'list';
    ctx.segments = filterSegments(ctx.segments, { ...options, dropLinkLists, lang: ctx.page.lang(), now: ctx.page.fetchedAt });
  },
});
