/** buildCrawler (src/crawler/run/crawlee-crawler.ts), HTTP path: Crawlee's BasicCrawler takes the
 * requests from the frontier (through FrontierRequestManager) and hands each to the page handler,
 * a failure to the failure handler, once (the downloader retries, not Crawlee). The page handler
 * and the downloader are fakes: no request leaves the process. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Configuration, log as crawleeLog, type Request as CrawleeRequest } from '@crawlee/basic';
import { MemoryStorage } from '@crawlee/memory-storage';
import { FrontierRequestManager } from '../../../src/crawler/crawlee-glue.js';
import type { Downloader } from '../../../src/crawler/downloader/index.js';
import { HttpStatusError } from '../../../src/crawler/errors.js';
import { AddressGuard } from '../../../src/crawler/net-guard.js';
import { buildCrawler, chromiumPath } from '../../../src/crawler/run/crawlee-crawler.js';
import type { PageHandler } from '../../../src/crawler/run/page-handler.js';
import { MemoryFrontier } from './fakes.js';

const U = 'http://news.example';

// as crawl.ts does: our handlers report failures, Crawlee's log would repeat them
let crawleeLevel: number;
beforeAll(() => {
  crawleeLevel = crawleeLog.getLevel();
  crawleeLog.setLevel(crawleeLog.LEVELS.OFF);
});
afterAll(() => crawleeLog.setLevel(crawleeLevel));

describe('buildCrawler (HTTP)', () => {
  it('every request from the frontier reaches the page handler once; a thrown error reaches onFailed once, unretried', async () => {
    const frontier = new MemoryFrontier([`/`, `/a`, `/gone`, `/b`].map((p, i) => ({ url: `${U}${p}`, depth: i ? 1 : 0 })));
    let taken = 0;
    const requestManager = new FrontierRequestManager(frontier, { onTake: (n) => (taken += n) });
    const downloader = {} as Downloader;
    const handled: string[] = [];
    const pages = {
      async fetchAndHandle(request: CrawleeRequest, d: Downloader) {
        expect(d).toBe(downloader);
        handled.push(request.url);
        if (request.url.endsWith('/gone')) throw new HttpStatusError(404, request.url);
        frontier.done(request.url, 'ok');
      },
    } as unknown as PageHandler;
    const failed: Array<[string, string, number]> = [];
    const config = new Configuration({ storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }), persistStorage: false, purgeOnStart: false });
    const crawler = await buildCrawler({
      spider: { name: 'news', startUrls: [`${U}/`] },
      config,
      requestManager,
      scaling: { minConcurrency: 1, maxConcurrency: 2, autoscaleIntervalSecs: 1, scaleUpStepRatio: 0.5, maxEventLoopOverloadedRatio: 0.9 },
      timeoutSecs: 30,
      maxRetries: 2,
      maxRetryDelaySecs: 60,
      maxBytes: 1024,
      guard: new AddressGuard(false),
      downloader,
      pages,
      onFailed: async (request, error) => {
        failed.push([request.url, (error as HttpStatusError).reason, (request.userData as { depth: number }).depth]);
        frontier.done(request.url, 'failed');
      },
      settle: () => {},
    });
    // (maxRetries + 1) × timeout + maxRetries × longest retry pause + 60 s
    expect((crawler as unknown as { requestHandlerTimeoutMillis: number }).requestHandlerTimeoutMillis).toBe((3 * 30 + 2 * 60 + 60) * 1000);
    expect((crawler as unknown as { maxRequestRetries: number }).maxRequestRetries).toBe(0);
    await crawler.run();
    expect([...handled].sort()).toEqual([`${U}/`, `${U}/a`, `${U}/b`, `${U}/gone`]);
    expect(failed).toEqual([[`${U}/gone`, 'http 404', 1]]);
    expect(taken).toBe(4);
    expect(frontier.stats()).toMatchObject({ pending: 0, done: 4, failed: 1 });
    await crawler.teardown?.();
  });
});

describe('chromiumPath', () => {
  it('GLEANER_CHROMIUM, else Debian\'s chromium', () => {
    const before = process.env.GLEANER_CHROMIUM;
    try {
      process.env.GLEANER_CHROMIUM = '/opt/chromium/chrome';
      expect(chromiumPath()).toBe('/opt/chromium/chrome');
      delete process.env.GLEANER_CHROMIUM;
      expect(chromiumPath()).toBe('/usr/bin/chromium');
    } finally {
      if (before === undefined) delete process.env.GLEANER_CHROMIUM;
      else process.env.GLEANER_CHROMIUM = before;
    }
  });
});
