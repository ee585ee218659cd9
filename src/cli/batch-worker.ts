/**
 * A worker thread of `gleaner extract --batch` (src/cli/batch.ts): does the pages it is given
 * first, then claims site groups from the shared counter, posting each page's item as it is done,
 * then `{done: true}`. Its input is its workerData, or the first message when it was started before
 * the batch was read. Its budget slot tells the main thread which page it is on since when.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runGroups, type WorkerInput } from './batch.js';

const port = parentPort!;
// started early by the command line (src/cli/batch-prestart.ts): the input comes as a message
const input = (workerData as WorkerInput | undefined) ?? (await new Promise<WorkerInput>((resolve) => port.once('message', resolve)));
await runGroups(input.shared, (r) => port.postMessage(r), { slot: input.slot, first: input.first });
port.postMessage({ done: true });
