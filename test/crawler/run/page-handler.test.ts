/** PageHandler and LinkAdmission (src/crawler/run/page-handler.ts): one response → the chain (a
 * fake answering PageOutcome values) → links into the frontier, the item through the pipeline, the
 * request done; the recrawl pass's store-only-what-changed. */
import { describe, expect, it, vi } from 'vitest';
import type { Item } from '../../../src/core/item.js';
import type { Downloader } from '../../../src/crawler/downloader/index.js';
import { AbortedError, HttpStatusError } from '../../../src/crawler/errors.js';
import type { FrontierRequest } from '../../../src/crawler/frontier.js';
import type { LinkCandidate } from '../../../src/crawler/links.js';
import { ItemPipeline } from '../../../src/crawler/pipeline.js';
import type { PageOutcome, PageTask } from '../../../src/crawler/pool/outcome.js';
import { fingerprint, NotModifiedError, PageMemory, type RecrawlOptions } from '../../../src/crawler/recrawl.js';
import { LinkAdmission, PageHandler, type FetchedPage } from '../../../src/crawler/run/page-handler.js';
import { CrawlStats } from '../../../src/crawler/run/stats.js';
import { StopControl } from '../../../src/crawler/run/stop.js';
import { article, crawleeRequest, FakeChain, listPage, MemoryFrontier, recordingLogger, RecordingSink, thread } from './fakes.js';

const U = 'http://news.example';

interface SetupOptions {
  answer?: (task: PageTask) => PageOutcome | Promise<PageOutcome>;
  inline?: boolean;
  queued?: FrontierRequest[];
  recrawling?: boolean;
  recrawlOptions?: RecrawlOptions;
  previousItems?: Item[];
  hasRules?: boolean;
}

function setup(o: SetupOptions = {}) {
  const log = recordingLogger();
  const stats = new CrawlStats(log, 'news');
  const stop = new StopControl(stats.log, 'news', { graceMs: 1_000, exit: () => {} });
  const frontier = new MemoryFrontier(o.queued ?? []);
  const sink = new RecordingSink(frontier.events);
  const pipeline = new ItemPipeline([sink], stats.log, o.previousItems ?? []);
  const chain = new FakeChain(o.answer ?? ((t) => ({ type: 'page', item: article(t.url), links: [] })), o.inline ?? false);
  const pageMemory = PageMemory.open(undefined);
  const state = { pageMemory, recrawling: o.recrawling ?? false, recrawlOptions: o.recrawlOptions };
  const links = new LinkAdmission(frontier, o.hasRules ?? false, stats);
  const settle = vi.fn();
  const handler = new PageHandler({ chain, frontier, pipeline, state, stats, stop, links, siteKey: (u) => `site:${new URL(u).host}`, log: stats.log, pageBudgetSecs: 10, settle });
  return { log, stats, stop, frontier, sink, pipeline, chain, pageMemory, links, settle, handler };
}

const req = (path: string, extra: Partial<FrontierRequest> = {}): FrontierRequest => ({ url: `${U}${path}`, depth: 1, ...extra });
const page = (url: string, extra: Partial<FetchedPage> = {}): FetchedPage => ({ url, body: '<html><body>a page</body></html>', contentType: 'text/html', ...extra });
const link = (path: string, extra: Partial<LinkCandidate> = {}): LinkCandidate => ({ url: `${U}${path}`, depth: 2, ...extra });

describe('PageHandler.handle', () => {
  it('a page: the chain gets the request as it was queued; new links are queued, then the item stored, then the request done', async () => {
    const r = req('/list/1', { label: 'list', anchorText: 'News', referrer: `${U}/`, depth: 1 });
    const s = setup({
      queued: [r, req('/story/1')],
      answer: (t) => ({ type: 'page', item: article(t.url), links: [link('/story/1'), link('/story/2', { label: 'detail' }), link('/story/3')] }),
    });
    await s.handler.handle(crawleeRequest(r), page(r.url, { body: 'BODY' }));
    expect(s.chain.tasks).toHaveLength(1);
    const task = s.chain.tasks[0]!;
    expect(task).toMatchObject({ url: r.url, body: 'BODY', contentType: 'text/html', siteKey: 'site:news.example', request: { url: r.url, label: 'list', anchorText: 'News', depth: 1, referrer: `${U}/` } });
    expect(typeof task.fetchedAt).toBe('number');
    // /story/1 was queued already
    expect(s.frontier.added).toEqual([[{ url: `${U}/story/2`, depth: 2, label: 'detail' }, { url: `${U}/story/3`, depth: 2 }]]);
    expect(s.frontier.events).toEqual([`add ${U}/story/2 ${U}/story/3`, `store ${r.url}`, `done ${r.url} ok`]);
    expect(s.sink.items.map((i) => i.url)).toEqual([r.url]);
    expect(s.stats.pages).toBe(1);
    // handle() does not settle: its caller does
    expect(s.settle).not.toHaveBeenCalled();
  });

  it('a page a middleware dropped: counted by reason, nothing stored, its links still queued, the request done', async () => {
    const r = req('/login');
    const s = setup({ queued: [r], answer: () => ({ type: 'page', drop: 'login page', links: [link('/about')] }) });
    await s.handler.handle(crawleeRequest(r), page(r.url));
    expect(s.stats.dropped).toEqual({ 'login page': 1 });
    expect(s.sink.items).toEqual([]);
    expect(s.frontier.events).toEqual([`add ${U}/about`, `done ${r.url} ok`]);
    expect(s.stats.pages).toBe(1);
  });

  it('an item the chain found invalid is counted by its problem, not stored (the check is not repeated)', async () => {
    const r = req('/story/9');
    const s = setup({ queued: [r], answer: (t) => ({ type: 'page', item: article(t.url), invalid: 'publishedAt: ISO 8601 with offset', links: [] }) });
    await s.handler.handle(crawleeRequest(r), page(r.url));
    expect(s.pipeline.invalid).toEqual({ 'publishedAt: ISO 8601 with offset': 1 });
    expect(s.sink.items).toEqual([]);
    expect(s.frontier.doneCalls).toEqual([[r.url, 'ok']]);
  });

  it('a middleware error: counted by middleware, logged as an error, the request failed, nothing stored or queued', async () => {
    const r = req('/thread/1');
    const s = setup({ queued: [r], answer: () => ({ type: 'middleware-error', middleware: 'forum', message: 'forum: TypeError: x is undefined\n    at forum.ts:10' }) });
    await s.handler.handle(crawleeRequest(r), page(r.url));
    expect(s.stats.failuresByMiddleware).toEqual({ forum: 1 });
    expect(s.stats.failed).toBe(1);
    expect(s.stats.pages).toBe(0);
    expect(s.log.at('error')).toEqual(['forum: TypeError: x is undefined\n    at forum.ts:10']);
    expect(s.frontier.events).toEqual([`done ${r.url} failed`]);
    expect(s.sink.items).toEqual([]);
  });

  it.each(['timeout', 'crashed'] as const)('a page that %s: its "other" item is stored and counted by stage, with a warning', async (type) => {
    const r = req('/huge');
    const other: Item = { url: r.url, kind: 'other', error: 'page budget exceeded in template' };
    const s = setup({ queued: [r], answer: () => ({ type, stage: 'template', item: other }) });
    await s.handler.handle(crawleeRequest(r), page(r.url));
    expect(s.stats.timeouts).toEqual({ template: 1 });
    expect(s.sink.items).toEqual([other]);
    expect(s.log.at('warning')).toEqual([`${r.url}: page budget exceeded in template (page budget 10 s): stored as an "other" item`]);
    expect(s.frontier.doneCalls).toEqual([[r.url, 'ok']]);
    expect(s.stats.pages).toBe(1);
  });

  it('a binary body: its "other" item is stored', async () => {
    const r = req('/file.pdf');
    const other: Item = { url: r.url, kind: 'other', error: 'not a page' };
    const s = setup({ queued: [r], answer: () => ({ type: 'binary', item: other }) });
    await s.handler.handle(crawleeRequest(r), page(r.url));
    expect(s.sink.items).toEqual([other]);
    expect(s.stats.timeouts).toEqual({});
  });

  it('a redirect: the target is marked done (skipped) unless the frontier has it already', async () => {
    const a = req('/old');
    const b = req('/also-old');
    const known = req('/known');
    const s = setup({ queued: [a, b, known] });
    await s.handler.handle(crawleeRequest(a), page(`${U}/new`));
    // (the target first: it is marked when the page queues its links, in request order — sequence.ts)
    expect(s.frontier.doneCalls).toEqual([
      [`${U}/new`, 'skipped'],
      [a.url, 'ok'],
    ]);
    // the item and the task carry the final URL
    expect(s.sink.items.map((i) => i.url)).toEqual([`${U}/new`]);
    expect(s.chain.tasks[0]!.url).toBe(`${U}/new`);
    await s.handler.handle(crawleeRequest(b), page(known.url));
    expect(s.frontier.doneCalls.slice(2)).toEqual([[b.url, 'ok']]);
    expect(s.frontier.pending.has(known.url)).toBe(true);
  });

  it('stopping before the page: AbortedError, the chain is not run, nothing stored or done', async () => {
    const r = req('/a');
    const s = setup({ queued: [r] });
    s.stop.stopNow();
    await expect(s.handler.handle(crawleeRequest(r), page(r.url))).rejects.toBeInstanceOf(AbortedError);
    expect(s.chain.tasks).toEqual([]);
    expect(s.frontier.events).toEqual([]);
    expect(s.stats.pages).toBe(0);
  });

  it('stopping while the chain runs: AbortedError, the outcome is thrown away (links, item), the request stays pending', async () => {
    const r = req('/a');
    let stop: StopControl | undefined;
    const s = setup({
      queued: [r],
      answer: (t) => {
        stop!.stopNow();
        return { type: 'page', item: article(t.url), links: [link('/b')] };
      },
    });
    stop = s.stop;
    await expect(s.handler.handle(crawleeRequest(r), page(r.url))).rejects.toBeInstanceOf(AbortedError);
    expect(s.chain.tasks).toHaveLength(1);
    expect(s.frontier.events).toEqual([]);
    expect(s.sink.items).toEqual([]);
    expect(s.frontier.pending.has(r.url)).toBe(true);
    expect(s.stats.pages).toBe(0);
  });

  it('with the chain on this thread a signal pending before the chain runs is let in: AbortedError, the chain not run', async () => {
    const r = req('/a');
    const s = setup({ queued: [r], inline: true });
    const handled = s.handler.handle(crawleeRequest(r), page(r.url));
    s.stop.stopNow(); // arrives while the handler yields
    await expect(handled).rejects.toBeInstanceOf(AbortedError);
    expect(s.chain.tasks).toEqual([]);
  });

  it('a hint that came after its URL was queued reaches the chain once; a hint of the request itself wins', async () => {
    const list = req('/list', { label: 'list' });
    const story = req('/story/5');
    const other = req('/story/6', { labelHint: 'list' });
    const s = setup({ queued: [list, story, other], answer: (t) => ({ type: 'page', item: article(t.url), links: t.url === list.url ? [link('/story/5', { hint: 'detail' }), link('/story/6', { hint: 'detail' })] : [] }) });
    await s.handler.handle(crawleeRequest(list), page(list.url));
    expect([...s.links.lateHints]).toEqual([
      [story.url, 'detail'],
      [other.url, 'detail'],
    ]);
    await s.handler.handle(crawleeRequest(story), page(story.url));
    await s.handler.handle(crawleeRequest(other), page(other.url));
    expect(s.chain.tasks.map((t) => t.request.labelHint)).toEqual([undefined, 'detail', 'list']);
    expect(s.links.lateHints.size).toBe(0);
  });
});

describe('LinkAdmission', () => {
  it('admits links not seen, drops directory-index twins of URLs seen (counted), keeps hints only without follow rules', () => {
    const frontier = new MemoryFrontier([req('/cat/'), req('/seen')]);
    const stats = new CrawlStats(recordingLogger(), 'news');
    const admission = new LinkAdmission(frontier, false, stats);
    const out = admission.admit([link('/cat/index.html'), link('/seen', { hint: 'detail' }), link('/new', { hint: 'detail' })]);
    expect(out).toEqual([{ url: `${U}/new`, depth: 2 }]);
    expect([...stats.directoryTwins]).toEqual([`${U}/cat/index.html`]);
    expect(admission.takeHint(`${U}/seen`)).toBe('detail');
    expect(admission.takeHint(`${U}/seen`)).toBeUndefined();
    const ruled = new LinkAdmission(frontier, true, stats);
    ruled.admit([link('/seen', { hint: 'detail' })]);
    expect(ruled.lateHints.size).toBe(0);
  });
});

describe('PageHandler: recrawl pass', () => {
  it('the first crawl remembers list and thread pages (fingerprint, validators), not articles, and stores them all', async () => {
    const l = req('/list', { label: 'list', depth: 0 });
    const t = req('/thread/1', { label: 'forum' });
    const a = req('/story/1');
    const items: Record<string, Item> = { [l.url]: listPage(l.url, [`${U}/story/1`]), [t.url]: thread(t.url, ['first']), [a.url]: article(a.url) };
    const s = setup({ queued: [l, t, a], answer: (task) => ({ type: 'page', item: items[task.url]!, links: [] }) });
    await s.handler.handle(crawleeRequest(l), page(l.url, { headers: { etag: '"v1"', 'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT' } }));
    await s.handler.handle(crawleeRequest(t), page(t.url));
    await s.handler.handle(crawleeRequest(a), page(a.url));
    expect(s.sink.items.map((i) => i.kind)).toEqual(['list', 'forum', 'article']);
    expect(s.pageMemory.get(l.url)).toMatchObject({ kind: 'list', label: 'list', depth: 0, etag: '"v1"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT', fingerprint: fingerprint(items[l.url]!) });
    expect(s.pageMemory.get(t.url)).toMatchObject({ kind: 'forum', fingerprint: fingerprint(items[t.url]!) });
    expect(s.pageMemory.get(a.url)).toBeUndefined();
    expect(s.stats.recrawl).toEqual({ revisited: 0, notModified: 0, unchanged: 0, changed: 0 });
  });

  /** A recrawl pass re-visiting `before`'s page, which now gives `now` (or the outcome given). */
  function recrawlSetup(before: Item, now: Item | PageOutcome, recrawlOptions: RecrawlOptions = {}) {
    const r = req(new URL(before.url).pathname, { label: before.kind === 'list' ? 'list' : 'forum', revisit: true });
    const outcome: PageOutcome = 'type' in now ? now : { type: 'page', item: now, links: [link('/story/new')] };
    const s = setup({ queued: [r], recrawling: true, recrawlOptions, previousItems: [before], answer: () => outcome });
    s.pageMemory.record(r.url, before, { label: r.label, depth: 1, fetchedAt: new Date(0) });
    return { r, ...s };
  }

  it('a re-visited thread page that did not change is not stored again (counted unchanged)', async () => {
    const url = `${U}/thread/1`;
    const s = recrawlSetup(thread(url, ['first', 'second']), thread(url, ['first', 'second']));
    await s.handler.handle(crawleeRequest(s.r), page(url));
    expect(s.sink.items).toEqual([]);
    expect(s.stats.recrawl).toEqual({ revisited: 1, notModified: 0, unchanged: 1, changed: 0 });
    expect(s.pipeline.duplicates).toBe(0);
    expect(s.frontier.events).toEqual([`add ${U}/story/new`, `done ${url} ok`]);
  });

  it('a re-visited thread page with new floors is stored again, as an update (not a duplicate of the earlier pass)', async () => {
    const url = `${U}/thread/1`;
    const now = thread(url, ['first', 'second', 'third']);
    const s = recrawlSetup(thread(url, ['first', 'second']), now);
    await s.handler.handle(crawleeRequest(s.r), page(url));
    expect(s.sink.items).toEqual([now]);
    expect(s.pipeline.duplicates).toBe(0);
    expect(s.stats.recrawl).toEqual({ revisited: 1, notModified: 0, unchanged: 0, changed: 1 });
    expect(s.pageMemory.get(url)?.fingerprint).toBe(fingerprint(now));
  });

  it('a re-visited list page is how new pages are found: not stored (changed or not), its new links queued', async () => {
    const url = `${U}/list`;
    const now = listPage(url, [`${U}/story/new`, `${U}/story/1`]);
    const s = recrawlSetup(listPage(url, [`${U}/story/1`]), now);
    await s.handler.handle(crawleeRequest(s.r), page(url));
    expect(s.sink.items).toEqual([]);
    expect(s.stats.recrawl).toEqual({ revisited: 1, notModified: 0, unchanged: 0, changed: 0 });
    expect(s.frontier.added.flat().map((r) => r.url)).toEqual([`${U}/story/new`]);
    expect(s.pageMemory.get(url)?.fingerprint).toBe(fingerprint(now));
  });

  it('with recrawl.listItems a changed list page is stored as an update, an unchanged one is not', async () => {
    const url = `${U}/list`;
    const changed = recrawlSetup(listPage(url, [`${U}/story/1`]), listPage(url, [`${U}/story/2`, `${U}/story/1`]), { listItems: true });
    await changed.handler.handle(crawleeRequest(changed.r), page(url));
    expect(changed.sink.items).toHaveLength(1);
    expect(changed.stats.recrawl.changed).toBe(1);
    const same = recrawlSetup(listPage(url, [`${U}/story/1`]), listPage(url, [`${U}/story/1`]), { listItems: true });
    await same.handler.handle(crawleeRequest(same.r), page(url));
    expect(same.sink.items).toHaveLength(0);
    expect(same.stats.recrawl.unchanged).toBe(1);
  });

  it('a new thread page found by the pass is stored and remembered; a new list page is remembered, not stored', async () => {
    const t = req('/thread/new', { label: 'forum' });
    const l = req('/list/2', { label: 'list' });
    const s = setup({ queued: [t, l], recrawling: true, recrawlOptions: {}, answer: (task) => ({ type: 'page', item: task.url === t.url ? thread(t.url, ['hello']) : listPage(l.url, []), links: [] }) });
    await s.handler.handle(crawleeRequest(t), page(t.url));
    await s.handler.handle(crawleeRequest(l), page(l.url));
    expect(s.sink.items.map((i) => i.url)).toEqual([t.url]);
    expect(s.pageMemory.get(t.url)?.kind).toBe('forum');
    expect(s.pageMemory.get(l.url)?.kind).toBe('list');
    expect(s.stats.recrawl).toEqual({ revisited: 0, notModified: 0, unchanged: 0, changed: 0 });
  });

  // A re-visited thread page that runs out of its page budget once (or crashes its worker) keeps its
  // memory and its stored item: recording the `other` error item would end the monitoring of the
  // thread (only list and forum records are re-visited) and store the error as an "update".
  it('a re-visited thread page that times out stays a remembered thread page, and is not counted as changed', async () => {
    const url = `${U}/thread/1`;
    const s = recrawlSetup(thread(url, ['first']), { type: 'timeout', stage: 'forum', item: { url, kind: 'other', error: 'page budget exceeded in forum' } });
    await s.handler.handle(crawleeRequest(s.r), page(url));
    expect(s.stats.timeouts).toEqual({ forum: 1 });
    expect(s.pageMemory.get(url)?.kind).toBe('forum');
    expect(s.stats.recrawl.changed).toBe(0);
  });
});

describe('PageHandler.fetchAndHandle', () => {
  const downloader = (fetch: (url: string) => Promise<unknown>) => ({ fetch }) as unknown as Downloader;

  it('fetches, counts the bytes, handles the response, then settles', async () => {
    const r = req('/a');
    const s = setup({ queued: [r] });
    const body = Buffer.from('<html><body>twelve bytes</body></html>');
    const d = downloader(async (url) => ({ url, status: 200, headers: { etag: '"x"' }, contentType: 'text/html', body, chain: [url], attempts: 1 }));
    await s.handler.fetchAndHandle(crawleeRequest(r), d);
    expect(s.stats.bytesDownloaded).toBe(body.length);
    expect(s.chain.tasks[0]!.body).toBe(body);
    expect(s.frontier.doneCalls).toEqual([[r.url, 'ok']]);
    expect(s.settle).toHaveBeenCalledTimes(1);
    expect(s.handler.active).toBe(0);
  });

  it('a 304 of a recrawl: not read or parsed, counted, the memory touched, the request done and settled', async () => {
    const r = req('/thread/1', { revisit: true });
    const s = setup({ queued: [r], recrawling: true, recrawlOptions: {} });
    s.pageMemory.record(r.url, thread(r.url, ['a']), { depth: 1, fetchedAt: new Date(0) });
    await s.handler.fetchAndHandle(
      crawleeRequest(r),
      downloader(async (url) => {
        throw new NotModifiedError(url);
      }),
    );
    expect(s.chain.tasks).toEqual([]);
    expect(s.stats.recrawl).toEqual({ revisited: 1, notModified: 1, unchanged: 0, changed: 0 });
    expect(Date.parse(s.pageMemory.get(r.url)!.fetchedAt)).toBeGreaterThan(0);
    expect(s.frontier.doneCalls).toEqual([[r.url, 'ok']]);
    expect(s.settle).toHaveBeenCalledTimes(1);
    expect(s.stats.pages).toBe(0);
  });

  it('a fetch error goes to the caller (the failure handler), unsettled; the handler count comes back to 0', async () => {
    const r = req('/gone');
    const s = setup({ queued: [r] });
    const err = new HttpStatusError(404, r.url);
    await expect(
      s.handler.fetchAndHandle(
        crawleeRequest(r),
        downloader(async () => {
          throw err;
        }),
      ),
    ).rejects.toBe(err);
    expect(s.settle).not.toHaveBeenCalled();
    expect(s.handler.active).toBe(0);
    expect(s.frontier.doneCalls).toEqual([]);
  });

  it('stopping during the fetch: AbortedError, nothing handled, not settled; active counts the running handler', async () => {
    const r = req('/a');
    const s = setup({ queued: [r] });
    let activeDuring = -1;
    const d = downloader(async (url) => {
      activeDuring = s.handler.active;
      s.stop.stopNow();
      return { url, status: 200, headers: {}, body: Buffer.from('x'), chain: [url], attempts: 1 };
    });
    await expect(s.handler.fetchAndHandle(crawleeRequest(r), d)).rejects.toBeInstanceOf(AbortedError);
    expect(activeDuring).toBe(1);
    expect(s.handler.active).toBe(0);
    expect(s.chain.tasks).toEqual([]);
    expect(s.settle).not.toHaveBeenCalled();
    expect(s.stats.bytesDownloaded).toBe(0);
  });
});
