/**
 * Rule filters (seed 001) as middleware: narrows `ctx.segments` to what reads as language, dates
 * and usernames. The pure entry point is `filterSegments` (./filters.ts).
 */
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { filterSegments, type FilterOptions } from './filters.js';

export * from './filters.js';

export interface RuleFiltersOptions extends Omit<FilterOptions, 'lang' | 'now'> {
  /** Filter only pages narrowed by a site template (the seed applies the rules to the effective
   * text). Default false: the rules drop only code and non-language, which helps single-page
   * extraction too. */
  onlyWithTemplate?: boolean;
}

export const ruleFiltersMiddleware: MiddlewareFactory<RuleFiltersOptions> = (options = {}) => ({
  name: 'rule-filters',
  priority: 400,
  process(ctx) {
    if (options.onlyWithTemplate && !ctx.templateApplied) return;
    // On a list page the links are the content: link lists stay (seed 004's rule is for detail pages).
    const dropLinkLists = options.dropLinkLists ?? ctx.label !== 'list';
    ctx.segments = filterSegments(ctx.segments, { ...options, dropLinkLists, lang: ctx.page.lang(), now: ctx.page.fetchedAt });
  },
});
