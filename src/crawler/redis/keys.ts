/**
 * Key names of a shared crawl, and URL digests.
 *
 * - `gleaner:{<spider>}:gen` — the spider's current crawl generation (a finished crawl that starts
 *   over, or `--fresh`, moves to the next one; the old generation's keys are deleted).
 * - `gleaner:{<spider>:<gen>}:…` — one crawl: `meta` (counters), `s:<i>` seen-set buckets, `q:<host>`
 *   queues, `ready`, `hnext`, `gate` (politeness), `leases`, `lo`, `lp` (lease owners and payloads),
 *   `i:<i>` item keys, `items` (the items stream), `workers`, `wstat`.
 * - `gleaner:{<spider>}:sites`, `:sitesw` — learned site state and its weight (kept across
 *   crawls, like `storage/gleaner/<spider>.json`); `:robots:<origin>` — robots.txt with a TTL.
 *
 * Everything of one crawl carries one Redis Cluster hash tag, `{<spider>:<gen>}`, so each script
 * touches a single slot (docs/scale.md: sharding by host splits that tag into virtual shards).
 */
import { createHash } from 'node:crypto';
import type { FrontierRequest } from '../frontier.js';

export const KEY_ROOT = 'gleaner';

/** Bytes of a URL digest (issue 17: 8-byte digests; a collision among 10^8 URLs has odds ≈ 3·10^-4). */
export const DIGEST_BYTES = 8;

/** First 8 bytes of SHA-1: uniform, so its first 4 bytes can pick a seen-set bucket directly. */
export function digest(s: string): Buffer {
  return createHash('sha1').update(s).digest().subarray(0, DIGEST_BYTES);
}

export interface CrawlKeys {
  spider: string;
  gen: number;
  /** Prefix of every key of this generation. */
  prefix: string;
  /** The meta hash: KEYS[1] of every script. */
  meta: string;
  items: string;
  leases: string;
  workers: string;
  wstat: string;
}

export function genKey(spider: string): string {
  return `${KEY_ROOT}:{${spider}}:gen`;
}

export function spiderPrefix(spider: string): string {
  return `${KEY_ROOT}:{${spider}}:`;
}

export function generationPrefix(spider: string, gen: number): string {
  return `${KEY_ROOT}:{${spider}:${gen}}:`;
}

export function crawlKeys(spider: string, gen: number): CrawlKeys {
  const prefix = generationPrefix(spider, gen);
  return { spider, gen, prefix, meta: `${prefix}meta`, items: `${prefix}items`, leases: `${prefix}leases`, workers: `${prefix}workers`, wstat: `${prefix}wstat` };
}

/** Queue entries: short keys, absent fields left out (bytes per queued request, issue 17 §4). */
export function toPayload(r: FrontierRequest): string {
  const o: Record<string, unknown> = { u: r.url, d: r.depth };
  if (r.label) o.l = r.label;
  if (r.labelHint) o.h = r.labelHint;
  if (r.anchorText) o.a = r.anchorText;
  if (r.referrer) o.r = r.referrer;
  return JSON.stringify(o);
}

export function fromPayload(p: string): FrontierRequest {
  const o = JSON.parse(p) as { u: string; d?: number; l?: string; h?: string; a?: string; r?: string };
  const r: FrontierRequest = { url: o.u, depth: o.d ?? 0 };
  if (o.l) r.label = o.l;
  if (o.h) r.labelHint = o.h;
  if (o.a) r.anchorText = o.a;
  if (o.r) r.referrer = o.r;
  return r;
}
