/**
 * A shared crawl as Redis holds it: the generation a worker joins (a finished crawl starts a new
 * one), the crawl's counters (the reply of state.lua), and the defaults of the shared frontier.
 */
import type { Redis } from 'ioredis';
import { crawlKeys, genKey, generationPrefix, type CrawlKeys } from './keys.js';
import { withScripts } from './scripts.js';

export const REDIS_DEFAULTS = {
  /** Lease length. A worker killed with `kill -9` holds its pages this long before another worker
   * gets them (a worker started again with the same id hands them back at once). Crawlee's Python
   * Redis client waits 5 minutes; 30 s survives event-loop stalls of ~25 s (heartbeat below). */
  leaseMs: 30_000,
  /** Heartbeat (lease renewal, counters, worker record): several renewals fit in one lease. */
  heartbeatMs: 5_000,
  /** Leases one worker holds at most when not told (a crawl sets its concurrency + prefetch). */
  maxLeases: 20,
  /** Leases held beyond the worker's concurrency, as a share of it (at least 2): enough to keep
   * every slot fed between two `take`s, few enough that one worker does not hoard the queue while
   * another idles (with 20 leases for 2 slots, a second worker got no page of a 61-page site), and
   * what a killed worker leaves to be fetched again. */
  prefetchRatio: 0.5,
  /** A host whose next slot comes within this much time is leased now (the fetch then waits for
   * its slot at the shared gate). ≥ 2 × Crawlee's idle poll (0.5 s) so a politeness-bound host's
   * queue does not run dry between polls. */
  lookaheadMs: 1_000,
  /** Expired leases returned per `take` (bounds the script's run time; the next take returns more). */
  reclaimPerTake: 100,
  /** Requests per `add` script call (bounds the script's run time). */
  addChunk: 500,
  /** URLs this worker knows are in the seen-set, kept to skip a round trip for repeated links (the
   * nav links of every page); cleared when full. ~5 MB. */
  knownUrls: 100_000,
};

export interface RedisCrawlState {
  finished: boolean;
  /** Queued, not leased. */
  queued: number;
  leased: number;
  ok: number;
  failed: number;
  skipped: number;
  seen: number;
  items: number;
  duplicateItems: number;
  /** Leases granted in all (a page leased again after a lease ended counts again). */
  granted: number;
  /** Leases that ended without a result and went back to a queue (expired, handed back). */
  requeued: number;
  /** Commits refused (the lease had expired or moved on). */
  refused: number;
  /** Redis's clock (ms). */
  now: number;
}

/** How this worker came to its crawl generation. */
export type JoinMode = 'new' | 'join' | 'restart' | 'fresh';

/**
 * The crawl generation a worker joins: the running one; a new one when there is none, when the
 * current one finished (a finished crawl starts over) or with `fresh`. Compare-and-set, so workers
 * starting together agree (see start.lua).
 */
export async function prepareGeneration(client: Redis, spider: string, opts: { fresh?: boolean } = {}): Promise<{ keys: CrawlKeys; mode: JoinMode; retired?: number }> {
  const redis = withScripts(client);
  const gk = genKey(spider);
  let [gen, created] = (await redis.glStart(gk, 0)) as [number, number];
  let mode: JoinMode = created ? 'new' : 'join';
  let retired: number | undefined;
  if (!created) {
    const finished = await redis.hget(crawlKeys(spider, gen).meta, 'finished');
    if (opts.fresh || finished) {
      const [g2, c2] = (await redis.glStart(gk, gen)) as [number, number];
      if (c2) {
        retired = gen;
        mode = opts.fresh ? 'fresh' : 'restart';
      }
      gen = g2;
    }
  }
  const keys = crawlKeys(spider, gen);
  await redis.glInit(keys.meta);
  return { keys, mode, retired };
}

/** Delete a retired generation's keys (SCAN + UNLINK: no long blocking command). */
export async function dropGeneration(redis: Redis, spider: string, gen: number): Promise<void> {
  const match = `${generationPrefix(spider, gen).replace(/[?*[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    if (batch.length) await redis.unlink(...batch);
  } while (cursor !== '0');
}

export function emptyState(): RedisCrawlState {
  return { finished: false, queued: 0, leased: 0, ok: 0, failed: 0, skipped: 0, seen: 0, items: 0, duplicateItems: 0, granted: 0, requeued: 0, refused: 0, now: 0 };
}

/** The reply of state.lua. */
export function parseState(v: number[]): RedisCrawlState {
  const n = (i: number) => Number(v[i] ?? 0);
  return { finished: n(0) === 1, now: n(2), queued: n(3), leased: n(4), ok: n(5), failed: n(6), skipped: n(7), seen: n(8), items: n(9), duplicateItems: n(10), granted: n(11), requeued: n(12), refused: n(13) };
}
