/** Binary search over sorted DFS positions (segment starts, node ranges), shared by the extractors. */

/** First index in the sorted array `xs` whose value is ≥ `v` (`xs.length` when none is). */
export function lowerBound(xs: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
