import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import type { Item } from '../../src/core/item.js';
import type { SpiderConfig } from '../../src/spider/config.js';
import { startDemoServer } from '../../src/demo/server.js';
import { serve } from '../fixtures/crawler/server.js';
import { slowMiddleware } from '../fixtures/pool/slow-spider.js';
import { MessageChannel } from 'node:worker_threads';
import { MemorySiteStore } from '../../src/storage/site-store.js';
import { SiteStateHub, WorkerSiteCache, type StageAnswer } from '../../src/crawler/pool/site-state.js';
import { GLEANER_BIN } from '../fixtures/cli.js';
import { SITE_DATA_KEY } from '../../src/chain/site-template.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const SLOW_SPIDER = path.join(root, 'test', 'fixtures', 'pool', 'slow-spider.ts');
const COUNT_SPIDER = path.join(root, 'test', 'fixtures', 'pool', 'count-spider.ts');
const tmp = () => mkdtempSync(path.join(tmpdir(), 'gleaner-pool-'));

function datasetItems(storageDir: string, name: string): Item[] {
  const dir = path.join(storageDir, 'datasets', name);
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
}

/** Items without what differs between two runs by nature (fetch time, the server's port). */
function normalised(items: Item[], origin: string): string[] {
  return items
    .map((i) => {
      const { fetchedAt: _t, ...rest } = i;
      return JSON.stringify(rest).split(origin).join('ORIGIN');
    })
    .sort();
}

describe('site state across workers (SiteStateHub)', () => {
  it('lets a page into a middleware only after the earlier pages of its site, with the state they left', () => {
    const hub = new SiteStateHub(new Set(['template']));
    const store = new MemorySiteStore();
    store.site('s').data.shapes = { seen: 0 }; // as a previous crawl stored it
    hub.store = store;
    const { port1: a, port2: b } = new MessageChannel(); // two workers' ports (only their identity is used)
    const workerA = new WorkerSiteCache(new Set(['template']));
    const workerB = new WorkerSiteCache(new Set(['template']));
    const answers: Array<[string, StageAnswer]> = [];
    hub.admit(1, 's');
    hub.admit(2, 's');
    hub.admit(3, 'other-site');
    // page 2 (worker B) asks for stage 1 first: it waits for page 1
    hub.stage(b, { id: 1, seq: 2, siteKey: 's', stage: 1, changes: [] }, (x) => answers.push(['B', x]));
    // a page of another site does not wait
    hub.stage(b, { id: 2, seq: 3, siteKey: 'other-site', stage: 1, changes: [] }, (x) => answers.push(['B3', x]));
    expect(answers.map(([w]) => w)).toEqual(['B3']);
    hub.stage(a, { id: 3, seq: 1, siteKey: 's', stage: 1, changes: [] }, (x) => answers.push(['A', x]));
    expect(answers.map(([w]) => w)).toEqual(['B3', 'A']);
    workerA.update('s', answers[1]![1].updates);
    // page 1 runs stage 1, which counts into the stored state, and moves on to stage 2
    const view = workerA.view('s');
    (view.data.shapes as { seen: number }).seen++;
    view.data.template = 'a page-owned value, never handed over';
    hub.stage(a, { id: 4, seq: 1, siteKey: 's', stage: 2, changes: view.changes() }, (x) => answers.push(['A2', x]));
    // now page 2 may enter stage 1, and it sees page 1's update
    expect(answers.map(([w]) => w)).toEqual(['B3', 'A', 'A2', 'B']);
    workerB.update('s', answers[3]![1].updates);
    expect(workerB.view('s').data.shapes).toEqual({ seen: 1 });
    expect(store.site('s').data).toEqual({ shapes: { seen: 1 } });
    // page 2 at stage 2 waits until page 1 is done (its last changes come with `done`)
    hub.stage(b, { id: 5, seq: 2, siteKey: 's', stage: 2, changes: [] }, (x) => answers.push(['B2', x]));
    expect(answers.length).toBe(4);
    (view.data.shapes as { seen: number }).seen = 10;
    hub.done(a, { seq: 1, siteKey: 's', changes: view.changes() });
    expect(answers.map(([w]) => w)).toEqual(['B3', 'A', 'A2', 'B', 'B2']);
    workerB.update('s', answers[4]![1].updates);
    expect(workerB.view('s').data.shapes).toEqual({ seen: 10 });
    // worker A already has the latest version: nothing is sent again
    hub.admit(4, 's');
    hub.leave(2, 's');
    hub.stage(a, { id: 6, seq: 4, siteKey: 's', stage: 1, changes: [] }, (x) => answers.push(['A4', x]));
    expect(answers[5]![1].updates).toEqual([]);
    a.close();
  });

  it('hands over the properties of a plain object that changed, not the whole value; a worker that missed a replacement gets it whole', () => {
    const hub = new SiteStateHub(new Set(['template']));
    const store = new MemorySiteStore();
    store.site('s').data.state = { big: Array.from({ length: 50 }, (_, i) => i), count: 0, gone: 'x' }; // from a previous crawl
    hub.store = store;
    const { port1: a, port2: b } = new MessageChannel();
    const { port1: c } = new MessageChannel();
    const workerA = new WorkerSiteCache(new Set(['template']));
    const workerB = new WorkerSiteCache(new Set(['template']));
    const workerC = new WorkerSiteCache(new Set(['template']));
    const answers: StageAnswer[] = [];
    const take = (x: StageAnswer) => void answers.push(x);
    for (let seq = 1; seq <= 4; seq++) hub.admit(seq, 's');
    hub.stage(a, { id: 1, seq: 1, siteKey: 's', stage: 1, changes: [] }, take);
    expect(answers[0]!.updates).toEqual([{ key: 'state', version: 0, json: JSON.stringify(store.site('s').data.state) }]);
    workerA.update('s', answers[0]!.updates);
    // page 1 counts one up and deletes a property: only those two travel
    const viewA = workerA.view('s');
    const state = viewA.data.state as { count: number; gone?: string };
    state.count++;
    delete state.gone;
    const changes = viewA.changes();
    expect(changes).toEqual([{ key: 'state', parts: [['count', '1'], ['gone', undefined]] }]);
    expect(viewA.changes()).toEqual([]); // nothing new since
    hub.done(a, { seq: 1, siteKey: 's', changes });
    expect(store.site('s').data.state).toEqual({ big: Array.from({ length: 50 }, (_, i) => i), count: 1 });
    // worker B never saw the key: the value whole, as its parts
    hub.stage(b, { id: 2, seq: 2, siteKey: 's', stage: 1, changes: [] }, take);
    expect(answers[1]!.updates).toHaveLength(1);
    expect(answers[1]!.updates[0]).toMatchObject({ key: 'state', version: 1, replace: true });
    workerB.update('s', answers[1]!.updates);
    expect(workerB.view('s').data.state).toEqual({ big: Array.from({ length: 50 }, (_, i) => i), count: 1 });
    // page 2 (worker B) counts again: worker A, at version 1, gets the one property
    const viewB = workerB.view('s');
    (viewB.data.state as { count: number }).count++;
    hub.done(b, { seq: 2, siteKey: 's', changes: viewB.changes() });
    hub.stage(a, { id: 3, seq: 3, siteKey: 's', stage: 1, changes: [] }, take);
    expect(answers[2]!.updates).toEqual([{ key: 'state', version: 2, parts: [['count', '2']] }]);
    workerA.update('s', answers[2]!.updates);
    expect(workerA.view('s').data.state).toEqual({ big: Array.from({ length: 50 }, (_, i) => i), count: 2 });
    // page 3 (worker A) replaces the value with a new object: worker C and B get it as their updates say
    const viewA3 = workerA.view('s');
    viewA3.data.state = { fresh: true };
    hub.done(a, { seq: 3, siteKey: 's', changes: viewA3.changes() });
    hub.stage(c, { id: 4, seq: 4, siteKey: 's', stage: 1, changes: [] }, take);
    workerC.update('s', answers[3]!.updates);
    expect(workerC.view('s').data.state).toEqual({ fresh: true });
    expect(store.site('s').data.state).toEqual({ fresh: true });
    a.close();
    c.close();
  });

  it('a page that left a gated stage and said its next one lets later pages through every stage before it', () => {
    const hub = new SiteStateHub(new Set(['template']));
    hub.store = new MemorySiteStore();
    const { port1: a, port2: b } = new MessageChannel();
    const got: string[] = [];
    hub.admit(1, 's');
    hub.admit(2, 's');
    hub.stage(a, { id: 1, seq: 1, siteKey: 's', stage: 1, changes: [] }, () => got.push('1@1'));
    hub.stage(b, { id: 2, seq: 2, siteKey: 's', stage: 1, changes: [] }, () => got.push('2@1'));
    expect(got).toEqual(['1@1']);
    // page 1 leaves stage 1; its next gated stage is 5 (its label skips 3)
    hub.left(a, { seq: 1, siteKey: 's', next: 5, changes: [{ key: 'shapes', json: '{"n":1}' }] });
    expect(got).toEqual(['1@1', '2@1']);
    hub.stage(b, { id: 3, seq: 2, siteKey: 's', stage: 3, changes: [] }, (x) => got.push(`2@3 ${JSON.stringify(x.updates)}`));
    expect(got[2]).toBe('2@3 []'); // worker B already had version 1 from entering stage 1
    hub.stage(b, { id: 4, seq: 2, siteKey: 's', stage: 5, changes: [] }, () => got.push('2@5'));
    expect(got).toHaveLength(3); // page 1 still has stage 5 ahead
    hub.done(a, { seq: 1, siteKey: 's', changes: [] });
    expect(got[3]).toBe('2@5');
    a.close();
  });
});

describe('the chain in worker threads', () => {
  it('keeps per-site state as one thread would: the same items with 1 and 2 threads (pages of two sites, in flight together)', async () => {
    const { ChainPool } = await import('../../src/crawler/pool/index.js');
    const { linkPolicyOf } = await import('../../src/crawler/links.js');
    const { default: spider } = (await import('../fixtures/pool/count-spider.js')) as { default: SpiderConfig };
    const tasks = Array.from({ length: 24 }, (_, i) => {
      const host = i % 3 === 2 ? 'b.example' : 'a.example';
      const url = `http://${host}/story/${i}.html`;
      return { url, body: new TextEncoder().encode(page(`Story ${i} about the city budget`)), fetchedAt: Date.UTC(2026, 0, 1), request: { url, depth: 1 }, siteKey: host };
    });
    const titles: Record<number, string[]> = {};
    const templates: Record<number, string> = {};
    for (const threads of [1, 2]) {
      const store = new MemorySiteStore();
      const pool = await ChainPool.create({ threads, spider: 'count', spiderModule: COUNT_SPIDER, links: linkPolicyOf(spider), store, log: silentLogger });
      try {
        // every page handed over at once, in this order (the order the crawl thread received them)
        const outcomes = await Promise.all(tasks.map((t) => pool.run({ ...t, body: new Uint8Array(t.body) }, 'count')));
        titles[threads] = outcomes.map((o) => (o.type === 'page' ? (o.item?.title ?? `dropped: ${o.drop}`) : o.type));
      } finally {
        await pool.close();
      }
      // A page's last changes reach the store on its worker's port, which may come after its
      // outcome (piscina's channel); a graceful close waits for them, as the crawl does before it
      // flushes the store (checked here before the close, this failed about 1 run in 5).
      expect(store.site('a.example').data.countMw).toMatchObject({ pages: 16 });
      expect(store.site('b.example').data.countMw).toMatchObject({ pages: 8 });
      // the site template saw the pages in the same order (it answers a page with its turn at
      // the page-type stage)
      templates[threads] = JSON.stringify(store.site('a.example').data[SITE_DATA_KEY]);
    }
    expect(templates[1]).toContain('"observed":16');
    expect(templates[2]).toBe(templates[1]);
    expect(titles[1]![0]).toBe('page 1 of a.example after ');
    expect(titles[1]![5]).toBe('page 2 of b.example after http://b.example/story/2.html');
    expect(titles[1]![22]).toBe('page 16 of a.example after http://a.example/story/18.html http://a.example/story/19.html http://a.example/story/21.html');
    expect(titles[2]).toEqual(titles[1]);
  }, 60_000);

  it('gives the same items with 0, 1, 2 and 3 threads (the demo site)', async () => {
    const demo = await startDemoServer();
    process.env.GLEANER_DEMO_URL = demo.url;
    try {
      const { default: spider } = (await import('../../spiders/demo.js')) as { default: SpiderConfig };
      const runs: Record<number, string[]> = {};
      for (const threads of [0, 1, 2, 3]) {
        const storageDir = tmp();
        const summary = await runSpider(spider, { storageDir, log: silentLogger, threads });
        expect(summary.finished).toBe(true);
        runs[threads] = normalised(datasetItems(storageDir, 'demo'), demo.url);
      }
      // 32 articles, 9 list pages, 6 threads (14 thread pages, each thread stored as one item)
      expect(runs[0]!.length).toBe(47);
      // every kind is there, so the learned site templates and the extractors all took part
      expect(new Set(runs[0]!.map((s) => (JSON.parse(s) as Item).kind))).toEqual(new Set(['article', 'list', 'forum']));
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
      expect(runs[3]).toEqual(runs[0]);
    } finally {
      delete process.env.GLEANER_DEMO_URL;
      await demo.close();
    }
  }, 120_000);
});

const PARA = 'The committee met on Tuesday to review the proposal in detail, and members asked for more time to study the budget figures before the final vote next month.';
const page = (title: string, paras = 3, links = '') =>
  `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${Array.from({ length: paras }, (_, k) => `<p>${PARA} (${k})</p>`).join('')}${links}</body></html>`;

describe('the spider file in the workers', () => {
  // A worker imports the spider file for its extraMiddleware only: a TypeScript spider registers
  // tsx's loader in every thread that imports it (~0.5 s of CPU per worker, and every module the
  // thread loads after it goes through the loader's thread).
  it('is not imported by a worker when the spider has no extraMiddleware (with --threads 0, no side worker starts for it)', async () => {
    const dir = tmp();
    const file = path.join(dir, 'main-thread-only.mjs');
    writeFileSync(file, `import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) throw new Error('imported in a worker');\nexport default { name: 'main-only', startUrls: [] };\n`);
    const server = await serve({ '/': { body: page('Story one about the city budget', 3) } });
    try {
      for (const threads of [0, 1]) {
        const storageDir = tmp();
        const summary = await runSpider(
          { name: 'main-only', startUrls: [`${server.url}/`], allowPrivateAddresses: true, crawler: { robotsTxt: false } },
          { storageDir, log: silentLogger, threads, spiderModule: file },
        );
        expect(summary.finished, `threads ${threads}`).toBe(true);
        expect(datasetItems(storageDir, 'main-only').map((i) => i.title), `threads ${threads}`).toEqual(['Story one about the city budget']);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('per-page time budget', () => {
  it('a page that overruns its budget in a worker becomes an "other" item naming the middleware; the crawl goes on', async () => {
    const server = await serve({
      '/': { body: page('Home', 1, '<a href="/story/1.html">1</a> <a href="/slow/1.html">slow</a> <a href="/story/2.html">2</a>') },
      '/story/1.html': { body: page('Story one about the city budget') },
      '/story/2.html': { body: page('Story two about the city budget', 3, '<a href="/story/3.html">3</a>') },
      '/story/3.html': { body: page('Story three about the city budget') },
      '/slow/1.html': { body: page('A page the middleware is slow on') },
    });
    const storageDir = tmp();
    const warnings: string[] = [];
    try {
      const t0 = Date.now();
      const summary = await runSpider(
        // the middleware spins forever on /slow: only the budget ends it
        { name: 'slow', startUrls: [`${server.url}/`], allowPrivateAddresses: true, extraMiddleware: [slowMiddleware], crawler: { pageBudgetSecs: 2, robotsTxt: false } },
        { storageDir, log: { ...silentLogger, warning: (m: string) => void warnings.push(m) }, threads: 2, spiderModule: SLOW_SPIDER },
      );
      expect(Date.now() - t0).toBeLessThan(30_000);
      expect(summary.finished).toBe(true);
      expect(summary.timeouts).toEqual({ 'slow-mw': 1 });
      const items = datasetItems(storageDir, 'slow');
      const slow = items.find((i) => i.url.endsWith('/slow/1.html'))!;
      expect(slow).toMatchObject({ kind: 'other', error: 'timeout in slow-mw', spider: 'slow' });
      expect(slow.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      // the others went through the chain as usual, the one found after the slow page included
      for (const n of [1, 2, 3]) expect(items.find((i) => i.url.endsWith(`/story/${n}.html`))?.title).toMatch(/^Story .* about the city budget$/);
      expect(warnings.join('\n')).toMatch(/slow\/1\.html: timeout in slow-mw/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a hostile page (pathological HTML, built-in chain only) becomes an "other" item within its budget; the replaced worker goes on', async () => {
    // 100,000 list items of one link each (5.4 MB, under the 10 MB response cap): the built-in chain
    // takes 2-5 s on it here (linear, just large); with a 1 s budget it must be stopped, not waited for
    const hostile = `<!DOCTYPE html><html><head><title>Links</title></head><body><ul>${Array.from({ length: 100_000 }, (_, i) => `<li><a href="/a/${i}.html">Link number ${i}</a></li>`).join('')}</ul></body></html>`;
    const server = await serve({
      '/': { body: page('Home', 1, '<a href="/hostile.html">all links</a> <a href="/story/1.html">1</a>') },
      // later than the hostile page: it reaches the (only) worker after the hostile page took it
      '/story/1.html': { body: page('Story one about the city budget', 3, '<a href="/story/2.html">2</a>'), delay: 300 },
      '/story/2.html': { body: page('Story two about the city budget') },
      '/hostile.html': { body: hostile },
    });
    const storageDir = tmp();
    try {
      const t0 = Date.now();
      const summary = await runSpider(
        { name: 'hostile', startUrls: [`${server.url}/`], allowPrivateAddresses: true, crawler: { pageBudgetSecs: 1, robotsTxt: false } },
        { storageDir, log: silentLogger, threads: 1 },
      );
      const secs = (Date.now() - t0) / 1000;
      expect(summary.finished).toBe(true);
      expect(Object.values(summary.timeouts ?? {})).toEqual([1]);
      const items = datasetItems(storageDir, 'hostile');
      const bad = items.find((i) => i.url.endsWith('/hostile.html'))!;
      expect(bad).toMatchObject({ kind: 'other', spider: 'hostile' });
      expect(bad.error).toMatch(/^timeout in \S/);
      // none of its 100,000 links was followed (the page gave no outcome but the error)
      expect(server.requests.some((r) => r.startsWith('/a/'))).toBe(false);
      // the pages after it ran in the replacement worker
      for (const n of [1, 2]) expect(items.find((i) => i.url.endsWith(`/story/${n}.html`))?.title).toBe(`Story ${n === 1 ? 'one' : 'two'} about the city budget`);
      // The timeout outcome above is what shows the budget stopped the page; this bound only catches
      // a crawl that hung on it. Budget (1 s) + watchdog tick + two workers started through tsx (~2.4 s
      // of CPU each) + three small pages: 13.4 s beside four busy processes on 2 cores, over 15 s once
      // in a full suite beside two benches (load ~8)
      expect(secs).toBeLessThan(30);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('with the chain on the crawl thread, a large page still runs under the budget in a worker', async () => {
    const big = page('A large page the middleware is slow on', 1200); // ~200 KB, above inlineMaxBytes
    const server = await serve({
      '/': { body: page('Home', 1, '<a href="/story/1.html">1</a> <a href="/slow/big.html">big</a>') },
      '/story/1.html': { body: page('Story one about the city budget') },
      '/slow/big.html': { body: big },
    });
    const storageDir = tmp();
    try {
      const summary = await runSpider(
        { name: 'slow', startUrls: [`${server.url}/`], allowPrivateAddresses: true, extraMiddleware: [slowMiddleware], crawler: { pageBudgetSecs: 2, robotsTxt: false } },
        { storageDir, log: silentLogger, threads: 0, spiderModule: SLOW_SPIDER },
      );
      expect(summary.timeouts).toEqual({ 'slow-mw': 1 });
      const items = datasetItems(storageDir, 'slow');
      expect(items.find((i) => i.url.endsWith('/slow/big.html'))).toMatchObject({ kind: 'other', error: 'timeout in slow-mw' });
      expect(items.find((i) => i.url.endsWith('/story/1.html'))?.title).toBe('Story one about the city budget');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('honours SIGINT within 2 s while a page is stuck in a worker', async () => {
    const server = await serve({
      '/': { body: page('Home', 1, '<a href="/slow/1.html">slow</a>') },
      '/slow/1.html': { body: page('A page the middleware is stuck on') },
    });
    const storageDir = tmp();
    try {
      const child = spawn(process.execPath, [GLEANER_BIN, 'crawl', SLOW_SPIDER, '--threads', '1'], {
        cwd: root,
        env: { ...process.env, SLOW_URL: `${server.url}/`, SLOW_BUDGET_SECS: '120', CRAWLEE_STORAGE_DIR: storageDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const deadline = Date.now() + 60_000;
      while (!server.requests.includes('/slow/1.html')) {
        if (Date.now() > deadline) throw new Error(`the crawl never reached the slow page: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 500)); // the page is in the worker's loop now
      const t0 = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(code).toBe(130); // stopped with the slow page still pending: the next run resumes it
      expect(stderr).toMatch(/SIGINT: stopping/);
    } finally {
      await server.close();
    }
  }, 90_000);
});
