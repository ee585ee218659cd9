/**
 * `gleaner crawl [spider] [--max-pages N] [--out FILE.jsonl|FILE.csv] [--fresh]` (ARCHITECTURE §5).
 * Without a spider it serves the bundled demo site on 127.0.0.1 and runs the demo spider on it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBundledSpider, loadSpider, resolveSpiderFile } from '../spider/load.js';
import type { CrawlProgress, CrawlSummary } from '../crawler/crawl.js';
import { feedsFromCli } from '../storage/feed-sink.js';
import { UsageError } from './errors.js';
import { consoleLogger, type LogLevelName } from '../crawler/log.js';
import { LOG_LEVELS, isLogLevel } from '../crawler/log-levels.js';
import { startChainPool } from '../crawler/pool/start.js';
import { applyHeapPolicy } from '../crawler/memory.js';

export interface CrawlCliOptions {
  maxPages?: number;
  out?: string | string[];
  bom?: boolean;
  csvRows?: string;
  fresh?: boolean;
  recrawl?: boolean;
  logLevel?: LogLevelName;
  storageDir?: string;
  threads?: number;
  /** One worker of a crawl shared through Redis (overrides the spider's `redis`). */
  redis?: string;
  /** Local worker processes (with --redis). */
  workers?: number;
  workerId?: string;
  leaseSecs?: number;
}

/** `h:mm:ss` or `m:ss`. */
export function clock(secs: number): string {
  const t = Math.max(0, Math.round(secs));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The progress line: elapsed time, pages (of the budget) and rate, queue, items, errors, ETA. */
export function progressLine(p: CrawlProgress): string {
  const of = p.maxPages !== undefined ? `/${p.maxPages}` : '';
  const eta = p.etaSecs !== undefined ? ` · ETA ${clock(p.etaSecs)}` : '';
  return `${clock(p.elapsedSecs)} elapsed · ${p.pages}${of} pages (${p.pagesPerSec.toFixed(1)}/s) · ${p.queued} queued · ${p.items} items · ${p.failed} errors${eta}`;
}

const fmt = (o: Record<string, number>) =>
  Object.entries(o)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** Fetch failures with a few example URLs each: `http 404 261 (e.g. /a, /b, /c)`. */
const fmtFailures = (s: CrawlSummary) =>
  Object.entries(s.failuresByReason)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}${s.failureExamples[k]?.length ? ` (e.g. ${s.failureExamples[k]!.join(', ')})` : ''}`)
    .join('; ') || 'none';

export function summaryText(s: CrawlSummary): string {
  const state = s.finished ? (s.unvisitedByBudget ? `finished (${s.stoppedBy})` : 'finished') : `stopped${s.stoppedBy ? ` (${s.stoppedBy})` : ''} (run again to resume)`;
  const queued = s.unvisitedByBudget ? `${s.unvisitedByBudget} URLs left unvisited by the page budget` : `${s.queued} still queued`;
  const lines = [
    `${s.spider}: ${state} in ${s.elapsedSecs.toFixed(1)} s${s.resumed ? ' (resumed)' : ''}`,
    `  pages:    ${s.pages} (${s.pagesPerSec.toFixed(1)} pages/s), ${queued}`,
    `  items:    ${s.items} stored (${fmt(s.itemsByKind)})${s.duplicates ? `, ${s.duplicates} duplicates skipped` : ''}`,
    `  failures: ${s.failed} — by middleware: ${fmt(s.failuresByMiddleware)}; fetch: ${fmtFailures(s)}${s.retries ? ` (${s.retries} retries)` : ''}`,
  ];
  if (s.directoryTwins) lines.push(`  one URL per page: ${s.directoryTwins} links to a directory-index twin (…/ and …/index.html) not queued`);
  if (Object.keys(s.dropped).length) lines.push(`  dropped by middleware: ${fmt(s.dropped)}`);
  if (Object.keys(s.timeouts ?? {}).length) lines.push(`  over the page budget (stored as "other" items): ${fmt(s.timeouts)}`);
  if (Object.keys(s.invalidItems).length) lines.push(`  invalid items: ${fmt(s.invalidItems)}`);
  if (Object.keys(s.droppedByPipeline).length) lines.push(`  dropped by pipelines: ${fmt(s.droppedByPipeline)}`);
  if (Object.keys(s.pipelineErrors).length) lines.push(`  pipeline errors: ${fmt(s.pipelineErrors)}`);
  if (s.recrawl) lines.push(`  recrawl:  pass ${s.recrawl.pass}: ${s.recrawl.revisited} pages re-visited, ${s.recrawl.notModified} not modified (304), ${s.recrawl.unchanged} unchanged, ${s.recrawl.changed} changed`);
  if (s.sitemapUrls) lines.push(`  sitemaps: ${s.sitemapUrls} URLs queued`);
  if (s.robotsUnavailable) lines.push(`  robots.txt unavailable (5xx or unreachable): ${s.robotsUnavailable} hosts, every URL of theirs refused (RFC 9309)`);
  if (s.skippedByRobots) lines.push(`  skipped by robots.txt: ${s.skippedByRobots}`);
  lines.push(`  dataset:  ${path.relative(process.cwd(), s.datasetDir) || s.datasetDir}`);
  if (s.feeds.length) lines.push(`  feeds:    ${s.feeds.join(', ')}`);
  return lines.join('\n');
}

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
    const { spider, file: spiderModule } = await loadSpider(spiderArg);
    const redis = opts.redis ?? spider.redis;
    if (opts.workers && opts.workers > 1 && !redis) throw new UsageError('--workers needs --redis URL (the workers share one crawl through Redis)');
    if (!redis && (opts.workerId || opts.leaseSecs)) throw new UsageError('--worker-id and --lease-secs need --redis URL');
    // A recrawl pass starts from this machine's journal of the finished crawl; a shared crawl has none.
    if (redis && (opts.recrawl || spider.recrawl)) throw new UsageError('--recrawl (or a spider\'s recrawl) does not work with --redis: run the incremental pass without --redis');
    if (redis) {
      const { runRedisCrawlCli } = await import('./redis-crawl.js');
      return await runRedisCrawlCli(spiderArg, spider, redis, { ...opts, redis, out: undefined, feeds });
    }
    // The chain's workers load while this thread loads the crawler.
    const log = consoleLogger(spider.name, opts.logLevel ?? spider.logLevel);
    const chainPool = startChainPool(spider, { threads: opts.threads, spiderModule, storageDir: opts.storageDir, log });
    chainPool?.catch(() => {}); // reported by the crawl, which awaits it
    const { runSpider } = await import('../crawler/crawl.js');
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
      onProgress: (p) => log.info(progressLine(p)),
    });
    process.stdout.write(summaryText(summary) + '\n');
    if (summary.startUrlsFailed === summary.startUrls && summary.pages === 0) {
      // Nothing could be crawled at all: a script or CI job must see it.
      process.stderr.write(`gleaner: every start URL of "${summary.spider}" was refused or failed (${[...Object.keys(summary.failuresByReason), ...(summary.skippedByRobots ? ['robots.txt'] : [])].join(', ') || 'see above'})\n`);
      process.exitCode = 1;
    } else if (!summary.finished && summary.queued > 0) process.exitCode = 130;
    // Stopped by a signal: exit now rather than when Crawlee's last 1 s system-info timer fires
    // (the journal and the dataset are already closed; stdout is synchronous on Linux).
    if (summary.stoppedBy === 'SIGINT' || summary.stoppedBy === 'SIGTERM') {
      await demo?.close();
      process.exit(process.exitCode ?? 130);
    }
  } finally {
    await demo?.close();
  }
}
