/** openOutputs (src/crawler/run/outputs.ts): the item pipeline in front of the local dataset (or a
 * shared sink), the feeds and `onItem`; the site store. */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Item } from '../../../src/core/item.js';
import { PageMemory } from '../../../src/crawler/recrawl.js';
import { openOutputs } from '../../../src/crawler/run/outputs.js';
import { crawlPaths, type CrawlState } from '../../../src/crawler/run/state.js';
import type { SpiderConfig } from '../../../src/spider/config.js';
import { LowdbSiteStore, MemorySiteStore } from '../../../src/storage/site-store.js';
import { article, listPage, MemoryFrontier, recordingLogger, RecordingSink } from './fakes.js';

const U = 'http://news.example';
const spider: SpiderConfig = { name: 'news', startUrls: [`${U}/`] };

function state(over: Partial<CrawlState> = {}): CrawlState {
  return { mode: 'fresh', frontier: new MemoryFrontier(), pageMemory: PageMemory.open(undefined), recrawlOptions: undefined, recrawling: false, resumed: false, previousItems: [], previousPages: 0, ...over };
}

function dirs() {
  const root = mkdtempSync(path.join(tmpdir(), 'gleaner-outputs-'));
  return { root, paths: crawlPaths('news', path.join(root, 'storage')) };
}

const datasetUrls = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item).url);
const feedUrls = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as Item).url);

describe('openOutputs', () => {
  it('a resumed crawl: new items go to the dataset, every feed (rewritten with the earlier items) and onItem; earlier items are not stored twice', async () => {
    const { root, paths } = dirs();
    const feed = path.join(root, 'items.jsonl');
    const previousItems = [article(`${U}/a`), article(`${U}/b`)];
    const got: string[] = [];
    const log = recordingLogger();
    const out = await openOutputs(spider, { onItem: (i) => void got.push(i.url) }, [{ path: feed }], state({ mode: 'resumed', resumed: true, previousItems }), paths, log);
    expect(out.dataset?.dir).toBe(paths.datasetDir);
    expect(await out.pipeline.process(article(`${U}/c`))).toBe('stored');
    expect(await out.pipeline.process(article(`${U}/a`))).toBe('duplicate');
    await out.pipeline.close();
    expect(datasetUrls(paths.datasetDir)).toEqual([`${U}/c`]);
    expect(feedUrls(feed)).toEqual([`${U}/a`, `${U}/b`, `${U}/c`]);
    expect(got).toEqual([`${U}/c`]);
    expect(out.pipeline.duplicates).toBe(1);
    // the site store: storage/gleaner/<spider>.json
    expect(out.store).toBeInstanceOf(LowdbSiteStore);
    const site = out.store.site('news.example');
    site.data.learned = 1;
    site.touch();
    await out.store.flush();
    expect(JSON.parse(readFileSync(path.join(paths.stateDir, 'news.json'), 'utf8')).sites['news.example']).toEqual({ learned: 1 });
  });

  it('a recrawl pass: the feeds hold the pass\'s own items (after the entries it started with)', async () => {
    const { root, paths } = dirs();
    const feed = path.join(root, 'pass.jsonl');
    const pageMemory = PageMemory.open(undefined);
    pageMemory.record(`${U}/list`, listPage(`${U}/list`, []), { depth: 0, fetchedAt: new Date(0) });
    // the pass started with 2 dataset entries; the third was stored by this pass before an interruption
    pageMemory.startPass({}, new Date(), 2, () => 2, () => {});
    const previousItems = [article(`${U}/a`), listPage(`${U}/list`, []), article(`${U}/new-1`)];
    const out = await openOutputs(spider, {}, [{ path: feed }], state({ mode: 'recrawl', recrawling: true, pageMemory, previousItems }), paths, recordingLogger());
    await out.pipeline.process(article(`${U}/new-2`));
    await out.pipeline.close();
    expect(feedUrls(feed)).toEqual([`${U}/new-1`, `${U}/new-2`]);
  });

  it('a shared item sink: no local dataset and no feeds (written from the shared stream later); the given site store is used', async () => {
    const { root, paths } = dirs();
    const feed = path.join(root, 'items.jsonl');
    const sink = new RecordingSink();
    const siteStore = new MemorySiteStore();
    const out = await openOutputs(spider, { itemSink: sink, siteStore }, [{ path: feed }], state({ mode: 'shared' }), paths, recordingLogger());
    expect(out.dataset).toBeUndefined();
    expect(out.store).toBe(siteStore);
    await out.pipeline.process(article(`${U}/x`));
    await out.pipeline.close();
    expect(sink.items.map((i) => i.url)).toEqual([`${U}/x`]);
    expect(sink.closed).toBe(true);
    expect(existsSync(paths.datasetDir)).toBe(false);
    expect(existsSync(feed)).toBe(false);
    expect(existsSync(path.join(paths.stateDir, 'news.json'))).toBe(false);
  });

  it("the spider's pipeline stages run (opened before the first item), and what they drop is counted", async () => {
    const { paths } = dirs();
    const opened: string[] = [];
    const withStages: SpiderConfig = {
      ...spider,
      pipelines: [
        { name: 'needs-title', open: () => void opened.push('needs-title'), process: (item, ctx) => (item.title ? item : ctx.drop('no title')) },
        (item) => ({ ...item, title: item.title?.toUpperCase() }),
      ],
    };
    const sink = new RecordingSink();
    const out = await openOutputs(withStages, { itemSink: sink }, [], state(), paths, recordingLogger());
    expect(opened).toEqual(['needs-title']);
    await out.pipeline.process(article(`${U}/1`, { title: 'budget' }));
    await out.pipeline.process(article(`${U}/2`, { title: undefined }));
    expect(sink.items.map((i) => i.title)).toEqual(['BUDGET']);
    expect(out.pipeline.dropped).toEqual({ 'no title': 1 });
  });
});
