/**
 * How a crawl stops: one AbortController that every fetch, retry pause and rate-limit wait listens
 * to, the reason it stopped (`maxPages (N) reached`, `maxFailedPages …`, a signal), and SIGINT /
 * SIGTERM handling for the CLI — the first signal stops cleanly, a second one (or a page stuck past
 * the grace period) exits at once. The journal is written before every step it records, so an exit
 * loses nothing: the next run resumes.
 */
import type { Logger } from '../../core/middleware.js';

/** How often a listening crawl checks that its parent process is still there. */
export const PARENT_CHECK_MS = 250;

export interface StopOptions {
  /** After a signal the crawl stops this fast or the process exits anyway. */
  graceMs: number;
  /** Aborts the crawler's own pool (Crawlee's autoscaled pool), besides the shared signal. */
  onStop?: () => void;
  /** What happens when the grace period runs out or a second signal comes (tests replace it). */
  exit?: (code: number) => void;
}

export class StopControl {
  private readonly controller = new AbortController();
  /** A signal came: the crawl is interrupted, not finished (it resumes on the next run). */
  interrupted = false;
  /** Why the crawl stopped early, if it did. */
  stoppedBy: string | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private parentTimer: NodeJS.Timeout | undefined;
  private listening = false;
  private readonly sigint = () => this.onSignal('SIGINT');
  private readonly sigterm = () => this.onSignal('SIGTERM');
  private readonly sighup = () => this.onSignal('SIGHUP');

  constructor(
    private readonly log: Logger,
    private readonly spider: string,
    private readonly o: StopOptions,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Set the crawler's abort hook once it exists. */
  onStop(fn: () => void): void {
    this.o.onStop = fn;
  }

  /** Record why the crawl is ending, unless a reason was given already. */
  note(reason: string): void {
    if (!this.stoppedBy) this.stoppedBy = reason;
  }

  /** Stop fetching: abort the pool, every fetch in flight and every pause. */
  stopNow(): void {
    this.controller.abort();
    this.o.onStop?.();
  }

  onSignal(sig: string, why?: string): void {
    const exit = this.o.exit ?? ((code: number) => process.exit(code));
    if (this.interrupted) {
      this.log.warning(`${sig} again: exiting now (the next run resumes from the journal)`);
      exit(130);
      return;
    }
    this.interrupted = true;
    this.stoppedBy = sig;
    this.log.warning(why ? `${why}: stopping; the next run of "${this.spider}" resumes here` : `${sig}: stopping; the next run of "${this.spider}" resumes here (${sig} again to exit at once)`);
    this.stopNow();
    // A page stuck in a middleware must not keep the process alive past the grace period.
    this.graceTimer = setTimeout(() => {
      this.log.warning(`still busy ${this.o.graceMs} ms after ${sig}: exiting (the next run resumes from the journal)`);
      exit(130);
    }, this.o.graceMs);
    this.graceTimer.unref();
  }

  /**
   * Stop cleanly on SIGINT/SIGTERM/SIGHUP (the CLI) — and when the parent process goes away: a
   * signal sent to a wrapper (`npm run crawl`, `npx gleaner crawl`: npm, then `sh -c`) may end the
   * wrapper and never reach this process, which is then re-parented. Checked every
   * `PARENT_CHECK_MS`, it stops as for a SIGTERM.
   */
  listen(): void {
    this.listening = true;
    process.on('SIGINT', this.sigint);
    process.on('SIGTERM', this.sigterm);
    process.on('SIGHUP', this.sighup);
    const parent = process.ppid;
    this.parentTimer = setInterval(() => {
      if (process.ppid !== parent && !this.interrupted) this.onSignal('SIGTERM', `its parent process (PID ${parent}) exited`);
    }, PARENT_CHECK_MS);
    this.parentTimer.unref();
  }

  /** The crawl has stopped: a program that called `runSpider` lives on after it. */
  close(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.parentTimer) clearInterval(this.parentTimer);
    if (this.listening) {
      process.off('SIGINT', this.sigint);
      process.off('SIGTERM', this.sigterm);
      process.off('SIGHUP', this.sighup);
      this.listening = false;
    }
  }
}
