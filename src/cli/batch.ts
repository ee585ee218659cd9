/**
 * `gleaner extract --batch` on every core (issue 15: the batch must beat Readability.js + linkedom
 * 3× as a whole process; on one thread the chain alone does not).
 *
 * Pages are grouped by site (manifest `site`, else the URL host) exactly as
 * `Extractor.extractBatch` groups them, and a site's pages never leave one thread: templates are
 * learned per site, so every item is the one a single-threaded run gives (test/package compares
 * them). `jobs` worker threads claim groups, largest first, from one shared counter; the page
 * bytes sit in one SharedArrayBuffer that every thread reads. Each item is handed on when its page
 * is done. The main thread watches the page budget (runInWorkers).
 *
 * Workers need the built JavaScript (`dist/batch-worker.js`): run from the TypeScript sources
 * (tsx, vitest), the batch runs on the main thread only, without a page budget.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { Extractor, type ExtractKind } from '../chain/extractor.js';
import { siteKeyOf } from '../chain/process.js';
import type { Item } from '../core/item.js';
import { DEFAULT_PAGE_BUDGET_SECS, WATCHDOG_MS } from '../crawler/pool/budget.js';
import { BATCH_WORKER_FILE, newBatchWorker, takeBatchWorker } from './batch-prestart.js';

/** The site key pages are grouped by (the manifest reader forms its parts by it too). */
export { siteKeyOf };

/** Pages per thread below which another thread does not pay: a thread spends ~130 ms of CPU
 * loading the extractor (bench:cli, `import('gleaner/extract')`), the time of ~10 AEB pages
 * through the chain (~14 ms each with --kind article, ~20 ms with auto); 32 pages make its
 * start-up a quarter of its work or less. */
export const MIN_PAGES_PER_THREAD = 32;

/** Pages per thread the default thread count asks for. Each thread JIT-compiles the chain afresh,
 * and one batch worker already keeps more than one core busy part of the time (V8's compiler and
 * collector threads). Whole processes on a quiet 2-core machine, 2026-12-02 (fourth session, with
 * the compiler policy, src/cli/compiler-policy.ts), one job vs two: AEB 181 pages 2.48 vs 2.59 s
 * (bench:cli, best of 3), AEB + Readability's pages 311 pages 5.39 / 5.89 vs 4.32 / 4.83 s, `sites`
 * 502 pages 6.80 / 7.37 vs 5.96 / 6.49 s (the session before, without the policy, two jobs did not
 * pay below ~500 pages). So a second default thread from 300 pages (two threads of 150 each) on.
 * Fifth session (V8 also optimising later, compiler-policy.ts: less to compile per thread), quiet,
 * three alternating rounds: AEB 181 pages one job 2.46–2.54 s vs two 2.21–2.72 s (median 2.48 vs
 * 2.33), Readability's 130 test pages 2.27–2.67 vs 2.25–2.50 s, for ~30 % more CPU: a second
 * default thread from 128 pages on. `--jobs N` still asks for N (bounded by MIN_PAGES_PER_THREAD). */
export const DEFAULT_PAGES_PER_THREAD = 64;

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
  /** Per-page budget, seconds (default: the crawl's, DEFAULT_PAGE_BUDGET_SECS). Enforced where the
   * batch runs in worker threads (the built package): a page that holds its thread longer becomes
   * an `other` item with the error, its thread is stopped and a new one goes on. */
  pageBudgetSecs?: number | undefined;
  /** A page stopped by its budget (its item, an error item, also goes to onItem). */
  onTimeout?: ((page: number, message: string) => void) | undefined;
  /** Add `provenance` to every item (`--explain`). */
  explain?: boolean | undefined;
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
  /** Per worker slot: [page + 1 (0: none), start of its work in ms since `epoch`]. */
  slots: SharedArrayBuffer;
  epoch: number;
  options: Omit<BatchRunOptions, 'jobs' | 'fetchedAt'> & { fetchedAt?: number | undefined };
}

/** One page's item, from the thread that extracted it. */
export interface PageResult {
  page: number;
  item: Item;
}

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

/** What a worker thread is given: the batch, its budget slot, and pages to do before claiming
 * groups (the rest of a group whose thread was stopped by a page's budget). */
export interface WorkerInput {
  shared: BatchShared;
  slot: number;
  first?: number[] | undefined;
}

/** Claim groups from the shared counter until none is left (after `first`, when given);
 * extract each with one Extractor, handing on each page's item as it is done. With `slot`, the
 * page being worked on and since when are kept in that budget slot. */
export async function runGroups(shared: BatchShared, onPage: (r: PageResult) => void, o: { slot?: number; first?: number[] | undefined } = {}): Promise<void> {
  const counter = new Int32Array(shared.counter);
  const slots = new Int32Array(shared.slots);
  const fetchedAt = shared.options.fetchedAt === undefined ? undefined : new Date(shared.options.fetchedAt);
  const extractor = new Extractor({ kind: shared.options.kind, timezone: shared.options.timezone, middleware: shared.options.explain ? { provenance: true } : undefined });
  const run = async (idx: number[]) => {
    // Views of the shared bytes, not copies (a site's pages may be most of the batch): decodeBody
    // copies a page's bytes while it decodes them.
    const inputs = idx.map((i) => ({ url: shared.urls[i]!, body: new Uint8Array(shared.bytes, shared.offsets[i]!, shared.offsets[i + 1]! - shared.offsets[i]!), site: shared.sites[i], fetchedAt }));
    const onStart = o.slot === undefined ? undefined : (k: number) => {
      Atomics.store(slots, 2 * o.slot! + 1, Date.now() - shared.epoch);
      Atomics.store(slots, 2 * o.slot!, idx[k]! + 1);
    };
    await extractor.extractBatch(inputs, { stream: shared.options.stream, onItem: (item, k) => onPage({ page: idx[k]!, item }), onStart });
    if (o.slot !== undefined) Atomics.store(slots, 2 * o.slot, 0);
  };
  try {
    await extractor.open();
    if (o.first?.length) await run(o.first);
    for (;;) {
      const g = Atomics.add(counter, 0, 1);
      if (g >= shared.groups.length) break;
      await run(shared.groups[g]!);
    }
  } finally {
    await extractor.close();
  }
}

const EMPTY = new Uint8Array(0);

/** Extract every page; items in input order, the same as one Extractor's extractBatch gives.
 * Takes the pages' bytes: each `body` is emptied once it is copied into the batch's shared
 * memory. */
export async function extractPages(pages: BatchPage[], o: BatchRunOptions = {}): Promise<Item[]> {
  if (!pages.length) return [];
  const groups = groupBySite(pages);
  // Largest groups first, so the last group claimed is a small one (threads finish together).
  const size = (g: number[]) => g.reduce((s, i) => s + pages[i]!.body.length, 0);
  groups.sort((a, b) => size(b) - size(a));
  const perThread = o.jobs === undefined ? DEFAULT_PAGES_PER_THREAD : MIN_PAGES_PER_THREAD;
  const jobs = Math.max(1, Math.min(o.jobs ?? defaultJobs(), groups.length, Math.floor(pages.length / perThread)));

  const offsets = [0];
  for (const p of pages) offsets.push(offsets[offsets.length - 1]! + p.body.length);
  const bytes = new SharedArrayBuffer(offsets[offsets.length - 1]!);
  const view = new Uint8Array(bytes);
  // Each page's own buffer is let go once its bytes are in the shared one (a batch then holds its
  // pages' bytes once, not twice).
  pages.forEach((p, i) => {
    view.set(p.body, offsets[i]!);
    p.body = EMPTY;
  });
  const shared: BatchShared = {
    bytes,
    offsets,
    urls: pages.map((p) => p.url),
    sites: pages.map((p) => p.site),
    groups,
    counter: new SharedArrayBuffer(4),
    slots: new SharedArrayBuffer(2 * 4 * jobs),
    epoch: Date.now(),
    options: { kind: o.kind, stream: o.stream, timezone: o.timezone, fetchedAt: o.fetchedAt?.getTime(), explain: o.explain },
  };

  const out: Item[] = new Array(pages.length);
  const take = ({ page, item }: PageResult) => {
    if (out[page]) return; // stopped by its budget meanwhile (or done twice after a stop)
    out[page] = item;
    o.onItem?.(page, item);
  };
  // Built package: every page in a worker thread, under the page budget, the main thread watching.
  // From the TypeScript sources (no worker file): the main thread alone, no budget.
  if (existsSync(BATCH_WORKER_FILE)) await runInWorkers(shared, jobs, out, take, o);
  else await runGroups(shared, take);
  return out;
}

/**
 * The batch in `jobs` worker threads, each page under the budget (issue 24: one slow page stalled
 * the batch). The main thread reads the workers' slots every WATCHDOG_MS; a page that held its
 * thread past the budget gets an error item, its worker is terminated (a stuck regex cannot be
 * interrupted from inside) and a new one takes its slot, doing the rest of that page's group first.
 */
async function runInWorkers(shared: BatchShared, jobs: number, out: Item[], take: (r: PageResult) => void, o: BatchRunOptions): Promise<void> {
  const budgetMs = (o.pageBudgetSecs ?? DEFAULT_PAGE_BUDGET_SECS) * 1000;
  const slots = new Int32Array(shared.slots);
  const groupOf = new Int32Array(out.length);
  shared.groups.forEach((g, k) => g.forEach((i) => (groupOf[i] = k)));
  const live = new Map<number, Worker>();
  let failed: Error | undefined;
  let settle: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (settle = resolve));
  const start = (slot: number, first?: number[]) => {
    Atomics.store(slots, 2 * slot, 0);
    const input: WorkerInput = { shared, slot, first };
    // the worker the command line started early, if it is still waiting; else a new one
    const waiting = takeBatchWorker();
    const worker = waiting ?? newBatchWorker(input);
    if (waiting) waiting.postMessage(input);
    live.set(slot, worker);
    worker.on('message', (m: PageResult | { done: true }) => ('done' in m ? undefined : take(m)));
    worker.on('error', (e) => (failed ??= e));
    worker.on('exit', (code) => {
      if (live.get(slot) !== worker) return; // replaced after a timeout
      live.delete(slot);
      if (code !== 0) failed ??= new Error(`batch worker exited with code ${code}`);
      if (!live.size) settle();
    });
  };
  for (let w = 0; w < jobs; w++) start(w);
  const watchdog = setInterval(() => {
    for (const [slot, worker] of live) {
      const page = Atomics.load(slots, 2 * slot) - 1;
      if (page < 0 || out[page] || Date.now() - shared.epoch - Atomics.load(slots, 2 * slot + 1) <= budgetMs) continue;
      const message = `timeout: the page budget of ${budgetMs / 1000} s ran out (--page-budget)`;
      take({ page, item: { url: shared.urls[page]!, kind: 'other', error: message } });
      o.onTimeout?.(page, message);
      live.delete(slot);
      void worker.terminate();
      start(slot, shared.groups[groupOf[page]!]!.filter((i) => !out[i]));
    }
  }, WATCHDOG_MS);
  try {
    await allDone;
  } finally {
    clearInterval(watchdog);
  }
  if (failed) throw failed;
}
