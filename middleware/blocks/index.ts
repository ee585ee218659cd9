/**
 * Differential peak clustering (seed 000, sources §3) as an opt-in middleware: groups the
 * effective segments into blocks (`ctx.blocks`) for user middleware. The pure entry points are
 * `clusterBlocks` / `splitAtPeaks` (./blocks.ts); the forum splitter calls them on its own anchors.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { clusterBlocks, type BlockOptions } from './blocks.js';

export * from './blocks.js';

export interface BlocksMiddlewareOptions extends BlockOptions {
  /** Clustering passes (seed 000: forums need 1–2). */
  passes?: number;
}

/** Groups the effective segments into blocks by differential peak clustering (`ctx.blocks`). */
export const blocksMiddleware: MiddlewareFactory<BlocksMiddlewareOptions> = (options = {}) => ({
  name: 'blocks',
  process(ctx) {
    ctx.blocks = clusterBlocks(ctx.segments, options.passes ?? 1, options);
  },
});
