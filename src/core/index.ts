/**
 * The core: what every algorithm and every crawler shares, and nothing that needs a crawler. The
 * page model (decode once, parse once, DFS numbering, segments), the per-page index, text measures
 * and dates, the item shape, and the middleware contract. Never imports crawlee, playwright or
 * `middleware/` (test/architecture.test.ts).
 */
export { createPage, parseHtml, collapse, textOf, resolveUrl, langTag, SKIP_TAGS, BLOCK_TAGS, MAX_DEPTH } from './page.js';
export type { Page, PageInput, Segment } from './page.js';
export { decodeBody, BinaryContentError } from './decode.js';
export { pageIndex, subtreeText, subtreeTextPrefix, anchorsIn, rangeOf, segSpan, segmentsIn, rangeChars, rangeNonLinkChars, contains, solidLength } from './page-index.js';
export type { PageIndex, Range } from './page-index.js';
export { lowerBound } from './positions.js';
export { CJK_WIDTH, textWidth, hanCount, hanRatio, punctCount, dominantScript, detectLang, stopwords, stopwordDensity, words } from './text.js';
export type { Script } from './text.js';
export { findDates, parseDate, hasDate, normaliseDateValue, numericDayFirst, timezoneForLang, dayFirstForLang, MIN_YEAR } from './dates.js';
export type { DateMatch, DateOptions, DatePrecision } from './dates.js';
export { itemSchema, itemUnionSchema, articleItemSchema, listItemSchema, forumItemSchema, otherItemSchema, listEntrySchema, forumPostSchema, pageTypeSchema, compactItem, isPageLabel, KIND_OF_LABEL, LABEL_OF_KIND, ITEM_KINDS, PAGE_LABELS } from './item.js';
export type { Item, ItemDraft, ItemOfKind, ArticleItem, ListItem, ForumItem, OtherItem, ItemKind, PageLabel, ListEntry, ForumPost, ForumReply, PageTypeResult } from './item.js';
export { loadJsonResource } from './resources.js';
export { NotConfigured, silentLogger, decideLabel, HINT_MIN_PROBABILITY } from './middleware.js';
export type { Middleware, MiddlewareDefinition, MiddlewareFactory, MiddlewareSetting, MiddlewareEnv, PageContext, RequestInfo, FollowRequest, Logger, SiteState, SiteStore } from './middleware.js';
