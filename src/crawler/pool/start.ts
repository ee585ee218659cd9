/**
 * Start a spider's chain pool ahead of the crawl: `gleaner crawl` does it as soon as the spider
 * is loaded, so the workers load the chain while the crawl thread loads the crawler (Crawlee,
 * got-scraping); both take about a second here, one after the other before. Light imports only.
 */
import path from 'node:path';
import type { Logger } from '../../core/middleware.js';
import type { SpiderConfig } from '../../spider/config.js';
import { linkPolicyOf } from '../links.js';
import { ChainPool, defaultThreads, workerSpiderModule } from './index.js';

export interface StartOptions {
  threads?: number;
  /** The spider's file (workers import its `extraMiddleware`). */
  spiderModule?: string;
  storageDir?: string;
  log: Logger;
}

/** The pool the crawl of `spider` will use, or undefined when its chain runs on the crawl thread
 * (`threads: 0`, or `extraMiddleware` objects without a file to import them from). */
export function startChainPool(spider: SpiderConfig, o: StartOptions): Promise<ChainPool> | undefined {
  const threads = o.threads ?? spider.crawler?.threads ?? defaultThreads();
  if (threads <= 0 || (spider.extraMiddleware?.length && !o.spiderModule)) return undefined;
  const storageDir = path.resolve(o.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
  return ChainPool.create({
    threads,
    spider: spider.name,
    middleware: spider.middleware,
    spiderModule: workerSpiderModule(spider, o.spiderModule),
    timezone: spider.timezone,
    stateDir: path.join(storageDir, 'gleaner'),
    links: linkPolicyOf(spider),
    pageBudgetSecs: spider.crawler?.pageBudgetSecs,
    log: o.log,
  });
}

