/**
 * The chain in a pool of worker threads (issue 13), each page under a time budget enforced from
 * outside the work (issue 14).
 *
 * The crawl thread fetches, deduplicates and schedules; pages go to piscina workers as bytes (the
 * response's buffer is transferred, not copied), each worker parses the page once, runs the
 * spider's chain and returns the finished item with the links worth asking the frontier about.
 * Site state stays consistent because it stays on the crawl thread (site-template.ts): workers
 * ask it for the page's template at the point of the chain where one thread would have read it.
 *
 * Budgets: a watchdog reads the pages' budget slots (budget.ts); a page that held its worker
 * longer than the budget is aborted, piscina terminates that worker and starts a new one, and the
 * page becomes an `other` item with error `timeout in <middleware>`. The crawl goes on.
 */
import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import type { Piscina as PiscinaPool } from 'piscina';
import type { Logger, SiteStore } from '../../core/middleware.js';
import { BudgetTable, SlotState, DEFAULT_PAGE_BUDGET_SECS, WATCHDOG_MS, WALL_BUDGETS } from './budget.js';
import { errorItem, PARSE_STAGE, PoolClosedError, type PageOutcome, type PageTask } from './outcome.js';
import type { PortMessage, PoolTask, WorkerInit, WorkerMessage } from './protocol.js';
import { SITE_DATA_KEY, TemplateHost, templateSettings, type TemplateAnswer, type TemplateRequest } from '../../chain/site-template.js';
import { SiteStateHub } from './site-state.js';
import { MAX_IN_FLIGHT, LARGE_PAGE_BYTES, CLOSE_WAIT_MS, WORKER_YOUNG_GENERATION_MB, defaultThreads, workerEntry } from './settings.js';
import { SpiderConfigError } from '../../spider/config.js';

export { errorItem, PARSE_STAGE, PoolClosedError, type PageTask, type PageOutcome, type PageEnv } from './outcome.js';
export { DEFAULT_PAGE_BUDGET_SECS, WATCHDOG_MS, WALL_BUDGETS } from './budget.js';
export { MAX_IN_FLIGHT, LARGE_PAGE_BYTES, CLOSE_WAIT_MS, WORKER_YOUNG_GENERATION_MB, defaultThreads, workerSpiderModule } from './settings.js';

/** What the workers build their chain from (`WorkerInit`, less what the pool adds itself), and the pool's own settings. */
export interface ChainPoolOptions extends Omit<WorkerInit, 'debug' | 'budget' | 'epoch'> {
  /** Worker threads (default: one per core). */
  threads?: number;
  /** Per-page budget in seconds (default DEFAULT_PAGE_BUDGET_SECS). */
  pageBudgetSecs?: number;
  /** Where site templates live (the crawl's site store); may be given later (`useStore`), before
   * the first page. */
  store?: SiteStore;
  /** The crawl thread runs the chain on the same site store too (`--threads 0`, with this pool
   * for its large pages): the workers get every site key afresh, not only the ones they changed. */
  sharedStore?: boolean;
  log: Logger;
}

interface InFlight {
  abort: AbortController;
  /** Stage that was running when the budget ran out. */
  timedOut?: string;
  /** When the watchdog first saw the page running in a worker (ms, Date.now()). */
  startedAt?: number;
}

export class ChainPool {
  private readonly inFlight = new Map<number, InFlight>();
  /** Each live worker's own port (template requests, close). */
  private readonly ports = new Set<MessagePort>();
  private host?: TemplateHost;
  private readonly budgetMs: number;
  private names: string[] = [];
  /** Workers that have built their chain or failed to (`loaded`). */
  private settled = 0;
  private onSettled?: () => void;
  private warned = false;
  private closed = false;
  private closing?: Promise<void>;
  private readonly watchdog: NodeJS.Timeout;
  /** Pages stopped by their budget, by stage. */
  readonly timeouts: Record<string, number> = {};
  /** Order. Pages pass each middleware in the order they reached the pool — the order the crawl
   * thread received them, in which one thread would have run them — with the site state the earlier
   * pages of their site left (site-state.ts): the same pages in the same order give the same items
   * with 1 or N threads. No deadlock: pages are handed to piscina only when a worker is free, in
   * order (`takeWorker`), so the earliest page of a site in the pool is always running. */
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private lastSeq = 0;
  /** Large pages waiting for the one large-page place (LARGE_PAGE_BYTES), in order. */
  private largeBusy = false;
  private readonly largeQueue: Array<() => void> = [];
  private readonly state: SiteStateHub;
  /** Where the workers' log lines go (`useLog`). */
  private log: Logger;

  private constructor(
    private readonly pool: PiscinaPool,
    private readonly o: ChainPoolOptions,
    readonly threads: number,
    private readonly table: BudgetTable,
  ) {
    this.budgetMs = (o.pageBudgetSecs ?? DEFAULT_PAGE_BUDGET_SECS) * 1000;
    this.log = o.log;
    this.state = new SiteStateHub(new Set([SITE_DATA_KEY]), o.sharedStore ?? false);
    if (o.store) this.useStore(o.store);
    pool.on('message', (m: WorkerMessage) => this.onMessage(m));
    // A worker that fails outside a task once the chain is up is reported by name (at start-up the
    // failure is what `create` throws).
    pool.on('error', (e: Error) => {
      this.settle();
      if (this.names.length) this.log.error(`chain worker failed: ${e.message}`);
    });
    this.watchdog = setInterval(() => this.watch(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  /** Start the workers; resolves once one of them has built the chain (a spider module that
   * cannot load fails here, before any page). */
  static async create(o: ChainPoolOptions): Promise<ChainPool> {
    const { Piscina } = await import('piscina');
    const threads = Math.max(1, o.threads ?? defaultThreads());
    const filename = workerEntry();
    const table = BudgetTable.create(MAX_IN_FLIGHT);
    const init: WorkerInit = {
      spider: o.spider,
      middleware: o.middleware,
      spiderModule: o.spiderModule,
      timezone: o.timezone,
      stateDir: o.stateDir,
      links: o.links,
      debug: !!o.log.debugEnabled,
      budget: table.buffer,
      epoch: table.epoch,
    };
    const pool = new Piscina({
      filename,
      minThreads: threads,
      maxThreads: threads,
      // One page at a time per worker: a worker that is terminated takes only its own page along.
      concurrentTasksPerWorker: 1,
      // Workers wait on their port, not in Atomics.wait: their event loop stays free for the
      // template answers and the close message.
      atomics: 'disabled',
      idleTimeout: Number.MAX_SAFE_INTEGER,
      workerData: init,
      // the small-heap policy (GLEANER_HEAP=small, src/crawler/memory.ts) caps the workers' nursery
      ...(process.env.GLEANER_HEAP === 'small' ? { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } } : {}),
    });
    const cp = new ChainPool(pool, o, threads, table);
    try {
      await cp.ready();
    } catch (e) {
      // No worker could build the chain: stop piscina starting new ones and say why, once.
      clearInterval(cp.watchdog);
      await cp.loaded(CLOSE_WAIT_MS);
      await pool.destroy().catch(() => {});
      const why = (e as Error).message;
      throw o.spiderModule
        ? new SpiderConfigError(`${path.relative(process.cwd(), o.spiderModule) || o.spiderModule}: cannot load in the chain's worker threads: ${why}`)
        : new Error(`the chain's worker threads could not start: ${why}`);
    }
    return cp;
  }

  private ready(): Promise<void> {
    if (this.names.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onMessage = (m: WorkerMessage) => {
        if (m?.gleaner !== 'chain') return;
        this.pool.off('message', onMessage);
        this.pool.off('error', onError);
        resolve();
      };
      const onError = (e: Error) => {
        this.pool.off('message', onMessage);
        this.pool.off('error', onError);
        reject(e);
      };
      this.pool.on('message', onMessage);
      this.pool.on('error', onError);
    });
  }

  private templateAnswer(req: TemplateRequest): TemplateAnswer {
    if (!this.host) throw new Error('chain pool: a page arrived before the site store (useStore)');
    return this.host.answer(req);
  }

  private onMessage(m: WorkerMessage): void {
    if (!m || typeof m !== 'object') return;
    switch (m.gleaner) {
      case 'port': {
        const port = m.port;
        this.ports.add(port);
        port.on('close', () => this.ports.delete(port));
        port.on('message', (pm: PortMessage) => {
          switch (pm.gleaner) {
            case 'stage': {
              const { gleaner: _tag, template, ...req } = pm;
              this.state.stage(port, req, (a) => {
                // the template answers the page as it enters the stage: in the site's order
                const t = template && this.templateAnswer(template);
                port.postMessage({ gleaner: 'enter', ...a, template: t } satisfies PortMessage, t ? ([t.keys.buffer, t.mask.buffer] as ArrayBuffer[]) : []);
              });
              return;
            }
            case 'left': {
              const { gleaner: _tag, ...left } = pm;
              this.state.left(port, left);
              return;
            }
            case 'done': {
              const { gleaner: _tag, ...done } = pm;
              this.state.done(port, done);
              return;
            }
            case 'template': {
              const { gleaner: _tag, ...req } = pm;
              const a = this.templateAnswer(req);
              port.postMessage({ gleaner: 'answer', ...a } satisfies PortMessage, [a.keys.buffer, a.mask.buffer] as ArrayBuffer[]);
              return;
            }
            default:
          }
        });
        // after the listeners (adding a 'message' listener refs the port): an idle pool must not
        // keep the process alive
        port.unref();
        return;
      }
      case 'log':
        this.log[m.level](m.msg, m.data);
        return;
      case 'chain':
        this.settle();
        this.names = m.names;
        if (!this.warned) for (const w of m.warnings) this.log.warning(w);
        this.warned = true;
        return;
      default:
    }
  }

  /** The site store the crawl thread keeps site templates in. */
  useStore(store: SiteStore): void {
    this.host = new TemplateHost(store, templateSettings(this.o.middleware)?.options ?? {}, this.log);
    this.state.store = store;
  }

  /** The crawl's own logger (it counts lines by level for the stats file), for a pool started
   * before the crawl with the plain one (`startChainPool`). The debug switch stays the one the
   * workers started with. */
  useLog(log: Logger): void {
    this.log = log;
  }

  /** Wait for a free worker, first come first served. */
  private takeWorker(): Promise<void> {
    if (this.running < this.threads && !this.queue.length) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.queue.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private releaseWorker(): void {
    this.running--;
    this.queue.shift()?.();
  }

  /** Name of a stage index written by a worker (0 = parse, i = the i-th middleware). */
  stageName(stage: number): string {
    if (stage <= 0) return stage === 0 ? PARSE_STAGE : 'links';
    return this.names[stage - 1] ?? `stage ${stage}`;
  }

  private watch(): void {
    const now = Date.now();
    for (const [slot, f] of this.inFlight) {
      if (f.timedOut) continue;
      const state = this.table.state(slot);
      if (state !== SlotState.Running && state !== SlotState.Waiting) continue;
      f.startedAt ??= now;
      if (this.table.spent(slot) > this.budgetMs || now - f.startedAt > WALL_BUDGETS * this.budgetMs) {
        f.timedOut = this.stageName(this.table.stageOf(slot));
        f.abort.abort(new Error(`timeout in ${f.timedOut}`));
      }
    }
  }

  /** Run one page through the chain in a worker. */
  async run(task: PageTask, spiderName: string): Promise<PageOutcome> {
    if (this.closed) throw new PoolClosedError(task.url);
    const slot = this.table.acquire();
    if (slot === undefined) throw new Error(`more than ${MAX_IN_FLIGHT} pages in flight`);
    const f: InFlight = { abort: new AbortController() };
    this.inFlight.set(slot, f);
    let body = task.body;
    const transferList: ArrayBuffer[] = [];
    if (body instanceof Uint8Array) {
      // Transfer the bytes; a view into a larger (pooled) buffer is copied first.
      if (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength || !(body.buffer instanceof ArrayBuffer)) body = new Uint8Array(body);
      transferList.push(body.buffer as ArrayBuffer);
    }
    let seq = 0;
    const large = (body instanceof Uint8Array ? body.byteLength : body.length) > LARGE_PAGE_BYTES;
    let holdsLarge = false;
    try {
      await this.takeWorker();
      seq = ++this.lastSeq;
      this.state.admit(seq, task.siteKey);
      // After its place in the order is taken: the large page holding the place is always an
      // earlier one, which never waits for this one.
      if (large) {
        await this.takeLarge();
        holdsLarge = true;
        if (this.closed) throw new PoolClosedError(task.url);
      }
      const pt: PoolTask = { ...task, body, slot, seq };
      // On success the worker's `done` message lets the site's next pages through (after its last
      // changes: both on the worker's port, in order); after a failure the page leaves here.
      const outcome = (await this.pool.run(pt, { transferList, signal: f.abort.signal })) as PageOutcome;
      return outcome;
    } catch (e) {
      if (seq) this.state.leave(seq, task.siteKey);
      if (f.timedOut) {
        this.timeouts[f.timedOut] = (this.timeouts[f.timedOut] ?? 0) + 1;
        return { type: 'timeout', stage: f.timedOut, item: errorItem(task, spiderName, `timeout in ${f.timedOut}`) };
      }
      if (this.closed) throw new PoolClosedError(task.url);
      const err = e as Error & { code?: string };
      if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /worker exited/i.test(err?.message ?? '')) {
        const stage = this.stageName(this.table.stageOf(slot));
        return { type: 'crashed', stage, item: errorItem(task, spiderName, `worker failed in ${stage}: ${err.message}`) };
      }
      throw e;
    } finally {
      this.inFlight.delete(slot);
      this.table.release(slot);
      if (holdsLarge) this.releaseLarge();
      if (seq) this.releaseWorker();
    }
  }

  private takeLarge(): Promise<void> {
    if (!this.largeBusy) {
      this.largeBusy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.largeQueue.push(resolve));
  }

  private releaseLarge(): void {
    const next = this.largeQueue.shift();
    if (next) next();
    else this.largeBusy = false;
  }

  private settle(): void {
    this.settled++;
    this.onSettled?.();
  }

  /** Until every worker has built its chain (or failed to), at most `ms`: Node 20 aborts the process
   * (v8::Module::IsGraphAsync, exit 134) when a worker is terminated while it loads ES modules. */
  private async loaded(ms: number): Promise<void> {
    if (this.settled >= this.threads) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.onSettled = () => this.settled >= this.threads && resolve();
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.onSettled = undefined;
  }

  /** Close the workers: let them close their chains (`Middleware.close`, bounded by CLOSE_WAIT_MS;
   * skipped when not `graceful`, e.g. on a signal), then terminate them. Pages still in flight
   * are not processed (`PoolClosedError`). */
  close(graceful = true): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      clearInterval(this.watchdog);
      if (graceful) {
        // Each worker closes its chain (`Middleware.close`) and says so; a stuck one is not waited for.
        const closed = [...this.ports].map(
          (port) =>
            new Promise<void>((resolve) => {
              port.on('message', (pm: PortMessage) => pm.gleaner === 'closed' && resolve());
              port.unref();
              port.postMessage({ gleaner: 'close' } satisfies PortMessage);
            }),
        );
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(closed), new Promise<void>((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
      }
      await this.loaded(CLOSE_WAIT_MS);
      await this.pool.destroy();
      // pages still waiting for a worker (or the large-page place) find the pool closed
      for (const next of this.queue.splice(0)) next();
      for (const next of this.largeQueue.splice(0)) next();
    })();
    return this.closing;
  }
}
