/**
 * `JournalFrontier`: the frontier of a crawl on one machine, durable by an append-only journal
 * written synchronously before each step it records and compacted into a snapshot. A crawl killed
 * at any instant (Ctrl-C or `kill -9`) reopens with every request it had accepted: done ones stay
 * done, pending and in-flight ones are fetched again.
 *
 * Bounded (issue 24 item 3): the seen-set is a table of 64-bit URL digests with each URL's state
 * (~20 bytes a URL, digest-table.ts); pending requests wait in a queue that keeps a bounded number
 * in memory and spills the rest to disk (spill-queue.ts); at most `maxQueued` requests are pending
 * (links beyond are dropped, said once). The snapshot is the digest table (binary) plus the pending
 * requests (JSON Lines), written when the journal has grown as large as the last snapshot, so
 * compaction costs O(1) a record however large the frontier grows.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DigestTable, UrlState } from './digest-table.js';
import { readLines, SpillQueue, SPILL_MEMORY } from './spill-queue.js';
import type { DoneOutcome, Frontier, FrontierRequest, FrontierStats } from './types.js';

/** Journal size that triggers compaction at the least (replaying 1 MB takes a few ms). */
export const COMPACT_BYTES = 1024 * 1024;
/** Pending requests at most (`crawler.maxQueued`). */
export const DEFAULT_MAX_QUEUED = 1_000_000;

/** The snapshot's small head file; the data is in the files of its generation. */
interface SnapshotHead {
  version: 2;
  finished: boolean;
  gen: number;
}
/** The snapshot of versions before the bounded frontier (read, never written). */
interface SnapshotV1 {
  version: 1;
  finished: boolean;
  pending: FrontierRequest[];
  done: string[];
  failed: string[];
  skipped?: string[];
}

type JournalLine = { a: FrontierRequest[] } | { d: string } | { f: string } | { s: string } | { r: FrontierRequest[] };

export interface JournalOptions {
  /** Accept no more URLs once this many are seen (tests; a crawl's budget is counted elsewhere). */
  maxPages?: number;
  /** Delete the spider's frontier files first. */
  fresh?: boolean;
  /** Pending requests at most; links found beyond are dropped (default DEFAULT_MAX_QUEUED). */
  maxQueued?: number;
  /** Called once when the first link is dropped for `maxQueued`. */
  onQueueFull?: (maxQueued: number) => void;
  /** Pending requests kept in memory before the queue spills to disk. */
  spillMemory?: number;
}

const DONE_STATE: Record<DoneOutcome, UrlState> = { ok: UrlState.Ok, failed: UrlState.Failed, skipped: UrlState.Skipped };
const isDone = (s: UrlState | 0) => s === UrlState.Ok || s === UrlState.Failed || s === UrlState.Skipped;

export class JournalFrontier implements Frontier {
  private table = new DigestTable();
  private readonly queue: SpillQueue;
  /** Handed out, not done yet (bounded by the crawl's concurrency). */
  private readonly inFlight = new Map<string, FrontierRequest>();
  /** Queued again by a recrawl pass and not done yet: an item from an earlier pass does not mark them done. */
  private readonly revisits = new Set<string>();
  private fd: number | undefined;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private gen = 0;
  private readonly maxQueued: number;
  /** Links not queued because `maxQueued` requests were pending. */
  droppedByQueueLimit = 0;
  /** Whether the previous crawl of this spider ran to completion. */
  previousFinished = false;
  /** Whether there was any previous state to resume. */
  resumed = false;

  private constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly o: JournalOptions,
  ) {
    this.queue = new SpillQueue(path.join(dir, `${name}.spill`), o.spillMemory ?? SPILL_MEMORY);
    this.maxQueued = o.maxQueued ?? DEFAULT_MAX_QUEUED;
  }

  get snapshotFile(): string {
    return path.join(this.dir, `${this.name}.frontier.json`);
  }
  get journalFile(): string {
    return path.join(this.dir, `${this.name}.frontier.jsonl`);
  }
  private dataFile(gen: number, kind: 'bin' | 'pending.jsonl'): string {
    return path.join(this.dir, `${this.name}.frontier.${gen}.${kind}`);
  }

  /** Open (and replay) the frontier files of a spider. `fresh` deletes them first. */
  static open(dir: string, name: string, opts: JournalOptions = {}): JournalFrontier {
    mkdirSync(dir, { recursive: true });
    const f = new JournalFrontier(dir, name, opts);
    if (opts.fresh) f.wipe();
    f.load();
    f.fd = openSync(f.journalFile, 'a');
    f.journalBytes = fstatSync(f.fd).size;
    return f;
  }

  /** Bytes of memory the frontier holds for its URLs (the digest table; the queue's in-memory part
   * is counted in requests: `queuedInMemory`). */
  get tableBytes(): number {
    return this.table.bytes;
  }
  get queuedInMemory(): number {
    return this.queue.inMemory;
  }

  private wipe(): void {
    rmSync(this.snapshotFile, { force: true });
    rmSync(this.journalFile, { force: true });
    this.removeData(() => true);
  }

  /** Delete the snapshot data files whose generation `drop` says. */
  private removeData(drop: (gen: number) => boolean): void {
    const re = new RegExp(`^${this.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.frontier\\.(\\d+)\\.(bin|pending\\.jsonl)(\\.tmp)?$`);
    for (const file of readdirSync(this.dir)) {
      const m = re.exec(file);
      if (m && drop(Number(m[1]))) rmSync(path.join(this.dir, file), { force: true });
    }
  }

  /** Forget everything (a finished crawl starting over). */
  reset(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.wipe();
    this.table.clear();
    this.queue.clear();
    this.inFlight.clear();
    this.revisits.clear();
    this.fd = openSync(this.journalFile, 'a');
    this.journalBytes = 0;
  }

  private load(): void {
    if (existsSync(this.snapshotFile)) {
      try {
        const head = JSON.parse(readFileSync(this.snapshotFile, 'utf8')) as SnapshotHead | SnapshotV1;
        if (head.version === 1) this.loadV1(head);
        else this.loadV2(head);
        this.previousFinished = !!head.finished;
        this.resumed = true;
      } catch {
        /* a torn snapshot is never renamed into place, so this is a foreign file: ignore it */
      }
    }
    if (existsSync(this.journalFile) && statSync(this.journalFile).size > 0) {
      this.resumed = true;
      this.previousFinished = false;
      for (const line of readLines(this.journalFile)) {
        let rec: JournalLine;
        try {
          rec = JSON.parse(line) as JournalLine;
        } catch {
          continue; // the last line may be torn by kill -9
        }
        if ('a' in rec) {
          for (const r of rec.a) if (this.table.get(r.url) === 0) this.enqueue(r);
        } else if ('r' in rec) {
          for (const r of rec.r) this.requeue(r);
        } else if ('d' in rec) this.markDone(rec.d, 'ok');
        else if ('f' in rec) this.markDone(rec.f, 'failed');
        else if ('s' in rec) this.markDone(rec.s, 'skipped');
      }
    }
  }

  private loadV1(s: SnapshotV1): void {
    for (const u of s.done) this.table.set(u, UrlState.Ok);
    for (const u of s.failed) this.table.set(u, UrlState.Failed);
    for (const u of s.skipped ?? []) this.table.set(u, UrlState.Skipped);
    for (const r of s.pending) this.enqueue(r);
  }

  private loadV2(head: SnapshotHead): void {
    const table = DigestTable.fromBuffer(readFileSync(this.dataFile(head.gen, 'bin')));
    if (!table) throw new Error('not a frontier table');
    this.table = table;
    this.gen = head.gen;
    // pending or in flight when the snapshot was taken: queued again, once each
    const queued = new DigestTable();
    for (const line of readLines(this.dataFile(head.gen, 'pending.jsonl'))) {
      const r = JSON.parse(line) as FrontierRequest;
      if (queued.set(r.url, UrlState.Pending) !== 0) continue;
      this.table.set(r.url, UrlState.Pending);
      this.queue.push(r);
      if (r.revisit) this.revisits.add(r.url);
    }
    this.snapshotBytes = statSync(this.dataFile(head.gen, 'bin')).size + statSync(this.dataFile(head.gen, 'pending.jsonl')).size;
  }

  private enqueue(r: FrontierRequest): void {
    this.table.set(r.url, UrlState.Pending);
    this.queue.push(r);
  }

  private markDone(url: string, outcome: DoneOutcome): void {
    this.table.set(url, DONE_STATE[outcome]);
    this.inFlight.delete(url);
    this.revisits.delete(url);
  }

  private append(rec: JournalLine): void {
    if (this.fd === undefined) return;
    // Synchronous: the record is in the OS before the step it guards (item write, enqueue) runs.
    this.journalBytes += writeSync(this.fd, JSON.stringify(rec) + '\n');
  }

  has(url: string): boolean {
    return this.table.get(url) !== 0;
  }

  /** Mark URLs done without fetching them (items already in the dataset). */
  markStored(urls: Iterable<string>): void {
    // A page a recrawl queued again has an item from the earlier pass: it is still to be visited.
    for (const u of urls) if (!isDone(this.table.get(u)) && !this.revisits.has(u)) this.markDone(u, 'ok');
  }

  private requeue(r: FrontierRequest): boolean {
    const st = this.table.get(r.url);
    if (st === UrlState.Pending || st === UrlState.HandedOut) return false;
    this.enqueue(r);
    if (r.revisit) this.revisits.add(r.url);
    return true;
  }

  /** Queue pages again that were done (a recrawl pass re-visiting list and thread pages); the
   * seen-set keeps everything else. Journaled like `add`. */
  revisit(requests: FrontierRequest[]): FrontierRequest[] {
    const accepted = requests.filter((r) => this.requeue(r));
    if (accepted.length) this.append({ r: accepted });
    return accepted;
  }

  private get pendingCount(): number {
    return this.table.counts[UrlState.Pending] + this.table.counts[UrlState.HandedOut];
  }

  add(requests: FrontierRequest[]): FrontierRequest[] {
    const accepted: FrontierRequest[] = [];
    for (const r of requests) {
      if (this.has(r.url)) continue;
      if (this.o.maxPages !== undefined && this.table.size >= this.o.maxPages) break;
      if (this.pendingCount >= this.maxQueued) {
        if (this.droppedByQueueLimit++ === 0) this.o.onQueueFull?.(this.maxQueued);
        continue;
      }
      this.enqueue(r);
      accepted.push(r);
    }
    if (accepted.length) this.append({ a: accepted });
    return accepted;
  }

  take(max: number): FrontierRequest[] {
    const out: FrontierRequest[] = [];
    while (out.length < max) {
      const r = this.queue.shift();
      if (!r) break;
      // done meanwhile (an item already stored), or queued twice: not handed out again
      if (this.table.get(r.url) !== UrlState.Pending) continue;
      this.table.set(r.url, UrlState.HandedOut);
      this.inFlight.set(r.url, r);
      out.push(r);
    }
    return out;
  }

  done(url: string, outcome: DoneOutcome): void {
    if (isDone(this.table.get(url))) return;
    this.append(outcome === 'ok' ? { d: url } : outcome === 'failed' ? { f: url } : { s: url });
    this.markDone(url, outcome);
  }

  stats(): FrontierStats {
    const c = this.table.counts;
    return { seen: this.table.size, pending: this.pendingCount, done: c[UrlState.Ok] + c[UrlState.Failed] + c[UrlState.Skipped], failed: c[UrlState.Failed], skipped: c[UrlState.Skipped] };
  }

  private writeSnapshot(finished: boolean): void {
    const gen = this.gen + 1;
    const bin = this.dataFile(gen, 'bin');
    const pending = this.dataFile(gen, 'pending.jsonl');
    writeFileSync(`${bin}.tmp`, this.table.toBuffer());
    renameSync(`${bin}.tmp`, bin);
    // pending: in flight first (handed out earliest), then the queue in order
    const fd = openSync(`${pending}.tmp`, 'w');
    let bytes = 0;
    // a URL queued twice (done, then queued again by a recrawl pass) is written once
    const written = new DigestTable();
    const write = (r: FrontierRequest) => {
      if (written.set(r.url, UrlState.Pending) !== 0) return;
      bytes += writeSync(fd, JSON.stringify(r) + '\n');
    };
    try {
      for (const r of this.inFlight.values()) write(r);
      for (const r of this.queue.entries()) if (this.table.get(r.url) === UrlState.Pending) write(r);
    } finally {
      closeSync(fd);
    }
    renameSync(`${pending}.tmp`, pending);
    const head: SnapshotHead = { version: 2, finished, gen };
    writeFileSync(`${this.snapshotFile}.tmp`, JSON.stringify(head));
    renameSync(`${this.snapshotFile}.tmp`, this.snapshotFile); // atomic: the old or the new snapshot
    this.gen = gen;
    this.snapshotBytes = bytes + this.table.bytes;
    // The snapshot now holds everything the journal said; start the journal over. A crash between
    // the rename and the truncate replays old lines onto the new snapshot, which is idempotent.
    if (this.fd !== undefined) ftruncateSync(this.fd, 0);
    this.journalBytes = 0;
    this.removeData((g) => g !== gen);
  }

  /** Compact the journal into the snapshot once it has grown as large as the snapshot (at least
   * `COMPACT_BYTES`): the journal is already durable, so compaction only bounds replay time and
   * disk use, and its cost stays proportional to what the journal added. */
  checkpoint(): void {
    if (this.journalBytes >= Math.max(COMPACT_BYTES, this.snapshotBytes)) this.writeSnapshot(false);
  }

  close(finished: boolean): void {
    this.writeSnapshot(finished);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.queue.clear();
  }
}
