/**
 * Heap policy for crawl processes. A crawl allocates fast (a parsed page per request) while its
 * live heap stays flat, and V8's default heuristics answer fast allocation by committing more
 * heap: on bench:crawl (2,000 pages) the live heap stayed at 85–88 MB while RSS grew 1.1–1.8×
 * from page 200 to the end, depending on machine load. V8's `--optimize-for-size` keeps the
 * committed heap near the live one: RSS then ends at 0.8× its page-200 value, for about 15–20 %
 * fewer pages/s (measured in one process, alternating runs: 19.2/19.8 s vs 15.9/16.7 s).
 *
 * The `gleaner crawl` command opts in (a crawl process runs for hours; memory that only grows is
 * what stops it). Library callers choose for their own process. `GLEANER_HEAP=speed` opts out.
 */
import v8 from 'node:v8';

let applied = false;

/** Prefer a small heap in this process (idempotent). Returns whether the policy is on. */
export function preferSmallHeap(): boolean {
  if (process.env.GLEANER_HEAP === 'speed') return false;
  if (!applied) {
    v8.setFlagsFromString('--optimize-for-size');
    applied = true;
  }
  return true;
}
