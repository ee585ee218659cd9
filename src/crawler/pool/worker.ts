/**
 * A pool worker: builds the spider's chain once (built-ins by the spider's settings, plus the
 * `extraMiddleware` of its spider file), then runs pages through it (`runPageTask`), writing its
 * progress into the page's budget slot so the crawl thread can stop a page that overruns.
 *
 * Site state (site-state.ts): before each middleware the page asks the crawl thread to enter it
 * — the answer comes once the site's earlier pages are past it, with the state they left — and
 * hands over what the middleware before changed. The site template is asked for separately
 * (src/chain/site-template.ts) when the chain reaches `template-learner` / `set-difference`.
 */
import { MessageChannel, parentPort, workerData } from 'node:worker_threads';
import type { Logger, Middleware, MiddlewareEnv, PageContext, SiteState, SiteStore } from '../../core/middleware.js';
import { KIND_OF_LABEL, type PageLabel } from '../../core/item.js';
import { buildChain, closeChain, openChain } from '../../chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../../chain/builtins.js';
import { DEFAULT_TEMPLATE_PATH_MODE, SITE_DATA_KEY, templateSettings, TemplateSnapshot, type PathMode, type TemplateAnswer, type TemplateRequest } from '../../chain/site-template.js';
import { BudgetTable } from './budget.js';
import { runPageTask, type PageEnv, type PageOutcome } from './page-task.js';
import type { PortMessage, PoolTask, WorkerInit, WorkerMessage } from './protocol.js';
import { WorkerSiteCache, type KeyChange, type StageAnswer } from './site-state.js';
import { importSpiderModule } from '../../spider/load.js';

const init = workerData as WorkerInit;
const table = new BudgetTable(init.budget, init.epoch);
const post = (m: WorkerMessage) => parentPort!.postMessage(m);

const log: Logger = {
  debug: init.debug ? (msg, data) => post({ gleaner: 'log', level: 'debug', msg, data }) : () => {},
  info: (msg, data) => post({ gleaner: 'log', level: 'info', msg, data }),
  warning: (msg, data) => post({ gleaner: 'log', level: 'warning', msg, data }),
  error: (msg, data) => post({ gleaner: 'log', level: 'error', msg, data }),
  debugEnabled: !!init.debug,
};

// ---- a port of its own to the crawl thread: stages, the template, close ------------------------
const { port1: port, port2 } = new MessageChannel();
parentPort!.postMessage({ gleaner: 'port', port: port2 } satisfies WorkerMessage, [port2]);
const waiting = new Map<number, (a: TemplateAnswer | StageAnswer) => void>();
let requestSeq = 0;
let chain: Middleware[] = [];
const env: MiddlewareEnv = { spider: init.spider, stateDir: init.stateDir, log };
port.on('message', (m: PortMessage) => {
  if (m.gleaner === 'answer' || m.gleaner === 'enter') {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  } else if (m.gleaner === 'close') {
    void closeChain(chain, env).finally(() => port.postMessage({ gleaner: 'closed' } satisfies PortMessage));
  }
});
port.unref(); // after the listener, which refs it

/** Send a request to the crawl thread; the promise of its answer. */
function request<A>(send: (id: number) => void): Promise<A> {
  const id = ++requestSeq;
  const answer = new Promise<A>((resolve) => waiting.set(id, resolve as (a: TemplateAnswer | StageAnswer) => void));
  send(id);
  return answer;
}

/** Wait for an answer of the crawl thread; the page's budget clock stops meanwhile. */
async function awaitAnswer<A>(slot: number | undefined, answer: Promise<A>): Promise<A> {
  if (slot !== undefined) table.pause(slot);
  const a = await answer;
  if (slot !== undefined) table.resume(slot);
  return a;
}

// ---- per page: its task, and its view of the site state -----------------------------------------
interface PageRun {
  slot: number;
  seq: number;
  siteKey: string;
  changes(): KeyChange[];
  /** The site template's answer, asked for with the page-type stage (`wrap`). */
  template?: TemplateAsk;
}
/** The page a context belongs to (its RequestInfo is the task's own object). */
const runs = new WeakMap<object, PageRun>();
const cache = new WorkerSiteCache(new Set([SITE_DATA_KEY]));
/** The page this worker runs (one at a time): `store.site()` is called once per page, by
 * createContext. */
let opening: PoolTask | undefined;
const store: SiteStore = {
  site(key: string): SiteState {
    const view = cache.view(key);
    if (opening) runs.set(opening.request, { slot: opening.slot, seq: opening.seq, siteKey: key, changes: view.changes });
    return { key, data: view.data, touch() {} };
  },
  async flush() {},
};

const tmpl = templateSettings(init.middleware);
/** Path mode the site learners hash under (a stored learner may differ: the host says so). */
let pathMode: PathMode = tmpl?.options.pathMode ?? DEFAULT_TEMPLATE_PATH_MODE;

interface TemplateAsk {
  snapshot: TemplateSnapshot;
  request: TemplateRequest;
  answer?: TemplateAnswer;
}

/** The site template's question for this page's segments (observing the page when `observe`). */
function templateAsk(ctx: PageContext, run: PageRun | undefined, observe: boolean): TemplateAsk {
  const snapshot = new TemplateSnapshot(pathMode);
  const keys = Float64Array.from(snapshot.pageKeys(ctx.page));
  return { snapshot, request: { id: 0, seq: run?.seq ?? 0, siteKey: ctx.siteKey, url: ctx.request.url, keys, pathMode, observe } };
}

/** The site template as this page sees it, in `ctx.site.data` (from the answer that came with the
 * page-type stage, if any). */
async function askTemplate(ctx: PageContext, run: PageRun | undefined, observe: boolean): Promise<void> {
  let asked = run?.template;
  for (let attempt = 0; attempt < 2; attempt++) {
    const { snapshot, request: req, answer } = asked ?? templateAsk(ctx, run, observe);
    asked = undefined;
    const a =
      answer ??
      (await awaitAnswer(
        run?.slot,
        request<TemplateAnswer>((id) => port.postMessage({ gleaner: 'template', ...req, id } satisfies PortMessage, [req.keys.buffer as ArrayBuffer])),
      ));
    if (a.retry) {
      pathMode = a.pathMode;
      continue;
    }
    ctx.site.data[SITE_DATA_KEY] = a.exists ? snapshot.answerWith(a.keys, a) : undefined;
    return;
  }
}

/** Enter stage `stage` (the chain's middleware number `stage`, 1-based) with the site state the
 * earlier pages left, handing over what this page changed since its last stage. */
async function enter(run: PageRun, stage: number, template?: TemplateAsk): Promise<void> {
  const changes = run.changes();
  const t = template?.request;
  const a = await awaitAnswer(
    run.slot,
    request<StageAnswer & { template?: TemplateAnswer }>((id) => port.postMessage({ gleaner: 'stage', id, seq: run.seq, siteKey: run.siteKey, stage, changes, template: t } satisfies PortMessage, t ? [t.keys.buffer as ArrayBuffer] : [])),
  );
  cache.update(run.siteKey, a.updates);
  if (template) run.template = { ...template, answer: a.template };
}

/**
 * Gates on the middleware that keep site state (`siteState`: built-ins say so in
 * src/chain/builtins.ts; user middleware may unless they say `false`); the others run without a
 * round trip. On leaving a gated middleware the page says (without waiting) which gated stage
 * it runs next — by its label, as `runChain` will decide — so the site's later pages may pass
 * the ones in between at once. Each postMessage costs ~0.1–1 ms here: on the realistic bench
 * site one round trip per middleware made postMessage 14% of the crawl's CPU profile.
 */
/** Built-ins that never drop a page (src/chain/builtins.ts): a page that enters one reaches the
 * next middleware. */
const PASS_EVERY_PAGE = new Set(['layout', 'page-type']);

function wrap(chain: Middleware[]): Middleware[] {
  const firstTemplate = chain.findIndex((m) => m.name === 'template-learner' || m.name === 'set-difference');
  const gated = chain.map((m) => m.siteState !== false);
  /** The next gated stage (1-based) after middleware `i` this page will run; past the chain if none. */
  const nextGated = (i: number, ctx: PageContext): number => {
    const kind = ctx.label ? KIND_OF_LABEL[ctx.label as PageLabel] : undefined;
    for (let j = i + 1; j < chain.length; j++) if (gated[j] && (!chain[j]!.kinds || (kind && chain[j]!.kinds!.includes(kind)))) return j + 1;
    return chain.length + 1;
  };
  const observes = (mw: Middleware | undefined) => mw?.name === 'template-learner' && (tmpl?.update ?? true);
  // The gated stage that carries the template's question (the page-type stage): the last gated
  // one before the template stage with only built-ins that pass every page on from it. A page's
  // template answer then comes with its turn at that stage — one round trip less per page, and
  // the template sees the site's pages in the same order as the stage does.
  let carrier = -1;
  for (let j = firstTemplate - 1; j >= 0 && PASS_EVERY_PAGE.has(chain[j]!.name); j--) {
    if (gated[j]) {
      carrier = j;
      break;
    }
  }
  return chain.map((mw, i) => {
    const observe = observes(mw);
    const process = async (ctx: PageContext) => {
      const run = runs.get(ctx.request);
      if (run) table.stage(run.slot, i + 1);
      if (run && gated[i]) await enter(run, i + 1, i === carrier ? templateAsk(ctx, run, observes(chain[firstTemplate])) : undefined);
      if (i === firstTemplate) await askTemplate(ctx, run, observe);
      await mw.process(ctx);
      if (run && gated[i]) port.postMessage({ gleaner: 'left', seq: run.seq, siteKey: run.siteKey, next: ctx.drop ? chain.length + 1 : nextGated(i, ctx), changes: run.changes() } satisfies PortMessage);
    };
    // (what the page does alone runs before it waits for its turn: `Middleware.prepare`)
    const prepare = mw.prepare && ((ctx: PageContext) => {
      const run = runs.get(ctx.request);
      if (run) table.stage(run.slot, i + 1);
      return mw.prepare!(ctx);
    });
    return Object.create(mw, { process: { value: process }, ...(prepare ? { prepare: { value: prepare } } : {}) }) as Middleware;
  });
}

// ---- the chain ----------------------------------------------------------------------------------
let extra: Middleware[] = [];
if (init.spiderModule) {
  const mod = (await importSpiderModule(init.spiderModule)) as { default?: { extraMiddleware?: Middleware[] }; spider?: { extraMiddleware?: Middleware[] } };
  extra = (mod.default ?? mod.spider)?.extraMiddleware ?? [];
}
// Warnings of the chain's build (a middleware that cannot run) go to the crawl thread with the
// chain's names, which logs them once for all workers.
const warnings: string[] = [];
chain = wrap(buildChain(BUILTIN_MIDDLEWARE, { settings: init.middleware, extra }, { ...log, warning: (m) => void warnings.push(m) }));
await openChain(chain, env);
post({ gleaner: 'chain', names: chain.map((m) => m.name), warnings });

const pageEnv: PageEnv = { spider: init.spider, chain, store, log, timezone: init.timezone, links: init.links };

export default async function runTask(task: PoolTask): Promise<PageOutcome> {
  table.stage(task.slot, 0);
  table.start(task.slot);
  opening = task;
  try {
    return await runPageTask(task, pageEnv);
  } finally {
    opening = undefined;
    table.stage(task.slot, -1);
    // The page's last changes; the crawl thread lets the site's next pages through.
    const run = runs.get(task.request);
    port.postMessage({ gleaner: 'done', seq: task.seq, siteKey: run?.siteKey ?? task.siteKey, changes: run?.changes() ?? [] } satisfies PortMessage);
  }
}
