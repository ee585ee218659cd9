/**
 * Issue 27 item 4: the live monitor in a real browser (Playwright + Debian's chromium). Fed by a
 * crawl of the demo site (127.0.0.1) through the crawl's own hooks, as `--ui` feeds it: the page
 * updates while the crawl runs (in-flight count, requests per host), shows the end, then stops
 * updating; a latest item opens its inspector view on click. The page bodies kept are bounded.
 * `gleaner status --ui` serves the same page for a shared (Redis) crawl run by a worker process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { runSpider } from '../../src/crawler/crawl.js';
import { startDemoServer } from '../../src/demo/server.js';
import { silentLogger } from '../../src/core/middleware.js';
import { BODY_ITEMS, CrawlMonitor, LATEST_ITEMS, PENDING_BODIES } from '../../src/monitor/monitor.js';
import { inspectReport } from '../../src/cli/inspect.js';
import { spawn } from 'node:child_process';
import { serve } from '../fixtures/crawler/server.js';
import { smallSite } from '../fixtures/crawler/server.js';
import { GLEANER_BIN } from '../fixtures/cli.js';
import { crawlStatus } from '../../src/cli/status.js';
import { redisUrl, sleep, spiderName } from '../redis/helpers.js';
import { ROOT, startWorker } from '../redis/workers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], headless: true });
});
afterAll(async () => {
  await browser?.close();
});

describe('crawl monitor', () => {
  it('updates while the crawl runs and stops when it ends', async () => {
    const demo = await startDemoServer();
    const monitor = new CrawlMonitor('monitor-test', { inspect: (u, b) => inspectReport(u, b) });
    const url = await monitor.listen(0);
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const page = await browser.newPage();
    try {
      await page.goto(url);
      const updates = () => page.evaluate(() => Number(document.body.dataset.updates || 0));
      const seen: number[] = [];
      const inFlight: string[] = [];
      const crawl = runSpider(
        { name: 'monitor-test', startUrls: [`${demo.url}/news/`, `${demo.url}/forum/`], allowPrivateAddresses: true, crawler: { threads: 0 } },
        {
          storageDir: mkdtempSync(path.join(tmpdir(), 'gleaner-monitor-')),
          log: silentLogger,
          fresh: true,
          maxPages: 15,
          progressIntervalMs: 200,
          onProgress: (p) => monitor.onProgress(p),
          onResponse: (r) => monitor.onResponse(r),
          onItem: async (item) => {
            monitor.onItem(item);
            // the crawl is slowed a little so that the page (polling each second) sees it run
            await new Promise((r) => setTimeout(r, 120));
            if (seen.length < 3 && monitor.snapshot().items % 5 === 0) {
              seen.push(await updates());
              inFlight.push((await page.textContent('#inflight')) ?? '');
            }
          },
        },
      );
      const summary = await crawl;
      expect(summary.pages).toBeGreaterThan(8);
      // updated during the crawl, with the running state
      expect(Math.max(...seen, 0)).toBeGreaterThan(1);
      monitor.finish(summary);
      await page.waitForFunction(() => document.body.dataset.state === 'ended', undefined, { timeout: 10_000 });
      expect(Number(await page.textContent('#items'))).toBe(monitor.snapshot().items);
      expect(await page.locator('#chart #pps').getAttribute('points')).toMatch(/\d+(\.\d+)?,\d+/);
      const atEnd = await updates();
      await new Promise((r) => setTimeout(r, 2500));
      expect(await updates()).toBe(atEnd);
      // in flight shown while running (a number); requests per host: the demo site's host
      expect(inFlight.length).toBeGreaterThan(0);
      for (const v of inFlight) expect(v).toMatch(/^\d+$/);
      const host = new URL(demo.url).host;
      const cells = await page.locator('#rates tr', { hasText: host }).locator('td').allTextContents();
      expect(cells[0]).toBe(host);
      expect(Number(cells[1])).toBe(summary.pages);
      // a latest item opens: its JSON and its inspector view (the report of its page, kept in memory)
      const row = page.locator('#latest tr[data-inspect="1"]').first();
      const n = await row.getAttribute('data-n');
      await row.click();
      await page.waitForSelector('#item:not([hidden])');
      const shown = JSON.parse((await page.textContent('#item'))!) as { url: string; title?: string };
      expect(shown.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      await page.waitForSelector('#inspect:not([hidden])');
      expect(await page.getAttribute('#inspect', 'src')).toBe(`/items/${n}/inspect`);
      const frame = page.frameLocator('#inspect');
      await frame.locator('body[data-gl-ready]').waitFor({ timeout: 30_000 });
      expect(await frame.locator('body').textContent()).toContain(shown.url);
    } finally {
      await page.close();
      await monitor.close();
      await demo.close();
    }
  }, 90_000);

  it('keeps the page bodies of the latest items only', async () => {
    const monitor = new CrawlMonitor('bounds', { inspect: async (u) => `<p>${u}</p>` });
    const url = await monitor.listen(0);
    try {
      const body = new Uint8Array(10_000);
      for (let i = 1; i <= 3 * LATEST_ITEMS; i++) {
        const u = `http://127.0.0.1/p/${i}`;
        monitor.onResponse({ url: u, body });
        // some responses never give an item (dropped pages): their bodies go too
        if (i % 4 === 0) monitor.onResponse({ url: `${u}/dropped`, body });
        monitor.onItem({ kind: 'article', url: u, title: `p${i}` } as never);
        expect(monitor.keptBodies()).toBeLessThanOrEqual(BODY_ITEMS + PENDING_BODIES);
      }
      const latest = monitor.snapshot().latest;
      expect(latest.length).toBe(LATEST_ITEMS);
      expect(latest.filter((e) => e.inspect).map((e) => e.n)).toEqual(latest.slice(0, BODY_ITEMS).map((e) => e.n));
      const last = 3 * LATEST_ITEMS;
      expect((await fetch(`${url}items/${last}/inspect`)).status).toBe(200);
      expect(await (await fetch(`${url}items/${last}/inspect`)).text()).toContain(`/p/${last}`);
      const old = await fetch(`${url}items/${last - BODY_ITEMS}/inspect`);
      expect(old.status).toBe(404);
      expect(await old.text()).toMatch(/no longer kept/);
      expect((await fetch(`${url}items/1`)).status).toBe(404);
      // a body larger than the bound is not kept
      monitor.onResponse({ url: 'http://127.0.0.1/big', body: new Uint8Array(5 * 2 ** 20) });
      monitor.onItem({ kind: 'article', url: 'http://127.0.0.1/big' } as never);
      expect(monitor.snapshot().latest[0]!.inspect).toBe(false);
      // requests per host
      expect(monitor.snapshot().rates.rows).toEqual([]);
      monitor.onProgress({ spider: 'bounds', pages: 1, queued: 0, failed: 0, items: 1, pagesPerSec: 0, elapsedSecs: 1 });
      expect(monitor.snapshot().rates.rows[0]).toMatchObject({ name: '127.0.0.1', total: 3 * LATEST_ITEMS + Math.floor((3 * LATEST_ITEMS) / 4) + 1 });
    } finally {
      await monitor.close();
    }
  });

  it('gleaner status --ui follows a shared (Redis) crawl until it ends', async () => {
    const url = redisUrl();
    const site = await serve(smallSite(3, 10, 250));
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-status-ui-'));
    const spider = spiderName('ui');
    const env = { GLEANER_TEST_SITE: site.url, GLEANER_TEST_SPIDER: spider, CRAWLEE_STORAGE_DIR: dir, GLEANER_TEST_CONCURRENCY: '1' };
    const worker = startWorker(['--redis', url, '--worker-id', 'w1'], env);
    const page = await browser.newPage();
    let ui: ReturnType<typeof spawn> | undefined;
    try {
      const deadline = Date.now() + 60_000;
      while (!(await crawlStatus(url, spider))) {
        if (Date.now() > deadline) throw new Error(`the crawl did not start:\n${worker.out()}`);
        await sleep(50);
      }
      ui = spawn(process.execPath, [GLEANER_BIN, 'status', spider, '--redis', url, '--ui'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      ui.stdout!.on('data', (d) => (out += d));
      ui.stderr!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => ui!.on('exit', (c) => r(c)));
      while (!/ at (http:\/\/127\.0\.0\.1:\d+\/)/.test(out)) {
        if (Date.now() > deadline) throw new Error(`no monitor address:\n${out}`);
        await sleep(50);
      }
      const monitorUrl = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
      await page.goto(monitorUrl);
      const updates = () => page.evaluate(() => Number(document.body.dataset.updates || 0));
      await page.waitForFunction(() => Number(document.body.dataset.updates || 0) >= 2, undefined, { timeout: 20_000 });
      // updated while the crawl runs
      const running = await page.evaluate(() => document.body.dataset.state);
      const pagesRunning = Number(await page.textContent('#pages'));
      expect(await page.textContent('#rates-title')).toBe('Pages per worker');
      expect(await page.locator('#rates').textContent()).toContain('w1');
      expect(await worker.exited, worker.out()).toBe(0);
      await page.waitForFunction(() => document.body.dataset.state === 'ended', undefined, { timeout: 20_000 });
      const status = (await crawlStatus(url, spider))!;
      expect(running).toBe('running');
      expect(pagesRunning).toBeLessThan(status.ok);
      expect(Number(await page.textContent('#pages'))).toBe(status.ok + status.failed + status.skipped);
      expect(Number(await page.textContent('#items'))).toBe(status.items);
      expect(await page.locator('#latest tr').count()).toBe(Math.min(status.items, LATEST_ITEMS));
      const atEnd = await updates();
      // an item opens (while the page is still served); the note says why there is no inspector view
      await page.click('#latest tr');
      await page.waitForSelector('#item:not([hidden])');
      expect(JSON.parse((await page.textContent('#item'))!).url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect(await page.textContent('#inspect-note')).toMatch(/workers/);
      expect(await exited, out).toBe(0);
      await sleep(1500);
      expect(await updates()).toBe(atEnd);
    } finally {
      ui?.kill();
      worker.proc.kill();
      await page.close();
      await site.close();
    }
  }, 120_000);
});
