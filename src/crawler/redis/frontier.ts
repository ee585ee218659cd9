/**
 * `RedisFrontier`: the crawl frontier shared by any number of worker processes on any number of
 * machines, behind the same `Frontier` interface as the journal (src/crawler/frontier.ts).
 *
 * - Leases, not pops: `take` leases a bounded batch; each lease has a deadline on Redis's clock and
 *   is renewed by a heartbeat while the worker lives. An expired lease goes back to its host's
 *   queue; a `done` for a lease that expired or moved to another worker is refused.
 * - Exactly-once items: the crawl adds a page's follow-ups first (idempotent: the seen-set), then
 *   `done` commits the page's items with the lease in one script (lua/commit.lua).
 * - Finished for everyone: `isFinished` is true only when nothing is pending and nothing is leased
 *   by any worker (the crawl polls it through Crawlee's `isFinishedFunction`).
 * - The page budget is one counter in Redis; per-host politeness is booked with the lease.
 */
import os from 'node:os';
import type { Redis } from 'ioredis';
import type { Item } from '../../core/item.js';
import type { Logger } from '../../core/middleware.js';
import { silentLogger } from '../../core/middleware.js';
import type { Frontier, FrontierRequest, FrontierStats } from '../frontier.js';
import { itemKey } from '../pipeline.js';
import { digest, fromPayload, genKey, toPayload, type CrawlKeys } from './keys.js';
import { dropGeneration, emptyState, parseState, prepareGeneration, REDIS_DEFAULTS, type JoinMode, type RedisCrawlState } from './state.js';
import { isLostError, withScripts, type ScriptedRedis } from './scripts.js';

export interface RedisFrontierOptions {
  spider: string;
  /** Stable across restarts for `--workers` children (`<host>-w<i>`); a worker started again with
   * the id of a dead one hands that one's leases back at once. Default `<host>:<pid>`. */
  workerId?: string;
  maxPages?: number;
  /** Clear the shared crawl and start a new one. */
  fresh?: boolean;
  leaseMs?: number;
  heartbeatMs?: number;
  maxLeases?: number;
  /** Per-host spacing in ms (60,000 / maxRequestsPerMinute), booked when leasing. */
  intervalMs?: number;
  log?: Logger;
}

interface Lease {
  d: Buffer;
  token: string;
  items: Item[];
  /** The page's links, committed with it. */
  follows: FrontierRequest[];
  lost?: boolean;
}

export class RedisFrontier implements Frontier {
  readonly workerId: string;
  readonly leaseMs: number;
  readonly maxLeases: number;
  private readonly heartbeatMs: number;
  private readonly intervalMs: number;
  private readonly maxPages: number;
  private readonly log: Logger;
  private readonly leases = new Map<string, Lease>();
  /** Leased, not yet handed to the crawl (see take). */
  private buffer: FrontierRequest[] = [];
  private refilling: Promise<void> | undefined;
  private readonly known = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private state: RedisCrawlState;
  private lostReported = false;
  /** Why this worker can no longer take part (its crawl was cleared or lost). */
  lost: string | undefined;
  /** This worker saw the crawl finish first (it exports the items). */
  wonFinish = false;
  /** Local counters. */
  readonly local = { committed: 0, refused: 0, itemsStored: 0, itemsDuplicate: 0, leased: 0, mostLeases: 0, startedAt: Date.now() };
  /** Leases handed back on start (this worker id's leases from before a crash). */
  reclaimedOnStart = 0;

  private constructor(
    private readonly redis: ScriptedRedis,
    readonly keys: CrawlKeys,
    readonly mode: JoinMode,
    private readonly genHash: string,
    opts: RedisFrontierOptions,
  ) {
    this.workerId = opts.workerId ?? `${os.hostname()}:${process.pid}`;
    this.leaseMs = opts.leaseMs ?? REDIS_DEFAULTS.leaseMs;
    this.heartbeatMs = opts.heartbeatMs ?? Math.min(REDIS_DEFAULTS.heartbeatMs, Math.floor(this.leaseMs / 3));
    this.maxLeases = opts.maxLeases ?? REDIS_DEFAULTS.maxLeases;
    this.intervalMs = Math.max(0, Math.round(opts.intervalMs ?? 0));
    this.maxPages = opts.maxPages ?? 0;
    this.log = opts.log ?? silentLogger;
    this.state = emptyState();
  }

  /**
   * Join the spider's shared crawl: the running one, or a new one when there is none, when the
   * last one finished (a finished crawl starts over, as with the journal) or with `fresh`.
   */
  static async open(client: Redis, opts: RedisFrontierOptions): Promise<RedisFrontier> {
    if (opts.workerId !== undefined && !/^[^\s#]+$/.test(opts.workerId)) throw new Error(`worker id "${opts.workerId}": no spaces or "#"`);
    const redis = withScripts(client);
    const { keys, mode, retired } = await prepareGeneration(redis, opts.spider, { fresh: opts.fresh });
    const gk = genKey(opts.spider);
    const f = new RedisFrontier(redis, keys, mode, gk, opts);
    if (retired !== undefined) void f.dropGeneration(retired).catch((e) => f.log.warning(`could not delete the previous crawl's keys: ${(e as Error).message}`));
    if (mode === 'join' && opts.workerId) f.reclaimedOnStart = Number(await redis.glRelease(keys.meta, 'worker', opts.workerId));
    await f.refresh(false);
    f.timer = setInterval(() => void f.heartbeat(), f.heartbeatMs);
    f.timer.unref();
    return f;
  }

  private dropGeneration(gen: number): Promise<void> {
    return dropGeneration(this.redis, this.keys.spider, gen);
  }

  private onError(e: unknown): boolean {
    if (!isLostError(e)) return false;
    this.lost ??= 'the crawl state is gone from Redis (cleared by --fresh elsewhere, or Redis restarted without persistence)';
    if (!this.lostReported) {
      this.lostReported = true;
      this.log.error(`${this.lost}: this worker stops`);
    }
    return true;
  }

  private rememberKnown(url: string): void {
    if (this.known.size >= REDIS_DEFAULTS.knownUrls) this.known.clear();
    this.known.add(url);
  }

  /**
   * Whether this worker knows the URL is accepted (added, leased or done here, or refused by
   * `add` as seen). A hint, answered without a round trip: the crawl asks it for every link of
   * every page, and `add` and `done` decide exactly in Redis anyway (a link seen by another worker
   * is refused by `add`; a redirect target already known is left alone by `done`). `hasShared`
   * asks Redis.
   */
  has(url: string): boolean {
    return this.known.has(url) || this.leases.has(url);
  }

  /** Whether the URL is in the crawl's seen-set (one round trip). */
  async hasShared(url: string): Promise<boolean> {
    if (this.has(url)) return true;
    if (this.lost) return false;
    try {
      const v = (await this.redis.glHas(this.keys.meta, digest(url))) as number;
      if (v === 1) this.rememberKnown(url);
      return v === 1;
    } catch (e) {
      if (this.onError(e)) return false;
      throw e;
    }
  }

  /**
   * Accept requests never seen. The links of a page this worker holds (their referrer is the
   * leased URL) wait for that page's commit and go to Redis with it, in one step with its item
   * (commit.lua): one round trip per page instead of two, and the links count only if the page
   * does. They are returned as accepted; the seen-set decides at the commit. Other requests (the
   * start URLs) are added at once.
   */
  async add(requests: FrontierRequest[]): Promise<FrontierRequest[]> {
    if (this.lost) return [];
    const fresh = requests.filter((r) => !this.known.has(r.url) && !this.leases.has(r.url));
    const from = fresh[0]?.referrer;
    const page = from !== undefined && fresh.every((r) => r.referrer === from) ? this.leases.get(from) : undefined;
    if (page && !page.lost) {
      page.follows.push(...fresh);
      return fresh;
    }
    return this.addNow(fresh);
  }

  private async addNow(fresh: FrontierRequest[]): Promise<FrontierRequest[]> {
    const accepted: FrontierRequest[] = [];
    for (let i = 0; i < fresh.length; i += REDIS_DEFAULTS.addChunk) {
      const chunk = fresh.slice(i, i + REDIS_DEFAULTS.addChunk);
      const args: Array<string | number | Buffer> = [chunk.length];
      for (const r of chunk) args.push(digest(r.url), new URL(r.url).host, toPayload(r));
      let idx: number[];
      try {
        idx = (await this.redis.glAdd(this.keys.meta, ...args)) as number[];
      } catch (e) {
        if (this.onError(e)) return accepted;
        throw e;
      }
      for (const k of idx) accepted.push(chunk[k - 1]!);
      for (const r of chunk) this.rememberKnown(r.url);
    }
    return accepted;
  }

  /**
   * Hand out leased requests. Leases are fetched ahead: each `take` returns what the last lease
   * call brought and starts the next in the background, so the crawl waits for Redis only when
   * nothing is in hand (measured on bench:crawl: the lease round trip was one of three per page on
   * the page's critical path).
   */
  async take(max: number): Promise<FrontierRequest[]> {
    if (this.lost || max <= 0) return [];
    if (!this.buffer.length) await this.refill();
    const out = this.buffer.splice(0, Math.min(max, this.buffer.length));
    if (!this.buffer.length) void this.refill();
    return out;
  }

  private refill(): Promise<void> {
    this.refilling ??= this.lease().finally(() => (this.refilling = undefined));
    return this.refilling;
  }

  private async lease(): Promise<void> {
    const room = this.maxLeases - this.leases.size;
    if (room <= 0 || this.lost) return;
    let res: Array<string | number>;
    try {
      res = (await this.redis.glLease(this.keys.meta, this.workerId, room, this.leaseMs, this.intervalMs, this.maxPages, REDIS_DEFAULTS.lookaheadMs, REDIS_DEFAULTS.reclaimPerTake)) as Array<string | number>;
    } catch (e) {
      if (this.onError(e)) return;
      this.log.warning(`lease failed: ${(e as Error).message}`);
      return;
    }
    for (let i = 1; i + 1 < res.length; i += 2) {
      const token = String(res[i]);
      const r = fromPayload(String(res[i + 1]));
      const held = this.leases.get(r.url);
      if (held) {
        // Leased again while this process still has it in hand (its old lease expired during a
        // stall): the running handler commits under the new lease.
        held.token = token;
        held.lost = false;
        continue;
      }
      this.leases.set(r.url, { d: digest(r.url), token, items: [], follows: [] });
      r.key = token;
      this.buffer.push(r);
      this.local.leased++;
    }
    this.local.mostLeases = Math.max(this.local.mostLeases, this.leases.size);
  }

  /** Hold an item until its page's `done` commits it with the lease (the Redis item sink). Returns
   * false when the URL is not leased here. */
  stage(requestUrl: string, item: Item): boolean {
    const l = this.leases.get(requestUrl);
    if (!l) return false;
    l.items.push(item);
    return true;
  }

  /** Append an item outside a lease (library use): claimed and stored once. */
  async appendItem(item: Item): Promise<boolean> {
    return (await this.redis.glAppend(this.keys.meta, digest(itemKey(item)), JSON.stringify(item))) === 1;
  }

  async done(url: string, outcome: 'ok' | 'failed' | 'skipped'): Promise<void> {
    if (this.lost) return;
    const l = this.leases.get(url);
    try {
      if (!l) {
        // A URL never leased (a redirect target): recorded as done unless already known.
        await this.redis.glCommit(this.keys.meta, digest(url), '', outcome, 0);
        this.rememberKnown(url);
        return;
      }
      this.leases.delete(url);
      this.rememberKnown(url);
      if (l.lost) {
        this.local.refused++;
        return;
      }
      const args: Array<string | number | Buffer> = [l.d, l.token, outcome, l.items.length];
      for (const it of l.items) args.push(digest(itemKey(it)), JSON.stringify(it));
      const follows = l.follows.filter((r) => !this.known.has(r.url));
      args.push(follows.length);
      for (const r of follows) args.push(digest(r.url), new URL(r.url).host, toPayload(r));
      const [status, stored, dup] = (await this.redis.glCommit(this.keys.meta, ...args)) as [number, number, number];
      if (status < 0) {
        this.local.refused++;
        this.log.warning(`${url}: result refused, the lease ${status === -2 ? 'expired' : 'moved to another worker'} (the page is fetched again; its item is stored once)`);
        return;
      }
      for (const r of follows) this.rememberKnown(r.url);
      this.local.committed++;
      this.local.itemsStored += stored;
      this.local.itemsDuplicate += dup;
    } catch (e) {
      if (this.onError(e)) return;
      throw e;
    }
  }

  stats(): FrontierStats {
    const s = this.state;
    return { seen: s.seen, pending: s.queued + s.leased, done: s.ok + s.failed + s.skipped, failed: s.failed, skipped: s.skipped };
  }

  /** The shared crawl's counters (from the last heartbeat or `refresh`). */
  get shared(): RedisCrawlState {
    return this.state;
  }

  /** Read the counters (and record this worker's heartbeat). */
  async refresh(mayFinish = true): Promise<RedisCrawlState> {
    const info = JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: this.local.startedAt, pages: this.local.committed, items: this.local.itemsStored, leases: this.leases.size, refused: this.local.refused, at: Date.now() });
    const v = (await this.redis.glState(this.keys.meta, this.maxPages, this.workerId, info, mayFinish ? 1 : 0)) as number[];
    if (v[0] === -1) {
      this.onError(new Error('GLEANER_LOST'));
      return this.state;
    }
    this.state = parseState(v);
    if (v[1] === 1) this.wonFinish = true;
    return this.state;
  }

  /** Finished for all workers together (Crawlee's `isFinishedFunction`). */
  async isFinished(): Promise<boolean> {
    if (this.lost) return true;
    return (await this.refresh()).finished;
  }

  private async heartbeat(): Promise<void> {
    if (this.lost) return;
    try {
      const cur = Number(await this.redis.hget(this.genHash, 'cur'));
      if (cur !== this.keys.gen) {
        this.lost = `the shared crawl was cleared (--fresh) or started over by another worker (generation ${this.keys.gen} → ${cur})`;
        this.onError(new Error(`GLEANER_LOST ${this.lost}`));
        return;
      }
      const held = [...this.leases.values()].filter((l) => !l.lost);
      if (held.length) {
        const args: Array<string | number | Buffer> = [this.leaseMs];
        for (const l of held) args.push(l.d, l.token);
        const gone = new Set(((await this.redis.glRenew(this.keys.meta, ...args)) as string[]).map(String));
        for (const l of held) if (gone.has(l.token)) l.lost = true;
        if (gone.size) this.log.warning(`${gone.size} lease(s) expired before renewal (the process stalled for longer than the ${this.leaseMs} ms lease): their pages go to other workers`);
      }
      await this.refresh(false);
    } catch (e) {
      if (this.onError(e)) return;
      this.log.warning(`heartbeat failed: ${(e as Error).message}`);
    }
  }

  checkpoint(): Promise<void> {
    return this.lost ? Promise.resolve() : this.refresh(false).then(
      () => {},
      (e) => void this.onError(e),
    );
  }

  /** Stop the heartbeat; hand back leases still held (a stop on a signal: another worker takes
   * them at once instead of after the lease). */
  async close(_finished: boolean): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.refilling;
    if (this.lost) return;
    try {
      const held = [...this.leases.values()].filter((l) => !l.lost);
      if (held.length) {
        const args: Array<string | Buffer> = ['tokens'];
        for (const l of held) args.push(l.d, l.token);
        await this.redis.glRelease(this.keys.meta, ...args);
      }
      this.leases.clear();
      this.buffer = [];
      await this.refresh(false);
    } catch (e) {
      if (!this.onError(e)) throw e;
    }
  }

  /** Leases held by this worker now. */
  get held(): number {
    return this.leases.size;
  }
}
