/**
 * Issue 27 item 4: the live monitor in a real browser (Playwright + Debian's chromium). Fed by a
 * crawl of the demo site (127.0.0.1) through the crawl's own hooks, as `--ui` feeds it: the page
 * updates while the crawl runs, shows the end, then stops updating; a latest item opens on click.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { runSpider } from '../../src/crawler/crawl.js';
import { startDemoServer } from '../../src/demo/server.js';
import { silentLogger } from '../../src/core/middleware.js';
import { CrawlMonitor } from '../../src/monitor/monitor.js';

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
    const monitor = new CrawlMonitor('monitor-test');
    const url = await monitor.listen(0);
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const page = await browser.newPage();
    try {
      await page.goto(url);
      const updates = () => page.evaluate(() => Number(document.body.dataset.updates || 0));
      const seen: number[] = [];
      const crawl = runSpider(
        { name: 'monitor-test', startUrls: [`${demo.url}/news/`, `${demo.url}/forum/`], allowPrivateAddresses: true, crawler: { threads: 0 } },
        {
          storageDir: mkdtempSync(path.join(tmpdir(), 'gleaner-monitor-')),
          log: silentLogger,
          fresh: true,
          maxPages: 15,
          progressIntervalMs: 200,
          onProgress: (p) => monitor.onProgress(p),
          onItem: async (item) => {
            monitor.onItem(item);
            // the crawl is slowed a little so that the page (polling each second) sees it run
            await new Promise((r) => setTimeout(r, 120));
            if (seen.length < 3 && monitor.snapshot().items % 5 === 0) seen.push(await updates());
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
      // a latest item opens
      await page.click('#latest tr');
      await page.waitForSelector('#item:not([hidden])');
      expect(JSON.parse((await page.textContent('#item'))!).url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    } finally {
      await page.close();
      await monitor.close();
      await demo.close();
    }
  }, 90_000);
});
