/**
 * `gleaner/extract`: extraction without a crawler — the page model, the pure extractors, the
 * middleware chain, `Extractor`, the item types. Never loads crawlee or playwright (test/package
 * checks it on the built package), so it starts in a fraction of the time `gleaner` takes.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { Extractor } from 'gleaner/extract';
 *
 * const extractor = new Extractor();                     // kind 'auto': the page-type classifier decides
 * const item = await extractor.extract({ url: 'https://news.example.com/a/1.html', body: readFileSync('page.html') });
 * if (item.kind === 'article') console.log(item.title, item.publishedAt, item.content?.length);
 * ```
 */
// The core: page model, page index, text and dates, the item shape, the middleware contract
export * from './core/index.js';

// Extraction without a crawler
export { Extractor, extractItem, ExtractInputError } from './chain/extractor.js';
export type { ExtractorOptions, ExtractInput, ExtractKind } from './chain/extractor.js';
export { processPage, finishItem, createContext, siteKeyOf } from './chain/process.js';

// The pure extractors and the middleware factories
export { extractArticle, articleMiddleware } from '../middleware/article/index.js';
export { extractList, listMiddleware } from '../middleware/list/index.js';
export { extractForum, forumMiddleware } from '../middleware/forum/index.js';
export { classifyPage, pageTypeMiddleware } from '../middleware/classifier/index.js';
export { templateLearnerMiddleware, setDifferenceMiddleware } from '../middleware/template/index.js';
export { ruleFiltersMiddleware } from '../middleware/rule-filters/index.js';
export { blocksMiddleware, clusterBlocks, splitAtPeaks } from '../middleware/blocks/index.js';
export { followMiddleware } from '../middleware/follow/index.js';

// The middleware contract and chain
export { buildChain, runChain, openChain, closeChain, MiddlewareError } from './chain/chain.js';
export { BUILTIN_MIDDLEWARE } from './chain/builtins.js';

// Per-site state kept in memory (templates learned across calls)
export { MemorySiteStore } from './storage/site-store.js';
