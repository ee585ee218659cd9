/**
 * `gleaner export <spider> [--redis URL] [--out FILE[:FORMAT] …] [--bom] [--csv-rows item|entry]
 * [--csv-columns COLS|all]`: a crawl's items written once each, in the formats of `gleaner crawl
 * --out` (the same feed code: src/storage/feed-sink.ts).
 *
 * - A shared crawl (`--redis`, or the spider's `redis`): the items of its Redis stream (stored once:
 *   see lua/commit.lua), to the `--out` files, else to the dataset folder `storage/datasets/<spider>/`.
 * - Otherwise the local dataset `storage/datasets/<spider>/` (`CRAWLEE_STORAGE_DIR` moves
 *   `storage/`), read in the order the crawl stored it: a finished crawl exported to JSON Lines or
 *   CSV gives the files its own `--out` gave (issue 25; test/crawlfeat/export.test.ts). The dataset
 *   is only read (a crawl may be running on it).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Item } from '../core/item.js';
import { feedsFromCli, openFeed, type FeedSpec } from '../storage/feed-sink.js';
import { connectRedis } from '../crawler/redis/run.js';
import { crawlKeys, genKey } from '../crawler/redis/keys.js';
import { exportItems } from '../storage/redis-item-sink.js';
import { crawlTarget } from './shared-crawl.js';
import { UsageError } from './errors.js';

export interface ExportCliOptions {
  redis?: string;
  out?: string[];
  bom?: boolean;
  csvRows?: string;
  csvColumns?: string;
  storageDir?: string;
}

export async function runExportCli(arg: string, opts: ExportCliOptions): Promise<void> {
  const feeds = feedsFromCli(opts.out ?? [], opts);
  const { name, redis } = await crawlTarget(arg, opts.redis);
  const storageDir = path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
  const shown = (p: string) => path.relative(process.cwd(), p) || p;
  if (redis) {
    const r = await exportShared(name, redis, feeds, feeds.length ? undefined : storageDir);
    const where = r.out ?? shown(r.datasetDir!);
    process.stdout.write(`${name}: ${r.items} items → ${where}${r.finished ? '' : ' (the crawl is still running: the items stored so far)'}\n`);
    return;
  }
  const dir = path.join(storageDir, 'datasets', name);
  if (!existsSync(dir)) throw new UsageError(`${name}: no dataset at ${shown(dir)} (crawl it first; for a crawl shared through Redis give --redis URL)`, 1);
  if (!feeds.length) throw new UsageError(`${name}: the items are in ${shown(dir)}; give --out FILE[:FORMAT] (.jsonl, .json, .csv) to export them`);
  const items = await exportItemsTo(datasetItems(dir), feeds);
  process.stdout.write(`${name}: ${items} items → ${feeds.map((f) => f.path).join(', ')}\n`);
}

/** Items into feeds, once each; the number written. */
export async function exportItemsTo(items: Iterable<Item> | AsyncIterable<Item>, feeds: FeedSpec[]): Promise<number> {
  const sinks = feeds.map((f) => openFeed(f));
  let n = 0;
  try {
    for await (const item of items) {
      for (const s of sinks) await s.write(item);
      n++;
    }
  } finally {
    for (const s of sinks) await s.close();
  }
  return n;
}

/** A Crawlee dataset entry file (what DatasetFileSink writes, src/storage/item-sink.ts). */
const ENTRY_RE = /^(\d+)\.json$/;

/**
 * The items of a dataset folder in the order they were stored (by entry number), read one file at
 * a time and without changing anything (unlike repairDataset: a crawl may be writing there). An
 * entry that does not parse (torn by a kill -9) is skipped, as the next run of the crawl drops it.
 */
export function* datasetItems(dir: string): Generator<Item> {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir)
    .map((file) => ({ file, m: ENTRY_RE.exec(file) }))
    .filter((e) => e.m)
    .map((e) => ({ file: e.file, n: Number(e.m![1]) }))
    .sort((a, b) => a.n - b.n);
  for (const e of entries) {
    let item: Item;
    try {
      item = JSON.parse(readFileSync(path.join(dir, e.file), 'utf8')) as Item;
    } catch {
      continue;
    }
    if (item && typeof item.url === 'string') yield item;
  }
}

/** A shared crawl's items from its Redis stream. */
async function exportShared(name: string, url: string, feeds: FeedSpec[], storageDir: string | undefined) {
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
