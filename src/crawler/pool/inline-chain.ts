/**
 * The chain on the crawl's own thread (`--threads 0`, or `extraMiddleware` objects without a
 * spider file): built, opened and run here. One module, imported by crawl.ts only when it is
 * needed, so a crawl with worker threads never loads the chain on its thread; and one chunk in
 * the package instead of three (the chain, the built-ins and page-task imported one by one each
 * left a re-export chunk: tarball 61 files, limit 60).
 */
import { buildChain, closeChain, openChain } from '../../chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../../chain/builtins.js';
import type { Middleware, MiddlewareEnv } from '../../core/middleware.js';
import type { SpiderConfig } from '../../spider/config.js';
import { runPageTask } from './page-task.js';
import type { PageEnv, PageOutcome, PageTask } from './outcome.js';

export interface InlineChain {
  env: PageEnv;
  run(task: PageTask): Promise<PageOutcome>;
  close(): Promise<void>;
}

/** The spider's chain, opened, for pages run on this thread. */
export async function openInlineChain(spider: SpiderConfig, o: Omit<PageEnv, 'chain' | 'spider' | 'timezone'> & { stateDir: string }): Promise<InlineChain> {
  const chain: Middleware[] = buildChain(BUILTIN_MIDDLEWARE, { settings: spider.middleware, extra: spider.extraMiddleware ?? [] }, o.log);
  const chainEnv: MiddlewareEnv = { spider: spider.name, stateDir: o.stateDir, log: o.log };
  await openChain(chain, chainEnv);
  const env: PageEnv = { spider: spider.name, chain, store: o.store, log: o.log, timezone: spider.timezone, links: o.links };
  return { env, run: (task) => runPageTask(task, env), close: () => closeChain(chain, chainEnv) };
}
