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
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// The crawler's parts of Crawlee, not the `crawlee` package: that one loads every crawler
// (jsdom, cheerio, Playwright …) at start-up, ~2.5 s here; Playwright loads when a spider renders.
import { BasicCrawler, Configuration, NonRetryableError, log as crawleeLog, type Request as CrawleeRequest, type RequestQueue } from '@crawlee/basic';
import { MemoryStorage } from '@crawlee/memory-storage';
import type { PlaywrightCrawler } from 'crawlee';
import type { Logger, RequestInfo, SiteStore } from '../core/middleware.js';
import { siteKeyOf } from '../chain/process.js';
import type { Item } from '../core/item.js';
import { SpiderConfigError, validateSpider, type SpiderConfig } from '../spider/config.js';
import { compileSiteKeys, decideFollow } from '../spider/follow-rules.js';
import { AddressGuard, hostAllowed, normaliseDomains } from './net-guard.js';
import { admitLinks, candidateLinks, linkPolicyOf, MAX_ANCHOR_CHARS } from './links.js';
import { FrontierRequestManager, withProcessMemoryInfo } from './crawlee-glue.js';
import { ChainPool, DEFAULT_PAGE_BUDGET_SECS, defaultThreads } from './pool/index.js';
import type { PageOutcome, PageTask } from './pool/outcome.js';
import type { InlineChain } from './pool/inline-chain.js';
import { JournalFrontier, type Frontier, type FrontierRequest } from './frontier.js';
import { HostRateLimiter, RobotsCache, ROBOTS_MAX_BYTES, type RobotsFetcher } from './politeness.js';
import { Downloader, toFetchError } from './downloader/index.js';
import { addressGuardStep, defaultSteps, redirectStep } from './downloader/steps.js';
import { AbortedError, BlockedError, FetchError, HttpStatusError, RedirectError, TooLargeError } from './errors.js';
import { FailureLog, displayUrl } from './failure-log.js';
import { LowdbSiteStore } from '../storage/site-store.js';
import { CallbackSink, DatasetFileSink, datasetEntries, repairDataset, type ItemSink } from '../storage/item-sink.js';
import { checkFeed, FeedError, openFeed, parseOutArg, type FeedSpec } from '../storage/feed-sink.js';
import { ItemPipeline } from './pipeline.js';
import { normaliseUrl } from './normalise-url.js';
import { consoleLogger, type LogLevelName } from './log.js';
import { crawlDelayStep } from './crawl-delay.js';
import { openSessionPool, sessionStep, type SessionOptions, type SessionStats } from './sessions.js';
import { loadSitemaps, sitemapSources, SITEMAP_MAX_BYTES } from './sitemaps.js';
import { conditionalStep, fingerprint, NotModifiedError, PageMemory, type RecrawlOptions } from './recrawl.js';
import type { IncomingHttpHeaders } from 'node:http';

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
  /** First retry pause; doubles per retry, plus up to 25 % jitter (downloader/backoff.ts). 1 s
   * lets a server that dropped one connection recover; 1 + 2 s for the default two retries. */
  retryBackoffSecs: 1,
  /** Longest retry pause. A Retry-After asking for more fails the request instead of holding a
   * slot (the host is still paused for the others). */
  maxRetryDelaySecs: 60,
  /** How often Crawlee's autoscaler may change concurrency, and by what share of the current
   * value (Crawlee's defaults, 10 s and 5 %, took minutes to leave 5: on a 0–300 ms loopback
   * server with maxConcurrency 50 the crawl never had more than 9 requests in flight, issue 14).
   * 1 s and 50 % reach 50 from 5 in about 6 s when the process keeps up. */
  autoscaleIntervalSecs: 1,
  scaleUpStepRatio: 0.5,
  /** Share of event-loop samples lagging > 50 ms above which Crawlee holds concurrency down
   * (its default 0.6). Fetches wait on the network, not on this thread: on the 0–300 ms latency
   * server (test/faults/concurrency.test.ts, load 11–15 on 2 cores) 0.6 reached 27 requests in
   * flight in the first 10 s and 46 pages/s, 0.9 reached 41 and 50 pages/s, 1 (off) 41 and 53.
   * 0.9 still backs off when the chain keeps the thread busy nearly all the time. */
  maxEventLoopOverloadedRatio: 0.9,
  /** After SIGINT/SIGTERM the crawl stops this fast or the process exits anyway (the journal is
   * durable at every step, so an exit loses nothing; issue 14 target: every signal within 2 s). */
  stopGraceMs: 1_500,
  /** Progress line and frontier checkpoint intervals. */
  progressIntervalMs: 3_000,
  checkpointIntervalMs: 3_000,
  /** Anchor texts longer than this are not titles (they would bloat the queue). */
  maxAnchorChars: MAX_ANCHOR_CHARS,
  /**
   * With `threads: 0` the chain runs on the crawl's thread, where a page stuck in slow code would
   * block fetching and signals: pages larger than this still go through a worker, under the page
   * budget. The smallest page issue 14 measured past the 10 s budget was 200 KB (one 200 KB word:
   * 18 s in a quadratic regex); 128 KB keeps a margin and leaves typical article pages (30–60 KB
   * on the realistic bench site) on the thread.
   */
  inlineMaxBytes: 128 * 1024,
};

/** Chromium flags for containers and CI (no sandbox, no GPU, small /dev/shm, no phoning home). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Whether the optional peer `playwright` (render mode only) can be loaded from here. */
export function playwrightInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('playwright');
    return true;
  } catch {
    return false;
  }
}

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
  /** The page budget of this run, when there is one. */
  maxPages?: number;
  /** Seconds left at the current rate until the page budget is spent (when there is one). */
  etaSecs?: number;
}

export interface CrawlSummary extends CrawlProgress {
  itemsByKind: Record<string, number>;
  /** Pages dropped because a middleware threw, by middleware name. */
  failuresByMiddleware: Record<string, number>;
  /** Fetch failures by reason (`http 404`, `timeout`, `blocked address` …). */
  failuresByReason: Record<string, number>;
  /** Up to three URLs (decoded) per failure reason. */
  failureExamples: Record<string, string[]>;
  /** Requests retried (after a backoff or Retry-After pause). */
  retries: number;
  /** URLs found and queued but never fetched because `maxPages` was reached. */
  unvisitedByBudget: number;
  /** Why the crawl stopped early, if it did (`maxPages reached`, `maxFailedPages reached`, a signal). */
  stoppedBy?: string;
  /** Start URLs, and how many of them were refused or failed (none fetched: exit code 1). */
  startUrls: number;
  startUrlsFailed: number;
  /** Links not queued because they are the directory-index twin of a URL already queued. */
  directoryTwins: number;
  /** Pages a middleware dropped on purpose (`ctx.drop`), by reason. */
  dropped: Record<string, number>;
  /** Pages stopped by the page budget (stored as `other` items with the error), by the
   * middleware (or `parse`) that was running. */
  timeouts: Record<string, number>;
  invalidItems: Record<string, number>;
  /** Items the spider's pipelines dropped, by reason. */
  droppedByPipeline: Record<string, number>;
  /** Items dropped because a pipeline stage threw, by stage. */
  pipelineErrors: Record<string, number>;
  /** The feed files written. */
  feeds: string[];
  duplicates: number;
  /** Set on a recrawl pass: pages re-visited, answered 304, unchanged (200 with the same
   * content), and changed (stored again). */
  recrawl?: { pass: number; revisited: number; notModified: number; unchanged: number; changed: number };
  /** URLs queued from sitemaps. */
  sitemapUrls: number;
  /** With `crawler.sessions`: sessions that made requests, and those retired as blocked. */
  sessions?: SessionStats;
  /** Hosts whose robots.txt answered 5xx or could not be reached after retries: every URL of
   * theirs was refused (RFC 9309). */
  robotsUnavailable: number;
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
  /** Also export items to these files (`FILE[:FORMAT]`: .jsonl, .json, .csv), besides the
   * spider's `feeds`. */
  out?: string | string[];
  /** Feeds with options (the CLI's `--out` with `--bom` / `--csv-rows`). */
  feeds?: FeedSpec[];
  /** After a finished crawl, run an incremental recrawl pass (dataset kept, list and thread
   * pages re-visited with conditional requests) instead of starting over; an object overrides the
   * spider's `recrawl` options. A spider with `recrawl` does this by itself. */
  recrawl?: boolean | RecrawlOptions;
  /** Forget this spider's queue and dataset and start over. */
  fresh?: boolean;
  log?: Logger;
  /** Log level of the default logger (`debug` … `off`); the spider's `logLevel` otherwise. */
  logLevel?: LogLevelName;
  onProgress?: (p: CrawlProgress) => void;
  progressIntervalMs?: number;
  checkpointIntervalMs?: number;
  /** Called for every stored item. */
  onItem?: (item: Item) => void | Promise<void>;
  /** Stop cleanly on SIGINT/SIGTERM (the CLI). */
  handleSignals?: boolean;
  /** A frontier to use instead of the journal files (e.g. a shared one). A frontier with
   * `isFinished` is shared: the crawl ends when it says so for every worker. */
  frontier?: Frontier;
  /** Where items go instead of the local dataset and `out` (a shared crawl's store). */
  itemSink?: ItemSink;
  /** Site state store instead of `storage/gleaner/<spider>.json`. */
  siteStore?: SiteStore;
  /** Per-host rate limiter instead of this process's own (one shared by several workers). */
  limiter?: HostRateLimiter;
  /** Wraps the robots.txt fetcher (e.g. to share answers between workers). */
  robotsFetcher?: (fetch: RobotsFetcher) => RobotsFetcher;
  /** Worker threads for the chain (overrides `crawler.threads`; default one per core; 0: this
   * thread). */
  threads?: number;
  /** A chain pool already started for this spider (`startChainPool`, as `gleaner crawl` does to
   * load the workers while the crawler loads); the crawl closes it. */
  chainPool?: Promise<ChainPool>;
  /** The file the spider was loaded from: worker threads import its `extraMiddleware` from it
   * (functions cannot be sent to a thread). Without it, a spider with `extraMiddleware` runs its
   * chain on this thread. */
  spiderModule?: string;
}

/** A fetch error Crawlee must not retry (the browser path, where Crawlee retries). */
class FinalFetchError extends NonRetryableError {
  constructor(readonly error: FetchError) {
    super(error.message);
    this.name = 'FinalFetchError';
  }
}

/** Robots.txt refusals logged one by one (the rest are counted in the summary). */
const LOGGED_ROBOTS_SKIPS = 3;
/** robots.txt has its own, short timeout: it gates every page of its origin. */
const ROBOTS_TIMEOUT_MS = 10_000;

/** The summary key of any failure. */
function reasonOf(e: unknown): string {
  return e instanceof FetchError ? e.reason : toFetchError(e, '', 0).reason;
}

function siteKeyFunction(spider: SpiderConfig): (url: string) => string {
  const sk = spider.siteKey;
  if (typeof sk === 'function') return sk;
  if (Array.isArray(sk)) return compileSiteKeys(sk, siteKeyOf);
  return siteKeyOf;
}

function cookieHeaderFor(url: string, spider: SpiderConfig): string | undefined {
  const cookies = spider.crawler?.cookies;
  if (!cookies?.length) return undefined;
  const u = new URL(url);
  const parts = cookies.filter((c) => (!c.domain || hostAllowed(u.hostname, normaliseDomains([c.domain]))) && (!c.path || u.pathname.startsWith(c.path))).map((c) => `${c.name}=${c.value}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The spider's feeds and the run's (`--out`), checked before anything is opened. */
export function feedSpecs(spider: SpiderConfig, opts: RunOptions): FeedSpec[] {
  const out: FeedSpec[] = [];
  for (const [file, o] of Object.entries(spider.feeds ?? {})) out.push({ ...o, path: file.replaceAll('{spider}', spider.name) });
  for (const arg of opts.out === undefined ? [] : Array.isArray(opts.out) ? opts.out : [opts.out]) out.push(parseOutArg(arg));
  out.push(...(opts.feeds ?? []));
  const paths = new Set<string>();
  for (const f of out) {
    checkFeed(f);
    const abs = path.resolve(f.path);
    if (paths.has(abs)) throw new FeedError(`feed ${f.path} is given twice`);
    paths.add(abs);
  }
  return out;
}

/**
 * Crawl a spider to completion (or until its page budget, or a signal). Resumes an interrupted
 * crawl of the same spider; starts over after a finished one (like Crawlee's purge on start).
 */
export async function runSpider(input: SpiderConfig | unknown, opts: RunOptions = {}): Promise<CrawlSummary> {
  // Worker pools started for the crawl are closed whatever happens (closing twice is a no-op).
  const pools: Array<Promise<ChainPool>> = [];
  try {
    return await crawlSpider(input, opts, pools);
  } finally {
    for (const p of pools) await p.then((pool) => pool.close(false), () => {});
  }
}

async function crawlSpider(input: SpiderConfig | unknown, opts: RunOptions, pools: Array<Promise<ChainPool>>): Promise<CrawlSummary> {
  const spider = validateSpider(input, (input as SpiderConfig)?.name ? `spider ${(input as SpiderConfig).name}` : 'spider');
  /** Lines logged by level (Scrapy's log_count/…), for the stats file. */
  const logCounts: Record<string, number> = {};
  const log = countLines(opts.log ?? consoleLogger(spider.name, opts.logLevel ?? spider.logLevel), logCounts);
  const feeds = feedSpecs(spider, opts);
  const c = spider.crawler ?? {};
  const render = !!c.render;
  if (render && !playwrightInstalled()) {
    throw new SpiderConfigError(`spider ${spider.name}: crawler.render needs playwright, an optional peer dependency of gleaner: npm install playwright (the browser is Debian's chromium: apt-get install -y chromium)`);
  }
  if (render && !existsSync(chromiumPath())) {
    throw new SpiderConfigError(`spider ${spider.name}: crawler.render: chromium not found at ${chromiumPath()} (install Debian's chromium: apt-get install -y chromium, or set GLEANER_CHROMIUM)`);
  }
  const storageDir = path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
  const stateDir = path.join(storageDir, 'gleaner');
  const datasetDir = path.join(storageDir, 'datasets', spider.name);
  const maxPages = opts.maxPages ?? spider.maxPages;
  const maxBytes = c.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
  const timeoutSecs = c.timeoutSecs ?? DEFAULTS.timeoutSecs;
  const maxFailedPages = c.maxFailedPages;
  const links = linkPolicyOf(spider);
  const { domains, rules, urlNorm } = links;
  const siteKey = siteKeyFunction(spider);
  const guard = new AddressGuard(!!spider.allowPrivateAddresses);
  const limiter = opts.limiter ?? new HostRateLimiter(c.maxRequestsPerMinute);
  const proxies = c.proxyUrls ?? [];
  let proxyIndex = 0;

  // Our own log reports failures (with reasons); Crawlee's would repeat each one with a stack.
  const crawleeLevel = crawleeLog.getLevel();
  crawleeLog.setLevel(crawleeLog.LEVELS.OFF);

  // --- state: frontier, dataset, site store -------------------------------------------------
  if (opts.fresh) rmSync(datasetDir, { recursive: true, force: true });
  const frontier: Frontier = opts.frontier ?? JournalFrontier.open(stateDir, spider.name, { fresh: opts.fresh });
  const pageMemory = PageMemory.open(frontier instanceof JournalFrontier ? path.join(stateDir, `${spider.name}.pages.json`) : undefined);
  if (opts.fresh) pageMemory.clear();
  const recrawlOptions: RecrawlOptions | undefined = opts.recrawl ? { ...(spider.recrawl ?? {}), ...(typeof opts.recrawl === 'object' ? opts.recrawl : {}) } : spider.recrawl;
  if (frontier instanceof JournalFrontier && frontier.previousFinished && !opts.fresh) {
    if (recrawlOptions && pageMemory.size) {
      const due = pageMemory.startPass(recrawlOptions, new Date(), datasetEntries(datasetDir), () => {
        const st = frontier.stats();
        return st.done - st.failed - (st.skipped ?? 0);
      }, (pages) => frontier.revisit(pages.map(([url, r]) => ({ url, label: r.label, depth: r.depth, revisit: true }))));
      log.info(`recrawl pass ${pageMemory.pass}: re-visiting ${due.length} list and thread pages (dataset kept; only unseen links are followed)`);
    } else {
      log.info(`the previous crawl of "${spider.name}" finished: starting over (dataset replaced; an interrupted crawl would resume)`);
      frontier.reset();
      pageMemory.clear();
      rmSync(datasetDir, { recursive: true, force: true });
    }
  }
  const recrawling = pageMemory.pass > 0;
  const resumed = frontier instanceof JournalFrontier ? frontier.resumed && !frontier.previousFinished && !opts.fresh : false;
  const previousItems = opts.itemSink ? [] : repairDataset(datasetDir);
  if (frontier instanceof JournalFrontier) frontier.markStored(previousItems.map((i) => i.url));
  if (resumed) log.info(`resuming: ${previousItems.length} items stored, ${frontier.stats().pending} requests pending`);

  const dataset = opts.itemSink ? undefined : DatasetFileSink.open(storageDir, spider.name);
  const sinks: ItemSink[] = opts.itemSink ? [opts.itemSink] : [dataset!];
  // With a shared item sink (Redis) the feeds are written from the crawl's stream when it finishes.
  // A recrawl pass's feeds hold the pass's own items (those after the entries it started with).
  if (!opts.itemSink) for (const f of feeds) sinks.push(openFeed(f, recrawling ? previousItems.slice(pageMemory.datasetStart) : previousItems));
  if (opts.onItem) sinks.push(new CallbackSink(opts.onItem));
  const pipeline = new ItemPipeline(sinks, log, previousItems, { stages: spider.pipelines, spider: spider.name });
  await pipeline.open();
  const store = opts.siteStore ?? (await LowdbSiteStore.open(path.join(stateDir, `${spider.name}.json`)));

  // --- the chain: in worker threads (default), or on this thread --------------------------------
  const threads = opts.threads ?? c.threads ?? defaultThreads();
  // Middleware objects cannot be sent to a thread; a spider file can be imported there.
  const extraObjects = !!spider.extraMiddleware?.length && !opts.spiderModule;
  if (threads > 0 && extraObjects) log.debug('extraMiddleware given as objects: the chain runs on the crawl thread (pass the spider file as spiderModule to use worker threads)');
  const poolOptions = { spider: spider.name, middleware: spider.middleware, spiderModule: opts.spiderModule, timezone: spider.timezone, stateDir, links, pageBudgetSecs: c.pageBudgetSecs, store, log };
  // Workers start now (or were started by the caller) and load the chain while this thread opens
  // the rest; awaited before the crawl.
  const poolStart = threads > 0 && !extraObjects ? (opts.chainPool ?? ChainPool.create({ ...poolOptions, threads })) : undefined;
  for (const p of new Set([poolStart, opts.chainPool])) if (p) pools.push(p);
  let pool: ChainPool | undefined;
  /** On this thread: the chain, and (for large pages) a one-thread pool that keeps the budget. */
  let inline: InlineChain | undefined;
  let sidePool: Promise<ChainPool> | undefined;
  if (!poolStart) {
    inline = await (await import('./pool/inline-chain.js')).openInlineChain(spider, { stateDir, store, log, links });
  }
  const runChainOn = async (task: PageTask): Promise<PageOutcome> => {
    if (pool) return pool.run(task, spider.name);
    const size = typeof task.body === 'string' ? task.body.length : task.body.byteLength;
    if (size > DEFAULTS.inlineMaxBytes && !extraObjects) {
      if (!sidePool) pools.push((sidePool = ChainPool.create({ ...poolOptions, threads: 1, sharedStore: true })));
      return (await sidePool).run(task, spider.name);
    }
    return inline!.run(task);
  };

  // --- counters ------------------------------------------------------------------------------
  /** Aborts every fetch, retry pause and rate-limit wait: the crawl is stopping. */
  const stop = new AbortController();
  let pages = 0;
  let failed = 0;
  let skippedByRobots = 0;
  /** URLs not queued because their directory-index twin was (url-aliases.ts). */
  const directoryTwins = new Set<string>();
  let startUrlsFailed = 0;
  let stoppedBy: string | undefined;
  /** Requests handed to Crawlee and not yet settled (the page budget counts them as taken). */
  let inFlight = 0;
  /** Request handlers running now (drained before the sinks close). */
  let activeHandlers = 0;
  /** Pages fetched successfully by earlier runs of this crawl (resume): the budget counts them. */
  const previousPages = (() => {
    const st = frontier.stats();
    return Math.max(0, st.done - st.failed - (st.skipped ?? 0) - (recrawling ? pageMemory.passBaseline : 0));
  })();
  const recrawlCounts = { revisited: 0, notModified: 0, unchanged: 0, changed: 0 };
  let bytesDownloaded = 0;
  /** Origins whose robots.txt stayed unavailable (5xx / unreachable after retries): disallowed. */
  const robotsUnavailable = new Set<string>();
  const failuresByMiddleware: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const timeouts: Record<string, number> = {};
  const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
  const started = Date.now();

  // --- Crawlee plumbing: requests handed to Crawlee straight from the frontier (crawlee-glue.ts) -
  const memory = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const config = withProcessMemoryInfo(new Configuration({ storageClient: memory, persistStorage: false, purgeOnStart: false, availableMemoryRatio: 0.5 }));
  /** Pages the budget still allows to start: `maxPages` counts successful pages only, so a failed
   * request gives its place back (issue 12: 261 of 400 requests were 404 and the crawl stopped
   * with 4 of 18 index pages unvisited). */
  const budgetLeft = () => (maxPages === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, maxPages - previousPages - pages - inFlight));
  const budgetReached = () => maxPages !== undefined && previousPages + pages >= maxPages;
  // Crawlee takes requests as it has room for them, within the page budget; none once stopping.
  const requestManager = new FrontierRequestManager(frontier, {
    limit: () => (stop.signal.aborted ? 0 : budgetLeft()),
    onTake: (n) => (inFlight += n),
  });
  /** A taken request reached its end (stored, dropped, failed or skipped). */
  const settle = async () => {
    inFlight--;
    if (budgetReached() && !stoppedBy) stoppedBy = `maxPages (${maxPages}) reached`;
  };

  const seeds: FrontierRequest[] = spider.startUrls.map((url) => {
    const href = normaliseUrl(new URL(url), urlNorm);
    const rule = decideFollow(href, rules);
    return { url: href, depth: 0, label: rule.follow ? rule.label : undefined };
  });
  await frontier.add(seeds);

  // --- the downloader: robots.txt, address guard, off-site, rate, size, redirects, retries -----
  const robotsFetcher = new Downloader({
    // RFC 9309 §2.3.1.2: follow at least five redirects; every hop through the address guard.
    steps: [...(spider.allowPrivateAddresses ? [] : [addressGuardStep(guard)]), redirectStep(5)],
    timeoutMs: ROBOTS_TIMEOUT_MS,
    maxBytes: ROBOTS_MAX_BYTES,
    truncate: true,
    signal: stop.signal,
    headersFor: () => ({ ...(c.headers ?? {}) }),
    proxyFor: () => proxies[0],
    guardDns: !spider.allowPrivateAddresses,
  });
  const robots =
    c.robotsTxt === false
      ? undefined
      : new RobotsCache(
          // shared frontiers share robots.txt answers too (opts.robotsFetcher)
          (opts.robotsFetcher ?? ((f: RobotsFetcher) => f))(
            async (url) => {
              try {
                const r = await robotsFetcher.fetch(url);
                return { status: r.status, body: r.body.toString('utf8') };
              } catch (e) {
                // RFC 9309 §2.3.1.2: a chain that loops or runs long means "unavailable" (no rules); a
                // hop to a refused address is the same for us.
                if (e instanceof RedirectError || e instanceof BlockedError) return { status: 404 };
                return { error: e instanceof FetchError ? e.reason : (e as Error).message };
              }
            }
          ),
          {
            signal: stop.signal,
            onUnavailable: (origin, why) => {
              robotsUnavailable.add(origin);
              log.warning(why);
            },
          },
        );
  const failureLog = new FailureLog(log);
  const sessionOptions: SessionOptions | undefined = c.sessions ? (c.sessions === true ? {} : c.sessions) : undefined;
  const sessionPool = sessionOptions && !render ? await openSessionPool(sessionOptions) : undefined;
  const sessionStats: SessionStats = { retired: 0, used: 0 };
  let retries = 0;
  const downloader = new Downloader({
    steps: [
      ...defaultSteps({
      domains,
      guard: spider.allowPrivateAddresses ? undefined : guard,
      robots,
      limiter,
      maxBytes,
      retry: {
        maxRetries: c.maxRetries ?? DEFAULTS.maxRetries,
        baseDelayMs: (c.retryBackoffSecs ?? DEFAULTS.retryBackoffSecs) * 1000,
        maxDelayMs: (c.maxRetryDelaySecs ?? DEFAULTS.maxRetryDelaySecs) * 1000,
      },
      }),
      conditionalStep(pageMemory, () => recrawling),
      ...(robots ? [crawlDelayStep(robots, limiter, log, c.maxCrawlDelaySecs)] : []),
      ...(sessionPool ? [sessionStep(sessionPool, sessionOptions!, (url) => cookieHeaderFor(url, spider), sessionStats, log)] : []),
    ],
    timeoutMs: timeoutSecs * 1000,
    maxBytes,
    signal: stop.signal,
    headersFor: (url) => {
      const headers: Record<string, string> = { ...(c.headers ?? {}) };
      // With sessions the session step sends the spider's cookies with the session's own.
      const cookie = sessionPool ? undefined : cookieHeaderFor(url, spider);
      if (cookie) headers.cookie = cookie;
      return headers;
    },
    proxyFor: () => (proxies.length ? proxies[proxyIndex++ % proxies.length] : undefined),
    // Checked again at connection time: redirects and changed DNS answers included.
    guardDns: !spider.allowPrivateAddresses,
    onRetry: (url, err, delay, attempt) => {
      retries++;
      log.debug(`retry ${attempt + 1} of ${displayUrl(url)} in ${(delay / 1000).toFixed(1)} s (${err.reason})`);
    },
  });

  /** Hints that arrived after their URL was queued (first found through an unlabelled link, then
   * as a list item): advisory, in memory, used once when the page is handled. */
  const lateHints = new Map<string, string>();

  /** The links the spider may follow (links.ts), not yet seen, labelled, as frontier requests. */
  const admit = (candidates: Parameters<typeof admitLinks>[0]) => admitLinks(candidates, (u) => frontier.has(u) === true, lateHints, rules.length > 0, (u) => directoryTwins.add(u));

  /** One fetched response through the chain (a worker thread, or this one). Order matters for
   * resume: follow-ups are journaled first, then the item is stored, then the request is marked
   * done. */
  const handleResponse = async (request: CrawleeRequest, res: { url: string; body: Uint8Array | string; contentType?: string; headers?: IncomingHttpHeaders }) => {
    const from = request.userData as FrontierRequest;
    if (stop.signal.aborted) throw new AbortedError(res.url);
    const labelHint = from.labelHint ?? lateHints.get(from.url);
    lateHints.delete(from.url);
    const info: RequestInfo = { url: res.url, label: from.label, labelHint, anchorText: from.anchorText, depth: from.depth, referrer: from.referrer };
    const task: PageTask = { url: res.url, body: res.body, contentType: res.contentType, fetchedAt: Date.now(), request: info, siteKey: siteKey(res.url) };
    if (inline) {
      // On this thread parsing a big page is one long synchronous step: let a pending signal in
      // first, and leave the page queued for the next run if it asked the crawl to stop.
      await new Promise((r) => setImmediate(r));
      if (stop.signal.aborted) throw new AbortedError(res.url);
    }
    const outcome = await runChainOn(task);
    // Stopping: the page stays pending for the next run.
    if (stop.signal.aborted) throw new AbortedError(res.url);
    let item: Item | undefined;
    let problem: string | undefined;
    switch (outcome.type) {
      case 'middleware-error':
        bump(failuresByMiddleware, outcome.middleware);
        failed++;
        // With the stack of what the middleware threw (its first frames, page-task.ts): where to look.
        log.error(outcome.message);
        await frontier.done(request.url, 'failed');
        return;
      case 'page': {
        const follows = admit(outcome.links);
        if (follows.length) await frontier.add(follows);
        if (outcome.drop) bump(dropped, outcome.drop);
        else ({ item, invalid: problem } = outcome);
        break;
      }
      case 'timeout':
      case 'crashed':
        bump(timeouts, outcome.stage);
        log.warning(`${displayUrl(res.url)}: ${outcome.item.error} (page budget ${c.pageBudgetSecs ?? DEFAULT_PAGE_BUDGET_SECS} s): stored as an "other" item`);
        item = outcome.item;
        break;
      case 'binary':
        item = outcome.item;
    }
    if (item) {
      // Lists and threads are remembered (validators, content fingerprint) for a later recrawl; a
      // re-visited page is stored again only when its content changed.
      let update = false;
      let store = true;
      if (item.kind === 'list' || item.kind === 'forum' || from.revisit) {
        const fp = fingerprint(item);
        const before = pageMemory.get(request.url);
        pageMemory.record(request.url, item, { label: from.label, depth: from.depth, headers: res.headers, fetchedAt: new Date(task.fetchedAt), fingerprint: fp });
        // A recrawl stores what is new to read: list pages (re-visited or new) only with listItems.
        if (recrawling && item.kind === 'list' && !recrawlOptions?.listItems) store = false;
        if (from.revisit) {
          recrawlCounts.revisited++;
          if (!store) {
            /* a list page: how new pages are found */
          } else if (before?.fingerprint === fp) {
            recrawlCounts.unchanged++;
            store = false;
          } else {
            recrawlCounts.changed++;
            update = true;
          }
        }
      }
      // A page's item was checked against the item shape where the chain ran (`problem`).
      if (store) await pipeline.process(item, { requestUrl: request.url }, { update, checked: outcome.type === 'page' ? { problem } : undefined });
    }
    pages++;
    await frontier.done(request.url, 'ok');
    // A redirect target is done too: do not fetch it again when a link leads there.
    if (res.url !== request.url && !(await frontier.has(res.url))) await frontier.done(res.url, 'skipped');
  };

  const isStartUrl = (request: CrawleeRequest) => (request.userData as FrontierRequest).depth === 0;

  const failedRequestHandler = async ({ request }: { request: CrawleeRequest }, thrown: Error) => {
    const error = thrown instanceof FinalFetchError ? thrown.error : thrown;
    // Stopping: the page is not at fault and stays pending for the next run.
    if (error instanceof AbortedError || stop.signal.aborted) {
      inFlight--;
      return;
    }
    if (isStartUrl(request)) startUrlsFailed++;
    if (error instanceof BlockedError && error.kind === 'robots') {
      skippedByRobots++;
      if (skippedByRobots <= LOGGED_ROBOTS_SKIPS) log.info(`skipped: ${displayUrl(error.message)}`);
      await frontier.done(request.url, 'skipped');
      await settle();
      return;
    }
    failed++;
    failureLog.record(reasonOf(error), request.url, error.message);
    await frontier.done(request.url, 'failed');
    if (maxFailedPages !== undefined && failureLog.total >= maxFailedPages && !stoppedBy) {
      stoppedBy = `maxFailedPages (${maxFailedPages}) reached`;
      log.warning(`${failureLog.total} failed requests: stopping (crawler.maxFailedPages ${maxFailedPages})`);
      stopNow();
      return;
    }
    await settle();
  };

  /** A shared frontier: other workers may still add pages while this one's queue is empty, so the
   * crawl ends when the frontier says so for all of them (Crawlee's isFinishedFunction). */
  const sharedIsFinished = (frontier as Frontier).isFinished?.bind(frontier);
  let sharedFinished = false;
  const sharedFinish = async () => {
    // (the request manager takes from the frontier when its buffer is empty)
    if (!(await requestManager.isFinished())) return false;
    if (interrupted || stop.signal.aborted) return true;
    return (sharedFinished = await sharedIsFinished!());
  };

  const maxConcurrency = c.maxConcurrency ?? (render ? DEFAULTS.renderConcurrency : DEFAULTS.maxConcurrency);
  const minConcurrency = Math.min(c.minConcurrency ?? DEFAULTS.minConcurrency, maxConcurrency);
  const maxRetries = c.maxRetries ?? DEFAULTS.maxRetries;
  const common = {
    // BasicCrawler's `requestManager` option is missing from its option check (Crawlee 3.18); as
    // `requestQueue` it is used the same way (it has fetchNextRequest and addRequest).
    requestQueue: requestManager as unknown as RequestQueue,
    maxConcurrency,
    // Autoscaled between the floor and the spider's ceiling (see DEFAULTS.minConcurrency).
    minConcurrency,
    autoscaledPoolOptions: {
      ...(sharedIsFinished ? { isFinishedFunction: sharedFinish } : {}),
      desiredConcurrency: minConcurrency,
      autoscaleIntervalSecs: DEFAULTS.autoscaleIntervalSecs,
      scaleUpStepRatio: DEFAULTS.scaleUpStepRatio,
      systemStatusOptions: {
        // Machine-wide CPU (what Crawlee measures) is other processes' on a shared box; this
        // process's own saturation shows as event-loop lag, which still scales it down.
        maxCpuOverloadedRatio: 1,
        maxEventLoopOverloadedRatio: DEFAULTS.maxEventLoopOverloadedRatio,
      },
    },
    requestHandlerTimeoutSecs: (maxRetries + 1) * timeoutSecs + maxRetries * (c.maxRetryDelaySecs ?? DEFAULTS.maxRetryDelaySecs) + 60,
    failedRequestHandler,
    statusMessageLoggingInterval: 3600,
  };

  let crawler: BasicCrawler<any> | PlaywrightCrawler;
  if (!render) {
    crawler = new BasicCrawler(
      {
        ...common,
        // The downloader retries (with backoff); Crawlee's own retries would come on top.
        maxRequestRetries: 0,
        useSessionPool: false,
        async requestHandler({ request }) {
          activeHandlers++;
          try {
            let res;
            try {
              res = await downloader.fetch(request.url);
            } catch (e) {
              if (!(e instanceof NotModifiedError)) throw e;
              // Unchanged since the last pass: not read, not parsed, its links are known.
              recrawlCounts.revisited++;
              recrawlCounts.notModified++;
              pageMemory.touch(request.url, new Date());
              await frontier.done(request.url, 'ok');
              await settle();
              return;
            }
            if (stop.signal.aborted) throw new AbortedError(request.url);
            bytesDownloaded += res.body.length;
            await handleResponse(request, { url: res.url, body: res.body, contentType: res.contentType, headers: res.headers });
            await settle();
          } finally {
            activeHandlers--;
          }
        },
      },
      config,
    );
  } else {
    const [{ chromium }, { PlaywrightCrawler }] = await Promise.all([import('playwright'), import('crawlee')]);
    crawler = new PlaywrightCrawler(
      {
        ...common,
        maxRequestRetries: maxRetries,
        navigationTimeoutSecs: timeoutSecs,
        launchContext: { launcher: chromium, launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true } as any },
        browserPoolOptions: { useFingerprints: false },
        proxyConfiguration: proxies.length ? new (await import('@crawlee/core')).ProxyConfiguration({ proxyUrls: proxies }) : undefined,
        preNavigationHooks: [
          async ({ request, page }) => {
            await downloader.admit(request.url).catch((e) => {
              throw e instanceof FetchError && !e.retryable ? new FinalFetchError(e) : e;
            });
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
          if (status >= 400) {
            const e = new HttpStatusError(status, request.url);
            throw e.retryable ? e : new FinalFetchError(e);
          }
          // Scripts that fill the page after `load` (fetch + render): give them a moment.
          await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
          const html = await page.content();
          if (html.length > maxBytes) throw new FinalFetchError(new TooLargeError(request.url, maxBytes, true));
          await handleResponse(request, { url: page.url(), body: html, contentType: 'text/html; charset=utf-8' });
          await settle();
        },
      },
      config,
    );
  }

  // --- progress, checkpoints, signals ------------------------------------------------------
  /** Stop fetching: abort the pool, every fetch in flight and every pause. */
  const stopNow = () => {
    stop.abort();
    void crawler.autoscaledPool?.abort();
  };
  /** Ran to its end: nothing pending, or the page budget spent (the rest is reported unvisited). */
  const isFinished = () => !interrupted && (sharedFinished || frontier.stats().pending === 0 || !!stoppedBy?.startsWith('maxPages'));
  const progress = (): CrawlProgress => {
    const elapsedSecs = (Date.now() - started) / 1000;
    const pagesPerSec = elapsedSecs > 0 ? pages / elapsedSecs : 0;
    const left = maxPages === undefined ? undefined : Math.max(0, maxPages - previousPages - pages);
    return {
      spider: spider.name,
      pages,
      queued: frontier.stats().pending,
      failed,
      items: pipeline.storedCount,
      pagesPerSec,
      elapsedSecs,
      maxPages,
      etaSecs: left === undefined || pagesPerSec <= 0 ? undefined : left / pagesPerSec,
    };
  };
  const progressTimer = setInterval(() => opts.onProgress?.(progress()), opts.progressIntervalMs ?? DEFAULTS.progressIntervalMs);
  const checkpointTimer = setInterval(() => {
    void Promise.resolve(frontier.checkpoint()).catch((e) => log.error(`checkpoint failed: ${(e as Error).message}`));
    void store.flush().catch((e) => log.error(`site state flush failed: ${(e as Error).message}`));
    dataset?.flush();
    pageMemory.flush();
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
    stoppedBy = sig;
    log.warning(`${sig}: stopping; the next run of "${spider.name}" resumes here (${sig} again to exit at once)`);
    stopNow();
    // The journal is written before every step it records, so exiting loses nothing; a page stuck
    // in a middleware must not keep the process alive past the grace period.
    graceTimer = setTimeout(() => {
      log.warning(`still busy ${DEFAULTS.stopGraceMs} ms after ${sig}: exiting (the next run resumes from the journal)`);
      process.exit(130);
    }, DEFAULTS.stopGraceMs);
    graceTimer.unref();
  };
  /** Cleared once the crawl has stopped: a program that called runSpider lives on after it. */
  let graceTimer: NodeJS.Timeout | undefined;
  const sigint = () => onSignal('SIGINT');
  const sigterm = () => onSignal('SIGTERM');
  if (opts.handleSignals) {
    process.on('SIGINT', sigint);
    process.on('SIGTERM', sigterm);
  }

  // --- sitemaps: their URLs join the start URLs (through the follow filter) -------------------
  let sitemapUrls = 0;
  if (spider.sitemaps) {
    const sitemapFetcher = new Downloader({
      steps: [
        ...defaultSteps({ domains, guard: spider.allowPrivateAddresses ? undefined : guard, robots, limiter, maxBytes: SITEMAP_MAX_BYTES, retry: { maxRetries: c.maxRetries ?? DEFAULTS.maxRetries, baseDelayMs: (c.retryBackoffSecs ?? DEFAULTS.retryBackoffSecs) * 1000, maxDelayMs: (c.maxRetryDelaySecs ?? DEFAULTS.maxRetryDelaySecs) * 1000 } }).filter((st) => st.name !== 'content-type'),
        ...(robots ? [crawlDelayStep(robots, limiter, log, c.maxCrawlDelaySecs)] : []),
      ],
      timeoutMs: timeoutSecs * 1000,
      maxBytes: SITEMAP_MAX_BYTES,
      signal: stop.signal,
      headersFor: () => ({ ...(c.headers ?? {}) }),
      guardDns: !spider.allowPrivateAddresses,
    });
    const listed = (origin: string) => (robots ? robots.sitemaps(origin) : Promise.resolve([]));
    const sources = await sitemapSources(spider.sitemaps, spider.startUrls, robots ? listed : undefined);
    const found = await loadSitemaps(
      sources,
      async (url) => {
        try {
          return await sitemapFetcher.fetch(url);
        } catch (e) {
          if (e instanceof FetchError) {
            log.warning(`sitemap ${displayUrl(url)}: ${e.reason}`);
            return undefined;
          }
          throw e;
        }
      },
      listed,
      log,
    );
    const follows = admit(candidateLinks(found.urls.map((e) => ({ url: e.url })), { depth: 0 }, sources[0] ?? '', links));
    sitemapUrls = (await frontier.add(follows)).length;
    log.info(`sitemaps: ${found.sitemaps} read, ${found.urls.length} URLs listed, ${sitemapUrls} new queued`);
  }

  try {
    pool = await poolStart;
    pool?.useLog(log);
    pool?.useStore(store);
    await crawler.run();
    // After an abort Crawlee resolves at once and leaves running handlers alone: let them see the
    // abort (fetches and pauses end at once) before the sinks and the journal close.
    const until = Date.now() + DEFAULTS.stopGraceMs;
    while (activeHandlers > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  } finally {
    if (graceTimer) clearTimeout(graceTimer);
    clearInterval(progressTimer);
    clearInterval(checkpointTimer);
    if (opts.handleSignals) {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    }
    if (inline) await inline.close();
    await Promise.all([pool?.close(!interrupted), sidePool?.then((p) => p.close(!interrupted)).catch(() => {})]);
    await pipeline.close();
    await store.flush();
    pageMemory.flush();
    await frontier.close(isFinished());
    await crawler.teardown?.().catch(() => {});
    await sessionPool?.teardown({ persistState: false }).catch(() => {});
    crawleeLog.setLevel(crawleeLevel);
  }

  const p = progress();
  const finishedAt = new Date();
  const byBudget = !interrupted && stoppedBy?.startsWith('maxPages');
  const summary: CrawlSummary = {
    ...p,
    itemsByKind: { ...pipeline.stored },
    failuresByMiddleware,
    failuresByReason: { ...failureLog.byReason },
    failureExamples: { ...failureLog.examples },
    retries,
    unvisitedByBudget: byBudget ? frontier.stats().pending : 0,
    stoppedBy,
    startUrls: new Set(seeds.map((r) => r.url)).size,
    startUrlsFailed,
    directoryTwins: directoryTwins.size,
    dropped,
    timeouts,
    invalidItems: { ...pipeline.invalid },
    droppedByPipeline: { ...pipeline.dropped },
    pipelineErrors: { ...pipeline.errors },
    feeds: feeds.map((f) => f.path),
    duplicates: pipeline.duplicates,
    recrawl: recrawling ? { pass: pageMemory.pass, ...recrawlCounts } : undefined,
    sitemapUrls,
    sessions: sessionPool ? { ...sessionStats } : undefined,
    robotsUnavailable: robotsUnavailable.size,
    skippedByRobots,
    resumed,
    finished: isFinished(),
    datasetDir,
  };
  writeStats(path.join(stateDir, `${spider.name}.stats.json`), summary, { startedAt: new Date(started), finishedAt, bytes: bytesDownloaded, logCounts }, log);
  return summary;
}

/** The logger, counting the lines of each level. */
function countLines(log: Logger, counts: Record<string, number>): Logger {
  const wrap = (level: 'debug' | 'info' | 'warning' | 'error') => (msg: string, data?: Record<string, unknown>) => {
    counts[level] = (counts[level] ?? 0) + 1;
    log[level](msg, data);
  };
  return { debug: wrap('debug'), info: wrap('info'), warning: wrap('warning'), error: wrap('error'), debugEnabled: log.debugEnabled };
}

/**
 * `storage/gleaner/<spider>.stats.json` at the end of every run (Scrapy's stats collector): when,
 * why it stopped, and every counter of the summary, under Scrapy-like names.
 */
function writeStats(file: string, s: CrawlSummary, extra: { startedAt: Date; finishedAt: Date; bytes: number; logCounts: Record<string, number> }, log: Logger): void {
  const stats = {
    spider: s.spider,
    start_time: extra.startedAt.toISOString(),
    finish_time: extra.finishedAt.toISOString(),
    elapsed_time_seconds: Number(s.elapsedSecs.toFixed(3)),
    finish_reason: s.finished ? (s.stoppedBy ?? 'finished') : (s.stoppedBy ?? 'stopped'),
    resumed: s.resumed,
    pages: s.pages,
    pages_per_second: Number(s.pagesPerSec.toFixed(2)),
    queued: s.queued,
    'downloader/response_bytes': extra.bytes,
    'downloader/retries': s.retries,
    item_scraped_count: s.items,
    items_by_kind: s.itemsByKind,
    item_dropped_count: Object.values(s.droppedByPipeline).reduce((a, b) => a + b, 0),
    item_dropped_reasons: s.droppedByPipeline,
    item_invalid: s.invalidItems,
    item_duplicates: s.duplicates,
    pipeline_errors: s.pipelineErrors,
    pages_dropped_by_middleware: s.dropped,
    failures: s.failed,
    failures_by_middleware: s.failuresByMiddleware,
    failures_by_reason: s.failuresByReason,
    failure_examples: s.failureExamples,
    robots_skipped: s.skippedByRobots,
    robots_unavailable_hosts: s.robotsUnavailable,
    sitemap_urls: s.sitemapUrls,
    sessions: s.sessions,
    unvisited_by_budget: s.unvisitedByBudget,
    recrawl: s.recrawl,
    log_count: extra.logCounts,
    feeds: s.feeds,
    dataset: s.datasetDir,
  };
  try {
    const tmp = file + '.tmp';
    writeFileSync(tmp, JSON.stringify(stats, null, 2) + '\n');
    renameSync(tmp, file);
  } catch (e) {
    log.warning(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/** Alias: `crawl(spider, options)`. */
export const crawl = runSpider;
