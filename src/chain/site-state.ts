/**
 * What the chain knows about a site's learned state, for stores that share it between workers
 * (src/storage/redis-site-store.ts): whether the site's template is ready to use.
 */
import { SITE_DATA_KEY, TemplateLearner } from '../../middleware/template/index.js';

export function siteStateReady(data: Record<string, unknown>): boolean {
  const v = data[SITE_DATA_KEY];
  if (v instanceof TemplateLearner) return v.ready;
  return !!TemplateLearner.fromJSON(v)?.ready;
}
