/**
 * The run's Crawlee crawler: `BasicCrawler` over our downloader for HTTP, `PlaywrightCrawler` with
 * Debian's chromium for `crawler.render`. Requests come straight from the frontier
 * (`FrontierRequestManager`), concurrency is autoscaled between the spider's floor and ceiling, and
 * both paths end in the same page and failure handlers.
 */
import { BasicCrawler, type Request as CrawleeRequest, type RequestQueue } from '@crawlee/basic';
import type { Configuration } from '@crawlee/core';
import type { PlaywrightCrawler } from 'crawlee';
import type { SpiderConfig } from '../../spider/config.js';
import type { FrontierRequestManager } from '../crawlee-glue.js';
import type { Downloader } from '../downloader/index.js';
import type { AddressGuard } from '../net-guard.js';
import type { Credentials } from '../credentials.js';
import { FetchError, HttpStatusError, TooLargeError } from '../errors.js';
import { cookieHeaderFor } from './fetchers.js';
import { FinalFetchError } from './failure-handler.js';
import type { PageHandler } from './page-handler.js';
import { BOX_SCRIPT, layoutEnabled } from '../../core/layout.js';

/** Chromium flags for containers and CI (no sandbox, no GPU, small /dev/shm, no phoning home). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function chromiumPath(): string {
  return process.env.GLEANER_CHROMIUM || '/usr/bin/chromium';
}

/** Crawlee's autoscaling settings (see DEFAULTS in crawl.ts for why each value). */
export interface ScalingSettings {
  minConcurrency: number;
  maxConcurrency: number;
  autoscaleIntervalSecs: number;
  scaleUpStepRatio: number;
  maxEventLoopOverloadedRatio: number;
}

export interface CrawlerParts {
  spider: SpiderConfig;
  config: Configuration;
  requestManager: FrontierRequestManager;
  scaling: ScalingSettings;
  timeoutSecs: number;
  maxRetries: number;
  maxRetryDelaySecs: number;
  maxBytes: number;
  guard: AddressGuard;
  /** Userinfo of the start URLs, by origin (render mode adds it to requests of that origin). */
  credentials?: Credentials;
  downloader: Downloader;
  pages: PageHandler;
  onFailed: (request: CrawleeRequest, error: Error) => Promise<void>;
  /** A shared frontier: the crawl ends when it says so for every worker (Crawlee's isFinishedFunction). */
  isFinished?: () => Promise<boolean>;
  settle: () => void;
}

export type Crawler = BasicCrawler<any> | PlaywrightCrawler;

export async function buildCrawler(p: CrawlerParts): Promise<Crawler> {
  const { spider, scaling: s } = p;
  const c = spider.crawler ?? {};
  const common = {
    // BasicCrawler's `requestManager` option is missing from its option check (Crawlee 3.18); as
    // `requestQueue` it is used the same way (it has fetchNextRequest and addRequest).
    requestQueue: p.requestManager as unknown as RequestQueue,
    maxConcurrency: s.maxConcurrency,
    // Autoscaled between the floor and the spider's ceiling (see DEFAULTS.minConcurrency).
    minConcurrency: s.minConcurrency,
    autoscaledPoolOptions: {
      ...(p.isFinished ? { isFinishedFunction: p.isFinished } : {}),
      desiredConcurrency: s.minConcurrency,
      autoscaleIntervalSecs: s.autoscaleIntervalSecs,
      scaleUpStepRatio: s.scaleUpStepRatio,
      systemStatusOptions: {
        // Machine-wide CPU (what Crawlee measures) is other processes' on a shared box; this
        // process's own saturation shows as event-loop lag, which still scales it down.
        maxCpuOverloadedRatio: 1,
        maxEventLoopOverloadedRatio: s.maxEventLoopOverloadedRatio,
      },
    },
    requestHandlerTimeoutSecs: (p.maxRetries + 1) * p.timeoutSecs + p.maxRetries * p.maxRetryDelaySecs + 60,
    failedRequestHandler: async ({ request }: { request: CrawleeRequest }, error: Error) => p.onFailed(request, error),
    statusMessageLoggingInterval: 3600,
  };
  if (!c.render) {
    return new BasicCrawler(
      {
        ...common,
        // The downloader retries (with backoff); Crawlee's own retries would come on top.
        maxRequestRetries: 0,
        useSessionPool: false,
        requestHandler: async ({ request }) => p.pages.fetchAndHandle(request, p.downloader),
      },
      p.config,
    );
  }
  const [{ chromium }, { PlaywrightCrawler }] = await Promise.all([import('playwright'), import('crawlee')]);
  const proxies = c.proxyUrls ?? [];
  // the layout stage reads the boxes of the page's block elements, written into the DOM in one pass
  const boxes = layoutEnabled(spider.middleware?.layout);
  return new PlaywrightCrawler(
    {
      ...common,
      maxRequestRetries: p.maxRetries,
      navigationTimeoutSecs: p.timeoutSecs,
      launchContext: { launcher: chromium, launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true } as any },
      browserPoolOptions: { useFingerprints: false },
      proxyConfiguration: proxies.length ? new (await import('@crawlee/core')).ProxyConfiguration({ proxyUrls: proxies }) : undefined,
      preNavigationHooks: [
        async ({ request, page }) => {
          await p.downloader.admit(request.url).catch((e) => {
            throw e instanceof FetchError && !e.retryable ? new FinalFetchError(e) : e;
          });
          if (c.headers) await page.setExtraHTTPHeaders(c.headers);
          const cookie = cookieHeaderFor(request.url, spider);
          if (cookie) await page.setExtraHTTPHeaders({ ...(c.headers ?? {}), cookie });
          const guarded = !spider.allowPrivateAddresses;
          if (guarded || p.credentials?.size) {
            // Sub-resources too: a public page must not make the browser reach private hosts; the
            // start URLs' credentials go to their own origin only.
            await page.route('**/*', async (route) => {
              const req = route.request();
              try {
                if (guarded) await p.guard.check(req.url());
              } catch {
                await route.abort('blockedbyclient');
                return;
              }
              const auth = p.credentials?.headerFor(req.url());
              await route.continue(auth ? { headers: { ...req.headers(), authorization: auth } } : undefined);
            });
          }
        },
      ],
      async requestHandler({ request, page, response }) {
        const status = response?.status() ?? 200;
        if (status >= 400) {
          const e = new HttpStatusError(status, request.url);
          throw e.retryable ? e : new FinalFetchError(e);
        }
        // Scripts that fill the page after `load` (fetch + render): give them a moment.
        await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
        if (boxes) await page.evaluate(BOX_SCRIPT).catch(() => {}); // a page that cannot be measured has no boxes
        const html = await page.content();
        if (html.length > p.maxBytes) throw new FinalFetchError(new TooLargeError(request.url, p.maxBytes, true));
        await p.pages.handle(request, { url: page.url(), body: html, contentType: 'text/html; charset=utf-8', status });
        p.settle();
      },
    },
    p.config,
  );
}
