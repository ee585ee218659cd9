/**
 * robots.txt `Crawl-delay` (issue 16 item 3): the seconds a site asks between two requests of a
 * crawler, honoured per host by the rate limiter. A downloader step after the robots.txt check
 * (whose fetch it shares) and before the rate limit; it reads the delay once per host.
 */
import type { DownloaderStep } from './downloader/index.js';
import type { HostRateLimiter, RobotsCache } from './politeness.js';
import type { Logger } from '../core/middleware.js';

/** Longest Crawl-delay honoured, seconds: Nutch's `fetcher.max.crawl.delay` default. A site asking
 * for more is crawled at this spacing (and the log says so): a larger value would stall the crawl
 * on that host for hours. */
export const MAX_CRAWL_DELAY_SECS = 30;

export function crawlDelayStep(robots: RobotsCache, limiter: HostRateLimiter, log: Logger, maxSecs = MAX_CRAWL_DELAY_SECS): DownloaderStep {
  const seen = new Map<string, Promise<void>>();
  return {
    name: 'crawl-delay',
    priority: 350,
    async request(ctx) {
      const host = new URL(ctx.url).host;
      let p = seen.get(host);
      if (!p) {
        p = robots.crawlDelay(ctx.url).then((d) => {
          if (d === undefined) return;
          const secs = Math.min(d, maxSecs);
          if (d > maxSecs) log.warning(`robots.txt of ${host} asks for Crawl-delay ${d} s: using ${maxSecs} s (crawler.maxCrawlDelaySecs)`);
          else log.info(`robots.txt of ${host}: Crawl-delay ${d} s honoured`);
          limiter.setMinInterval(host, secs * 1000);
        });
        seen.set(host, p);
      }
      await p;
    },
  };
}
