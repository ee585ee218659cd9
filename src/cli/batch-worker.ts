/**
 * A worker thread of `gleaner extract --batch` (src/cli/batch.ts): does the pages it is given
 * first, then claims site groups from the shared counter, posting each page's item as it is done,
 * then `{done: true}`. Its budget slot tells the main thread which page it is on since when.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runGroups, type WorkerInput } from './batch.js';

const port = parentPort!;
const input = workerData as WorkerInput;
await runGroups(input.shared, (r) => port.postMessage(r), { slot: input.slot, first: input.first });
port.postMessage({ done: true });
