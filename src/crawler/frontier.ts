/**
 * The crawl frontier (seen-set + pending requests) behind a small interface, so a Redis-backed
 * frontier shared by several machines can replace it. `JournalFrontier` keeps everything in memory
 * (Crawlee's on-disk request queue costs more than the crawl itself) and makes it durable with an
 * append-only journal written synchronously before each step it records, compacted into a
 * snapshot every few seconds. A crawl killed at any instant (Ctrl-C or `kill -9`) reopens with
 * every request it had accepted: done ones stay done, pending and in-flight ones are fetched again.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import path from 'node:path';

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

/** Journal size that triggers compaction: replaying 1 MB (~10,000 records) takes a few ms. */
export const COMPACT_BYTES = 1024 * 1024;

interface Snapshot {
  version: 1;
  finished: boolean;
  pending: FrontierRequest[];
  done: string[];
  failed: string[];
  skipped?: string[];
}

type JournalLine = { a: FrontierRequest[] } | { d: string } | { f: string } | { s: string } | { r: FrontierRequest[] };

/** In-memory frontier made durable by a journal + snapshot pair of files. */
export class JournalFrontier implements Frontier {
  private pending = new Map<string, FrontierRequest>();
  private handedOut = new Set<string>();
  private queue: string[] = [];
  private queueHead = 0;
  private doneSet = new Set<string>();
  private failedSet = new Set<string>();
  private skippedSet = new Set<string>();
  private fd: number | undefined;
  private journalBytes = 0;
  /** Whether the previous crawl of this spider ran to completion. */
  previousFinished = false;
  /** Whether there was any previous state to resume. */
  resumed = false;

  private constructor(
    private readonly dir: string,
    private readonly name: string,
    public maxPages: number | undefined,
  ) {}

  get snapshotFile(): string {
    return path.join(this.dir, `${this.name}.frontier.json`);
  }
  get journalFile(): string {
    return path.join(this.dir, `${this.name}.frontier.jsonl`);
  }

  /** Open (and replay) the frontier files of a spider. `fresh` deletes them first. */
  static open(dir: string, name: string, opts: { maxPages?: number; fresh?: boolean } = {}): JournalFrontier {
    mkdirSync(dir, { recursive: true });
    const f = new JournalFrontier(dir, name, opts.maxPages);
    if (opts.fresh) f.wipe();
    f.load();
    f.fd = openSync(f.journalFile, 'a');
    f.journalBytes = fstatSync(f.fd).size;
    return f;
  }

  private wipe(): void {
    rmSync(this.snapshotFile, { force: true });
    rmSync(this.journalFile, { force: true });
  }

  /** Forget everything (a finished crawl starting over). */
  reset(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.wipe();
    this.pending.clear();
    this.handedOut.clear();
    this.queue = [];
    this.queueHead = 0;
    this.doneSet.clear();
    this.failedSet.clear();
    this.skippedSet.clear();
    this.fd = openSync(this.journalFile, 'a');
  }

  private load(): void {
    if (existsSync(this.snapshotFile)) {
      try {
        const s = JSON.parse(readFileSync(this.snapshotFile, 'utf8')) as Snapshot;
        this.previousFinished = !!s.finished;
        for (const u of s.done) this.doneSet.add(u);
        for (const u of s.failed) {
          this.doneSet.add(u);
          this.failedSet.add(u);
        }
        for (const u of s.skipped ?? []) {
          this.doneSet.add(u);
          this.skippedSet.add(u);
        }
        for (const r of s.pending) this.enqueue(r);
        this.resumed = true;
      } catch {
        /* a torn snapshot is never renamed into place, so this is a foreign file: ignore it */
      }
    }
    if (existsSync(this.journalFile)) {
      const text = readFileSync(this.journalFile, 'utf8');
      if (text.length) {
        this.resumed = true;
        this.previousFinished = false;
      }
      for (const line of text.split('\n')) {
        if (!line) continue;
        let rec: JournalLine;
        try {
          rec = JSON.parse(line) as JournalLine;
        } catch {
          continue; // the last line may be torn by kill -9
        }
        if ('a' in rec) {
          for (const r of rec.a) if (!this.doneSet.has(r.url) && !this.pending.has(r.url)) this.enqueue(r);
        } else if ('r' in rec) {
          for (const r of rec.r) this.requeue(r);
        } else if ('d' in rec) this.markDone(rec.d, 'ok');
        else if ('f' in rec) this.markDone(rec.f, 'failed');
        else if ('s' in rec) this.markDone(rec.s, 'skipped');
      }
    }
  }

  private enqueue(r: FrontierRequest): void {
    this.pending.set(r.url, r);
    this.queue.push(r.url);
  }

  private markDone(url: string, outcome: DoneOutcome): void {
    this.pending.delete(url);
    this.handedOut.delete(url);
    this.doneSet.add(url);
    if (outcome === 'failed') this.failedSet.add(url);
    else if (outcome === 'skipped') this.skippedSet.add(url);
  }

  private append(rec: JournalLine): void {
    if (this.fd === undefined) return;
    // Synchronous: the record is in the OS before the step it guards (item write, enqueue) runs.
    this.journalBytes += writeSync(this.fd, JSON.stringify(rec) + '\n');
  }

  has(url: string): boolean {
    return this.pending.has(url) || this.doneSet.has(url);
  }

  /** Mark URLs done without fetching them (items already in the dataset). */
  markStored(urls: Iterable<string>): void {
    // A page a recrawl queued again has an item from the earlier pass: it is still to be visited.
    for (const u of urls) if (!this.doneSet.has(u) && !this.pending.get(u)?.revisit) this.markDone(u, 'ok');
  }

  private requeue(r: FrontierRequest): boolean {
    if (this.pending.has(r.url)) return false;
    this.doneSet.delete(r.url);
    this.failedSet.delete(r.url);
    this.skippedSet.delete(r.url);
    this.enqueue(r);
    return true;
  }

  /** Queue pages again that were done (a recrawl pass re-visiting list and thread pages); the
   * seen-set keeps everything else. Journaled like `add`. */
  revisit(requests: FrontierRequest[]): FrontierRequest[] {
    const accepted = requests.filter((r) => this.requeue(r));
    if (accepted.length) this.append({ r: accepted });
    return accepted;
  }

  add(requests: FrontierRequest[]): FrontierRequest[] {
    const accepted: FrontierRequest[] = [];
    for (const r of requests) {
      if (this.has(r.url)) continue;
      if (this.maxPages !== undefined && this.pending.size + this.doneSet.size >= this.maxPages) break;
      this.enqueue(r);
      accepted.push(r);
    }
    if (accepted.length) this.append({ a: accepted });
    return accepted;
  }

  take(max: number): FrontierRequest[] {
    const out: FrontierRequest[] = [];
    while (out.length < max && this.queueHead < this.queue.length) {
      const url = this.queue[this.queueHead++]!;
      const r = this.pending.get(url);
      if (!r || this.handedOut.has(url)) continue;
      this.handedOut.add(url);
      out.push(r);
    }
    // Drop the consumed prefix now and then so the array does not grow without bound.
    if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    return out;
  }

  done(url: string, outcome: DoneOutcome): void {
    if (this.doneSet.has(url)) return;
    this.append(outcome === 'ok' ? { d: url } : outcome === 'failed' ? { f: url } : { s: url });
    this.markDone(url, outcome);
  }

  stats(): FrontierStats {
    return { seen: this.pending.size + this.doneSet.size, pending: this.pending.size, done: this.doneSet.size, failed: this.failedSet.size, skipped: this.skippedSet.size };
  }

  private writeSnapshot(finished: boolean): void {
    const snap: Snapshot = {
      version: 1,
      finished,
      pending: [...this.pending.values()],
      done: [...this.doneSet].filter((u) => !this.failedSet.has(u) && !this.skippedSet.has(u)),
      failed: [...this.failedSet],
      skipped: [...this.skippedSet],
    };
    const tmp = this.snapshotFile + '.tmp';
    writeFileSync(tmp, JSON.stringify(snap));
    renameSync(tmp, this.snapshotFile); // atomic: a reader sees the old or the new snapshot
    // The snapshot now holds everything the journal said; start the journal over. A crash between
    // the rename and the truncate replays old lines onto the new snapshot, which is idempotent.
    if (this.fd !== undefined) ftruncateSync(this.fd, 0);
    this.journalBytes = 0;
  }

  /** Compact the journal into the snapshot once it has grown past `COMPACT_BYTES`. The journal is
   * already durable, so compaction only bounds replay time and disk use; rewriting a snapshot of
   * every seen URL every few seconds would cost O(crawl size) each time. */
  checkpoint(): void {
    if (this.journalBytes >= COMPACT_BYTES) this.writeSnapshot(false);
  }

  close(finished: boolean): void {
    this.writeSnapshot(finished);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
