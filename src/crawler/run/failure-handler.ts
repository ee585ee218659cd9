/**
 * A request that failed for good (Crawlee's `failedRequestHandler`): typed errors decide what it
 * counts as — left pending when the crawl is stopping, skipped when robots.txt refused it, else a
 * failure by reason (the first few logged, all counted) — and `crawler.maxFailedPages` stops the
 * crawl. Retries happen before this, in the downloader (HTTP) or in Crawlee (render mode).
 */
import { NonRetryableError, type Request as CrawleeRequest } from '@crawlee/basic';
import type { Logger } from '../../core/middleware.js';
import type { Frontier, FrontierRequest } from '../frontier.js';
import { AbortedError, BlockedError, FetchError } from '../errors.js';
import { toFetchError } from '../downloader/index.js';
import { displayUrl } from '../failure-log.js';
import type { CrawlStats } from './stats.js';
import type { StopControl } from './stop.js';

/** Robots.txt refusals logged one by one (the rest are counted in the summary). */
export const LOGGED_ROBOTS_SKIPS = 3;

/** A fetch error Crawlee must not retry (the browser path, where Crawlee retries). */
export class FinalFetchError extends NonRetryableError {
  constructor(readonly error: FetchError) {
    super(error.message);
    this.name = 'FinalFetchError';
  }
}

/** The summary key of any failure. */
export function reasonOf(e: unknown): string {
  return e instanceof FetchError ? e.reason : toFetchError(e, '', 0).reason;
}

export interface FailureHandlerDeps {
  frontier: Frontier;
  stats: CrawlStats;
  stop: StopControl;
  log: Logger;
  maxFailedPages: number | undefined;
  /** A taken request reached its end. */
  settle: () => void;
  /** A request left pending for the next run gives its budget place back. */
  release: () => void;
}

export class FailureHandler {
  constructor(private readonly d: FailureHandlerDeps) {}

  async handle(request: CrawleeRequest, thrown: Error): Promise<void> {
    const { frontier, stats, stop, log, maxFailedPages } = this.d;
    const error = thrown instanceof FinalFetchError ? thrown.error : thrown;
    // Stopping: the page is not at fault and stays pending for the next run.
    if (error instanceof AbortedError || stop.stopping) {
      this.d.release();
      return;
    }
    if ((request.userData as FrontierRequest).depth === 0) stats.startUrlsFailed++;
    if (error instanceof BlockedError && error.kind === 'robots') {
      stats.skippedByRobots++;
      if (stats.skippedByRobots <= LOGGED_ROBOTS_SKIPS) log.info(`skipped: ${displayUrl(error.message)}`);
      await frontier.done(request.url, 'skipped');
      this.d.settle();
      return;
    }
    stats.failed++;
    stats.failures.record(reasonOf(error), request.url, error.message);
    await frontier.done(request.url, 'failed');
    if (maxFailedPages !== undefined && stats.failures.total >= maxFailedPages && !stop.stoppedBy) {
      stop.stoppedBy = `maxFailedPages (${maxFailedPages}) reached`;
      log.warning(`${stats.failures.total} failed requests: stopping (crawler.maxFailedPages ${maxFailedPages})`);
      stop.stopNow();
      return;
    }
    this.d.settle();
  }
}
