/**
 * `gleaner/crawlee`: Gleaner inside your own Crawlee crawler — one call adds the raw-body hook and
 * a request handler that extracts each page (no selectors), pushes the item and enqueues the list
 * items, next pages and thread pages it found, labelled.
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee';
 * import { withGleaner } from 'gleaner/crawlee';
 *
 * const crawler = new CheerioCrawler(withGleaner({ maxRequestsPerCrawl: 200 }));
 * await crawler.run(['https://news.example.com/']);
 * ```
 *
 * Loads no crawler code itself (the context is read by duck typing): it works with the crawlee of
 * your project.
 */
export { createGleaner, withGleaner, gleanerResultOf } from './crawlee/gleaner.js';
export type { Gleaner, GleanerOptions, GleanerResult, GleanerStats, GleanerCrawlingContext, GleanerRequestData, GleanerRequestLike, GleanerRequestOptions, GleanerEnqueueOptions, CrawlerOptionsAdded } from './crawlee/gleaner.js';
export { keepRawBody, rawBodyOf } from './crawlee/raw-body.js';
// What the handler throws: an error status (the request fails in Crawlee), a bad follow-rule glob.
export { HttpStatusError, FetchError } from './crawler/errors.js';
export { GlobError } from './spider/follow-rules.js';
export type { NavigationContextLike } from './crawlee/raw-body.js';
export type { Item, ArticleItem, ListItem, ForumItem, OtherItem, ItemKind, ItemOfKind, PageLabel, ListEntry, ForumPost, ForumReply } from './core/item.js';
export type { FollowRule, SiteRule } from './spider/config.js';
export type { ExtractKind } from './chain/extractor.js';
