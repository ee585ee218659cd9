/**
 * Items of a shared (Redis) crawl: an `ItemSink` that hands each item to the page's commit, so the
 * item is appended to the crawl's items stream in the same atomic step that marks its page done
 * and drops the lease (exactly once, even for a page fetched again after a crash), and the export
 * of that stream to the usual dataset files (`gleaner export`, or the crawl itself on finish).
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Item } from '../core/item.js';
import type { RedisFrontier } from '../crawler/redis/frontier.js';
import { DatasetFileSink, FileSink, type ItemMeta, type ItemSink } from './item-sink.js';
import { openFeed, type FeedSpec } from './feed-sink.js';

export class RedisItemSink implements ItemSink {
  constructor(private readonly frontier: RedisFrontier) {}

  async write(item: Item, meta?: ItemMeta): Promise<void> {
    // In a crawl the item waits for its page's commit; outside a lease it is appended on its own.
    if (meta?.requestUrl && this.frontier.stage(meta.requestUrl, item)) return;
    await this.frontier.appendItem(item);
  }

  async close(): Promise<void> {}
}

/** Stream entries read per XRANGE. */
const EXPORT_BATCH = 1_000;

/** The items of a crawl's stream, in commit order. */
export async function* streamItems(redis: Redis, streamKey: string): AsyncGenerator<Item> {
  let start = '-';
  for (;;) {
    const batch = (await redis.xrange(streamKey, start, '+', 'COUNT', EXPORT_BATCH)) as Array<[string, string[]]>;
    for (const [, fields] of batch) {
      const j = fields[fields.indexOf('j') + 1];
      if (j !== undefined) yield JSON.parse(j) as Item;
    }
    if (batch.length < EXPORT_BATCH) return;
    start = `(${batch[batch.length - 1]![0]}`;
  }
}

export interface ExportResult {
  items: number;
  out?: string;
  datasetDir?: string;
}

/**
 * Write a crawl's items once each: to `out` (.jsonl or .csv), to `feeds` (a spider's feeds and
 * `--out FILE[:FORMAT]`, src/storage/feed-sink.ts) and/or to a Crawlee dataset folder
 * `<storageDir>/datasets/<name>/`. The dataset is written beside and renamed into place, so a
 * reader never sees half of it.
 */
export async function exportItems(redis: Redis, streamKey: string, opts: { out?: string; feeds?: FeedSpec[]; storageDir?: string; name: string }): Promise<ExportResult> {
  const files: ItemSink[] = [...(opts.out ? [new FileSink(opts.out)] : []), ...(opts.feeds ?? []).map((f) => openFeed(f))];
  const outs = [...(opts.out ? [opts.out] : []), ...(opts.feeds ?? []).map((f) => f.path)];
  let dataset: DatasetFileSink | undefined;
  let tmpDir: string | undefined;
  let finalDir: string | undefined;
  if (opts.storageDir) {
    finalDir = path.join(opts.storageDir, 'datasets', opts.name);
    const tmpName = `.${opts.name}.export-${process.pid}`;
    tmpDir = path.join(opts.storageDir, 'datasets', tmpName);
    rmSync(tmpDir, { recursive: true, force: true });
    mkdirSync(path.dirname(tmpDir), { recursive: true });
    dataset = DatasetFileSink.open(opts.storageDir, tmpName);
  }
  let items = 0;
  try {
    for await (const item of streamItems(redis, streamKey)) {
      for (const f of files) await f.write(item);
      await dataset?.write(item);
      items++;
    }
  } finally {
    for (const f of files) await f.close();
    await dataset?.close();
  }
  if (tmpDir && finalDir) {
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(tmpDir, finalDir);
    DatasetFileSink.open(opts.storageDir!, opts.name); // rewrites the metadata under the real name
  }
  return { items, out: outs.length ? outs.join(', ') : undefined, datasetDir: finalDir };
}
