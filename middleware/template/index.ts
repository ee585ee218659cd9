/**
 * Site template learner and set difference (seed 001). PLACEHOLDER until issue 3 lands: passes
 * segments through unchanged.
 */
import type { MiddlewareFactory } from '../../src/middleware/types.js';

export const templateLearnerMiddleware: MiddlewareFactory = () => ({
  name: 'template-learner',
  priority: 200,
  process() {},
});

export const setDifferenceMiddleware: MiddlewareFactory = () => ({
  name: 'set-difference',
  priority: 300,
  process() {},
});
