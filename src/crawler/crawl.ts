/**
 * Run a spider: Crawlee fetches (got-scraping over HTTP, or Playwright + Debian chromium when
 * `crawler.render`), every response is parsed once (`createPage`) and goes through the middleware
 * chain (`processPage`), the item through the pipeline (validate, dedupe, export), and the links
 * the chain found through the follow filter (http(s), allowed domains, rules → labels, depth, page
 * budget, seen-set) into the frontier.
 *
 * Why not CheerioCrawler: it parses every body (twice, with parse5); we parse once with
 * htmlparser2 and hand the same tree to every middleware.
 */
import path from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { BasicCrawler, Configuration, MemoryStorage, NonRetryableError, PlaywrightCrawler, RequestQueue, log as crawleeLog, type Request as CrawleeRequest } from 'crawlee';
import { gotScraping } from 'got-scraping';
import { createPage } from '../core/page.js';
import { BinaryContentError } from '../core/decode.js';
import { buildChain, closeChain, MiddlewareError, openChain } from '../chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../chain/builtins.js';
import type { FollowRequest, Logger, Middleware, MiddlewareEnv, RequestInfo } from '../core/middleware.js';
import { finishItem, processPage, siteKeyOf } from '../chain/process.js';
import type { Item } from '../core/item.js';
import { SpiderConfigError, validateSpider, type SpiderConfig } from '../spider/config.js';
import { compileRules, decideFollow, globToRegExp } from '../spider/follow-rules.js';
import { isIP } from 'node:net';
import { AddressGuard, BlockedAddressError, guardedLookup, hostAllowed, isPrivateAddress, normaliseDomains } from './net-guard.js';
import { JournalFrontier, type Frontier, type FrontierRequest } from './frontier.js';
import { HostRateLimiter, RobotsCache } from './politeness.js';
import { LowdbSiteStore } from '../storage/site-store.js';
import { CallbackSink, DatasetFileSink, FileSink, repairDataset, type ItemSink } from '../storage/item-sink.js';
import { ItemPipeline } from './pipeline.js';
import { consoleLogger } from './log.js';

/** Defaults, in one place. */
export const DEFAULTS = {
  /**
   * Parallel HTTP requests (ceiling). Crawlee autoscales between `minConcurrency` and this from CPU
   * and memory load: on loopback a few fetches keep a core busy parsing, slow remote sites need
   * more in flight. bench:crawl (2,000 pages, box shared with other jobs) measured fixed 5 and
   * fixed 10 within noise of each other (99–158 pages/s); memory is handled by the heap policy
   * (src/crawler/memory.ts), not by holding concurrency down.
   */
  maxConcurrency: 10,
  /** Floor under Crawlee's autoscaling, which otherwise drops to 1 on a busy 2-core box (issue 2
   * measured 35 pages/s for CheerioCrawler defaults). */
  minConcurrency: 5,
  /** Browser pages are heavy: a few at a time. */
  renderConcurrency: 3,
  /** Larger responses are not pages we can extract (issue 2: response size limit). */
  maxResponseBytes: 10 * 1024 * 1024,
  timeoutSecs: 30,
  maxRetries: 2,
  /** Progress line and frontier checkpoint intervals. */
  progressIntervalMs: 3_000,
  checkpointIntervalMs: 3_000,
  /** Anchor texts longer than this are not titles (they would bloat the queue). */
  maxAnchorChars: 300,
};

/** Chromium flags for containers and CI (no sandbox, no GPU, small /dev/shm, no phoning home). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function chromiumPath(): string {
  return process.env.GLEANER_CHROMIUM || '/usr/bin/chromium';
}

export interface CrawlProgress {
  spider: string;
  pages: number;
  queued: number;
  failed: number;
  items: number;
  pagesPerSec: number;
  elapsedSecs: number;
}

export interface CrawlSummary extends CrawlProgress {
  itemsByKind: Record<string, number>;
  /** Pages dropped because a middleware threw, by middleware name. */
  failuresByMiddleware: Record<string, number>;
  /** Fetch failures by reason (`http 404`, `timeout`, `blocked address` …). */
  failuresByReason: Record<string, number>;
  /** Pages a middleware dropped on purpose (`ctx.drop`), by reason. */
  dropped: Record<string, number>;
  invalidItems: Record<string, number>;
  duplicates: number;
  skippedByRobots: number;
  resumed: boolean;
  finished: boolean;
  datasetDir: string;
}

export interface RunOptions {
  /** Crawlee storage root (default `$CRAWLEE_STORAGE_DIR` or `./storage`). */
  storageDir?: string;
  /** Overrides the spider's `maxPages`. */
  maxPages?: number;
  /** Also export items to FILE.jsonl or FILE.csv. */
  out?: string;
  /** Forget this spider's queue and dataset and start over. */
  fresh?: boolean;
  log?: Logger;
  onProgress?: (p: CrawlProgress) => void;
  progressIntervalMs?: number;
  checkpointIntervalMs?: number;
  /** Called for every stored item. */
  onItem?: (item: Item) => void | Promise<void>;
  /** Stop cleanly on SIGINT/SIGTERM (the CLI). */
  handleSignals?: boolean;
  /** A frontier to use instead of the journal files (e.g. a shared one). */
  frontier?: Frontier;
}

class RobotsDisallowedError extends NonRetryableError {
  constructor(url: string) {
    super(`robots.txt disallows ${url}`);
    this.name = 'RobotsDisallowedError';
  }
}

class FetchFailure extends NonRetryableError {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'FetchFailure';
  }
}

/** Content types we will not parse as pages. */
const NON_PAGE_TYPE = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-gzip|octet-stream|x-tar|x-7z|vnd\.|msword|x-rar|wasm|java-archive)/i;

function reasonOf(e: unknown): string {
  const err = e as Error & { code?: string; reason?: string };
  if (err instanceof FetchFailure) return err.reason;
  if (err instanceof BlockedAddressError || err?.name === 'BlockedAddressError' || (err as any)?.cause?.name === 'BlockedAddressError') return 'blocked address';
  if (err?.name === 'TimeoutError' || err?.code === 'ETIMEDOUT' || /timed? ?out/i.test(err?.message ?? '')) return 'timeout';
  if (err?.code) return `network ${err.code}`;
  const http = /HTTP (\d{3})/.exec(err?.message ?? '');
  if (http) return `http ${http[1]}`;
  return 'error';
}

function siteKeyFunction(spider: SpiderConfig): (url: string) => string {
  const sk = spider.siteKey;
  if (typeof sk === 'function') return sk;
  if (Array.isArray(sk)) {
    const rules = sk.map((r) => ({ re: typeof r.pattern === 'string' ? globToRegExp(r.pattern) : r.pattern, key: r.key }));
    return (url) => {
      for (const r of rules) {
        r.re.lastIndex = 0;
        if (r.re.test(url)) return r.key;
      }
      return siteKeyOf(url);
    };
  }
  return siteKeyOf;
}

function cookieHeaderFor(url: string, spider: SpiderConfig): string | undefined {
  const cookies = spider.crawler?.cookies;
  if (!cookies?.length) return undefined;
  const u = new URL(url);
  const parts = cookies.filter((c) => (!c.domain || hostAllowed(u.hostname, normaliseDomains([c.domain]))) && (!c.path || u.pathname.startsWith(c.path))).map((c) => `${c.name}=${c.value}`);
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Crawl a spider to completion (or until its page budget, or a signal). Resumes an interrupted
 * crawl of the same spider; starts over after a finished one (like Crawlee's purge on start).
 */
export async function runSpider(input: SpiderConfig | unknown, opts: RunOptions = {}): Promise<CrawlSummary> {
  const spider = validateSpider(input, (input as SpiderConfig)?.name ? `spider ${(input as SpiderConfig).name}` : 'spider');
  const log = opts.log ?? consoleLogger(spider.name);
  const c = spider.crawler ?? {};
  const render = !!c.render;
  if (render && !existsSync(chromiumPath())) {
    throw new SpiderConfigError(`spider ${spider.name}: crawler.render: chromium not found at ${chromiumPath()} (install Debian's chromium: apt-get install -y chromium, or set GLEANER_CHROMIUM)`);
  }
  const storageDir = path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
  const stateDir = path.join(storageDir, 'gleaner');
  const datasetDir = path.join(storageDir, 'datasets', spider.name);
  const maxPages = opts.maxPages ?? spider.maxPages;
  const maxBytes = c.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
  const timeoutSecs = c.timeoutSecs ?? DEFAULTS.timeoutSecs;
  const domains = normaliseDomains(spider.allowedDomains ?? spider.startUrls.map((u) => new URL(u).hostname));
  const rules = compileRules(spider.follow);
  const siteKey = siteKeyFunction(spider);
  const guard = new AddressGuard(!!spider.allowPrivateAddresses);
  const limiter = new HostRateLimiter(c.maxRequestsPerMinute);
  const proxies = c.proxyUrls ?? [];
  let proxyIndex = 0;

  // Our own log reports failures (with reasons); Crawlee's would repeat each one with a stack.
  const crawleeLevel = crawleeLog.getLevel();
  crawleeLog.setLevel(crawleeLog.LEVELS.OFF);

  // --- state: frontier, dataset, site store -------------------------------------------------
  if (opts.fresh) rmSync(datasetDir, { recursive: true, force: true });
  const frontier: Frontier = opts.frontier ?? JournalFrontier.open(stateDir, spider.name, { maxPages, fresh: opts.fresh });
  if (frontier instanceof JournalFrontier && frontier.previousFinished && !opts.fresh) {
    log.info(`the previous crawl of "${spider.name}" finished: starting over (dataset replaced; an interrupted crawl would resume)`);
    frontier.reset();
    rmSync(datasetDir, { recursive: true, force: true });
  }
  const resumed = frontier instanceof JournalFrontier ? frontier.resumed && !frontier.previousFinished && !opts.fresh : false;
  const previousItems = repairDataset(datasetDir);
  if (frontier instanceof JournalFrontier) frontier.markStored(previousItems.map((i) => i.url));
  if (resumed) log.info(`resuming: ${previousItems.length} items stored, ${frontier.stats().pending} requests pending`);

  const dataset = DatasetFileSink.open(storageDir, spider.name);
  const sinks: ItemSink[] = [dataset];
  if (opts.out) sinks.push(new FileSink(opts.out, previousItems));
  if (opts.onItem) sinks.push(new CallbackSink(opts.onItem));
  const pipeline = new ItemPipeline(sinks, log, previousItems);
  const store = await LowdbSiteStore.open(path.join(stateDir, `${spider.name}.json`));

  const chain: Middleware[] = buildChain(BUILTIN_MIDDLEWARE, { settings: spider.middleware, extra: spider.extraMiddleware ?? [] }, log);
  const env: MiddlewareEnv = { spider: spider.name, stateDir, log };
  await openChain(chain, env);

  // --- counters ------------------------------------------------------------------------------
  let pages = 0;
  let failed = 0;
  let skippedByRobots = 0;
  const failuresByMiddleware: Record<string, number> = {};
  const failuresByReason: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
  const started = Date.now();

  // --- Crawlee plumbing: an in-memory queue fed from the frontier -----------------------------
  const memory = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const config = new Configuration({ storageClient: memory, persistStorage: false, purgeOnStart: false, availableMemoryRatio: 0.5 });
  const requestQueue = await RequestQueue.open(`gleaner-${spider.name}-${process.pid}-${Date.now()}`, { config, storageClient: memory });
  const toCrawlee = (r: FrontierRequest) => ({ url: r.url, uniqueKey: r.url, userData: { ...r, label: r.label } });
  const pump = async () => {
    const batch = await frontier.take(Number.MAX_SAFE_INTEGER);
    if (batch.length) await requestQueue.addRequests(batch.map(toCrawlee), { forefront: false });
  };

  const seeds: FrontierRequest[] = spider.startUrls.map((url) => {
    const u = new URL(url);
    u.hash = '';
    const rule = decideFollow(u.href, rules);
    return { url: u.href, depth: 0, label: rule.follow ? rule.label : undefined };
  });
  await frontier.add(seeds);
  await pump();

  const robots =
    c.robotsTxt === false
      ? undefined
      : new RobotsCache(async (url) => {
          await guard.check(url);
          const r = await gotScraping({ url, timeout: { request: 10_000 }, throwHttpErrors: false, responseType: 'text', retry: { limit: 0 }, proxyUrl: proxies[0], dnsLookup: spider.allowPrivateAddresses ? undefined : guardedLookup } as any);
          return { status: r.statusCode, body: r.statusCode < 400 ? String(r.body).slice(0, 512 * 1024) : '' };
        });

  /** Hints that arrived after their URL was queued (first found through an unlabelled link, then
   * as a list item): advisory, in memory, used once when the page is handled. */
  const lateHints = new Map<string, string>();

  /** Keep the links the spider may follow, labelled, as frontier requests. */
  const filterFollow = (follow: FollowRequest[], from: FrontierRequest, pageUrl: string): FrontierRequest[] => {
    const out = new Map<string, FrontierRequest>();
    const depth = (from.depth ?? 0) + 1;
    if (c.maxDepth !== undefined && depth > c.maxDepth) return [];
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
      if (out.has(href) || !hostAllowed(u.hostname, domains)) continue;
      const d = decideFollow(href, rules, f.label);
      if (!d.follow) continue;
      if (frontier.has(href) === true) {
        if (f.label && !rules.length && !lateHints.has(href)) lateHints.set(href, f.label);
        continue;
      }
      const anchor = f.anchorText?.slice(0, DEFAULTS.maxAnchorChars);
      // A follow rule's label types the page; an extractor's label only hints (the classifier decides).
      const ruleLabel = rules.length ? decideFollow(href, rules).label : undefined;
      const labelHint = ruleLabel ? undefined : d.label;
      out.set(href, { url: href, label: ruleLabel, labelHint, anchorText: anchor || undefined, depth, referrer: pageUrl });
    }
    return [...out.values()];
  };

  /** One fetched response through the chain. Order matters for resume: follow-ups are journaled
   * first, then the item is stored, then the request is marked done. */
  const handleResponse = async (request: CrawleeRequest, res: { url: string; body: Uint8Array | string; contentType?: string }) => {
    const from = request.userData as FrontierRequest;
    const fetchedAt = new Date();
    let item: Item | undefined;
    let page;
    try {
      page = createPage({ url: res.url, body: res.body, contentType: res.contentType, fetchedAt });
    } catch (e) {
      if (!(e instanceof BinaryContentError)) throw e;
      item = { url: res.url, kind: 'other', spider: spider.name, fetchedAt: fetchedAt.toISOString(), error: e.message };
    }
    if (page) {
      const labelHint = from.labelHint ?? lateHints.get(from.url);
      lateHints.delete(from.url);
      const info: RequestInfo = { url: res.url, label: from.label, labelHint, anchorText: from.anchorText, depth: from.depth, referrer: from.referrer };
      let ctx;
      try {
        ctx = await processPage(page, info, { spider: spider.name, chain, store, log, siteKey: siteKey(res.url), timezone: spider.timezone });
      } catch (e) {
        if (!(e instanceof MiddlewareError)) throw e;
        bump(failuresByMiddleware, e.middleware);
        failed++;
        log.error(e.message);
        await frontier.done(request.url, 'failed');
        return;
      }
      const follows = filterFollow(ctx.follow, from, res.url);
      if (follows.length) {
        await frontier.add(follows);
        await pump();
      }
      if (ctx.drop) bump(dropped, ctx.drop);
      else item = finishItem(ctx, spider.name);
    }
    if (item) await pipeline.process(item);
    pages++;
    await frontier.done(request.url, 'ok');
    // A redirect target is done too: do not fetch it again when a link leads there.
    if (res.url !== request.url && !(await frontier.has(res.url))) await frontier.done(res.url, 'ok');
  };

  /** Checks before any request: robots.txt, address, rate. */
  const beforeRequest = async (url: string) => {
    if (robots && !(await robots.allowed(url))) throw new RobotsDisallowedError(url);
    try {
      await guard.check(url);
    } catch (e) {
      throw new FetchFailure('blocked address', (e as Error).message);
    }
    await limiter.wait(new URL(url).host);
  };

  const failedRequestHandler = async ({ request }: { request: CrawleeRequest }, error: Error) => {
    if (error instanceof RobotsDisallowedError) {
      skippedByRobots++;
      await frontier.done(request.url, 'ok');
      return;
    }
    failed++;
    const reason = reasonOf(error);
    bump(failuresByReason, reason);
    log.warning(`failed ${request.url}: ${error.message.split('\n')[0]}`);
    await frontier.done(request.url, 'failed');
  };

  const maxConcurrency = c.maxConcurrency ?? (render ? DEFAULTS.renderConcurrency : DEFAULTS.maxConcurrency);
  const common = {
    requestQueue,
    maxConcurrency,
    // Autoscaled between the floor and the spider's ceiling (see DEFAULTS.minConcurrency).
    minConcurrency: Math.min(DEFAULTS.minConcurrency, maxConcurrency),
    maxRequestRetries: c.maxRetries ?? DEFAULTS.maxRetries,
    requestHandlerTimeoutSecs: timeoutSecs * 2 + 30,
    failedRequestHandler,
    statusMessageLoggingInterval: 3600,
  };

  let crawler: BasicCrawler<any> | PlaywrightCrawler;
  if (!render) {
    crawler = new BasicCrawler(
      {
        ...common,
        useSessionPool: false,
        async requestHandler({ request }) {
          await beforeRequest(request.url);
          const headers: Record<string, string> = { ...(c.headers ?? {}) };
          const cookie = cookieHeaderFor(request.url, spider);
          if (cookie) headers.cookie = cookie;
          const req = gotScraping({
            url: request.url,
            headers,
            proxyUrl: proxies.length ? proxies[proxyIndex++ % proxies.length] : undefined,
            timeout: { request: timeoutSecs * 1000 },
            responseType: 'buffer',
            throwHttpErrors: false,
            retry: { limit: 0 },
            followRedirect: true,
            maxRedirects: 10,
            // Checked again at connection time: redirects and changed DNS answers included.
            dnsLookup: spider.allowPrivateAddresses ? undefined : guardedLookup,
            hooks: {
              beforeRedirect: [
                (options: any) => {
                  const to = options.url as URL;
                  if (!hostAllowed(to.hostname, domains)) throw new FetchFailure('redirect off-site', `${request.url} redirects to ${to.href}, outside the allowed domains`);
                  const host = to.hostname.replace(/^\[|\]$/g, '');
                  if (!spider.allowPrivateAddresses && isIP(host) && isPrivateAddress(host)) throw new FetchFailure('blocked address', `${request.url} redirects to private address ${to.href}`);
                },
              ],
            },
          } as any) as any;
          let tooLarge = false;
          req.on('downloadProgress', (p: { transferred: number; total?: number }) => {
            if (p.transferred > maxBytes || (p.total !== undefined && p.total > maxBytes)) {
              tooLarge = true;
              req.cancel();
            }
          });
          let res: any;
          try {
            res = await req;
          } catch (e) {
            if (tooLarge) throw new FetchFailure('too large', `${request.url}: response larger than ${maxBytes} bytes`);
            if (e instanceof FetchFailure) throw e;
            if ((e as any)?.cause instanceof FetchFailure) throw (e as any).cause;
            if ((e as any)?.cause?.name === 'BlockedAddressError' || (e as any)?.name === 'BlockedAddressError') throw new FetchFailure('blocked address', (e as Error).message);
            throw e;
          }
          const status: number = res.statusCode;
          if (status === 429 || status >= 500) throw new Error(`HTTP ${status} from ${request.url}`);
          if (status >= 400) throw new FetchFailure(`http ${status}`, `HTTP ${status} from ${request.url}`);
          const finalUrl: string = res.url;
          if (finalUrl !== request.url) await guard.check(finalUrl).catch((e) => { throw new FetchFailure('blocked address', (e as Error).message); });
          const contentType: string | undefined = res.headers['content-type'];
          if (contentType && NON_PAGE_TYPE.test(contentType)) throw new FetchFailure('not a page', `${request.url}: ${contentType.split(';')[0]} is not a page`);
          await handleResponse(request, { url: finalUrl, body: res.rawBody ?? res.body, contentType });
        },
      },
      config,
    );
  } else {
    const { chromium } = await import('playwright');
    crawler = new PlaywrightCrawler(
      {
        ...common,
        navigationTimeoutSecs: timeoutSecs,
        launchContext: { launcher: chromium, launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true } as any },
        browserPoolOptions: { useFingerprints: false },
        proxyConfiguration: proxies.length ? new (await import('crawlee')).ProxyConfiguration({ proxyUrls: proxies }) : undefined,
        preNavigationHooks: [
          async ({ request, page }) => {
            await beforeRequest(request.url);
            if (c.headers) await page.setExtraHTTPHeaders(c.headers);
            const cookie = cookieHeaderFor(request.url, spider);
            if (cookie) await page.setExtraHTTPHeaders({ ...(c.headers ?? {}), cookie });
            if (!spider.allowPrivateAddresses) {
              // Sub-resources too: a public page must not make the browser reach private hosts.
              await page.route('**/*', async (route) => {
                try {
                  await guard.check(route.request().url());
                  await route.continue();
                } catch {
                  await route.abort('blockedbyclient');
                }
              });
            }
          },
        ],
        async requestHandler({ request, page, response }) {
          const status = response?.status() ?? 200;
          if (status === 429 || status >= 500) throw new Error(`HTTP ${status} from ${request.url}`);
          if (status >= 400) throw new FetchFailure(`http ${status}`, `HTTP ${status} from ${request.url}`);
          // Scripts that fill the page after `load` (fetch + render): give them a moment.
          await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
          const html = await page.content();
          if (html.length > maxBytes) throw new FetchFailure('too large', `${request.url}: rendered page larger than ${maxBytes} bytes`);
          await handleResponse(request, { url: page.url(), body: html, contentType: 'text/html; charset=utf-8' });
        },
      },
      config,
    );
  }

  // --- progress, checkpoints, signals ------------------------------------------------------
  const progress = (): CrawlProgress => {
    const elapsedSecs = (Date.now() - started) / 1000;
    return {
      spider: spider.name,
      pages,
      queued: frontier.stats().pending,
      failed,
      items: pipeline.storedCount,
      pagesPerSec: elapsedSecs > 0 ? pages / elapsedSecs : 0,
      elapsedSecs,
    };
  };
  const progressTimer = setInterval(() => opts.onProgress?.(progress()), opts.progressIntervalMs ?? DEFAULTS.progressIntervalMs);
  const checkpointTimer = setInterval(() => {
    void Promise.resolve(frontier.checkpoint()).catch((e) => log.error(`checkpoint failed: ${(e as Error).message}`));
    void store.flush().catch((e) => log.error(`site state flush failed: ${(e as Error).message}`));
    dataset.flush();
  }, opts.checkpointIntervalMs ?? DEFAULTS.checkpointIntervalMs);
  progressTimer.unref();
  checkpointTimer.unref();

  let interrupted = false;
  const onSignal = (sig: string) => {
    if (interrupted) {
      log.warning(`${sig} again: exiting now (the next run resumes from the journal)`);
      process.exit(130);
    }
    interrupted = true;
    log.warning(`${sig}: stopping; the next run of "${spider.name}" resumes here (${sig} again to exit at once)`);
    void crawler.autoscaledPool?.abort();
  };
  const sigint = () => onSignal('SIGINT');
  const sigterm = () => onSignal('SIGTERM');
  if (opts.handleSignals) {
    process.on('SIGINT', sigint);
    process.on('SIGTERM', sigterm);
  }

  try {
    await crawler.run();
  } finally {
    clearInterval(progressTimer);
    clearInterval(checkpointTimer);
    if (opts.handleSignals) {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    }
    await closeChain(chain, env);
    await pipeline.close();
    await store.flush();
    const finished = !interrupted && frontier.stats().pending === 0;
    await frontier.close(finished);
    await crawler.teardown?.().catch(() => {});
    await requestQueue.drop().catch(() => {});
    crawleeLog.setLevel(crawleeLevel);
  }

  const p = progress();
  return {
    ...p,
    itemsByKind: { ...pipeline.stored },
    failuresByMiddleware,
    failuresByReason,
    dropped,
    invalidItems: { ...pipeline.invalid },
    duplicates: pipeline.duplicates,
    skippedByRobots,
    resumed,
    finished: !interrupted && frontier.stats().pending === 0,
    datasetDir,
  };
}

/** Alias: `crawl(spider, options)`. */
export const crawl = runSpider;
