/**
 * Gleaner's public API: `import { … } from 'gleaner'`.
 *
 * - Inside your own Crawlee crawler: `createPage` + `Extractor` (or the pure extractors
 *   `extractArticle`, `extractList`, `extractForum`, `classifyPage`) in a request handler.
 * - As a framework: `defineSpider` + `runSpider` (alias `crawl`), or `npm run crawl -- <spider>`;
 *   `runRedisSpider` for one worker of a crawl shared through Redis.
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

// The chain
export { buildChain, runChain, openChain, closeChain, MiddlewareError } from './chain/chain.js';
export type { BuiltinEntry, ChainConfig } from './chain/chain.js';
export { BUILTIN_MIDDLEWARE } from './chain/builtins.js';

// Spiders and crawls
export { defineSpider, validateSpider, SpiderConfigError } from './spider/config.js';
export { CrawlLockedError } from './crawler/run/lock.js';
export type { SpiderConfig, FollowRule, CrawlerOptions, CookieSpec, SiteRule } from './spider/config.js';
export { loadSpider } from './spider/load.js';
export { runSpider, crawl } from './crawler/crawl.js';
export type { RunOptions, CrawlSummary, CrawlProgress } from './crawler/crawl.js';
export { JournalFrontier } from './crawler/frontier.js';
export type { Frontier, FrontierRequest, FrontierStats, DoneOutcome } from './crawler/frontier.js';
// A crawl shared by several workers through Redis
export { runRedisSpider, connectRedis } from './crawler/redis/run.js';
export type { RedisRunOptions, RedisCrawlSummary } from './crawler/redis/run.js';
export { RedisFrontier } from './crawler/redis/frontier.js';
export type { RedisFrontierOptions } from './crawler/redis/frontier.js';
export type { RedisCrawlState } from './crawler/redis/state.js';
export { RedisHostRateLimiter, sharedRobotsFetcher } from './crawler/redis/politeness.js';
export { RedisItemSink, exportItems, streamItems } from './storage/redis-item-sink.js';
export { RedisSiteStore } from './storage/redis-site-store.js';
export { isPrivateAddress } from './crawler/net-guard.js';
export { FetchError, HttpStatusError, BlockedError, TooLargeError, NotAPageError, TimeoutError, NetworkError, RedirectError, DecodingError, AbortedError } from './crawler/errors.js';
export { SessionBlockedError } from './crawler/sessions.js';
export { NotModifiedError } from './crawler/recrawl.js';
export { Downloader } from './crawler/downloader/index.js';
export type { DownloaderStep, DownloadContext, Download } from './crawler/downloader/index.js';
export { defaultSteps } from './crawler/downloader/steps.js';
export { preferSmallHeap } from './crawler/memory.js';

// Storage
export { MemorySiteStore, LowdbSiteStore } from './storage/site-store.js';
export { DatasetSink, FileSink, CallbackSink } from './storage/item-sink.js';
export type { ItemSink } from './storage/item-sink.js';
export { ItemPipeline, DropItem } from './crawler/pipeline.js';
export type { PipelineContext, PipelineFunction, PipelineStage, PipelineSpec, PipelineResult } from './crawler/pipeline.js';
export { openFeed, csvRecords, parseOutArg, FeedError, FEED_FORMATS } from './storage/feed-sink.js';
export type { FeedOptions, FeedSpec, FeedFormat, CsvRows } from './storage/feed-sink.js';
export { normaliseUrl, urlNormalisation, TRACKING_QUERY_PARAMS } from './crawler/normalise-url.js';
export { globToRegExp, compileRules, decideFollow, GlobError } from './spider/follow-rules.js';
export type { RecrawlOptions } from './crawler/recrawl.js';
export type { SessionOptions } from './crawler/sessions.js';
export { consoleLogger } from './crawler/log.js';

// The demo site
export { startDemoServer } from './demo/server.js';

// Inside your own Crawlee crawler (also `gleaner/crawlee`)
export { createGleaner, withGleaner, gleanerResultOf, keepRawBody, rawBodyOf } from './crawlee.js';
export type { Gleaner, GleanerOptions, GleanerResult, GleanerStats, GleanerCrawlingContext, GleanerRequestData, GleanerRequestLike, GleanerRequestOptions, GleanerEnqueueOptions, CrawlerOptionsAdded } from './crawlee.js';
