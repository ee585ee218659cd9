/**
 * The first worker thread of `gleaner extract --batch`, started as soon as the command line sees
 * `--batch`: it loads the extractor (~240 ms in a thread of its own) while the main thread loads
 * the command's code and reads the manifest (~300 ms), instead of after both (a CPU profile of
 * both threads over the 181 AEB pages: the worker began at 315 ms and its first page at 560 ms).
 * src/cli/batch.ts takes it for its first slot and posts it its input; without a built worker
 * file (run from the TypeScript sources) nothing is started.
 *
 * Kept apart from batch.ts, which loads the extractor itself: this module loads only Node's own.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** The batch workers' nursery (V8's young generation, MB). A page's parse and analyses allocate
 * tens of MB of short-lived objects; with V8's default nursery the batch spent ~12 % of its CPU in
 * the collector (cpu profile of `extract --batch --kind auto` over the 181 AEB pages: 650–740 ms),
 * with 96 MB about half that (310–360 ms; 192 MB gave no more). A batch is a short process: the
 * memory is worth the CPU. */
export const BATCH_YOUNG_GENERATION_MB = 96;

/** The worker module, beside this one in the built package. */
export const BATCH_WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'batch-worker.js');

let spare: Worker | undefined;
const drop = () => {
  spare = undefined;
};

/** A batch worker thread, waiting for its input as a message (no input: `workerData` undefined). */
export function newBatchWorker(workerData?: unknown): Worker {
  return new Worker(BATCH_WORKER_FILE, { workerData, resourceLimits: { maxYoungGenerationSizeMb: BATCH_YOUNG_GENERATION_MB } });
}

/** Start one waiting worker (idempotent; nothing without the built worker file). It does not keep
 * the process alive until taken, and one that fails before it is taken is dropped. */
export function prestartBatchWorker(): void {
  if (spare || !existsSync(BATCH_WORKER_FILE)) return;
  spare = newBatchWorker();
  spare.unref();
  spare.once('error', drop).once('exit', drop);
}

/** The waiting worker, if one is up (the caller posts it a WorkerInput and owns it from then on). */
export function takeBatchWorker(): Worker | undefined {
  const w = spare;
  spare = undefined;
  if (!w) return undefined;
  w.off('error', drop).off('exit', drop);
  w.ref();
  return w;
}
