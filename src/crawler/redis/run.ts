/**
 * One worker of a spider's shared crawl on Redis: `runSpider` with the Redis frontier, item sink,
 * site store, politeness and robots.txt cache behind its seams. Start it on as many machines as
 * you like with the same spider and Redis URL; each joins the running crawl. On the global finish
 * the worker that saw it first writes the dataset (and any worker with `out` writes that file).
 */
import path from 'node:path';
import { Redis } from 'ioredis';
import { siteStateReady } from '../../chain/site-state.js';
import { validateSpider, type SpiderConfig } from '../../spider/config.js';
import { RedisItemSink, exportItems, type ExportResult } from '../../storage/redis-item-sink.js';
import { RedisSiteStore } from '../../storage/redis-site-store.js';
import { DEFAULTS, feedSpecs, runSpider, type CrawlSummary, type RunOptions } from '../crawl.js';
import { consoleLogger } from '../log.js';
import { RedisFrontier } from './frontier.js';
import { REDIS_DEFAULTS, type JoinMode, type RedisCrawlState } from './state.js';
import { RedisHostRateLimiter, sharedRobotsFetcher } from './politeness.js';

export interface RedisRunOptions extends Omit<RunOptions, 'frontier' | 'itemSink' | 'siteStore' | 'limiter' | 'robotsFetcher'> {
  /** `redis://[user:password@]host:port/db`, or a connected client (left open). */
  redis: string | Redis;
  /** See RedisFrontierOptions.workerId. */
  workerId?: string;
  /** Lease length (default 30 s). */
  leaseSecs?: number;
  /** On the global finish write the dataset (if this worker saw it first) and `out`. Default true;
   * `--workers` children leave it to their parent. */
  exportOnFinish?: boolean;
}

export interface RedisCrawlSummary extends CrawlSummary {
  worker: string;
  mode: JoinMode;
  generation: number;
  /** The whole crawl's counters (all workers). */
  shared: RedisCrawlState;
  /** Leases this worker handed back on start (its own, from before a crash). */
  reclaimedOnStart: number;
  /** Results of this worker that Redis refused (its lease had expired). */
  refused: number;
  exported?: ExportResult;
  /** Why this worker stopped early, when its crawl was cleared or lost. */
  lost?: string;
}

/** `redis://user:secret@host` → `redis://user:***@host` for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return url;
  }
}

/** Time allowed to reach Redis at start before giving up with a clear error. */
const CONNECT_TIMEOUT_MS = 5_000;

/** A client for a worker: waits through Redis restarts instead of failing commands. */
export async function connectRedis(url: string): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--redis must be a redis:// or rediss:// URL (got ${url})`);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, connectTimeout: CONNECT_TIMEOUT_MS });
  redis.on('error', () => {}); // reconnects are reported by the commands that wait on them
  try {
    await Promise.race([redis.connect(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), CONNECT_TIMEOUT_MS).unref())]);
  } catch (e) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactRedisUrl(url)}: ${(e as Error).message}`);
  }
  return redis;
}

export async function runRedisSpider(input: SpiderConfig | unknown, opts: RedisRunOptions): Promise<RedisCrawlSummary> {
  const spider = validateSpider(input, (input as SpiderConfig)?.name ? `spider ${(input as SpiderConfig).name}` : 'spider');
  const log = opts.log ?? consoleLogger(spider.name, opts.logLevel ?? spider.logLevel);
  const own = typeof opts.redis === 'string';
  const redis = typeof opts.redis === 'string' ? await connectRedis(opts.redis) : opts.redis;
  try {
    const c = spider.crawler ?? {};
    const maxConcurrency = c.maxConcurrency ?? (c.render ? DEFAULTS.renderConcurrency : DEFAULTS.maxConcurrency);
    const frontier = await RedisFrontier.open(redis, {
      spider: spider.name,
      workerId: opts.workerId,
      maxPages: opts.maxPages ?? spider.maxPages,
      fresh: opts.fresh,
      leaseMs: opts.leaseSecs !== undefined ? Math.round(opts.leaseSecs * 1000) : undefined,
      maxLeases: maxConcurrency + Math.max(2, Math.ceil(REDIS_DEFAULTS.prefetchRatio * maxConcurrency)),
      intervalMs: c.maxRequestsPerMinute ? 60_000 / c.maxRequestsPerMinute : 0,
      log,
    });
    const s = frontier.shared;
    const joinedRunning = frontier.mode === 'join' && (s.ok + s.failed + s.skipped > 0 || frontier.reclaimedOnStart > 0);
    const where = `worker ${frontier.workerId}, crawl generation ${frontier.keys.gen}`;
    if (frontier.mode === 'join') log.info(`joined the running crawl (${where}): ${s.queued} queued, ${s.leased} leased, ${s.ok + s.failed + s.skipped} done${frontier.reclaimedOnStart ? `; ${frontier.reclaimedOnStart} leases of this worker from before a restart handed back` : ''}`);
    else if (frontier.mode === 'restart') log.info(`the previous crawl of "${spider.name}" finished: starting over (${where})`);
    else if (frontier.mode === 'fresh') log.info(`cleared the shared crawl of "${spider.name}" (--fresh; ${where})`);
    else log.info(`new shared crawl (${where})`);

    const siteStore = await RedisSiteStore.open(redis, spider.name, { ready: siteStateReady, log });
    // The browser path has no release hook: its slots are booked for one interval (see the class).
    const holdMs = c.render ? 0 : (c.timeoutSecs ?? DEFAULTS.timeoutSecs) * 1000;
    const limiter = new RedisHostRateLimiter(redis, frontier.keys, c.maxRequestsPerMinute, holdMs, frontier.workerId);
    const summary = await runSpider(spider, {
      ...opts,
      log,
      frontier,
      itemSink: new RedisItemSink(frontier),
      siteStore,
      limiter,
      robotsFetcher: sharedRobotsFetcher(redis, spider.name, { owner: frontier.workerId }),
    }).finally(() => limiter.close());
    const finished = summary.finished && !frontier.lost;
    let exported: ExportResult | undefined;
    // The worker that saw the finish first writes the dataset and the spider's feeds; any worker
    // writes its own --out files.
    const feeds = feedSpecs(frontier.wonFinish ? spider : { ...spider, feeds: undefined }, opts);
    if (finished && opts.exportOnFinish !== false && (frontier.wonFinish || feeds.length)) {
      const storageDir = path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
      exported = await exportItems(redis, frontier.keys.items, { name: spider.name, feeds, storageDir: frontier.wonFinish ? storageDir : undefined });
    }
    return {
      ...summary,
      finished,
      resumed: joinedRunning,
      worker: frontier.workerId,
      mode: frontier.mode,
      generation: frontier.keys.gen,
      shared: frontier.shared,
      reclaimedOnStart: frontier.reclaimedOnStart,
      refused: frontier.local.refused,
      exported,
      lost: frontier.lost,
    };
  } finally {
    if (own) await redis.quit().catch(() => redis.disconnect());
  }
}
