/**
 * What this run of a spider is, decided once before any request: a fresh crawl, the resumption of an
 * interrupted one, an incremental recrawl pass after a finished one, a restart after a finished one,
 * or one worker of a shared crawl. It opens the frontier (the journal, or the one given), the page
 * memory of the recrawl pass, and repairs the dataset an interrupted run left (its items are known to
 * the pipeline, so nothing is stored twice).
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import type { Logger } from '../../core/middleware.js';
import type { Item } from '../../core/item.js';
import type { SpiderConfig } from '../../spider/config.js';
import { DEFAULT_MAX_QUEUED, JournalFrontier, type Frontier } from '../frontier.js';
import { PageMemory, type RecrawlOptions } from '../recrawl.js';
import { datasetEntries, repairDataset } from '../../storage/item-sink.js';

/** Where a spider's files live under the storage root. */
export interface CrawlPaths {
  storageDir: string;
  /** `storage/gleaner`: the journal, site state, page memory, stats. */
  stateDir: string;
  /** `storage/datasets/<spider>`. */
  datasetDir: string;
}

export function crawlPaths(spider: string, storageDir?: string): CrawlPaths {
  const root = path.resolve(storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
  return { storageDir: root, stateDir: path.join(root, 'gleaner'), datasetDir: path.join(root, 'datasets', spider) };
}

/** fresh: nothing before (or `--fresh`); resumed: an interrupted crawl goes on; recrawl: an incremental
 * pass after a finished crawl; restart: a finished crawl starts over; shared: the frontier is another's. */
export type RunMode = 'fresh' | 'resumed' | 'recrawl' | 'restart' | 'shared';

export interface CrawlState {
  mode: RunMode;
  frontier: Frontier;
  pageMemory: PageMemory;
  recrawlOptions: RecrawlOptions | undefined;
  /** A recrawl pass is running (the dataset is kept, list and thread pages re-visited). */
  recrawling: boolean;
  resumed: boolean;
  /** Items stored by the earlier runs of this crawl (a resumed crawl, a recrawl pass). */
  previousItems: Item[];
  /** Pages fetched successfully by earlier runs of this crawl: the page budget counts them. */
  previousPages: number;
}

export interface StateOptions {
  fresh?: boolean;
  /** The run's `--recrawl` (an object overrides the spider's `recrawl` options). */
  recrawl?: boolean | RecrawlOptions;
  /** A frontier to use instead of the journal (a shared crawl). */
  frontier?: Frontier;
  /** Items go elsewhere (a shared crawl's store): no local dataset to repair. */
  sharedItems?: boolean;
}

export function openCrawlState(spider: SpiderConfig, o: StateOptions, paths: CrawlPaths, log: Logger): CrawlState {
  const { stateDir, datasetDir } = paths;
  if (o.fresh) rmSync(datasetDir, { recursive: true, force: true });
  const maxQueued = spider.crawler?.maxQueued ?? DEFAULT_MAX_QUEUED;
  const onQueueFull = (n: number) => log.warning(`the frontier holds ${n.toLocaleString('en')} requests (crawler.maxQueued): links found beyond are dropped, not queued`);
  const frontier: Frontier = o.frontier ?? JournalFrontier.open(stateDir, spider.name, { fresh: o.fresh, maxQueued, onQueueFull });
  const journal = frontier instanceof JournalFrontier ? frontier : undefined;
  const pageMemory = PageMemory.open(journal ? path.join(stateDir, `${spider.name}.pages.json`) : undefined);
  if (o.fresh) pageMemory.clear();
  const recrawlOptions: RecrawlOptions | undefined = o.recrawl ? { ...(spider.recrawl ?? {}), ...(typeof o.recrawl === 'object' ? o.recrawl : {}) } : spider.recrawl;
  let restarted = false;
  if (journal?.previousFinished && !o.fresh) {
    if (recrawlOptions && pageMemory.size) {
      const due = pageMemory.startPass(recrawlOptions, new Date(), datasetEntries(datasetDir), () => storedPages(journal), (pages) => journal.revisit(pages.map(([url, r]) => ({ url, label: r.label, depth: r.depth, revisit: true }))));
      log.info(`recrawl pass ${pageMemory.pass}: re-visiting ${due.length} list and thread pages (dataset kept; only unseen links are followed)`);
    } else {
      log.info(`the previous crawl of "${spider.name}" finished: starting over (dataset replaced; an interrupted crawl would resume)`);
      journal.reset();
      pageMemory.clear();
      rmSync(datasetDir, { recursive: true, force: true });
      restarted = true;
    }
  }
  // No journal at all: this is the spider's first local crawl on this storage, and a dataset already
  // there is not its own (a shared Redis crawl's export, a copy): it is replaced, not resumed from.
  if (journal && !journal.resumed && !o.fresh && !o.sharedItems && datasetEntries(datasetDir) > 0) {
    log.info(`no earlier local crawl of "${spider.name}" on this storage: the dataset found there (${datasetEntries(datasetDir)} items, not written by one) is replaced`);
    rmSync(datasetDir, { recursive: true, force: true });
  }
  const recrawling = pageMemory.pass > 0;
  const resumed = journal ? journal.resumed && !journal.previousFinished && !o.fresh : false;
  const previousItems = o.sharedItems ? [] : repairDataset(datasetDir);
  journal?.markStored(previousItems.map((i) => i.url));
  if (resumed) log.info(`resuming: ${previousItems.length} items stored, ${frontier.stats().pending} requests pending`);
  const previousPages = Math.max(0, storedPages(frontier) - (recrawling ? pageMemory.passBaseline : 0));
  const mode: RunMode = !journal ? 'shared' : recrawling ? 'recrawl' : resumed ? 'resumed' : restarted ? 'restart' : 'fresh';
  return { mode, frontier, pageMemory, recrawlOptions, recrawling, resumed, previousItems, previousPages };
}

/** Pages the frontier has done successfully (done − failed − skipped). */
function storedPages(frontier: Frontier): number {
  const st = frontier.stats();
  return st.done - st.failed - (st.skipped ?? 0);
}
