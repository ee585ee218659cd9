/**
 * A worker thread of `gleaner extract --batch` (src/cli/batch.ts): claims site groups from the
 * shared counter, posts each group's items, then `{done: true}`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runGroups, type BatchShared } from './batch.js';

const port = parentPort!;
await runGroups(workerData as BatchShared, (r) => port.postMessage(r));
port.postMessage({ done: true });
