/**
 * Where a page's middleware chain runs: a pool of worker threads (the default, one per core), or
 * this thread (`threads: 0`, or `extraMiddleware` objects that cannot be sent to a thread) — with a
 * one-thread side pool for large pages, which keeps the per-page budget where a stuck page would
 * otherwise block fetching and signals.
 */
import type { Logger, SiteStore } from '../../core/middleware.js';
import type { SpiderConfig } from '../../spider/config.js';
import type { LinkPolicy } from '../links.js';
import { ChainPool, defaultThreads, workerSpiderModule } from '../pool/index.js';
import type { PageOutcome, PageTask } from '../pool/outcome.js';
import type { InlineChain } from '../pool/inline-chain.js';

export interface ChainRunnerOptions {
  /** Worker threads (overrides `crawler.threads`; default one per core; 0: this thread). */
  threads?: number;
  /** A pool already started for this spider (the CLI starts it while the crawler loads). */
  chainPool?: Promise<ChainPool>;
  /** The spider's file: worker threads import its `extraMiddleware` from it. */
  spiderModule?: string;
  stateDir: string;
  links: LinkPolicy;
  store: SiteStore;
  log: Logger;
  /** Pages larger than this run in the side pool when the chain is on this thread. */
  inlineMaxBytes: number;
}

export class ChainRunner {
  private pool: ChainPool | undefined;
  private inlineChain: InlineChain | undefined;
  private sidePool: Promise<ChainPool> | undefined;

  private constructor(
    private readonly spider: SpiderConfig,
    private readonly o: ChainRunnerOptions,
    /** Every pool this run started: closed by `runSpider` whatever happens. */
    private readonly pools: Array<Promise<ChainPool>>,
    private readonly poolStart: Promise<ChainPool> | undefined,
    private readonly extraObjects: boolean,
  ) {}

  /** Workers start now (or were started by the caller) and load the chain while the crawl opens the
   * rest; `ready()` awaits them. Without workers the chain is opened on this thread. */
  static async start(spider: SpiderConfig, o: ChainRunnerOptions, pools: Array<Promise<ChainPool>>): Promise<ChainRunner> {
    const threads = o.threads ?? spider.crawler?.threads ?? defaultThreads();
    // Middleware objects cannot be sent to a thread; a spider file can be imported there.
    const extraObjects = !!spider.extraMiddleware?.length && !o.spiderModule;
    if (threads > 0 && extraObjects) o.log.debug('extraMiddleware given as objects: the chain runs on the crawl thread (pass the spider file as spiderModule to use worker threads)');
    const poolStart = threads > 0 && !extraObjects ? (o.chainPool ?? ChainPool.create({ ...poolOptions(spider, o), threads })) : undefined;
    for (const p of new Set([poolStart, o.chainPool])) if (p) pools.push(p);
    const runner = new ChainRunner(spider, o, pools, poolStart, extraObjects);
    if (!poolStart) {
      runner.inlineChain = await (await import('../pool/inline-chain.js')).openInlineChain(spider, { stateDir: o.stateDir, store: o.store, log: o.log, links: o.links });
      // The side pool for large pages imports the spider file in a worker: started now, so a spider
      // that cannot load there fails the crawl before any request, not at its first large page.
      if (workerSpiderModule(spider, o.spiderModule)) runner.startSidePool();
    }
    return runner;
  }

  /** The chain runs on this thread (parsing a big page is one long synchronous step here). */
  get inline(): boolean {
    return !!this.inlineChain;
  }

  private startSidePool(): Promise<ChainPool> {
    if (!this.sidePool) this.pools.push((this.sidePool = ChainPool.create({ ...poolOptions(this.spider, this.o), threads: 1, sharedStore: true })));
    return this.sidePool;
  }

  /** The workers have loaded the chain; their log and site store are the crawl's. */
  async ready(log: Logger, store: SiteStore): Promise<void> {
    if (this.sidePool) await this.sidePool;
    this.pool = await this.poolStart;
    this.pool?.useLog(log);
    this.pool?.useStore(store);
  }

  async run(task: PageTask): Promise<PageOutcome> {
    if (this.pool) return this.pool.run(task, this.spider.name);
    const size = typeof task.body === 'string' ? task.body.length : task.body.byteLength;
    if (size > this.o.inlineMaxBytes && !this.extraObjects) return (await this.startSidePool()).run(task, this.spider.name);
    return this.inlineChain!.run(task);
  }

  /** Close the chain; `finished`: let the workers finish what they hold (not after a signal). */
  async close(finished: boolean): Promise<void> {
    if (this.inlineChain) await this.inlineChain.close();
    await Promise.all([this.pool?.close(finished), this.sidePool?.then((p) => p.close(finished)).catch(() => {})]);
  }
}

function poolOptions(spider: SpiderConfig, o: ChainRunnerOptions) {
  const c = spider.crawler ?? {};
  return { spider: spider.name, middleware: spider.middleware, spiderModule: workerSpiderModule(spider, o.spiderModule), timezone: spider.timezone, stateDir: o.stateDir, links: o.links, pageBudgetSecs: c.pageBudgetSecs, store: o.store, log: o.log };
}
