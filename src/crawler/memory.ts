/**
 * Heap policy for crawl processes. V8's `--optimize-for-size` keeps the committed heap near the
 * live one (issue 2 measured RSS ending at 0.8× its page-200 value instead of growing 1.1–1.8×
 * on the light bench site, when the whole chain ran on the crawl thread) but it also makes V8
 * compile and collect for size: with the chain in worker threads (issue 13) it costs ~45 % more
 * CPU per page on the realistic bench site (47 vs 32 CPU-seconds for 2,000 pages, three V8
 * isolates each paying it), while without it RSS stays flat there too (end/200 = 0.95–1.13 over
 * 2,000 pages; peak ~450–600 MB with two workers: each isolate keeps more spare heap).
 *
 * So `gleaner crawl` runs with V8's defaults; `GLEANER_HEAP=small` opts in to the small heap
 * (a long crawl on a machine short of memory). Library callers choose for their own process.
 */
import v8 from 'node:v8';

let applied = false;

/** Prefer a small heap in this process (idempotent). `GLEANER_HEAP=speed` refuses it. Returns
 * whether the policy is on. Worker threads started afterwards share the setting. */
export function preferSmallHeap(): boolean {
  if (process.env.GLEANER_HEAP === 'speed') return false;
  if (!applied) {
    v8.setFlagsFromString('--optimize-for-size');
    applied = true;
  }
  return true;
}

/** The command line's policy: the small heap only when `GLEANER_HEAP=small`. */
export function applyHeapPolicy(): boolean {
  return process.env.GLEANER_HEAP === 'small' ? preferSmallHeap() : false;
}
