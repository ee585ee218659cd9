/**
 * The crawl's stats collector (Scrapy's `StatsCollector`, Crawlee's `Statistics`): every counter of a
 * run in one object, the progress line's figures, the summary `runSpider` returns, and
 * `storage/gleaner/<spider>.stats.json` under Scrapy's stat names. The other parts of the crawl
 * count here; nothing else keeps a counter.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { Logger } from '../../core/middleware.js';
import { FailureLog } from '../failure-log.js';
import type { SessionStats } from '../sessions.js';

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
  /** Resident memory of the crawl process (every thread), MB, now and at its peak so far. */
  rssMb?: number;
  peakRssMb?: number;
  /** Requests taken from the queue and not yet settled (fetching, waiting for their host, in the chain). */
  inFlight?: number;
  /** Fetch failures so far, by reason (the summary's, while the crawl runs). */
  failuresByReason?: Record<string, number>;
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
  /** Links not queued because the frontier held `crawler.maxQueued` requests. */
  linksDroppedByQueueLimit?: number;
  resumed: boolean;
  finished: boolean;
  datasetDir: string;
}

export type Counts = Record<string, number>;

/** `o[k] += 1`. */
export const bump = (o: Counts, k: string): number => (o[k] = (o[k] ?? 0) + 1);

/** The page budget as the progress line shows it (`PageBudget` has these fields). */
export interface BudgetView {
  maxPages: number | undefined;
  previousPages: number;
  inFlight?: number;
}

/** What the item pipeline counted (`ItemPipeline` has these fields). */
export interface PipelineCounts {
  storedCount: number;
  stored: Counts;
  invalid: Counts;
  dropped: Counts;
  errors: Counts;
  duplicates: number;
}

/** What the summary needs from the other parts, at the end of the run. */
export interface SummaryParts {
  queued: number;
  pipeline: PipelineCounts;
  stoppedBy: string | undefined;
  /** Stopped by the page budget (not by a signal): the queue left is "unvisited by budget". */
  byBudget: boolean;
  startUrls: number;
  feeds: string[];
  recrawlPass: number | undefined;
  sessions: SessionStats | undefined;
  /** Links the frontier did not queue for `maxQueued`. */
  linksDroppedByQueueLimit?: number;
  resumed: boolean;
  finished: boolean;
  datasetDir: string;
}

export class CrawlStats {
  /** When the run's clock started (`start()`: after state, outputs and the chain are open). */
  started = Date.now();
  /** Pages fetched and handled (stored, dropped or failed in a middleware) by this run. */
  pages = 0;
  failed = 0;
  skippedByRobots = 0;
  startUrlsFailed = 0;
  retries = 0;
  bytesDownloaded = 0;
  sitemapUrls = 0;
  /** URLs not queued because their directory-index twin was (url-aliases.ts). */
  readonly directoryTwins = new Set<string>();
  /** Origins whose robots.txt stayed unavailable (5xx / unreachable after retries): disallowed. */
  readonly robotsUnavailable = new Set<string>();
  readonly failuresByMiddleware: Counts = {};
  readonly dropped: Counts = {};
  readonly timeouts: Counts = {};
  readonly recrawl = { revisited: 0, notModified: 0, unchanged: 0, changed: 0 };
  /** Lines logged by level (Scrapy's log_count/…). */
  readonly logCounts: Counts = {};
  /** The crawl's logger: every line counted in `logCounts`. */
  readonly log: Logger;
  /** Fetch failures by reason, with examples (and the first few logged). */
  readonly failures: FailureLog;

  constructor(
    log: Logger,
    private readonly spider: string,
  ) {
    this.log = countLines(log, this.logCounts);
    this.failures = new FailureLog(this.log);
  }

  /** Start the run's clock: elapsed time and pages/s leave out opening the crawl. */
  start(now = Date.now()): void {
    this.started = now;
  }

  elapsedSecs(now = Date.now()): number {
    return (now - this.started) / 1000;
  }

  /** The progress line's figures; `budget`: the page budget and the pages earlier runs fetched. */
  progress(queued: number, items: number, budget: BudgetView, now = Date.now()): CrawlProgress {
    const elapsedSecs = this.elapsedSecs(now);
    const pagesPerSec = elapsedSecs > 0 ? this.pages / elapsedSecs : 0;
    const left = budget.maxPages === undefined ? undefined : Math.max(0, budget.maxPages - budget.previousPages - this.pages);
    return {
      spider: this.spider,
      pages: this.pages,
      queued,
      failed: this.failed,
      items,
      pagesPerSec,
      elapsedSecs,
      maxPages: budget.maxPages,
      etaSecs: left === undefined || pagesPerSec <= 0 ? undefined : left / pagesPerSec,
      rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      inFlight: budget.inFlight,
      failuresByReason: { ...this.failures.byReason },
    };
  }

  summary(p: SummaryParts, budget: BudgetView, now = Date.now()): CrawlSummary {
    return {
      ...this.progress(p.queued, p.pipeline.storedCount, budget, now),
      itemsByKind: { ...p.pipeline.stored },
      failuresByMiddleware: { ...this.failuresByMiddleware },
      failuresByReason: { ...this.failures.byReason },
      failureExamples: { ...this.failures.examples },
      retries: this.retries,
      unvisitedByBudget: p.byBudget ? p.queued : 0,
      stoppedBy: p.stoppedBy,
      startUrls: p.startUrls,
      startUrlsFailed: this.startUrlsFailed,
      directoryTwins: this.directoryTwins.size,
      dropped: { ...this.dropped },
      timeouts: { ...this.timeouts },
      invalidItems: { ...p.pipeline.invalid },
      droppedByPipeline: { ...p.pipeline.dropped },
      pipelineErrors: { ...p.pipeline.errors },
      feeds: p.feeds,
      duplicates: p.pipeline.duplicates,
      recrawl: p.recrawlPass !== undefined ? { pass: p.recrawlPass, ...this.recrawl } : undefined,
      sitemapUrls: this.sitemapUrls,
      sessions: p.sessions ? { ...p.sessions } : undefined,
      robotsUnavailable: this.robotsUnavailable.size,
      skippedByRobots: this.skippedByRobots,
      ...(p.linksDroppedByQueueLimit ? { linksDroppedByQueueLimit: p.linksDroppedByQueueLimit } : {}),
      resumed: p.resumed,
      finished: p.finished,
      datasetDir: p.datasetDir,
    };
  }

  /** The stats file of this run (see `statsRecord`); a failure to write it is logged, not thrown. */
  writeFile(file: string, s: CrawlSummary, finishedAt = new Date()): void {
    try {
      const tmp = file + '.tmp';
      writeFileSync(tmp, JSON.stringify(statsRecord(s, { startedAt: new Date(this.started), finishedAt, bytes: this.bytesDownloaded, logCounts: this.logCounts }), null, 2) + '\n');
      renameSync(tmp, file);
    } catch (e) {
      this.log.warning(`cannot write ${file}: ${(e as Error).message}`);
    }
  }
}

/** The logger, counting the lines of each level. */
export function countLines(log: Logger, counts: Counts): Logger {
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
export function statsRecord(s: CrawlSummary, extra: { startedAt: Date; finishedAt: Date; bytes: number; logCounts: Counts }): Record<string, unknown> {
  return {
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
}
