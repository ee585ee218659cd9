/**
 * The Lua layer of the Redis frontier, on core Redis commands only (Debian's redis-server 7.0 has
 * no modules). One script per operation, close to Crawlee v4's `RequestQueueBackend`
 * (`addBatchOfRequests` → add, `fetchNextRequest` → lease, `markRequestAsHandled` → commit,
 * `reclaimRequest` → release, `getRequest` → has, `isFinished`/metadata → state) plus what a
 * shared crawl needs on top: lease renewal (renew), shared per-host politeness (gate, pause) and
 * crawl generations (start, init). `lib.lua` is prepended to each; the scripts run with EVALSHA
 * (ioredis falls back to EVAL once per connection).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The scripts beside this module (the source tree)… */
const LUA_DIR = path.join(HERE, 'lua');
/** …or, in the built package, all of them in one file beside the chunk (rolldown.config.mjs: one file
 * instead of fifteen in the tarball). */
export const LUA_BUNDLE = 'redis-lua.json';

/**
 * Mean digests per seen-set bucket before linear hashing splits one. Redis keeps a hash in its
 * compact listpack encoding up to `hash-max-listpack-entries` (128 by default) fields and turns it
 * into a real hash table past that (≈ 5× the bytes per field). Under linear hashing a bucket not
 * yet split in the current round holds about twice the mean, so the mean must stay near a third
 * of 128: 40 puts the fullest buckets at ≈ 80 ± 9 (Poisson), past 128 only beyond 5 σ. Measured
 * at 100,000 URLs: see the memory row of `npm run bench:crawl -- --redis`.
 */
export const SEEN_BUCKET_LOAD = 40;

const SCRIPTS = {
  glAdd: { file: 'add.lua', keys: 1 },
  glHas: { file: 'has.lua', keys: 1, readOnly: true },
  glLease: { file: 'lease.lua', keys: 1 },
  glRenew: { file: 'renew.lua', keys: 1 },
  glCommit: { file: 'commit.lua', keys: 1 },
  glRelease: { file: 'release.lua', keys: 1 },
  glState: { file: 'state.lua', keys: 1 },
  glGate: { file: 'gate.lua', keys: 1 },
  glUngate: { file: 'ungate.lua', keys: 1 },
  glPause: { file: 'pause.lua', keys: 1 },
  glStart: { file: 'start.lua', keys: 1, lib: false },
  glInit: { file: 'init.lua', keys: 1, lib: false },
  glAppend: { file: 'append.lua', keys: 1 },
  glPublish: { file: 'publish.lua', keys: 2, lib: false },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type Arg = string | number | Buffer;
type ScriptFn = (...args: Arg[]) => Promise<unknown>;

/** A Redis client with the frontier's scripts defined on it. */
export type ScriptedRedis = Redis & Record<ScriptName, ScriptFn>;

let sources: Record<string, string> | undefined;

function load(): Record<string, string> {
  if (sources) return sources;
  const bundled = existsSync(LUA_DIR) ? undefined : (JSON.parse(readFileSync(path.join(HERE, LUA_BUNDLE), 'utf8')) as Record<string, string>);
  const read = (file: string) => (bundled ? bundled[file]! : readFileSync(path.join(LUA_DIR, file), 'utf8'));
  const lib = read('lib.lua').replace('{{SEEN_BUCKET_LOAD}}', String(SEEN_BUCKET_LOAD));
  sources = {};
  for (const [name, s] of Object.entries(SCRIPTS)) {
    const body = read(s.file);
    sources[name] = 'lib' in s && !s.lib ? body : `${lib}\n${body}`;
  }
  return sources;
}

/** Define the scripts on a client (idempotent). */
export function withScripts(redis: Redis): ScriptedRedis {
  const r = redis as ScriptedRedis;
  if (typeof (r as Partial<ScriptedRedis>).glAdd === 'function') return r;
  const src = load();
  for (const [name, s] of Object.entries(SCRIPTS)) {
    redis.defineCommand(name, { lua: src[name]!, numberOfKeys: s.keys, readOnly: 'readOnly' in s ? s.readOnly : false });
  }
  return r;
}

/** Errors a script raises when the crawl's state is gone (see `check_alive` in lib.lua). */
export function isLostError(e: unknown): boolean {
  return e instanceof Error && e.message.includes('GLEANER_LOST');
}
