/** openCrawlState (src/crawler/run/state.ts): what a run is — fresh, resumed, recrawl pass,
 * restart, shared — from the journal, page memory and dataset an earlier run left in a temp dir. */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JournalFrontier } from '../../../src/crawler/frontier.js';
import { PageMemory } from '../../../src/crawler/recrawl.js';
import { crawlPaths, openCrawlState, type CrawlPaths, type CrawlState } from '../../../src/crawler/run/state.js';
import type { SpiderConfig } from '../../../src/spider/config.js';
import { DatasetFileSink } from '../../../src/storage/item-sink.js';
import { article, listPage, MemoryFrontier, recordingLogger, thread } from './fakes.js';

const U = 'http://news.example';
const spider: SpiderConfig = { name: 'news', startUrls: [`${U}/`] };

function paths(): CrawlPaths {
  return crawlPaths('news', mkdtempSync(path.join(tmpdir(), 'gleaner-state-')));
}

/** What an earlier run left: the journal (closed as `finished`, or left open: interrupted),
 * the dataset entries, the page memory. */
async function earlierRun(p: CrawlPaths, o: { finished?: boolean; done?: string[]; pending?: string[]; failed?: string[]; items?: ReturnType<typeof article>[]; memory?: ReturnType<typeof article>[] }) {
  const f = JournalFrontier.open(p.stateDir, 'news');
  f.add([...(o.done ?? []), ...(o.pending ?? []), ...(o.failed ?? [])].map((url) => ({ url, depth: url === `${U}/` ? 0 : 1 })));
  for (const u of o.done ?? []) f.done(u, 'ok');
  for (const u of o.failed ?? []) f.done(u, 'failed');
  if (o.finished !== undefined) f.close(o.finished);
  const sink = DatasetFileSink.open(p.storageDir, 'news');
  for (const item of o.items ?? []) await sink.write(item);
  await sink.close();
  if (o.memory) {
    const m = PageMemory.open(path.join(p.stateDir, 'news.pages.json'));
    for (const item of o.memory) m.record(item.url, item, { label: item.kind === 'list' ? 'list' : 'forum', depth: 1, fetchedAt: new Date(Date.now() - 3_600_000) });
    m.flush();
  }
}

const journal = (st: CrawlState) => st.frontier as JournalFrontier;
const entries = (p: CrawlPaths) => (existsSync(p.datasetDir) ? readdirSync(p.datasetDir).filter((f) => /^\d+\.json$/.test(f)) : []);

describe('crawlPaths', () => {
  it('puts the state under <root>/gleaner and the dataset under <root>/datasets/<spider>', () => {
    expect(crawlPaths('news', '/data/crawl')).toEqual({ storageDir: '/data/crawl', stateDir: '/data/crawl/gleaner', datasetDir: '/data/crawl/datasets/news' });
  });
});

describe('openCrawlState', () => {
  it('an empty storage dir: a fresh crawl, nothing before', () => {
    const p = paths();
    const log = recordingLogger();
    const st = openCrawlState(spider, {}, p, log);
    expect(st.mode).toBe('fresh');
    expect(st.frontier).toBeInstanceOf(JournalFrontier);
    expect(st.resumed).toBe(false);
    expect(st.recrawling).toBe(false);
    expect(st.previousItems).toEqual([]);
    expect(st.previousPages).toBe(0);
    expect(st.frontier.stats()).toMatchObject({ seen: 0, pending: 0 });
    expect(log.lines).toEqual([]);
    journal(st).close(false);
  });

  it('an interrupted crawl resumes: its items known, its pages counted, the pending requests kept', async () => {
    const p = paths();
    await earlierRun(p, { done: [`${U}/`, `${U}/a`], pending: [`${U}/b`, `${U}/c`], failed: [`${U}/gone`], items: [article(`${U}/`), article(`${U}/a`)] });
    const log = recordingLogger();
    const st = openCrawlState(spider, {}, p, log);
    expect(st.mode).toBe('resumed');
    expect(st.resumed).toBe(true);
    expect(st.previousItems.map((i) => i.url)).toEqual([`${U}/`, `${U}/a`]);
    // failed pages are not pages of the budget
    expect(st.previousPages).toBe(2);
    expect(st.frontier.stats()).toMatchObject({ pending: 2, done: 3, failed: 1 });
    expect(log.at('info')).toEqual(['resuming: 2 items stored, 2 requests pending']);
    journal(st).close(false);
  });

  it('resuming repairs the dataset: a torn entry is dropped, an item stored before its request was marked done counts as done', async () => {
    const p = paths();
    // killed after writing /b's item, before journaling it done; and mid-write of a third entry
    await earlierRun(p, { done: [`${U}/`], pending: [`${U}/b`, `${U}/c`], items: [article(`${U}/`), article(`${U}/b`)] });
    writeFileSync(path.join(p.datasetDir, '000000003.json'), '{"url": "http://news.exa');
    const st = openCrawlState(spider, {}, p, recordingLogger());
    expect(st.mode).toBe('resumed');
    expect(st.previousItems.map((i) => i.url)).toEqual([`${U}/`, `${U}/b`]);
    expect(entries(p)).toEqual(['000000001.json', '000000002.json']);
    expect(st.frontier.has(`${U}/b`)).toBe(true);
    expect(st.frontier.stats()).toMatchObject({ pending: 1, done: 2 });
    expect(st.previousPages).toBe(2);
    journal(st).close(false);
  });

  it('after a finished crawl (no recrawl): starts over — journal, page memory and dataset gone', async () => {
    const p = paths();
    await earlierRun(p, { finished: true, done: [`${U}/`, `${U}/list`], items: [article(`${U}/`), listPage(`${U}/list`, [])], memory: [listPage(`${U}/list`, [])] });
    const log = recordingLogger();
    const st = openCrawlState(spider, {}, p, log);
    expect(st.mode).toBe('restart');
    expect(st.resumed).toBe(false);
    expect(st.recrawling).toBe(false);
    expect(st.previousItems).toEqual([]);
    expect(st.previousPages).toBe(0);
    expect(st.frontier.stats()).toMatchObject({ seen: 0, done: 0 });
    expect(st.pageMemory.size).toBe(0);
    expect(existsSync(p.datasetDir)).toBe(false);
    expect(log.at('info')).toEqual(['the previous crawl of "news" finished: starting over (dataset replaced; an interrupted crawl would resume)']);
    journal(st).close(false);
  });

  it('after a finished crawl with `recrawl` and remembered pages: a recrawl pass — dataset kept, lists and threads queued again', async () => {
    const p = paths();
    const items = [article(`${U}/`), listPage(`${U}/list`, [`${U}/story`]), thread(`${U}/thread`, ['hi']), article(`${U}/story`)];
    await earlierRun(p, { finished: true, done: items.map((i) => i.url), items, memory: [items[1]!, items[2]!] });
    const log = recordingLogger();
    const st = openCrawlState({ ...spider, recrawl: { every: '30m' } }, {}, p, log);
    expect(st.mode).toBe('recrawl');
    expect(st.recrawling).toBe(true);
    expect(st.resumed).toBe(false);
    expect(st.recrawlOptions).toEqual({ every: '30m' });
    expect(st.pageMemory.pass).toBe(1);
    expect(st.pageMemory.datasetStart).toBe(4);
    expect(st.previousItems.map((i) => i.url)).toEqual(items.map((i) => i.url));
    expect(entries(p)).toHaveLength(4);
    const queued = journal(st).take(10);
    expect(queued.map((r) => [r.url, r.label, r.revisit])).toEqual([
      [`${U}/list`, 'list', true],
      [`${U}/thread`, 'forum', true],
    ]);
    // the budget counts this pass's own pages
    expect(st.previousPages).toBe(0);
    expect(log.at('info')).toEqual(['recrawl pass 1: re-visiting 2 list and thread pages (dataset kept; only unseen links are followed)']);
    journal(st).close(false);
  });

  it('the run\'s `recrawl` option turns a restart into a pass, and its object overrides the spider\'s options', async () => {
    const p = paths();
    const items = [listPage(`${U}/list`, []), thread(`${U}/thread`, ['hi'])];
    await earlierRun(p, { finished: true, done: items.map((i) => i.url), items, memory: items });
    const st = openCrawlState({ ...spider, recrawl: { every: '1d', lists: true } }, { recrawl: { lists: false, every: 0 } }, p, recordingLogger());
    expect(st.mode).toBe('recrawl');
    expect(st.recrawlOptions).toEqual({ every: 0, lists: false });
    expect(journal(st).take(10).map((r) => r.url)).toEqual([`${U}/thread`]);
    journal(st).close(false);
  });

  it('a finished crawl with `recrawl` but no remembered page starts over', async () => {
    const p = paths();
    await earlierRun(p, { finished: true, done: [`${U}/`], items: [article(`${U}/`)] });
    const st = openCrawlState(spider, { recrawl: true }, p, recordingLogger());
    expect(st.mode).toBe('restart');
    expect(existsSync(p.datasetDir)).toBe(false);
    journal(st).close(false);
  });

  it('`fresh` forgets an interrupted crawl: journal, page memory and dataset', async () => {
    const p = paths();
    await earlierRun(p, { done: [`${U}/`], pending: [`${U}/b`], items: [article(`${U}/`)], memory: [listPage(`${U}/list`, [])] });
    const st = openCrawlState(spider, { fresh: true }, p, recordingLogger());
    expect(st.mode).toBe('fresh');
    expect(st.resumed).toBe(false);
    expect(st.previousItems).toEqual([]);
    expect(st.frontier.stats()).toMatchObject({ seen: 0 });
    expect(st.pageMemory.size).toBe(0);
    expect(entries(p)).toEqual([]);
    journal(st).close(false);
  });

  it('a frontier given (a shared crawl): shared, no journal opened, page memory in memory only', async () => {
    const p = paths();
    const sink = DatasetFileSink.open(p.storageDir, 'news');
    await sink.write(article(`${U}/old`));
    await sink.close();
    const frontier = new MemoryFrontier([{ url: `${U}/x`, depth: 1 }]);
    frontier.done(`${U}/y`, 'ok');
    frontier.done(`${U}/z`, 'failed');
    const st = openCrawlState(spider, { frontier, sharedItems: true }, p, recordingLogger());
    expect(st.mode).toBe('shared');
    expect(st.frontier).toBe(frontier);
    expect(st.resumed).toBe(false);
    // items go to the shared store: the local dataset is not read
    expect(st.previousItems).toEqual([]);
    expect(st.previousPages).toBe(1);
    expect(existsSync(p.stateDir)).toBe(false);
    st.pageMemory.record(`${U}/list`, listPage(`${U}/list`, []), { depth: 1, fetchedAt: new Date() });
    st.pageMemory.flush();
    expect(existsSync(p.stateDir)).toBe(false);
    expect(entries(p)).toHaveLength(1);
  });

  it('a frontier given with the local dataset (no shared item sink): its items are known', async () => {
    const p = paths();
    const sink = DatasetFileSink.open(p.storageDir, 'news');
    await sink.write(article(`${U}/old`));
    await sink.close();
    const st = openCrawlState(spider, { frontier: new MemoryFrontier() }, p, recordingLogger());
    expect(st.mode).toBe('shared');
    expect(st.previousItems.map((i) => i.url)).toEqual([`${U}/old`]);
  });
});
