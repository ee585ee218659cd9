/** `gleaner export` of a crawl shared through Redis (src/cli/export.ts): loads ioredis only then. */
import { connectRedis } from '../crawler/redis/run.js';
import { crawlKeys, genKey } from '../crawler/redis/keys.js';
import { exportItems, type ExportResult } from '../storage/redis-item-sink.js';
import type { FeedSpec } from '../storage/feed-sink.js';
import { UsageError } from './errors.js';

export async function exportShared(name: string, url: string, feeds: FeedSpec[], storageDir: string | undefined): Promise<ExportResult & { finished: boolean }> {
  const redis = await connectRedis(url);
  try {
    const gen = Number((await redis.hget(genKey(name), 'cur')) ?? 0);
    if (!gen) throw new UsageError(`${name}: no shared crawl in Redis`, 1);
    const keys = crawlKeys(name, gen);
    const finished = !!(await redis.hget(keys.meta, 'finished'));
    const r = await exportItems(redis, keys.items, { name, feeds, storageDir });
    return { ...r, finished };
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
