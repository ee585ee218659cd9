/**
 * Where items go, behind a small interface: a Crawlee dataset per spider
 * (`storage/datasets/<spider>/`), feeds (JSON Lines, JSON, CSV: `--out`, a spider's `feeds`;
 * src/storage/feed-sink.ts), or a callback.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { link, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
// Crawlee's core and storage, not the `crawlee` package (which loads every crawler at start-up).
import { Configuration, Dataset } from '@crawlee/core';
import { MemoryStorage } from '@crawlee/memory-storage';
import type { Item } from '../core/item.js';
import type { ItemSink } from './sink.js';
import { openFeed, type FeedOptions } from './feed-sink.js';

export type { ItemMeta, ItemSink } from './sink.js';

const ENTRY_RE = /^(\d+)\.json$/;

/** Entries in a dataset folder (0 when there is none). */
export function datasetEntries(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).filter((f) => ENTRY_RE.test(f)).length;
}

/**
 * Make a dataset folder consistent after a crash: drop torn item files (kill -9 during a write)
 * and stale lock folders, renumber the entries contiguously and rewrite the metadata item count
 * (Crawlee writes it in the background, so it may lag), so the next write never overwrites an
 * item. Returns the stored items in order.
 */
export function repairDataset(dir: string): Item[] {
  if (!existsSync(dir)) return [];
  const entries: Array<{ n: number; file: string; item: Item }> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name.endsWith('.lock') || name.endsWith('.tmp')) {
      rmSync(full, { recursive: true, force: true });
      continue;
    }
    const m = ENTRY_RE.exec(name);
    if (!m) continue;
    try {
      const item = JSON.parse(readFileSync(full, 'utf8')) as Item;
      if (!item || typeof item.url !== 'string') throw new Error('not an item');
      entries.push({ n: Number(m[1]), file: name, item });
    } catch {
      rmSync(full, { force: true }); // torn write: the page was not marked done, it is fetched again
    }
  }
  entries.sort((a, b) => a.n - b.n);
  entries.forEach((e, i) => {
    const want = String(i + 1).padStart(9, '0') + '.json';
    if (e.file !== want) renameSync(path.join(dir, e.file), path.join(dir, want));
  });
  const metaFile = path.join(dir, '__metadata__.json');
  if (existsSync(metaFile)) {
    try {
      const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
      if (meta.itemCount !== entries.length) writeFileSync(metaFile, JSON.stringify({ ...meta, itemCount: entries.length }, null, '\t'));
    } catch {
      rmSync(metaFile, { force: true }); // without metadata Crawlee counts the files
    }
  }
  return entries.map((e) => e.item);
}

/** Items into a Crawlee dataset (the on-disk format every Crawlee tool reads). */
export class DatasetSink implements ItemSink {
  private chain: Promise<void> = Promise.resolve();
  private constructor(
    readonly dataset: Dataset,
    private readonly storage: MemoryStorage,
  ) {}

  /** `storageDir` is the Crawlee storage root (holding `datasets/`). */
  static async open(storageDir: string, name: string): Promise<DatasetSink> {
    const storage = new MemoryStorage({ localDataDirectory: storageDir, persistStorage: true, writeMetadata: true });
    const config = new Configuration({ storageClient: storage, purgeOnStart: false, persistStorage: true });
    const dataset = await Dataset.open(name, { config, storageClient: storage });
    return new DatasetSink(dataset, storage);
  }

  /** Writes one at a time, so a crash tears at most the last entry (see `repairDataset`). */
  write(item: Item): Promise<void> {
    const p = this.chain.then(() => this.dataset.pushData(item as unknown as Record<string, unknown>));
    this.chain = p.catch(() => {});
    return p;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.storage.teardown();
  }
}

/**
 * Items into a Crawlee dataset folder, written directly in Crawlee's on-disk format
 * (`<9-digit index>.json` + `__metadata__.json`, what `Dataset.open(name)` reads back). Each
 * entry is written to a temporary name and renamed into place, so a crash never leaves a torn
 * item, and without Crawlee's per-entry lock folder: the crawl owns its dataset. Measured on
 * bench:crawl, Crawlee's `pushData` path (lock, write, unlock, background metadata) cost about a
 * tenth of the crawl's CPU time.
 */
export class DatasetFileSink implements ItemSink {
  private count: number;
  private readonly createdAt: string;
  private dirtyMeta = false;

  private constructor(
    readonly dir: string,
    readonly name: string,
  ) {
    mkdirSync(dir, { recursive: true });
    let max = 0;
    for (const f of readdirSync(dir)) {
      const m = ENTRY_RE.exec(f);
      if (m) max = Math.max(max, Number(m[1]));
    }
    this.count = max;
    let created = new Date().toISOString();
    try {
      const meta = JSON.parse(readFileSync(path.join(dir, '__metadata__.json'), 'utf8')) as { createdAt?: string };
      if (meta.createdAt) created = meta.createdAt;
    } catch {
      /* no metadata yet */
    }
    this.createdAt = created;
    this.writeMetadata();
  }

  /** `storageDir` is the Crawlee storage root (holding `datasets/`). Run `repairDataset` first
   * after a crash. */
  static open(storageDir: string, name: string): DatasetFileSink {
    return new DatasetFileSink(path.join(storageDir, 'datasets', name), name);
  }

  get itemCount(): number {
    return this.count;
  }

  /**
   * One file per item, linked into place from a temporary file: a reader never sees half an item,
   * and a number another process took is skipped, never written over. The three file operations
   * run on libuv's threads (fs/promises): the crawl thread only waits for them, its event loop
   * free for the fetches and the workers' messages (written synchronously they took ~10 % of the
   * crawl thread in a profile of the realistic crawl).
   */
  write(item: Item): Promise<void> {
    // One write after the other, in the order the items came: the sinks after this one (feeds)
    // then get the items in the dataset's order. The crawl thread is free while a write runs.
    const done = this.tail.then(() => this.writeOne(item));
    this.tail = done.catch(() => {});
    return done;
  }

  private tail: Promise<void> = Promise.resolve();

  private async writeOne(item: Item): Promise<void> {
    let n = ++this.count;
    const tmp = path.join(this.dir, `.${n}.${process.pid}.json.tmp`);
    await writeFile(tmp, JSON.stringify(item, null, '\t'));
    try {
      for (;; n = ++this.count) {
        try {
          await link(tmp, path.join(this.dir, String(n).padStart(9, '0') + '.json'));
          break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
      }
    } finally {
      await rm(tmp, { force: true });
    }
    this.dirtyMeta = true;
  }

  /** Crawlee reads `itemCount` from here: keep it current (called on checkpoints and close). */
  writeMetadata(): void {
    const now = new Date().toISOString();
    const meta = { id: this.name, name: this.name, createdAt: this.createdAt, accessedAt: now, modifiedAt: now, itemCount: this.count };
    const tmp = path.join(this.dir, '.__metadata__.json.tmp');
    writeFileSync(tmp, JSON.stringify(meta, null, '\t'));
    renameSync(tmp, path.join(this.dir, '__metadata__.json'));
    this.dirtyMeta = false;
  }

  flush(): void {
    if (this.dirtyMeta) this.writeMetadata();
  }

  async close(): Promise<void> {
    this.writeMetadata();
  }
}

/**
 * `--out FILE.jsonl|FILE.json|FILE.csv`: one feed (src/storage/feed-sink.ts), rewritten on open
 * with the items an interrupted run already stored (`existing`), so it never falls short of, or
 * runs ahead of, the dataset.
 */
export class FileSink implements ItemSink {
  private readonly feed: ItemSink;

  constructor(file: string, existing: Item[] = [], options: FeedOptions = {}) {
    this.feed = openFeed({ ...options, path: file }, existing);
  }

  write(item: Item): Promise<void> {
    return this.feed.write(item);
  }

  close(): Promise<void> {
    return this.feed.close();
  }
}

/** Items to a function (library use, tests). */
export class CallbackSink implements ItemSink {
  constructor(private readonly fn: (item: Item) => void | Promise<void>) {}
  async write(item: Item): Promise<void> {
    await this.fn(item);
  }
  async close(): Promise<void> {}
}
