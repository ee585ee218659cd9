/**
 * `gleaner crawl [spider] [--max-pages N] [--out FILE.jsonl|FILE.csv] [--fresh]` (ARCHITECTURE §5).
 * Without a spider it serves the bundled demo site on 127.0.0.1 and runs the demo spider on it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBundledSpider, loadSpider, resolveSpiderFile } from '../spider/load.js';
import { progressLine, summaryText, type CrawlCliOptions } from './crawl-report.js';
import { feedsFromCli } from '../storage/feed-sink.js';
import { UsageError } from './errors.js';
import { consoleLogger } from '../crawler/log.js';
import { LOG_LEVELS, isLogLevel } from '../crawler/log-levels.js';
import { startChainPool } from '../crawler/pool/start.js';
import { applyHeapPolicy } from '../crawler/memory.js';
import { CrawlMonitor } from '../monitor/monitor.js';

// for `gleaner status --ui` (src/cli/status.ts), which loads the monitor from this module
export { CrawlMonitor, LATEST_ITEMS } from '../monitor/monitor.js';

/**
 * A spider module can throw later, from a timer or a promise it started (a middleware's async
 * work, a config fetched at import …). Such an error names the spider file and exits 2, like a bad
 * config; any other uncaught error is ours and exits 1 with its stack. Either way the process
 * exits at once: the frontier journal is durable at every step, the next run resumes.
 */
function guardSpiderErrors(spiderFile: string): void {
  const shown = path.relative(process.cwd(), spiderFile) || spiderFile;
  const onError = (e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    if ((err.stack ?? '').includes(spiderFile) || (err.stack ?? '').includes(pathToFileURL(spiderFile).href)) {
      process.stderr.write(`gleaner: ${shown}: the spider threw: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`gleaner: internal error: ${err.stack ?? err.message}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}

/** The monitor's sample interval, and the progress line's (the crawl's default). */
const UI_SAMPLE_MS = 1_000;
const PROGRESS_LINE_MS = 3_000;
/** How long the monitor page stays served after the crawl ends (it shows the end, then stops). */
const UI_LINGER_MS = 2_500;

/** `--ui [PORT]`: the live monitor on 127.0.0.1 (src/monitor). */
async function startUi(spider: string, port: true | string) {
  const p = port === true ? 0 : Number(port);
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw new UsageError(`--ui: a port number (got "${port}")`);
  // the inspector view of a latest item: `gleaner inspect`'s report, loaded on the first click
  const monitor = new CrawlMonitor(spider, { inspect: async (url, body) => (await import('./extract.js')).inspectReport(url, body) });
  const url = await monitor.listen(p);
  process.stderr.write(`monitor at ${url}\n`);
  return {
    monitor,
    async end(summary: Parameters<InstanceType<typeof CrawlMonitor>['finish']>[0]) {
      monitor.finish(summary);
      await new Promise((r) => setTimeout(r, UI_LINGER_MS));
      await monitor.close();
    },
  };
}

export async function runCrawlCli(spiderArg: string, opts: CrawlCliOptions): Promise<void> {
  if (opts.logLevel !== undefined && !isLogLevel(opts.logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')} (got "${opts.logLevel}")`);
  const feeds = feedsFromCli(opts.out === undefined ? [] : Array.isArray(opts.out) ? opts.out : [opts.out], opts);
  applyHeapPolicy();
  let demo: { url: string; close(): Promise<void> } | undefined;
  // The demo spider crawls the bundled demo site: serve it first, on a free loopback port.
  const file = resolveSpiderFile(spiderArg);
  if (file && isBundledSpider(file, 'demo') && !process.env.GLEANER_DEMO_URL) {
    const { startDemoServer } = await import('../demo/server.js');
    demo = await startDemoServer();
    process.env.GLEANER_DEMO_URL = demo.url;
    process.stderr.write(`demo site at ${demo.url}/ (news in GBK, blog, forum)\n`);
  }
  try {
    // Validation happens here, before any request.
    if (file) guardSpiderErrors(file);
    // A TypeScript spider registers tsx's module hooks, after which every module this thread loads
    // is resolved and loaded through the hooks' own thread (the crawler's Crawlee and the rest: ~0.8 s
    // more CPU per crawl): what the crawl will load is loaded first.
    if (file && /\.m?ts$/.test(file)) await Promise.all([import('../crawler/crawl.js'), import('../crawler/run/lock.js'), import('../crawler/run/state.js'), import('piscina'), ...(opts.redis ? [import('./redis-crawl.js')] : [])]);
    const { spider, file: spiderModule } = await loadSpider(spiderArg);
    const redis = opts.redis ?? spider.redis;
    if (opts.workers && opts.workers > 1 && !redis) throw new UsageError('--workers needs --redis URL (the workers share one crawl through Redis)');
    if (!redis && (opts.workerId || opts.leaseSecs)) throw new UsageError('--worker-id and --lease-secs need --redis URL');
    // A recrawl pass starts from this machine's journal of the finished crawl; a shared crawl has none.
    if (redis && (opts.recrawl || spider.recrawl)) throw new UsageError('--recrawl (or a spider\'s recrawl) does not work with --redis: run the incremental pass without --redis');
    if (redis) {
      if (opts.ui !== undefined && opts.ui !== false) process.stderr.write(`gleaner: --ui is not served by a worker of a shared crawl: watch it with gleaner status ${spiderArg} --redis URL --ui\n`);
      const { runRedisCrawlCli } = await import('./redis-crawl.js');
      return await runRedisCrawlCli(spiderArg, spider, redis, { ...opts, redis, out: undefined, feeds });
    }
    // A second crawl of a running spider stops here, before any worker starts.
    const { assertNotLocked } = await import('../crawler/run/lock.js');
    const { crawlPaths } = await import('../crawler/run/state.js');
    assertNotLocked(crawlPaths(spider.name, opts.storageDir).stateDir, spider.name);
    // The chain's workers load while this thread loads the crawler.
    const log = consoleLogger(spider.name, opts.logLevel ?? spider.logLevel);
    const chainPool = startChainPool(spider, { threads: opts.threads, spiderModule, storageDir: opts.storageDir, log });
    chainPool?.catch(() => {}); // reported by the crawl, which awaits it
    const { runSpider } = await import('../crawler/crawl.js');
    const ui = opts.ui === undefined || opts.ui === false ? undefined : await startUi(spider.name, opts.ui);
    let lastLine = 0;
    const summary = await runSpider(spider, {
      spiderModule,
      chainPool,
      log,
      threads: opts.threads,
      maxPages: opts.maxPages,
      feeds,
      fresh: opts.fresh,
      recrawl: opts.recrawl,
      storageDir: opts.storageDir,
      handleSignals: true,
      // With --ui the monitor samples every second; the log line keeps its own pace.
      progressIntervalMs: ui ? UI_SAMPLE_MS : undefined,
      onProgress: (p) => {
        ui?.monitor.onProgress(p);
        if (!ui || Date.now() - lastLine >= PROGRESS_LINE_MS) {
          lastLine = Date.now();
          log.info(progressLine(p));
        }
      },
      onItem: ui ? (item) => ui.monitor.onItem(item) : undefined,
      onResponse: ui ? (res) => ui.monitor.onResponse(res) : undefined,
    });
    process.stdout.write(summaryText(summary) + '\n');
    if (ui) await ui.end(summary);
    if (summary.startUrlsFailed === summary.startUrls && summary.pages === 0) {
      // Nothing could be crawled at all: a script or CI job must see it.
      process.stderr.write(`gleaner: every start URL of "${summary.spider}" was refused or failed (${[...Object.keys(summary.failuresByReason), ...(summary.skippedByRobots ? ['robots.txt'] : [])].join(', ') || 'see above'})\n`);
      process.exitCode = 1;
    } else if (!summary.finished && summary.queued > 0) process.exitCode = 130;
    // Stopped by a signal: exit now rather than when Crawlee's last 1 s system-info timer fires
    // (the journal and the dataset are already closed; stdout is synchronous on Linux).
    if (summary.stoppedBy === 'SIGINT' || summary.stoppedBy === 'SIGTERM' || summary.stoppedBy === 'SIGHUP') {
      await demo?.close();
      process.exit(process.exitCode ?? 130);
    }
  } finally {
    await demo?.close();
  }
}
