/** Sitemaps and robots.txt (issue 16 item 3): start from the robots.txt Sitemap: lines (index →
 * gzip urlset, text sitemap), honour Crawl-delay; a robots.txt answering 5xx is counted. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { readSitemap } from '../../src/crawler/sitemaps.js';
import { serve, type FixtureResponse } from '../fixtures/crawler/server.js';

const PARA = 'The council voted on the new transport plan after a long debate about bus lanes, cycle paths and the budget for the coming year.';
const article = (n: number) => ({ body: `<!DOCTYPE html><html lang="en"><head><title>Report ${n}</title></head><body><article><h1>Report ${n}</h1>${[1, 2, 3].map((k) => `<p>${PARA} Part ${k} of report ${n}.</p>`).join('')}</article></body></html>` });

function site(robots: FixtureResponse): (p: string) => FixtureResponse | undefined {
  const base = () => ''; // paths only: the crawler resolves them against the server
  void base;
  return (p) => {
    if (p === '/robots.txt') return robots;
    if (p === '/') return { body: '<html><head><title>Home</title></head><body><p>Nothing linked here.</p></body></html>' };
    const m = /^\/reports\/(\d+)\.html$/.exec(p);
    if (m && Number(m[1]) <= 6) return article(Number(m[1]));
    return undefined;
  };
}

describe('sitemaps', () => {
  it('reads urlsets, indexes, gzip and text sitemaps with Crawlee’s parser', async () => {
    const index = await readSitemap(Buffer.from('<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://h/a.xml.gz</loc></sitemap></sitemapindex>'));
    expect(index).toEqual({ urls: [], sitemaps: ['http://h/a.xml.gz'] });
    const gz = await readSitemap(gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://h/1</loc><lastmod>2024-05-01</lastmod></url></urlset>'));
    expect(gz.urls.map((u) => [u.url, u.lastmod?.toISOString().slice(0, 10)])).toEqual([['http://h/1', '2024-05-01']]);
    expect((await readSitemap(Buffer.from('http://h/2\nnot a url\nhttps://h/3\n'))).urls.map((u) => u.url)).toEqual(['http://h/2', 'https://h/3']);
  });

  it('starts from the robots.txt Sitemap: lines and honours Crawl-delay', async () => {
    let url = '';
    const routes = site({ body: '', type: 'text/plain' });
    const server = await serve((p) => {
      if (p === '/robots.txt') return { body: `User-agent: *\nCrawl-delay: 0.4\nDisallow: /private/\nSitemap: ${url}/sitemap_index.xml\n`, type: 'text/plain' };
      if (p === '/sitemap_index.xml') return { body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${url}/sitemap-1.xml.gz</loc></sitemap><sitemap><loc>${url}/sitemap-2.txt</loc></sitemap></sitemapindex>`, type: 'application/xml' };
      if (p === '/sitemap-1.xml.gz') return { body: gzipSync(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[1, 2, 3].map((n) => `<url><loc>${url}/reports/${n}.html</loc></url>`).join('')}<url><loc>http://elsewhere.example/x</loc></url></urlset>`), type: 'application/gzip' };
      if (p === '/sitemap-2.txt') return { body: `${url}/reports/4.html\n${url}/reports/5.html\n${url}/private/6.html\n`, type: 'text/plain' };
      return routes(p);
    });
    url = server.url;
    try {
      const summary = await runSpider({ name: 'maps', startUrls: [`${url}/`], allowPrivateAddresses: true, sitemaps: true, crawler: { maxConcurrency: 4 } }, { storageDir: mkdtempSync(path.join(tmpdir(), 'maps-')), log: silentLogger });
      expect(summary.sitemapUrls).toBe(6); // 5 reports + /private/6 (refused by robots.txt when fetched)
      const fetched = server.requests.filter((p) => p.startsWith('/reports/')).sort();
      expect(fetched).toEqual([1, 2, 3, 4, 5].map((n) => `/reports/${n}.html`));
      expect(summary.itemsByKind.article).toBe(5);
      expect(summary.skippedByRobots).toBe(1);
      // Crawl-delay 0.4 s: requests start at least 0.4 s apart. Arrival times at the server can
      // bunch up when the crawler's thread is late sending one (a loaded machine), so the check
      // is on the span: n requests take at least (n - 1) × 0.4 s, less one late start.
      const pageTimes = server.times.filter((_, i) => server.requests[i] !== '/robots.txt');
      expect(pageTimes.length).toBeGreaterThanOrEqual(8);
      expect(pageTimes.at(-1)! - pageTimes[0]!).toBeGreaterThanOrEqual((pageTimes.length - 1) * 400 - 300);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a robots.txt answering 5xx is retried, then every URL of the host is refused, counted in the summary', async () => {
    const server = await serve(site({ body: 'busy', status: 503, type: 'text/plain' }));
    try {
      const summary = await runSpider({ name: 'r5xx', startUrls: [`${server.url}/`, `${server.url}/reports/1.html`], allowPrivateAddresses: true }, { storageDir: mkdtempSync(path.join(tmpdir(), 'r5xx-')), log: silentLogger });
      expect(server.requests.filter((p) => p === '/robots.txt').length).toBe(3); // first try + 2 retries
      expect(summary.robotsUnavailable).toBe(1);
      expect(summary.skippedByRobots).toBe(2);
      expect(server.requests.filter((p) => p !== '/robots.txt')).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
