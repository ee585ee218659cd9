/**
 * Differential peak clustering (seed 000): text of one block (an article's title, date and body; a
 * forum floor) sits at close DFS positions, distinct blocks far apart. Take the difference sequence
 * of the positions and split at its local maxima. The number of blocks falls out by itself, and
 * uneven blocks ("floor within a floor") still split where the gaps peak.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */

export interface Positioned {
  /** DFS index. */
  index: number;
}

export interface BlockOptions {
  /** A gap must be at least this many times the median gap to split (stops splitting a uniform
   * run of paragraphs at every tiny wobble). Measured on the forum fixtures: 2 separates floors,
   * 1 over-splits paragraphs of one floor. */
  minPeakRatio?: number;
  /** Gaps at or below this never split (adjacent text nodes in one element differ by 1–3). */
  minGap?: number;
}

export const DEFAULT_MIN_PEAK_RATIO = 2;
export const DEFAULT_MIN_GAP = 3;

/**
 * Split items (sorted by DFS index) into blocks at local maxima of the position differences.
 * A difference d[i] = x[i+1] − x[i] is a peak when it is ≥ both neighbours, strictly greater than
 * one of them, above `minGap`, and ≥ `minPeakRatio` × the median difference.
 */
export function splitAtPeaks<T extends Positioned>(items: readonly T[], options: BlockOptions = {}): T[][] {
  const sorted = [...items].sort((a, b) => a.index - b.index);
  if (sorted.length < 3) return sorted.length ? [sorted] : [];
  const minRatio = options.minPeakRatio ?? DEFAULT_MIN_PEAK_RATIO;
  const minGap = options.minGap ?? DEFAULT_MIN_GAP;
  const d: number[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) d.push(sorted[i + 1]!.index - sorted[i]!.index);
  const median = [...d].sort((a, b) => a - b)[Math.floor(d.length / 2)]!;
  const threshold = Math.max(minGap, minRatio * median);
  const blocks: T[][] = [];
  let current: T[] = [sorted[0]!];
  for (let i = 0; i < d.length; i++) {
    const left = i > 0 ? d[i - 1]! : -Infinity;
    const right = i + 1 < d.length ? d[i + 1]! : -Infinity;
    const isPeak = d[i]! >= left && d[i]! >= right && (d[i]! > left || d[i]! > right) && d[i]! > threshold;
    if (isPeak) {
      blocks.push(current);
      current = [];
    }
    current.push(sorted[i + 1]!);
  }
  blocks.push(current);
  return blocks;
}

/**
 * Repeat the split on each block for finer granularity (forums need 1–2 passes, seed 000).
 * `passes` = 1 is `splitAtPeaks`.
 */
export function clusterBlocks<T extends Positioned>(items: readonly T[], passes = 1, options: BlockOptions = {}): T[][] {
  let blocks = splitAtPeaks(items, options);
  for (let p = 1; p < passes; p++) blocks = blocks.flatMap((b) => splitAtPeaks(b, options));
  return blocks;
}
