/**
 * `gleaner inspect URL`: the page fetched by a one-page crawl — the crawler's own path, guarded as
 * every crawled page is (private and loopback addresses refused on every hop and at DNS time
 * unless `allowPrivateAddresses`, robots.txt, size and redirect limits, status and content-type
 * checks, retries). A probe middleware at the head of the chain keeps the decoded page; the crawl's
 * storage is a temporary folder, removed after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Middleware } from '../core/middleware.js';
import { silentLogger, type Logger } from '../core/middleware.js';

export interface FetchedPage {
  url: string;
  /** The page as decoded by the crawl (UTF-8 text). */
  html: string;
  status?: number;
}

export async function fetchPage(url: string, o: { allowPrivateAddresses?: boolean; maxBytes: number; log?: Logger }): Promise<FetchedPage> {
  const { runSpider } = await import('../crawler/crawl.js');
  let got: FetchedPage | undefined;
  const capture: Middleware = {
    name: 'inspect-capture',
    priority: 1,
    siteState: false,
    process(ctx) {
      got = { url: ctx.page.url, html: ctx.page.html, status: ctx.request.status };
      ctx.drop = 'inspected';
    },
  };
  const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-inspect-'));
  try {
    const summary = await runSpider(
      { name: 'inspect', startUrls: [url], allowPrivateAddresses: o.allowPrivateAddresses ?? false, maxPages: 1, extraMiddleware: [capture], crawler: { maxResponseBytes: o.maxBytes, maxRetries: 2 } },
      { storageDir, threads: 0, log: o.log ?? silentLogger, fresh: true },
    );
    if (!got) {
      const why = Object.keys(summary.failuresByReason).join(', ') || (summary.skippedByRobots ? 'disallowed by robots.txt' : 'no page');
      throw new Error(why);
    }
    return got;
  } finally {
    rmSync(storageDir, { recursive: true, force: true });
  }
}
