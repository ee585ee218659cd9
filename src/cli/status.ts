/**
 * `gleaner status <spider> [--redis URL] [--json]`: the shared crawl's figures — pending (queued
 * and leased), done, failed, items — and each worker's pages, items, leases and rate.
 */
import { withScripts } from '../crawler/redis/scripts.js';
import { connectRedis } from '../crawler/redis/run.js';
import { crawlKeys, genKey } from '../crawler/redis/keys.js';
import { parseState, REDIS_DEFAULTS } from '../crawler/redis/state.js';
import { sharedCrawlTarget } from './shared-crawl.js';

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

export async function crawlStatus(redisUrl: string, name: string) {
  const redis = withScripts(await connectRedis(redisUrl));
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
    await redis.quit().catch(() => redis.disconnect());
  }
}

export async function runStatusCli(arg: string, opts: { redis?: string; json?: boolean }): Promise<void> {
  const { name, redis } = await sharedCrawlTarget(arg, opts.redis);
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
