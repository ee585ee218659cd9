/**
 * Worker entry when Gleaner runs from its TypeScript sources (under tsx): Node 20 does not apply
 * the main thread's `--import` loader to worker threads, so the worker registers tsx itself and
 * then loads the real worker module. A compiled build points the pool at `worker.js` directly.
 */
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');

export default worker.default;
