/**
 * Where a run's items go: the local dataset (or a shared crawl's item sink), the feeds, the caller's
 * `onItem`, all behind the spider's item pipeline; and the site state store the chain learns into.
 */
import path from 'node:path';
import type { Item } from '../../core/item.js';
import type { Logger, SiteStore } from '../../core/middleware.js';
import type { SpiderConfig } from '../../spider/config.js';
import { LowdbSiteStore } from '../../storage/site-store.js';
import { CallbackSink, DatasetFileSink, type ItemSink } from '../../storage/item-sink.js';
import { openFeed, type FeedSpec } from '../../storage/feed-sink.js';
import { ItemPipeline } from '../pipeline.js';
import { urlNormalisation } from '../normalise-url.js';
import type { CrawlPaths, CrawlState } from './state.js';
import { ThreadMerger } from './thread-merge.js';

export interface CrawlOutputs {
  /** The local dataset (absent when items go to a shared sink). */
  dataset: DatasetFileSink | undefined;
  pipeline: ItemPipeline;
  store: SiteStore;
  /** A forum thread's pages held until they are stored as one item (spider `thread: 'merge'`). */
  threads?: ThreadMerger;
}

export interface OutputOptions {
  /** Where items go instead of the local dataset and feeds (a shared crawl's store). */
  itemSink?: ItemSink;
  onItem?: (item: Item) => void | Promise<void>;
  siteStore?: SiteStore;
}

export async function openOutputs(spider: SpiderConfig, o: OutputOptions, feeds: FeedSpec[], state: CrawlState, paths: CrawlPaths, log: Logger): Promise<CrawlOutputs> {
  const dataset = o.itemSink ? undefined : DatasetFileSink.open(paths.storageDir, spider.name);
  const sinks: ItemSink[] = o.itemSink ? [o.itemSink] : [dataset!];
  // With a shared item sink (Redis) the feeds are written from the crawl's stream when it finishes.
  // A recrawl pass's feeds hold the pass's own items (those after the entries it started with).
  const previous = state.recrawling ? state.previousItems.slice(state.pageMemory.datasetStart) : state.previousItems;
  if (!o.itemSink) for (const f of feeds) sinks.push(openFeed(f, previous));
  if (o.onItem) sinks.push(new CallbackSink(o.onItem));
  const pipeline = new ItemPipeline(sinks, log, state.previousItems, { stages: spider.pipelines, spider: spider.name });
  await pipeline.open();
  const store = o.siteStore ?? (await LowdbSiteStore.open(path.join(paths.stateDir, `${spider.name}.json`)));
  // Whole threads: local crawls, not recrawl passes (thread-merge.ts).
  const merge = (spider.thread ?? 'merge') === 'merge' && !o.itemSink && !state.recrawling;
  const threads = merge ? ThreadMerger.open(paths.stateDir, spider.name, urlNormalisation(spider), state.resumed, log) : undefined;
  return { dataset, pipeline, store, threads };
}

/** The end of a run: a finished crawl stores the threads still held (an interrupted one keeps them
 * for the resumed run). Before the pipeline closes. */
export async function finishThreads(out: CrawlOutputs, finished: boolean): Promise<void> {
  if (!out.threads) return;
  const items = out.threads.finish(finished);
  for (const it of items) await out.pipeline.process(it);
  out.threads.stored(items);
  out.threads.close(finished);
}
