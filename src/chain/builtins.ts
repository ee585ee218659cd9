/**
 * The built-in middleware table (Scrapy's DOWNLOADER_MIDDLEWARES_BASE): name → default priority and
 * factory. Spiders refer to these names to disable, reorder or configure them.
 */
import type { BuiltinEntry } from './chain.js';
import { pageTypeMiddleware } from '../../middleware/classifier/index.js';
import { templateLearnerMiddleware, setDifferenceMiddleware } from '../../middleware/template/index.js';
import { ruleFiltersMiddleware } from '../../middleware/rule-filters/index.js';
import { blocksMiddleware } from '../../middleware/blocks/index.js';
import { articleMiddleware } from '../../middleware/article/index.js';
import { listMiddleware } from '../../middleware/list/index.js';
import { forumMiddleware } from '../../middleware/forum/index.js';
import { followMiddleware } from '../../middleware/follow/index.js';

export const BUILTIN_MIDDLEWARE: Record<string, BuiltinEntry> = {
  'page-type': { priority: 100, factory: pageTypeMiddleware },
  'template-learner': { priority: 200, factory: templateLearnerMiddleware },
  'set-difference': { priority: 300, factory: setDifferenceMiddleware },
  'rule-filters': { priority: 400, factory: ruleFiltersMiddleware },
  blocks: { priority: 500, factory: blocksMiddleware },
  article: { priority: 600, factory: articleMiddleware },
  list: { priority: 610, factory: listMiddleware },
  forum: { priority: 620, factory: forumMiddleware },
  follow: { priority: 900, factory: followMiddleware, crawlOnly: true },
};
