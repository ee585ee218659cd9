/** Probe (issue 16): links that differ only in query order and utm_ parameters are one page each,
 * as Crawlee's request queue counts them. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheerioCrawler, Configuration, MemoryStorage, log } from 'crawlee';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve } from '../fixtures/crawler/server.js';

const VARIANTS = ['/p?a=1&b=2', '/p?b=2&a=1', '/p?utm_source=news&b=2&a=1', '/q?x=1', '/q?x=1&utm_medium=mail#comments', '/r?utm_campaign=c'];
const page = (title: string, links: string[] = []) => ({ body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>` });
const site = (p: string) => (p === '/' ? page('Probe', VARIANTS) : ['/p', '/q', '/r'].includes(p) ? page(`Page ${p}`) : undefined);

describe('URL normalisation in a crawl', () => {
  it('fetches query-order and utm_ variants once each, as Crawlee does', async () => {
    const server = await serve(site);
    try {
      const summary = await runSpider({ name: 'probe', startUrls: [`${server.url}/`], allowPrivateAddresses: true, crawler: { robotsTxt: false } }, { storageDir: mkdtempSync(path.join(tmpdir(), 'probe-')), log: silentLogger });
      const ours = server.targets.filter((t) => t !== '/');
      expect(summary.pages).toBe(4);
      expect(ours.sort()).toEqual(['/p?a=1&b=2', '/q?x=1', '/r']);

      // The same page through Crawlee's own queue (CheerioCrawler + enqueueLinks).
      server.targets.length = 0;
      log.setLevel(log.LEVELS.OFF);
      const storage = new MemoryStorage({ persistStorage: false });
      const crawler = new CheerioCrawler(
        {
          async requestHandler({ enqueueLinks }) {
            await enqueueLinks();
          },
        },
        new Configuration({ storageClient: storage, persistStorage: false }),
      );
      await crawler.run([`${server.url}/`]);
      const theirs = server.targets.filter((t) => t !== '/');
      expect(theirs.length).toBe(ours.length);
    } finally {
      await server.close();
    }
  });

  // The link policy goes to the chain's worker threads as data: the spider's own options must
  // arrive there (and apply on the crawl thread alike). (Fragments never reach the crawl from a
  // page's links: the page model drops them, src/core/page.ts resolveUrl.)
  it.each([0, 2])("applies the spider's ignoreQueryParams to links (threads %i)", async (threads) => {
    const links = ['/p?ref_id=7', '/p', '/p?utm_source=x&ref_b=1', '/s?k=1&ref=2'];
    const server = await serve((p) => (p === '/' ? page('Options', links) : ['/p', '/s'].includes(p) ? page(`Page ${p}`) : undefined));
    try {
      const summary = await runSpider(
        { name: 'probe-options', startUrls: [`${server.url}/`], allowPrivateAddresses: true, ignoreQueryParams: ['ref_*'], crawler: { robotsTxt: false } },
        { storageDir: mkdtempSync(path.join(tmpdir(), 'probe-')), log: silentLogger, threads },
      );
      // ref_* dropped (a glob: `ref` itself is kept), utm_ by default.
      expect(server.targets.filter((t) => t !== '/').sort()).toEqual(['/p', '/s?k=1&ref=2']);
      expect(summary.pages).toBe(3);
    } finally {
      await server.close();
    }
  });
});
