/**
 * Build and run the middleware chain. Settings layer like Scrapy's: built-in defaults < spider
 * config; `false` disables; user middleware slot in by priority.
 */
import type { Middleware, MiddlewareEnv, MiddlewareFactory, MiddlewareSetting, PageContext } from '../core/middleware.js';
import { NotConfigured } from '../core/middleware.js';
import { KIND_OF_LABEL, type ItemKind, type PageLabel } from '../core/item.js';
import { existsSync, readFileSync } from 'node:fs';
import { describeDecision } from './decisions.js';

export interface BuiltinEntry {
  /** Lower runs first: the only place a built-in's priority is set (a spider may override it). */
  priority: number;
  /** The page kinds (by label) the stage runs on; every page when absent. `kinds` is the chain's
   * only label gate. */
  kinds?: ItemKind[];
  /** Takes the options a spider gives it (`never` here: each factory has its own options type,
   * and reads what it is given). */
  factory: MiddlewareFactory<never>;
  /** Runs only in crawls (link following); skipped by `gleaner extract`. */
  crawlOnly?: boolean;
  /** Keeps per-site state in `ctx.site.data` (Middleware.siteState); false when absent. */
  siteState?: boolean;
  /** Off unless a spider enables it (`name: true` or an options object): a stage whose output
   * no built-in reads, kept for user middleware that does. */
  optIn?: boolean;
}

/** Thrown by `runChain` when a middleware fails on a page: names the middleware and the URL. */
export class MiddlewareError extends Error {
  constructor(
    readonly middleware: string,
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(`middleware "${middleware}" failed on ${url}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'MiddlewareError';
  }
}

export interface ChainConfig {
  /** Per-name settings from the spider. */
  settings?: Record<string, MiddlewareSetting | undefined>;
  /** User middleware instances (slot in by their priority). */
  extra?: Middleware[];
  /** Skip crawl-only middleware (extract CLI). */
  extractOnly?: boolean;
}

export function buildChain(builtins: Record<string, BuiltinEntry>, config: ChainConfig, log: MiddlewareEnv['log']): Middleware[] {
  const chain: Middleware[] = [];
  const settings = config.settings ?? {};
  for (const [name, entry] of Object.entries(builtins)) {
    const s = settings[name];
    if (s === false || (entry.optIn && s === undefined)) continue;
    if (config.extractOnly && entry.crawlOnly) continue;
    const opts = typeof s === 'object' ? (s.options ?? {}) : {};
    try {
      // the spider's options for this stage, checked by the factory itself
      const def = (entry.factory as MiddlewareFactory)(opts);
      const priority = typeof s === 'object' && s.priority !== undefined ? s.priority : entry.priority;
      chain.push({ ...def, name, priority, kinds: entry.kinds ?? def.kinds, siteState: entry.siteState ?? def.siteState ?? false });
    } catch (e) {
      if (e instanceof NotConfigured) {
        log.warning(`middleware "${name}" skipped: ${e.message}`);
        continue;
      }
      throw e;
    }
  }
  for (const mw of config.extra ?? []) {
    const s = settings[mw.name];
    if (s === false) continue;
    if (typeof s === 'object' && s.priority !== undefined) mw.priority = s.priority;
    chain.push(mw);
  }
  // Stable sort by priority; built-ins before user middleware of equal priority.
  return chain.map((m, i) => [m, i] as const).sort((a, b) => a[0].priority - b[0].priority || a[1] - b[1]).map(([m]) => m);
}

export async function openChain(chain: Middleware[], env: MiddlewareEnv): Promise<void> {
  for (const mw of chain) await mw.open?.(env);
}

export async function closeChain(chain: Middleware[], env: MiddlewareEnv): Promise<void> {
  for (const mw of [...chain].reverse()) {
    try {
      await mw.close?.(env);
    } catch (e) {
      env.log.error(`middleware "${mw.name}" failed to close: ${(e as Error).message}`);
    }
  }
}

/**
 * `GLEANER_STAGE_TIMES=1` (profiling): ms per stage — each middleware by name, and the page task's
 * `parse`, `finish` and `links` — summed over the pages this thread ran, printed to stderr as one
 * JSON line when the process exits. The thread's CPU time where Linux gives it
 * (/proc/thread-self/schedstat: a loaded machine's waits do not count), else wall time. Run with
 * `--threads 0`: in a worker a gated stage's time would include its wait for the site state.
 */
export const stageClock: Map<string, number> | undefined = process.env.GLEANER_STAGE_TIMES ? new Map() : undefined;
const SCHEDSTAT = '/proc/thread-self/schedstat';
const threadCpu = stageClock !== undefined && existsSync(SCHEDSTAT);
/** Now, in ms, on the stage clock (thread CPU time, else wall time). */
export const stageNow = (): number => (threadCpu ? Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]) / 1e6 : performance.now());
if (stageClock) {
  process.once('exit', () => {
    const total = [...stageClock.values()].reduce((a, b) => a + b, 0);
    const rows = Object.fromEntries([...stageClock].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)]));
    process.stderr.write(`gleaner stage times (ms, total ${Math.round(total)}): ${JSON.stringify(rows)}\n`);
  });
}
/** Add the time since `t0` (`stageNow()`) to a stage's sum when stage times are on. */
export function clockStage(name: string, t0: number): void {
  stageClock?.set(name, (stageClock.get(name) ?? 0) + stageNow() - t0);
}

/** Run every applicable middleware on one page. Throws `MiddlewareError` on the first failure. */
export async function runChain(chain: Middleware[], ctx: PageContext): Promise<void> {
  for (const mw of chain) {
    if (ctx.drop) return;
    if (mw.kinds) {
      const kind = ctx.label ? KIND_OF_LABEL[ctx.label as PageLabel] : undefined;
      if (!kind || !mw.kinds.includes(kind)) continue;
    }
    const t0 = stageClock ? stageNow() : 0;
    try {
      if (mw.prepare) await mw.prepare(ctx);
      await mw.process(ctx);
    } catch (e) {
      throw new MiddlewareError(mw.name, ctx.request.url, e);
    }
    if (stageClock) clockStage(mw.name, t0);
    if (ctx.log.debugEnabled) {
      const line = describeDecision(mw.name, ctx);
      if (line) ctx.log.debug(`${line} · ${ctx.request.url}`);
    }
  }
}
