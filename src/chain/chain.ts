/**
 * Build and run the middleware chain. Settings layer like Scrapy's: built-in defaults < spider
 * config; `false` disables; user middleware slot in by priority.
 */
import type { Middleware, MiddlewareEnv, MiddlewareFactory, MiddlewareSetting, PageContext } from '../core/middleware.js';
import { NotConfigured } from '../core/middleware.js';
import { KIND_OF_LABEL, type ItemKind, type PageLabel } from '../core/item.js';
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

/** Run every applicable middleware on one page. Throws `MiddlewareError` on the first failure. */
export async function runChain(chain: Middleware[], ctx: PageContext): Promise<void> {
  for (const mw of chain) {
    if (ctx.drop) return;
    if (mw.kinds) {
      const kind = ctx.label ? KIND_OF_LABEL[ctx.label as PageLabel] : undefined;
      if (!kind || !mw.kinds.includes(kind)) continue;
    }
    try {
      await mw.process(ctx);
    } catch (e) {
      throw new MiddlewareError(mw.name, ctx.request.url, e);
    }
    if (ctx.log.debugEnabled) {
      const line = describeDecision(mw.name, ctx);
      if (line) ctx.log.debug(`${line} · ${ctx.request.url}`);
    }
  }
}
