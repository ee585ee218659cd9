/**
 * `gleaner extract --batch` on every core (issue 15: the batch must beat Readability.js + linkedom
 * 3× as a whole process; on one thread the chain alone does not).
 *
 * Pages are grouped by site (manifest `site`, else the URL host) exactly as
 * `Extractor.extractBatch` groups them, and a site's pages never leave one thread: templates are
 * learned per site, so every item is the one a single-threaded run gives (test/cli/batch.test.ts
 * compares them). The main thread and `jobs − 1` worker threads claim groups, largest first, from
 * one shared counter; the page bytes sit in one SharedArrayBuffer that every thread reads.
 *
 * Workers need the built JavaScript (`dist/batch-worker.js`): run from the TypeScript sources
 * (tsx, vitest), the batch runs on the main thread only.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Extractor, type ExtractKind } from '../chain/extractor.js';
import { siteKeyOf } from '../chain/process.js';
import type { Item } from '../core/item.js';

/** Pages per thread below which another thread does not pay: a thread spends ~130 ms of CPU
 * loading the extractor (bench:cli, `import('gleaner/extract')`), the time of ~10 AEB pages
 * through the chain (~14 ms each with --kind article, ~20 ms with auto); 32 pages make its
 * start-up a quarter of its work or less. */
export const MIN_PAGES_PER_THREAD = 32;

/** Default thread count: one per core that is idle. Each thread JIT-compiles the chain afresh: on
 * AEB a second thread costs ~1.3 s of CPU beyond the ~4 s one thread needs (bench:cli, 181 pages,
 * load 16 on 2 cores), so on a busy machine a second thread made the whole run slower (wall 15.4
 * -> 21.9 s) — it only pays on a core nobody else uses. `--jobs N` overrides. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(availableParallelism() - loadavg()[0]! + 0.5)));
}

export interface BatchPage {
  url: string;
  body: Uint8Array;
  site?: string | undefined;
}

export interface BatchRunOptions {
  kind?: ExtractKind | undefined;
  stream?: boolean | undefined;
  timezone?: string | undefined;
  /** Fetch time of every page (relative dates resolve against it); default now. */
  fetchedAt?: Date | undefined;
  /** Threads to use, the main one included (default: the idle cores, see defaultJobs). */
  jobs?: number | undefined;
  /** Each item as soon as it is done, with its page's index (items are not held until the end:
   * a batch stopped half-way has written what it did). */
  onItem?: ((page: number, item: Item) => void) | undefined;
}

/** What a worker gets: the pages (bytes in `bytes` at `offsets[i]..offsets[i + 1]`), the groups in
 * claiming order, and the shared counter. */
export interface BatchShared {
  bytes: SharedArrayBuffer;
  offsets: number[];
  urls: string[];
  sites: Array<string | undefined>;
  groups: number[][];
  counter: SharedArrayBuffer;
  options: Omit<BatchRunOptions, 'jobs' | 'fetchedAt'> & { fetchedAt?: number | undefined };
}

/** One page's item, from the thread that extracted it. */
export interface PageResult {
  page: number;
  item: Item;
}

const workerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'batch-worker.js');

/** Pages grouped by site, in first-seen order (as Extractor.extractBatch groups them). */
function groupBySite(pages: BatchPage[]): number[][] {
  const groups = new Map<string, number[]>();
  pages.forEach((p, i) => {
    const key = p.site ?? siteKeyOf(p.url);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  });
  return [...groups.values()];
}

/** Claim groups from the shared counter until none is left; extract each with one Extractor,
 * handing on each page's item as it is done. */
export async function runGroups(shared: BatchShared, onPage: (r: PageResult) => void): Promise<void> {
  const counter = new Int32Array(shared.counter);
  const fetchedAt = shared.options.fetchedAt === undefined ? undefined : new Date(shared.options.fetchedAt);
  const extractor = new Extractor({ kind: shared.options.kind, timezone: shared.options.timezone });
  try {
    for (;;) {
      const g = Atomics.add(counter, 0, 1);
      if (g >= shared.groups.length) break;
      const idx = shared.groups[g]!;
      // A copy of each page's bytes: TextDecoder refuses views of shared memory.
      const inputs = idx.map((i) => ({ url: shared.urls[i]!, body: new Uint8Array(new Uint8Array(shared.bytes, shared.offsets[i]!, shared.offsets[i + 1]! - shared.offsets[i]!)), site: shared.sites[i], fetchedAt }));
      await extractor.extractBatch(inputs, { stream: shared.options.stream, onItem: (item, k) => onPage({ page: idx[k]!, item }) });
    }
  } finally {
    await extractor.close();
  }
}

/** Extract every page; items in input order, the same as one Extractor's extractBatch gives. */
export async function extractPages(pages: BatchPage[], o: BatchRunOptions = {}): Promise<Item[]> {
  const groups = groupBySite(pages);
  // Largest groups first, so the last group claimed is a small one (threads finish together).
  const size = (g: number[]) => g.reduce((s, i) => s + pages[i]!.body.length, 0);
  groups.sort((a, b) => size(b) - size(a));
  const jobs = Math.max(1, Math.min(o.jobs ?? defaultJobs(), groups.length, Math.floor(pages.length / MIN_PAGES_PER_THREAD)));
  const useWorkers = jobs > 1 && existsSync(workerFile);

  const offsets = [0];
  for (const p of pages) offsets.push(offsets[offsets.length - 1]! + p.body.length);
  const bytes = new SharedArrayBuffer(offsets[offsets.length - 1]!);
  const view = new Uint8Array(bytes);
  pages.forEach((p, i) => view.set(p.body, offsets[i]!));
  const shared: BatchShared = {
    bytes,
    offsets,
    urls: pages.map((p) => p.url),
    sites: pages.map((p) => p.site),
    groups,
    counter: new SharedArrayBuffer(4),
    options: { kind: o.kind, stream: o.stream, timezone: o.timezone, fetchedAt: o.fetchedAt?.getTime() },
  };

  const out: Item[] = new Array(pages.length);
  const take = ({ page, item }: PageResult) => {
    out[page] = item;
    o.onItem?.(page, item);
  };
  const workers: Promise<void>[] = [];
  if (useWorkers) {
    for (let w = 1; w < jobs; w++) {
      workers.push(
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(workerFile, { workerData: shared });
          worker.on('message', (m: PageResult | { done: true }) => ('done' in m ? resolve() : take(m)));
          worker.on('error', reject);
          worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`batch worker exited with code ${code}`))));
        }),
      );
    }
  }
  await runGroups(shared, take);
  await Promise.all(workers);
  return out;
}
