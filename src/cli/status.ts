/**
 * `gleaner status <spider> [--redis URL] [--json] [--ui [PORT]]`: the shared crawl's figures —
 * pending (queued and leased), done, failed, items — and each worker's pages, items, leases and
 * rate; with `--ui`, the live monitor of a local crawl's `--ui` (src/monitor) fed from them.
 */
import { withScripts } from '../crawler/redis/scripts.js';
import { connectRedis } from '../crawler/redis/run.js';
import { crawlKeys, genKey } from '../crawler/redis/keys.js';
import { parseState, REDIS_DEFAULTS } from '../crawler/redis/state.js';
import { sharedCrawlTarget } from './shared-crawl.js';
import { UsageError } from './errors.js';
import type { RateRow } from '../monitor/monitor.js';
import type { Item } from '../core/item.js';
import type { Redis } from 'ioredis';

export interface WorkerStatus {
  id: string;
  host?: string;
  pid?: number;
  /** Pages committed (ok, failed, skipped) and items stored, from the crawl's counters. */
  ok: number;
  failed: number;
  items: number;
  leases: number;
  pagesPerSec: number;
  /** Seconds since its last heartbeat (Redis clock). */
  lastSeenSecs: number;
  alive: boolean;
}

export async function crawlStatus(redisUrl: string, name: string, client?: Redis) {
  const redis = withScripts(client ?? (await connectRedis(redisUrl)));
  try {
    const gen = Number((await redis.hget(genKey(name), 'cur')) ?? 0);
    if (!gen) return undefined;
    const keys = crawlKeys(name, gen);
    const v = (await redis.glState(keys.meta, 0, '', '', 0)) as number[];
    if (v[0] === -1) return undefined;
    const st = parseState(v);
    const [workers, wstat, owners] = await Promise.all([redis.hgetall(keys.workers), redis.hgetall(keys.wstat), redis.hgetall(`${keys.prefix}lo`)]);
    const leasesOf: Record<string, number> = {};
    for (const tok of Object.values(owners)) {
      const id = tok.replace(/#\d+$/, '');
      leasesOf[id] = (leasesOf[id] ?? 0) + 1;
    }
    const list: WorkerStatus[] = Object.entries(workers).map(([id, raw]) => {
      const sp = raw.indexOf(' ');
      const at = Number(raw.slice(0, sp));
      const info = JSON.parse(raw.slice(sp + 1)) as { host?: string; pid?: number; startedAt?: number; at?: number; pages?: number };
      const secs = info.startedAt && info.at ? Math.max(0.001, (info.at - info.startedAt) / 1000) : 0;
      const lastSeenSecs = Math.max(0, (st.now - at) / 1000);
      return {
        id,
        host: info.host,
        pid: info.pid,
        ok: Number(wstat[`${id} ok`] ?? 0),
        failed: Number(wstat[`${id} failed`] ?? 0),
        items: Number(wstat[`${id} items`] ?? 0),
        leases: leasesOf[id] ?? 0,
        pagesPerSec: secs ? (info.pages ?? 0) / secs : 0,
        lastSeenSecs,
        // a worker misses a heartbeat or two under load; three lease lengths without one: gone
        alive: lastSeenSecs * 1000 < 3 * REDIS_DEFAULTS.leaseMs,
      };
    });
    const memory = /used_memory:(\d+)/.exec(await redis.info('memory'))?.[1];
    return { spider: name, generation: gen, ...st, usedMemory: memory ? Number(memory) : undefined, workers: list };
  } finally {
    if (!client) await redis.quit().catch(() => redis.disconnect());
  }
}

export async function runStatusCli(arg: string, opts: { redis?: string; json?: boolean; ui?: boolean | string }): Promise<void> {
  const { name, redis } = await sharedCrawlTarget(arg, opts.redis);
  if (opts.ui !== undefined && opts.ui !== false) return statusUi(name, redis, opts.ui);
  const s = await crawlStatus(redis, name);
  if (!s) {
    process.stdout.write(opts.json ? 'null\n' : `${name}: no shared crawl in Redis\n`);
    process.exitCode = 1;
    return;
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(s, null, 2) + '\n');
    return;
  }
  const lines = [
    `${name}: ${s.finished ? 'finished' : 'running'} (crawl generation ${s.generation})`,
    `  pending:  ${s.queued + s.leased} (${s.queued} queued, ${s.leased} leased)`,
    `  done:     ${s.ok + s.failed + s.skipped} (${s.ok} ok, ${s.failed} failed, ${s.skipped} skipped)`,
    `  items:    ${s.items}${s.duplicateItems ? ` (${s.duplicateItems} duplicates refused)` : ''}`,
    `  seen:     ${s.seen} URLs · leases granted ${s.granted}, requeued ${s.requeued}, late results refused ${s.refused}`,
  ];
  if (s.usedMemory !== undefined) lines.push(`  redis:    ${(s.usedMemory / 1024 / 1024).toFixed(1)} MB used`);
  if (s.workers.length) {
    lines.push('  workers:');
    for (const w of s.workers.sort((a, b) => a.id.localeCompare(b.id))) {
      lines.push(`    ${w.id.padEnd(24)} ${w.alive ? 'alive' : 'gone '}  ${String(w.ok).padStart(7)} ok ${String(w.failed).padStart(5)} failed ${String(w.items).padStart(7)} items ${String(w.leases).padStart(3)} leases  ${w.pagesPerSec.toFixed(1)} pages/s  (seen ${w.lastSeenSecs.toFixed(0)} s ago)`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
}

/** How often `status --ui` reads the shared state, and how long the page stays served after the end. */
const UI_SAMPLE_MS = 1_000;
const UI_LINGER_MS = 2_500;
/** Items read from the stream per sample at most (a long backlog is read over several). */
const ITEMS_PER_SAMPLE = 1_000;

/** Stream entries after `after` (or the latest `latest` when there is none yet). */
async function newItems(redis: Redis, stream: string, after: string | undefined, latest: number): Promise<{ items: Item[]; last?: string }> {
  const rows = (after ? await redis.xrange(stream, `(${after}`, '+', 'COUNT', ITEMS_PER_SAMPLE) : (await redis.xrevrange(stream, '+', '-', 'COUNT', latest)).reverse()) as Array<[string, string[]]>;
  const items: Item[] = [];
  for (const [, fields] of rows) {
    const j = fields[fields.indexOf('j') + 1];
    if (j !== undefined) items.push(JSON.parse(j) as Item);
  }
  return { items, last: rows.length ? rows[rows.length - 1]![0] : after };
}

/**
 * `gleaner status --ui`: the monitor page of `crawl --ui`, fed once a second from the shared
 * state — pages done, queued, leased (in flight), failed, items (from the crawl's item stream:
 * the latest, then each new one), pages per worker. It ends with the crawl (or on Ctrl-C). A
 * click on an item shows it; there is no inspector view (the pages are in the workers).
 */
async function statusUi(name: string, redisUrl: string, port: true | string): Promise<void> {
  const p = port === true ? 0 : Number(port);
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw new UsageError(`--ui: a port number (got "${port}")`);
  // the monitor through the crawl command's module, which has it (one file fewer in the package: test/package)
  const { CrawlMonitor, LATEST_ITEMS } = await import('./crawl.js');
  const client = await connectRedis(redisUrl);
  const monitor = new CrawlMonitor(name, { noInspect: "a shared crawl's pages are fetched by its workers: run gleaner inspect on the item's URL", kindsNote: `the latest ${LATEST_ITEMS} items before the monitor started and every item since` });
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let s = await crawlStatus(redisUrl, name, client);
    if (!s) throw new UsageError(`${name}: no shared crawl in Redis`);
    process.stderr.write(`monitor of the shared crawl ${name} at ${await monitor.listen(p)}\n`);
    const startedAt = Date.now();
    let last: { t: number; done: number; perWorker: Map<string, number> } | undefined;
    let after: string | undefined;
    for (;;) {
      const t = Date.now();
      const done = s.ok + s.failed + s.skipped;
      const dt = last ? (t - last.t) / 1000 : 0;
      const rates: RateRow[] = s.workers.map((w) => ({ name: `${w.id}${w.alive ? '' : ' (gone)'}`, total: w.ok + w.failed, perSec: dt ? (w.ok + w.failed - (last!.perWorker.get(w.id) ?? w.ok + w.failed)) / dt : w.pagesPerSec }));
      const fresh = await newItems(client, crawlKeys(name, s.generation).items, after, LATEST_ITEMS);
      after = fresh.last;
      for (const item of fresh.items) monitor.onItem(item);
      const progress = { spider: name, pages: done, queued: s.queued, failed: s.failed, items: s.items, pagesPerSec: dt ? Math.max(0, done - last!.done) / dt : 0, elapsedSecs: (t - startedAt) / 1000, inFlight: s.leased };
      monitor.onProgress(progress, rates);
      last = { t, done, perWorker: new Map(s.workers.map((w) => [w.id, w.ok + w.failed])) };
      if (s.finished || stopped) {
        monitor.finish(progress);
        break;
      }
      await new Promise((r) => setTimeout(r, UI_SAMPLE_MS));
      const next = await crawlStatus(redisUrl, name, client);
      if (!next) {
        monitor.finish(progress);
        break;
      }
      s = next;
    }
    process.stdout.write(`${name}: ${s.finished ? 'finished' : 'still running (monitor stopped)'}: ${s.ok} ok, ${s.failed} failed, ${s.items} items\n`);
    await new Promise((r) => setTimeout(r, UI_LINGER_MS));
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await monitor.close();
    await client.quit().catch(() => client.disconnect());
  }
}
