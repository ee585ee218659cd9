/**
 * The chain pool's settings and where its worker module is: constants measured for this machine
 * class (their comments say how), apart from the pool's logic (index.ts).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Slots for pages in flight (queued in the pool or running): far above any crawl concurrency. */
export const MAX_IN_FLIGHT = 4096;
/**
 * Pages above this size run one at a time across the pool. Parsing takes many times a page's
 * size in heap; with two workers each parsing a 10 MB page at once the fault suite's crawl peaked
 * at 408 MB RSS (issue 14 target: ≤ 400 MB; one thread at a time stays under it). Pages of the
 * realistic bench site are 30–60 KB, far below.
 */
export const LARGE_PAGE_BYTES = 1024 * 1024;
/**
 * A chain worker's young generation (V8's nursery, where a page's parse lives and dies) under the
 * small-heap policy (`GLEANER_HEAP=small`). V8's default lets each worker hold ~34 MB of it. Realistic
 * crawl, two workers (bench:crawl --only gleaner-2t, one run each, 2026-12-02 quiet machine):
 * default (64) 67.7 pages/s, 24.4 CPU ms/page, RSS end 550 / peak 581 MB; 24: 63.9, 25.8, 516 / 535;
 * 12: 53.8, 31.3, 420 / 504 — ~130 MB less for ~25 % more CPU (GC of the small nursery), so the
 * default crawl keeps V8's size and the small-heap policy takes 12.
 */
export const WORKER_YOUNG_GENERATION_MB = 12;
/** How long `close` waits for the workers to close their chains (`Middleware.close`). */
export const CLOSE_WAIT_MS = 2_000;

/** Environment variable with the default number of chain threads of a crawl that runs from the
 * TypeScript sources (under tsx: a checkout's tests) and names none (`--threads`, `crawler.threads`);
 * `0` runs the chain on the crawl thread. The test suite sets 0: from the sources each worker thread
 * loads the chain through tsx (demo crawl: 2.7 s of CPU with no thread, 7.5 s with two). The built
 * package — what users and the suite's child crawls run — ignores it. */
export const SOURCE_THREADS_ENV = 'GLEANER_SOURCE_THREADS';

/** This module runs from the TypeScript sources. */
const fromSources = (): boolean => path.extname(fileURLToPath(import.meta.url)) === '.ts';

/** Worker threads for a machine: one per core (the crawl thread's own work is light); from the
 * sources, GLEANER_SOURCE_THREADS when it is set. */
export function defaultThreads(): number {
  const env = fromSources() ? process.env[SOURCE_THREADS_ENV]?.trim() : undefined;
  if (env) {
    if (!/^\d+$/.test(env)) throw new Error(`${SOURCE_THREADS_ENV}=${env}: give a whole number of chain threads (0: the chain on the crawl thread)`);
    return Number(env);
  }
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** The worker module: from the TypeScript sources, a bootstrap that registers tsx in the thread
 * first (worker-boot.mjs); in the bundled package `pool-worker.js` beside this chunk (an entry of
 * rolldown.config.mjs); in plain compiled output `worker.js` beside this file. */
export function workerEntry(): string {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  if (fromSources()) return pathToFileURL(path.join(dir, 'worker-boot.mjs')).href;
  const bundled = path.join(dir, 'pool-worker.js');
  return pathToFileURL(existsSync(bundled) ? bundled : path.join(dir, 'worker.js')).href;
}


/** The spider file a chain worker imports: only for its `extraMiddleware`, the one thing a worker
 * reads from it (a TypeScript spider registers tsx's loader in every thread that imports it, ~0.5 s
 * of CPU per worker). */
export function workerSpiderModule(spider: { extraMiddleware?: readonly unknown[] }, file: string | undefined): string | undefined {
  return file && spider.extraMiddleware?.length ? file : undefined;
}
