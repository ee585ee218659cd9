/**
 * Run a spider: the composition of the crawl's parts (`src/crawler/run/`), after Scrapy's engine /
 * scheduler / downloader / scraper / stats collector and Crawlee's `BasicCrawler` hooks:
 *
 * - `state.ts`: what this run is (fresh, resumed, recrawl pass, restart, shared) — frontier, page
 *   memory, dataset repair;
 * - `outputs.ts`: the item pipeline in front of the dataset, feeds and `onItem`; the site store;
 * - `chain-runner.ts`: the middleware chain in worker threads (default) or on this thread;
 * - `fetchers.ts`: the page downloader and its steps, robots.txt, sitemaps;
 * - `page-handler.ts`: one response → chain → item and follow-ups; `failure-handler.ts`: typed
 *   errors → counts, skip or give up;
 * - `budget.ts`, `stop.ts`, `stats.ts`: the page budget, how the crawl stops (signals included),
 *   every counter, the summary and the stats file;
 * - `crawlee-crawler.ts`: Crawlee's BasicCrawler (HTTP) or PlaywrightCrawler (render) over them.
 *
 * Why not CheerioCrawler: it parses every body (twice, with parse5); we parse once with
 * htmlparser2 and hand the same tree to every middleware.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
// The crawler's parts of Crawlee, not the `crawlee` package: that one loads every crawler
// (jsdom, cheerio, Playwright …) at start-up, ~2.5 s here; Playwright loads when a spider renders.
import { Configuration, log as crawleeLog } from '@crawlee/basic';
import { MemoryStorage } from '@crawlee/memory-storage';
import type { Logger, SiteStore } from '../core/middleware.js';
import type { Item } from '../core/item.js';
import { siteKeyOf } from '../chain/process.js';
import { SpiderConfigError, validateSpider, type SpiderConfig } from '../spider/config.js';
import { compileSiteKeys, decideFollow } from '../spider/follow-rules.js';
import { AddressGuard } from './net-guard.js';
import { Credentials } from './credentials.js';
import { linkPolicyOf, MAX_ANCHOR_CHARS, type LinkPolicy } from './links.js';
import { FrontierRequestManager, withProcessMemoryInfo } from './crawlee-glue.js';
import { DEFAULT_PAGE_BUDGET_SECS, type ChainPool } from './pool/index.js';
import { JournalFrontier, type Frontier, type FrontierRequest } from './frontier.js';
import { HostRateLimiter, type RobotsFetcher } from './politeness.js';
import type { ItemSink } from '../storage/item-sink.js';
import { checkFeed, FeedError, parseOutArg, type FeedSpec } from '../storage/feed-sink.js';
import { normaliseUrl } from './normalise-url.js';
import { consoleLogger, type LogLevelName } from './log.js';
import type { RecrawlOptions } from './recrawl.js';
import { CrawlStats, type CrawlProgress, type CrawlSummary } from './run/stats.js';
import { crawlPaths, openCrawlState } from './run/state.js';
import { finishThreads, openOutputs, type CrawlOutputs } from './run/outputs.js';
import { ChainRunner } from './run/chain-runner.js';
import { PageBudget } from './run/budget.js';
import { StopControl } from './run/stop.js';
import { pageFetcher, robotsCache, sitemapCandidates, type FetchContext, type FetchSettings } from './run/fetchers.js';
import { LinkAdmission, PageHandler, type FetchedPage, type HeldRequest } from './run/page-handler.js';
import { RevisionHold } from './run/revisions.js';
import { RequestSequence } from './run/sequence.js';
import { FailureHandler } from './run/failure-handler.js';
import { buildCrawler, chromiumPath } from './run/crawlee-crawler.js';
import { lockCrawl } from './run/lock.js';

export type { CrawlProgress, CrawlSummary } from './run/stats.js';
export { CHROMIUM_ARGS, chromiumPath } from './run/crawlee-crawler.js';
export { CrawlLockedError } from './run/lock.js';

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

/** Whether the optional peer `playwright` (render mode only) can be loaded from here. */
export function playwrightInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('playwright');
    return true;
  } catch {
    return false;
  }
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
  /** Called for every response before the chain reads it (the body is the chain's after the call: copy what you keep). */
  onResponse?: (res: FetchedPage) => void;
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
  // Worker pools started for the crawl (or for it, by the caller) are closed whatever happens
  // (closing twice is a no-op); the storage lock is released last.
  const pools: Array<Promise<ChainPool>> = opts.chainPool ? [opts.chainPool] : [];
  const locks: Array<() => Promise<void>> = [];
  try {
    return await crawlSpider(input, opts, pools, locks);
  } finally {
    for (const p of pools) await p.then((pool) => pool.close(false), () => {});
    for (const release of locks) await release();
  }
}

function siteKeyFunction(spider: SpiderConfig): (url: string) => string {
  const sk = spider.siteKey;
  if (typeof sk === 'function') return sk;
  if (Array.isArray(sk)) return compileSiteKeys(sk, siteKeyOf);
  return siteKeyOf;
}

/** Render mode needs the optional peer playwright and a chromium binary: said before any request. */
function checkRender(spider: SpiderConfig): void {
  if (!spider.crawler?.render) return;
  if (!playwrightInstalled()) {
    throw new SpiderConfigError(`spider ${spider.name}: crawler.render needs playwright, an optional peer dependency of gleaner: npm install playwright (the browser is Debian's chromium: apt-get install -y chromium)`);
  }
  if (!existsSync(chromiumPath())) {
    throw new SpiderConfigError(`spider ${spider.name}: crawler.render: chromium not found at ${chromiumPath()} (install Debian's chromium: apt-get install -y chromium, or set GLEANER_CHROMIUM)`);
  }
}

function fetchSettings(spider: SpiderConfig): FetchSettings {
  const c = spider.crawler ?? {};
  return {
    timeoutSecs: c.timeoutSecs ?? DEFAULTS.timeoutSecs,
    maxBytes: c.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    maxRetries: c.maxRetries ?? DEFAULTS.maxRetries,
    retryBackoffSecs: c.retryBackoffSecs ?? DEFAULTS.retryBackoffSecs,
    maxRetryDelaySecs: c.maxRetryDelaySecs ?? DEFAULTS.maxRetryDelaySecs,
  };
}

/** The start URLs as frontier requests (normalised, labelled by the follow rules). */
function seedRequests(spider: SpiderConfig, links: LinkPolicy): FrontierRequest[] {
  return spider.startUrls.map((url) => {
    const href = normaliseUrl(new URL(url), links.urlNorm);
    const rule = decideFollow(href, links.rules);
    return { url: href, depth: 0, label: rule.follow ? rule.label : undefined };
  });
}

/** A shared frontier: other workers may still add pages while this one's queue is empty, so the crawl
 * ends when the frontier says so for all of them (Crawlee's isFinishedFunction). */
function sharedFinish(frontier: Frontier, requests: FrontierRequestManager, stop: StopControl): { fn?: () => Promise<boolean>; finished: boolean } {
  const shared: { fn?: () => Promise<boolean>; finished: boolean } = { finished: false };
  const isFinished = frontier.isFinished?.bind(frontier);
  if (isFinished) {
    shared.fn = async () => {
      // (the request manager takes from the frontier when its buffer is empty)
      if (!(await requests.isFinished())) return false;
      if (stop.interrupted || stop.stopping) return true;
      return (shared.finished = await isFinished());
    };
  }
  return shared;
}

/** The progress line's callback and the checkpoints (journal, site state, dataset, page memory). */
function startTimers(opts: RunOptions, progress: () => CrawlProgress, frontier: Frontier, out: CrawlOutputs, flushMemory: () => void, log: Logger): () => void {
  const progressTimer = setInterval(() => opts.onProgress?.(progress()), opts.progressIntervalMs ?? DEFAULTS.progressIntervalMs);
  const checkpointTimer = setInterval(() => {
    void Promise.resolve(frontier.checkpoint()).catch((e) => log.error(`checkpoint failed: ${(e as Error).message}`));
    void out.store.flush().catch((e) => log.error(`site state flush failed: ${(e as Error).message}`));
    out.dataset?.flush();
    flushMemory();
  }, opts.checkpointIntervalMs ?? DEFAULTS.checkpointIntervalMs);
  progressTimer.unref();
  checkpointTimer.unref();
  return () => {
    clearInterval(progressTimer);
    clearInterval(checkpointTimer);
  };
}

async function crawlSpider(input: SpiderConfig | unknown, opts: RunOptions, pools: Array<Promise<ChainPool>>, locks: Array<() => Promise<void>>): Promise<CrawlSummary> {
  const checked = validateSpider(input, (input as SpiderConfig)?.name ? `spider ${(input as SpiderConfig).name}` : 'spider');
  // Userinfo of the start URLs goes to the requests of their origins, never into what is written.
  const credentials = new Credentials();
  const spider: SpiderConfig = { ...checked, startUrls: checked.startUrls.map((u) => credentials.take(u)) };
  const stats = new CrawlStats(opts.log ?? consoleLogger(spider.name, opts.logLevel ?? spider.logLevel), spider.name);
  const log = stats.log;
  const feeds = feedSpecs(spider, opts);
  const c = spider.crawler ?? {};
  checkRender(spider);
  const paths = crawlPaths(spider.name, opts.storageDir);
  const settings = fetchSettings(spider);
  const links = linkPolicyOf(spider);
  // Our own log reports failures (with reasons); Crawlee's would repeat each one with a stack.
  const crawleeLevel = crawleeLog.getLevel();
  crawleeLog.setLevel(crawleeLog.LEVELS.OFF);

  // One crawl per spider and storage (a shared frontier coordinates its own workers).
  if (!opts.frontier) locks.push(await lockCrawl(paths.stateDir, spider.name, log));
  const state = openCrawlState(spider, { fresh: opts.fresh, recrawl: opts.recrawl, frontier: opts.frontier, sharedItems: !!opts.itemSink }, paths, log);
  const { frontier, pageMemory } = state;
  const out = await openOutputs(spider, opts, feeds, state, paths, log);
  const chain = await ChainRunner.start(spider, { threads: opts.threads, chainPool: opts.chainPool, spiderModule: opts.spiderModule, stateDir: paths.stateDir, links, store: out.store, log, inlineMaxBytes: DEFAULTS.inlineMaxBytes }, pools);

  stats.start();
  const stop = new StopControl(log, spider.name, { graceMs: DEFAULTS.stopGraceMs });
  const budget = new PageBudget(opts.maxPages ?? spider.maxPages, state.previousPages, () => stats.pages);
  if (budget.reached()) {
    // Resumed with the budget already spent: nothing to fetch, and that is a finished crawl.
    stop.note(`maxPages (${budget.maxPages}) reached`);
    log.info(`the page budget is already spent (${state.previousPages} of ${budget.maxPages} pages stored by the earlier runs): nothing to fetch (--max-pages N to raise it, --fresh to start over)`);
  }
  const settle = () => {
    budget.release();
    if (budget.reached()) stop.note(`maxPages (${budget.maxPages}) reached`);
  };
  const memory = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const config = withProcessMemoryInfo(new Configuration({ storageClient: memory, persistStorage: false, purgeOnStart: false, availableMemoryRatio: 0.5 }));
  // Crawlee takes requests as it has room for them, within the page budget; none once stopping.
  const requestManager = new FrontierRequestManager(frontier, { limit: () => (stop.stopping ? 0 : budget.left()), onTake: (n) => budget.take(n) });
  const seeds = seedRequests(spider, links);
  await frontier.add(seeds);

  const guard = new AddressGuard(!!spider.allowPrivateAddresses);
  const fx: FetchContext = { spider, settings, guard, limiter: opts.limiter ?? new HostRateLimiter(c.maxRequestsPerMinute), signal: stop.signal, log, stats, links, credentials };
  const robots = robotsCache(fx, opts.robotsFetcher);
  const fetcher = await pageFetcher(fx, robots, { memory: pageMemory, active: () => state.recrawling }, !!c.render);
  const admission = new LinkAdmission(frontier, links.rules.length > 0, stats);
  // Items held for their page type (revisions.ts) in local crawls: a shared crawl ends when every
  // worker's pages are done, so a held page would keep it from ending (its pages are stored as typed)
  const revisions = opts.itemSink ? undefined : new RevisionHold<HeldRequest>({ store: out.store, log, chain, finish: (p) => pages.finishHeld(p) });
  const pages = new PageHandler({ chain, frontier, pipeline: out.pipeline, threads: out.threads, state, stats, stop, links: admission, siteKey: siteKeyFunction(spider), log, pageBudgetSecs: c.pageBudgetSecs ?? DEFAULT_PAGE_BUDGET_SECS, settle, revisions, onResponse: opts.onResponse, sequence: new RequestSequence() });
  const failures = new FailureHandler({ frontier, stats, stop, log, maxFailedPages: c.maxFailedPages, settle, release: () => budget.release() });
  const shared = sharedFinish(frontier, requestManager, stop);
  const maxConcurrency = c.maxConcurrency ?? (c.render ? DEFAULTS.renderConcurrency : DEFAULTS.maxConcurrency);
  const scaling = { maxConcurrency, minConcurrency: Math.min(c.minConcurrency ?? DEFAULTS.minConcurrency, maxConcurrency), autoscaleIntervalSecs: DEFAULTS.autoscaleIntervalSecs, scaleUpStepRatio: DEFAULTS.scaleUpStepRatio, maxEventLoopOverloadedRatio: DEFAULTS.maxEventLoopOverloadedRatio };
  const crawler = await buildCrawler({ spider, config, requestManager, scaling, ...settings, guard, credentials, downloader: fetcher.downloader, pages, onFailed: (r, e) => failures.handle(r, e), isFinished: shared.fn, settle });
  stop.onStop(() => void crawler.autoscaledPool?.abort());

  /** Ran to its end: nothing pending, or the page budget spent (the rest is reported unvisited). */
  const isFinished = () => !stop.interrupted && (shared.finished || frontier.stats().pending === 0 || !!stop.stoppedBy?.startsWith('maxPages'));
  const progress = () => stats.progress(frontier.stats().pending, out.pipeline.storedCount, budget);
  const stopTimers = startTimers(opts, progress, frontier, out, () => pageMemory.flush(), log);
  if (opts.handleSignals) stop.listen();
  try {
    // The chain's workers are up (or the crawl fails here, before any request).
    await chain.ready(log, out.store);
    if (spider.sitemaps) {
      // Their URLs join the start URLs (through the follow filter).
      const found = await sitemapCandidates(fx, robots, spider.sitemaps);
      stats.sitemapUrls = (await frontier.add(admission.admit(found.candidates))).length;
      log.info(`sitemaps: ${found.sitemaps} read, ${found.listed} URLs listed, ${stats.sitemapUrls} new queued`);
    }
    await crawler.run();
    // After an abort Crawlee resolves at once and leaves running handlers alone: let them see the
    // abort (fetches and pauses end at once) before the sinks and the journal close.
    const until = Date.now() + DEFAULTS.stopGraceMs;
    while (pages.active > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    // Items held for their page type (revisions.ts) are final now; interrupted, their pages stay pending.
    if (!stop.interrupted) await revisions?.releaseAll();
  } finally {
    stop.close();
    stopTimers();
    await chain.close(!stop.interrupted);
    await finishThreads(out, isFinished());
    await out.pipeline.close();
    await out.store.flush();
    pageMemory.flush();
    await frontier.close(isFinished());
    await crawler.teardown?.().catch(() => {});
    await fetcher.sessions?.pool.teardown({ persistState: false }).catch(() => {});
    crawleeLog.setLevel(crawleeLevel);
  }
  const queued = frontier.stats().pending;
  const byBudget = !stop.interrupted && !!stop.stoppedBy?.startsWith('maxPages');
  const summary = stats.summary(
    {
      queued,
      pipeline: out.pipeline,
      stoppedBy: stop.stoppedBy,
      byBudget,
      startUrls: new Set(seeds.map((r) => r.url)).size,
      feeds: feeds.map((f) => f.path),
      recrawlPass: state.recrawling ? pageMemory.pass : undefined,
      sessions: fetcher.sessions?.stats,
      linksDroppedByQueueLimit: frontier instanceof JournalFrontier ? frontier.droppedByQueueLimit : 0,
      resumed: state.resumed,
      finished: isFinished(),
      datasetDir: paths.datasetDir,
    },
    budget,
  );
  stats.writeFile(path.join(paths.stateDir, `${spider.name}.stats.json`), summary);
  return summary;
}

/** Alias: `crawl(spider, options)`. */
export const crawl = runSpider;
