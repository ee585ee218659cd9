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
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Item } from '../core/item.js';
import { datasetItems } from '../storage/item-sink.js';
import { feedsFromCli, openFeed, type FeedSpec } from '../storage/feed-sink.js';
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
    const { exportShared } = await import('./export-shared.js');
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
