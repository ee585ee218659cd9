/**
 * The built-in middleware table (Scrapy's DOWNLOADER_MIDDLEWARES_BASE): name → default priority and
 * factory. Spiders refer to these names to disable, reorder or configure them.
 */
import type { BuiltinEntry } from './chain.js';
import { pageTypeMiddleware } from '../../middleware/classifier/index.js';
import { templateLearnerMiddleware, setDifferenceMiddleware } from '../../middleware/template/index.js';
import { ruleFiltersMiddleware } from '../../middleware/rule-filters/index.js';
import { blocksMiddleware } from '../../middleware/blocks/index.js';
import { articleMiddleware, mainContentMiddleware } from '../../middleware/article/index.js';
import { listMiddleware } from '../../middleware/list/index.js';
import { forumMiddleware } from '../../middleware/forum/index.js';
import { followMiddleware } from '../../middleware/follow/index.js';
import { layoutMiddleware, LAYOUT_PRIORITY, LAYOUT_DEFAULT_ON } from '../../middleware/layout/index.js';
/** The page-type stage's provisional pages, for the crawl to hold their items (src/crawler/run/revisions.ts). */
export { provisionalPages } from '../../middleware/classifier/index.js';
import { pinnedFieldsMiddleware } from './pinned.js';
import { provenanceMiddleware } from '../inspect/provenance.js';

export const BUILTIN_MIDDLEWARE: Record<string, BuiltinEntry> = {
  // Regions of a rendered page (render mode, `extract --render`) from its layout boxes: the
  // article pre-clean and the list extractor read them. Off by default (README, "Visual layout").
  layout: { priority: LAYOUT_PRIORITY, factory: layoutMiddleware, optIn: !LAYOUT_DEFAULT_ON },
  // Decides the label (with the request's own): every later `kinds` gate reads it. Keeps the
  // site's URL shapes (`siteState`: see Middleware.siteState).
  'page-type': { priority: 100, factory: pageTypeMiddleware, siteState: true },
  // Learns from every page of a site, whatever its type. Its site state (the template) is the
  // crawl thread's in a worker pool (src/chain/site-template.ts), asked for per page.
  'template-learner': { priority: 200, factory: templateLearnerMiddleware },
  // Narrow `ctx.segments` (page − template, then the rule filters); the article extractor is
  // what reads the narrowed segments, so the narrowing runs on article pages only.
  'set-difference': { priority: 300, kinds: ['article'], factory: setDifferenceMiddleware },
  'rule-filters': { priority: 400, kinds: ['article'], factory: ruleFiltersMiddleware },
  // Writes `ctx.blocks` for user middleware; no built-in reads it (the forum splitter runs its own
  // peak clustering over date anchors), so it is off unless a spider turns it on.
  blocks: { priority: 500, factory: blocksMiddleware, optIn: true },
  article: { priority: 600, kinds: ['article'], factory: articleMiddleware },
  // The site's list shapes and forum floor layouts.
  list: { priority: 610, kinds: ['list'], factory: listMiddleware, siteState: true },
  forum: { priority: 620, kinds: ['forum'], factory: forumMiddleware, siteState: true },
  // Every item carries the page's main text, whatever its kind (issue 11): fills content only
  // where the extractor left it empty.
  'main-content': { priority: 690, factory: mainContentMiddleware },
  // A spider's `fields` selectors (src/chain/pinned.ts): win over the extractors, before
  // main-content reads the item's text. On when the spider has `fields` (src/spider/config.ts).
  'pinned-fields': { priority: 680, factory: pinnedFieldsMiddleware, optIn: true },
  // `--explain`: where each field came from (src/inspect/locate.ts). Off by default.
  provenance: { priority: 695, factory: provenanceMiddleware, optIn: true },
  follow: { priority: 900, factory: followMiddleware, crawlOnly: true },
};
