/** Rule filters (seed 001). PLACEHOLDER until issue 3 lands. */
import type { MiddlewareFactory } from '../../src/middleware/types.js';

export const ruleFiltersMiddleware: MiddlewareFactory = () => ({
  name: 'rule-filters',
  priority: 400,
  process() {},
});
