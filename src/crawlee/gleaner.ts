/**
 * Gleaner inside a Crawlee crawler you already have (issue 15): one request handler that takes the
 * crawling context of HttpCrawler, CheerioCrawler, JSDOMCrawler, PlaywrightCrawler or
 * AdaptivePlaywrightCrawler, decodes the page once (the response's own bytes, or the rendered
 * DOM), runs the middleware chain with per-site state, pushes the item with the context's
 * `pushData` and enqueues what the extractors found (list items, next pages, thread pages) with
 * their labels through the context's `enqueueLinks` — so the crawler's own enqueue strategy,
 * robots.txt and request budget apply.
 *
 * It reads the context by duck typing and imports nothing from crawlee at run time: it works with
 * the crawlee version of your project, and `gleaner/crawlee` loads in milliseconds.
 */
import { createPage } from '../core/page.js';
import { BinaryContentError } from '../core/decode.js';
import type { Item } from '../core/item.js';
import type { FollowRequest, Logger, Middleware, MiddlewareSetting, RequestInfo, SiteStore } from '../core/middleware.js';
import { buildChain, closeChain, MiddlewareError, openChain } from '../chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../chain/builtins.js';
import { finishItem, processPage, siteKeyOf } from '../chain/process.js';
import type { ExtractKind } from '../chain/extractor.js';
import { LABEL_OF_KIND } from '../core/item.js';
import { MemorySiteStore } from '../storage/site-store.js';
import { compileRules, decideFollow, followRuleWarnings, globToRegExp } from '../spider/follow-rules.js';
import type { FollowRule, SiteRule } from '../spider/config.js';
import { HttpStatusError } from '../crawler/errors.js';
import { keepRawBody, rawBodyOf, type NavigationContextLike } from './raw-body.js';

/** Anchor texts longer than this are not titles (as in `gleaner crawl`: they would bloat the queue). */
const MAX_ANCHOR_CHARS = 300;

/** Where Gleaner keeps its own request data: `request.userData.gleaner`. */
export interface GleanerRequestData {
  /** Page type suggested by the page that linked here (a list's items → `detail`): the page-type
   * classifier keeps it unless it is confident the page is something else. */
  labelHint?: string | undefined;
  /** Anchor text of the link that led here (a title hint). */
  anchorText?: string | undefined;
  /** Link depth from a start URL. */
  depth?: number | undefined;
  /** The page that linked here. */
  referrer?: string | undefined;
}

/** The request of a crawling context, as far as Gleaner reads (and sets) it: Crawlee's `Request`. */
export interface GleanerRequestLike {
  url: string;
  loadedUrl?: string | undefined;
  label?: string | undefined;
  userData: Record<string, unknown>;
  /** Set by Gleaner before it fails a page whose HTTP status is not worth another attempt (a 404). */
  noRetry?: boolean | undefined;
}

/** A request Gleaner enqueues (Crawlee's `RequestOptions`, the fields it sets). */
export interface GleanerRequestOptions {
  url: string;
  label?: string;
  userData?: Record<string, unknown>;
}

/** What Gleaner passes to the context's `enqueueLinks` (Crawlee's `EnqueueLinksOptions`). */
export interface GleanerEnqueueOptions {
  urls: string[];
  strategy?: 'all' | 'same-domain' | 'same-hostname' | 'same-origin';
  transformRequestFunction?: (request: GleanerRequestOptions) => GleanerRequestOptions;
}

/**
 * What Gleaner reads from a crawling context. Every Crawlee crawler's context has these (the
 * HTTP crawlers' `body` and `response`, the browser crawlers' `page`): pass the context as it is.
 */
export interface GleanerCrawlingContext extends NavigationContextLike {
  request: GleanerRequestLike;
  /** HTTP crawlers: the body (Buffer or decoded text). */
  body?: unknown;
  /** HTTP crawlers: the response (headers); browser crawlers: the navigation response. */
  response?: unknown;
  /** Browser crawlers: the page (rendered DOM). */
  page?: unknown;
  /** AdaptivePlaywrightCrawler (either mode): the current DOM as cheerio. */
  parseWithCheerio?: unknown;
  pushData(data: Item): Promise<unknown>;
  enqueueLinks(options: GleanerEnqueueOptions): Promise<unknown>;
  log?: { warning(message: string, data?: Record<string, unknown>): void; error?(message: string, data?: Record<string, unknown>): void } | undefined;
}

/** Options of {@link createGleaner} / {@link withGleaner}. A spider config's `name`, `follow`,
 * `siteKey`, `middleware`, `extraMiddleware` and `timezone` fit as they are. */
export interface GleanerOptions {
  /** Page kind: `auto` (default) lets the page-type classifier decide; a kind forces it for every
   * page that neither a follow rule nor the request's own label types. */
  kind?: ExtractKind | undefined;
  /**
   * Follow rules, as in a spider: first match wins; a rule's label types the target page (and is
   * the Crawlee request's `label`); `follow: false` excludes links. Without rules every link the
   * page shows is enqueued (the crawler's enqueue strategy, by default the same hostname, applies).
   *
   * @example
   * ```ts
   * follow: [
   *   { pattern: '**\/news/20[0-9][0-9]/**', label: 'detail' },
   *   { pattern: '**\/news/list_*.html', label: 'list' },
   *   { pattern: '**\/login*', follow: false },
   * ]
   * ```
   */
  follow?: FollowRule[] | undefined;
  /** Enqueue follow-ups (default true). `false`: extract and push only; your handler enqueues. */
  enqueue?: boolean | undefined;
  /** Crawlee's enqueue strategy for the follow-ups (default Crawlee's: `same-hostname`). */
  strategy?: 'all' | 'same-domain' | 'same-hostname' | 'same-origin' | undefined;
  /** Links deeper than this from the start URLs are not enqueued. */
  maxDepth?: number | undefined;
  /** Site key of a URL (pages of a site share learned state, e.g. the template): a function or
   * URL-pattern rules. Default: the URL host. */
  siteKey?: ((url: string) => string) | SiteRule[] | undefined;
  /** Per-middleware settings by name, as in a spider (`false` disables one). */
  middleware?: Record<string, MiddlewareSetting | undefined> | undefined;
  /** Your own middleware, slotted into the chain by priority. */
  extraMiddleware?: Middleware[] | undefined;
  /** IANA zone for dates shown without an offset (default: from the page language). */
  timezone?: string | undefined;
  /** Name written into each item's `spider` field. */
  name?: string | undefined;
  /** Per-site state (templates …). Default: in memory for this process; `LowdbSiteStore` from
   * `gleaner` keeps it in a file across runs. */
  store?: SiteStore | undefined;
  /** Called with each item before it is pushed: return it (changed or not) to push it, or
   * `undefined` to drop it. */
  onItem?: (item: Item, ctx: GleanerCrawlingContext) => Item | undefined | Promise<Item | undefined> | undefined;
  /** Push items with the context's `pushData` (default true). */
  push?: boolean | undefined;
  /** Logger for the chain (default: the context's `log` for page problems, silent otherwise). */
  log?: Logger | undefined;
  /**
   * HTTP error statuses read as pages all the same (Crawlee's option of that name; `withGleaner`
   * also takes it from your crawler options). Any other 4xx/5xx response is not an item: Gleaner
   * throws an `HttpStatusError`, so Crawlee fails the request as it fails any other — counted in
   * its statistics, passed to your `failedRequestHandler`, retried when the status may change
   * (408, 429, 5xx but 501/505; a 404 is not retried), as `gleaner crawl` does.
   */
  ignoreHttpErrorStatusCodes?: number[] | undefined;
}

/** What Gleaner made of one page. */
export interface GleanerResult {
  /** The item (`undefined` when a middleware dropped the page or failed on it). */
  item?: Item | undefined;
  /** The follow-ups it enqueued (or would have, with `enqueue: false`). */
  follow: Array<{ url: string; label?: string | undefined; userData: { gleaner: GleanerRequestData } }>;
  /** Why there is no item: a middleware's drop reason or its error. */
  skipped?: string | undefined;
}

export interface GleanerStats {
  pages: number;
  items: number;
  itemsByKind: Record<string, number>;
  enqueued: number;
  /** Pages dropped because a middleware threw, by middleware name. */
  failuresByMiddleware: Record<string, number>;
  /** Pages a middleware dropped on purpose (`ctx.drop`), by reason. */
  dropped: Record<string, number>;
  /** Responses refused for their HTTP status (4xx/5xx), by status, each attempt counted. The HTTP
   * crawlers fail a 5xx themselves before any handler runs: those are in Crawlee's statistics
   * only (`crawler.stats.state.requestsFailed`, with the refused ones). */
  httpErrors: Record<string, number>;
  /** Pages decoded from the response's own bytes / from text the crawler decoded / from the
   * rendered DOM. */
  decodedFrom: { bytes: number; text: number; dom: number };
}

export interface Gleaner {
  /**
   * The request handler: extract, push, enqueue. Use it as a crawler's `requestHandler`, a
   * router's default handler, a router middleware (`router.use(gleaner.handler)`), or call it from
   * your own handler.
   */
  handler: (ctx: GleanerCrawlingContext) => Promise<void>;
  /** Extract one page without pushing or enqueueing. */
  extract: (ctx: GleanerCrawlingContext) => Promise<GleanerResult>;
  /** Post-navigation hook keeping the response's own bytes (HTTP crawlers): see {@link keepRawBody}. */
  keepRawBody: typeof keepRawBody;
  /**
   * Your crawler options with Gleaner added: `keepRawBody` appended to `postNavigationHooks`, and
   * a `requestHandler` that runs Gleaner, then yours if you gave one (the page's result is
   * `gleanerResultOf(ctx)` there).
   */
  crawlerOptions: <O extends object>(options?: O) => O;
  readonly stats: GleanerStats;
  /** Close the chain and flush the site store (call after `crawler.run()`). */
  close: () => Promise<void>;
}

/** What {@link Gleaner.crawlerOptions} adds to a crawler's options. */
export interface CrawlerOptionsAdded {
  requestHandler: (ctx: GleanerCrawlingContext) => Promise<void>;
  postNavigationHooks: Array<(ctx: NavigationContextLike, ...rest: unknown[]) => void>;
}

const RESULT = Symbol.for('gleaner.result');

/** Where a config warning goes when no logger is given: standard error, as Crawlee's own. */
const consoleWarnings = { warning: (message: string) => console.warn(message) };

/** The result of Gleaner's handler for this context (in your own handler after `withGleaner`). */
export function gleanerResultOf(ctx: object): GleanerResult | undefined {
  return (ctx as { [RESULT]?: GleanerResult })[RESULT];
}

function siteKeyFunction(siteKey: GleanerOptions['siteKey']): (url: string) => string {
  if (typeof siteKey === 'function') return siteKey;
  if (!siteKey?.length) return siteKeyOf;
  const rules = siteKey.map((r) => ({ re: typeof r.pattern === 'string' ? globToRegExp(r.pattern) : r.pattern, key: r.key }));
  return (url) => {
    for (const r of rules) {
      r.re.lastIndex = 0;
      if (r.re.test(url)) return r.key;
    }
    return siteKeyOf(url);
  };
}

/** The HTTP status of a crawling context's response: `statusCode` (the HTTP crawlers' response
 * stream), `status()` (playwright's Response) or `status`; undefined when there is none. */
export function statusOf(response: unknown): number | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const r = response as { statusCode?: unknown; status?: unknown };
  const s = typeof r.status === 'function' ? (r.status as () => unknown).call(response) : (r.statusCode ?? r.status);
  return typeof s === 'number' && Number.isInteger(s) ? s : undefined;
}

function headerOf(response: unknown, name: string): string | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const h = (response as { headers?: unknown }).headers;
  // playwright's Response has headers() (lower-case names); node's and got's an object.
  const headers = typeof h === 'function' ? (h as () => Record<string, string>).call(response) : (h as Record<string, string | string[] | undefined> | undefined);
  const v = headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A property that may throw on access (AdaptivePlaywrightCrawler's `page` in HTTP mode). */
function tryGet(o: object, key: string): unknown {
  try {
    return (o as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

interface PageSource {
  body: Uint8Array | string;
  contentType?: string;
  from: keyof GleanerStats['decodedFrom'];
}

/** The page as bytes when the crawler has them, else the DOM or text the crawler decoded. */
async function pageSource(ctx: GleanerCrawlingContext): Promise<PageSource> {
  const raw = rawBodyOf(ctx);
  const contentType = headerOf(ctx.response, 'content-type');
  if (raw) return { body: raw, contentType, from: 'bytes' };
  const page = tryGet(ctx, 'page') as { content?: () => Promise<string> } | undefined;
  if (page && typeof page.content === 'function') return { body: await page.content(), from: 'dom' };
  const body = tryGet(ctx, 'body');
  if (body instanceof Uint8Array) {
    // HttpCrawler: the response's bytes, unless the header named a charset Node has no decoder
    // for (then Crawlee transcoded them to UTF-8: `contentType.encoding` says so).
    const encoding = (tryGet(ctx, 'contentType') as { encoding?: string } | undefined)?.encoding;
    const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
    const transcoded = declared !== undefined && !Buffer.isEncoding(declared) && encoding !== undefined && /^utf-?8$/i.test(encoding);
    return { body, contentType: transcoded ? 'text/html; charset=utf-8' : contentType, from: 'bytes' };
  }
  if (typeof body === 'string') return { body, contentType, from: 'text' };
  const parse = tryGet(ctx, 'parseWithCheerio');
  if (typeof parse === 'function') {
    const $ = (await (parse as () => Promise<{ html(): string }>).call(ctx)) as { html(): string };
    return { body: $.html(), from: 'dom' };
  }
  throw new Error(`gleaner: the crawling context of ${ctx.request.url} has no body, page or DOM to extract from`);
}

/**
 * Create a Gleaner for a Crawlee crawler: one chain and one site store for the whole crawl.
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee';
 * import { createGleaner } from 'gleaner/crawlee';
 *
 * const gleaner = createGleaner({ follow: [{ pattern: '**\/list_*.html', label: 'list' }] });
 * const crawler = new CheerioCrawler(gleaner.crawlerOptions({ maxRequestsPerCrawl: 500 }));
 * await crawler.run(['https://news.example.com/']);
 * await gleaner.close();
 * console.log(gleaner.stats.itemsByKind);   // { list: 12, article: 480, … }
 * ```
 */
export function createGleaner(options: GleanerOptions = {}): Gleaner {
  const silent: Logger = { debug() {}, info() {}, warning() {}, error() {} };
  const log = options.log ?? silent;
  const store = options.store ?? new MemorySiteStore();
  const spider = options.name ?? 'crawlee';
  const chain = buildChain(BUILTIN_MIDDLEWARE, { settings: options.middleware, extra: options.extraMiddleware ?? [] }, log);
  const rules = compileRules(options.follow);
  for (const w of followRuleWarnings(options.follow)) (options.log ?? consoleWarnings).warning(`gleaner: ${w}`);
  const siteKey = siteKeyFunction(options.siteKey);
  const forced = options.kind && options.kind !== 'auto' ? LABEL_OF_KIND[options.kind] : undefined;
  let opened: Promise<void> | undefined;
  let warnedText = false;
  /** Hints that arrived after their URL was enqueued unlabelled (as in `gleaner crawl`). */
  const lateHints = new Map<string, string>();
  const enqueuedUrls = new Set<string>();
  const stats: GleanerStats = { pages: 0, items: 0, itemsByKind: {}, enqueued: 0, failuresByMiddleware: {}, dropped: {}, httpErrors: {}, decodedFrom: { bytes: 0, text: 0, dom: 0 } };
  /** Error statuses read as pages all the same. */
  const pageStatuses = new Set(options.ignoreHttpErrorStatusCodes ?? []);
  const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);

  /** The links a page's middleware found, filtered and labelled like `gleaner crawl` does. */
  const followUps = (follow: FollowRequest[], from: GleanerRequestData, pageUrl: string): GleanerResult['follow'] => {
    const depth = (from.depth ?? 0) + 1;
    if (options.maxDepth !== undefined && depth > options.maxDepth) return [];
    const out = new Map<string, GleanerResult['follow'][number]>();
    for (const f of follow) {
      let u: URL;
      try {
        u = new URL(f.url);
      } catch {
        continue;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
      u.hash = '';
      const href = u.href;
      if (out.has(href)) continue;
      const d = decideFollow(href, rules, f.label);
      if (!d.follow) continue;
      if (enqueuedUrls.has(href)) {
        if (f.label && !rules.length && !lateHints.has(href)) lateHints.set(href, f.label);
        continue;
      }
      // A follow rule's label types the page; an extractor's label only hints.
      const ruleLabel = rules.length ? decideFollow(href, rules).label : undefined;
      const anchorText = f.anchorText?.slice(0, MAX_ANCHOR_CHARS) || undefined;
      const data: GleanerRequestData = { labelHint: ruleLabel ? undefined : d.label, anchorText, depth, referrer: pageUrl };
      out.set(href, { url: href, label: ruleLabel, userData: { gleaner: data } });
    }
    return [...out.values()];
  };

  const extract = async (ctx: GleanerCrawlingContext): Promise<GleanerResult> => {
    await (opened ??= openChain(chain, { spider, log }));
    const { request } = ctx;
    const url = request.loadedUrl ?? request.url;
    const data = (request.userData?.gleaner ?? {}) as GleanerRequestData;
    // An error page is not an item (a "404 File not found" page would be an `other` item): the
    // request fails through Crawlee's own error path, as `gleaner crawl` counts it (issue 25).
    const status = statusOf(ctx.response);
    if (status !== undefined && status >= 400 && !pageStatuses.has(status)) {
      const e = new HttpStatusError(status, url);
      // Crawlee logs a failed request with its error's stack: here that is Gleaner's, of no use
      // to anyone; one line per page says it all.
      e.stack = `${e.name}: ${e.message}`;
      if (!e.retryable) request.noRetry = true;
      bump(stats.httpErrors, String(status));
      throw e;
    }
    const src = await pageSource(ctx);
    stats.decodedFrom[src.from]++;
    if (src.from === 'text' && !warnedText && typeof src.body === 'string' && src.body.includes('\uFFFD') && !/charset=/i.test(src.contentType ?? '')) {
      warnedText = true;
      ctx.log?.warning(`gleaner: ${url} was decoded by the crawler as UTF-8 and holds replacement characters; add keepRawBody to postNavigationHooks (or use gleaner.crawlerOptions / withGleaner) so Gleaner decodes the response's own bytes`);
    }
    stats.pages++;
    const fetchedAt = new Date();
    let page;
    try {
      page = createPage({ url, body: src.body, contentType: src.contentType, fetchedAt });
    } catch (e) {
      if (!(e instanceof BinaryContentError)) throw e;
      return { item: { url, kind: 'other', spider, fetchedAt: fetchedAt.toISOString(), ...(status !== undefined ? { status } : {}), error: e.message }, follow: [] };
    }
    const labelHint = data.labelHint ?? lateHints.get(request.url);
    lateHints.delete(request.url);
    // The request's own label types the page when it is a page label (a follow rule's, or yours
    // on a start URL); else a follow rule matching its URL (start URLs, as `gleaner crawl` types
    // its seeds); `kind` types the rest.
    const rule = request.label === undefined && rules.length ? decideFollow(request.url, rules) : undefined;
    const label = request.label ?? (rule?.follow ? rule.label : undefined) ?? forced;
    const info: RequestInfo = { url, label, labelHint, anchorText: data.anchorText, depth: data.depth, referrer: data.referrer, status };
    let pctx;
    try {
      pctx = await processPage(page, info, { spider, chain, store, log, siteKey: siteKey(url), timezone: options.timezone });
    } catch (e) {
      if (!(e instanceof MiddlewareError)) throw e;
      bump(stats.failuresByMiddleware, e.middleware);
      (ctx.log?.error ?? ctx.log?.warning)?.call(ctx.log, e.message);
      return { follow: [], skipped: e.message };
    }
    const follow = followUps(pctx.follow, data, url);
    if (pctx.drop) {
      bump(stats.dropped, pctx.drop);
      return { follow, skipped: pctx.drop };
    }
    return { item: finishItem(pctx, options.name), follow };
  };

  const handler = async (ctx: GleanerCrawlingContext): Promise<void> => {
    const result = await extract(ctx);
    (ctx as { [RESULT]?: GleanerResult })[RESULT] = result;
    if (options.enqueue !== false && result.follow.length) {
      const byUrl = new Map(result.follow.map((f) => [f.url, f]));
      for (const f of result.follow) enqueuedUrls.add(f.url);
      await ctx.enqueueLinks({
        urls: [...byUrl.keys()],
        ...(options.strategy ? { strategy: options.strategy } : {}),
        transformRequestFunction: (req: { url: string; label?: string; userData?: Record<string, unknown> }) => {
          const f = byUrl.get(req.url) ?? byUrl.get(new URL(req.url).href);
          if (!f) return req;
          stats.enqueued++;
          return { ...req, label: f.label, userData: { ...req.userData, ...f.userData, ...(f.label ? { label: f.label } : {}) } };
        },
      });
    }
    let item = result.item;
    if (item && options.onItem) item = await options.onItem(item, ctx);
    if (item) {
      stats.items++;
      bump(stats.itemsByKind, item.kind);
      if (options.push !== false) await ctx.pushData(item);
    }
  };

  return {
    handler,
    extract,
    keepRawBody,
    stats,
    // Typed `O`, not `O & CrawlerOptionsAdded`: with a plain `O` TypeScript infers it from the
    // crawler's constructor (`new CheerioCrawler(withGleaner({...}))`), so your own requestHandler
    // gets that crawler's context type.
    crawlerOptions<O extends object>(crawlerOptions?: O): O {
      const o = (crawlerOptions ?? {}) as O & { requestHandler?: (ctx: any) => unknown; postNavigationHooks?: Array<(...args: any[]) => void>; ignoreHttpErrorStatusCodes?: number[] };
      // statuses your crawler reads as pages, Gleaner reads as pages too
      for (const s of o.ignoreHttpErrorStatusCodes ?? []) pageStatuses.add(s);
      const own = o.requestHandler;
      const added: CrawlerOptionsAdded = {
        postNavigationHooks: [...(o.postNavigationHooks ?? []), keepRawBody],
        requestHandler: own
          ? async (ctx: GleanerCrawlingContext) => {
              await handler(ctx);
              await own(ctx);
            }
          : handler,
      };
      return { ...o, ...added };
    },
    async close() {
      if (opened) {
        await opened;
        await closeChain(chain, { spider, log });
        opened = undefined;
      }
      await store.flush();
    },
  };
}

/**
 * The one call: your crawler's options with Gleaner added (the raw-body hook and the request
 * handler; your own `requestHandler`, if any, runs after Gleaner's on every page).
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee';
 * import { withGleaner } from 'gleaner/crawlee';
 *
 * const crawler = new CheerioCrawler(withGleaner({ maxRequestsPerCrawl: 200 }));
 * await crawler.run(['https://news.example.com/']);   // items in the default dataset
 * ```
 *
 * @example
 * ```ts
 * // PlaywrightCrawler: Gleaner reads the rendered DOM
 * const crawler = new PlaywrightCrawler(withGleaner({ maxConcurrency: 2 }, { kind: 'article' }));
 * ```
 */
export function withGleaner<O extends object>(crawlerOptions?: O, options?: GleanerOptions): O {
  return createGleaner(options).crawlerOptions(crawlerOptions);
}
