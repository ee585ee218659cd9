/**
 * The crawl frontier (seen-set + pending requests) behind a small interface (frontier/types.ts), so
 * a Redis-backed frontier shared by several machines can replace the journal one
 * (frontier/journal.ts: in memory within bounds, spilled to disk beyond them, made durable by an
 * append-only journal and compacted snapshots).
 */
export type { DoneOutcome, Frontier, FrontierRequest, FrontierStats } from './frontier/types.js';
export { COMPACT_BYTES, DEFAULT_MAX_QUEUED, JournalFrontier, type JournalOptions } from './frontier/journal.js';
