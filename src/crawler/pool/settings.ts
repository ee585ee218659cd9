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
 * A chain worker's young generation (V8's nursery, where a page's parse lives and dies). V8's
 * default let each worker hold ~34 MB of it; at 12 MB the realistic crawl with two workers ended at
 * 384-391 MB RSS and peaked at 411-426 MB, against 404-432 and 495-537 MB by default, for the same
 * CPU per page within the noise (25-29 ms; bench:crawl --only gleaner-2t, load 20+). 8 MB gained
 * nothing more (423 / 428 MB).
 */
export const WORKER_YOUNG_GENERATION_MB = 12;
/** How long `close` waits for the workers to close their chains (`Middleware.close`). */
export const CLOSE_WAIT_MS = 2_000;

/** Worker threads for a machine: one per core (the crawl thread's own work is light). */
export function defaultThreads(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** The worker module: from the TypeScript sources, a bootstrap that registers tsx in the thread
 * first (worker-boot.mjs); in the bundled package `pool-worker.js` beside this chunk (an entry of
 * rolldown.config.mjs); in plain compiled output `worker.js` beside this file. */
export function workerEntry(): string {
  const here = fileURLToPath(import.meta.url);
  const dir = path.dirname(here);
  if (path.extname(here) === '.ts') return pathToFileURL(path.join(dir, 'worker-boot.mjs')).href;
  const bundled = path.join(dir, 'pool-worker.js');
  return pathToFileURL(existsSync(bundled) ? bundled : path.join(dir, 'worker.js')).href;
}

