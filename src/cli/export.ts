/**
 * `gleaner export <spider> [--redis URL] [--out FILE.jsonl|FILE.csv]`: the items of a shared
 * crawl, once each (they are stored once: see lua/commit.lua), to a file or to the Crawlee
 * dataset folder `storage/datasets/<spider>/`.
 */
import path from 'node:path';
import { connectRedis } from '../crawler/redis/run.js';
import { crawlKeys, genKey } from '../crawler/redis/keys.js';
import { exportItems } from '../storage/redis-item-sink.js';
import { sharedCrawlTarget } from './shared-crawl.js';
import { UsageError } from './errors.js';

export async function runExportCli(arg: string, opts: { redis?: string; out?: string; storageDir?: string }): Promise<void> {
  if (opts.out && !/\.(jsonl|ndjson|csv)$/i.test(opts.out)) throw new UsageError(`--out must name a .jsonl or .csv file (got ${opts.out})`);
  const { name, redis: url } = await sharedCrawlTarget(arg, opts.redis);
  const redis = await connectRedis(url);
  try {
    const gen = Number((await redis.hget(genKey(name), 'cur')) ?? 0);
    if (!gen) throw new UsageError(`${name}: no shared crawl in Redis`, 1);
    const keys = crawlKeys(name, gen);
    const finished = await redis.hget(keys.meta, 'finished');
    const storageDir = opts.out ? undefined : path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
    const r = await exportItems(redis, keys.items, { name, out: opts.out, storageDir });
    const where = r.out ?? (path.relative(process.cwd(), r.datasetDir!) || r.datasetDir);
    process.stdout.write(`${name}: ${r.items} items → ${where}${finished ? '' : ' (the crawl is still running: the items stored so far)'}\n`);
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
