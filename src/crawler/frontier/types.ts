/**
 * The crawl frontier's interface (the seen-set and the pending requests), so a Redis-backed frontier
 * shared by several machines can replace the journal one.
 */

export interface FrontierRequest {
  url: string;
  /** Page label from a follow rule or an extractor (`detail`, `list`, `forum` …). */
  label?: string;
  /** Label an extractor suggested (see RequestInfo.labelHint). */
  labelHint?: string;
  anchorText?: string;
  /** Link depth from a start URL (0 for start URLs). */
  depth: number;
  referrer?: string;
  /** Unique key of this hand-out, when a URL may be handed out again (a shared frontier leases a
   * URL anew after a lease expired). Default: the URL. */
  key?: string;
  /** Queued again by a recrawl pass (the page was visited by an earlier pass). */
  revisit?: boolean;
}

export type DoneOutcome = 'ok' | 'failed' | 'skipped';

export interface FrontierStats {
  /** URLs ever accepted (done + pending). */
  seen: number;
  /** Accepted, not yet done (queued or in flight). */
  pending: number;
  done: number;
  failed: number;
  /** Done without being a page: refused by robots.txt, a redirect alias, a duplicate URL. */
  skipped?: number;
}

export interface Frontier {
  /** Accept the requests whose URL was never seen, within the page budget; returns those. */
  add(requests: FrontierRequest[]): FrontierRequest[] | Promise<FrontierRequest[]>;
  /** Hand out up to `max` accepted requests not handed out yet (oldest first). */
  take(max: number): FrontierRequest[] | Promise<FrontierRequest[]>;
  /** The request finished: `ok` (item stored or page dropped on purpose), `failed`, or `skipped`
   * (no page: robots.txt refused it, or it is an alias of another URL). Also accepts URLs never
   * added (a redirect target reached through another URL). The page budget counts `ok` only. */
  done(url: string, outcome: DoneOutcome): void | Promise<void>;
  /** Queue done pages again (incremental recrawl); optional. */
  revisit?(requests: FrontierRequest[]): FrontierRequest[] | Promise<FrontierRequest[]>;
  /** Whether a URL was already accepted. */
  has(url: string): boolean | Promise<boolean>;
  stats(): FrontierStats;
  /** Persist a compact snapshot. */
  checkpoint(): void | Promise<void>;
  /** Shared frontiers only: whether the crawl is finished for every worker (nothing pending and
   * nothing in flight anywhere). Without it the crawl ends when this process's queue is empty. */
  isFinished?(): Promise<boolean>;
  /** Persist and release; `finished` records that the crawl ran to completion. */
  close(finished: boolean): void | Promise<void>;
}
