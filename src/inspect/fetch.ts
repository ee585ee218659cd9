/**
 * `gleaner inspect URL`: the page fetched through the crawl's own downloader — the same guarded
 * path every crawled page takes (address guard against private and loopback addresses on every
 * hop and at DNS time, off-site redirects refused, size limit, redirect limit, status and content
 * type checks, retries). Only `allowPrivateAddresses` (the `--allow-private` flag, for a page on
 * one's own machine, and for tests on 127.0.0.1) turns the address guard off, as in a spider.
 */
import { Downloader } from '../crawler/downloader/index.js';
import { defaultSteps } from '../crawler/downloader/steps.js';
import { AddressGuard, parseDomains } from '../crawler/net-guard.js';
import { HostRateLimiter } from '../crawler/politeness.js';

/** The crawler's defaults for one page (spider `crawler` settings: timeoutSecs, maxResponseBytes). */
const TIMEOUT_MS = 30_000;
const MAX_RETRIES = 2;

export interface FetchedPage {
  url: string;
  body: Buffer;
  contentType?: string;
  status: number;
}

export async function fetchPage(url: string, o: { allowPrivateAddresses?: boolean; maxBytes: number }): Promise<FetchedPage> {
  const host = new URL(url).host;
  const guard = o.allowPrivateAddresses ? undefined : new AddressGuard(false);
  const downloader = new Downloader({
    steps: defaultSteps({ domains: parseDomains([host]), guard, limiter: new HostRateLimiter(), maxBytes: o.maxBytes, retry: { maxRetries: MAX_RETRIES, baseDelayMs: 1000, maxDelayMs: 10_000 } }),
    timeoutMs: TIMEOUT_MS,
    maxBytes: o.maxBytes,
    guardDns: !o.allowPrivateAddresses,
  });
  const d = await downloader.fetch(url);
  return { url: d.url, body: d.body, contentType: d.contentType, status: d.status };
}
