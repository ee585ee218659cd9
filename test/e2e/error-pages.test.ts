/**
 * A 4xx/5xx response is not an item (issue 25 item 2), the same rule in `gleaner crawl` and in the
 * Crawlee integration: on a site whose home page links to 200 missing pages, `withGleaner` stores
 * none of them (Crawlee's own failed-request path: counted, a 404 not retried, a 503 retried as
 * Crawlee retries) and the items it stores carry their HTTP `status`; the CLI counts the same
 * URLs as `http 404` failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheerioCrawler, Configuration, Log, LogLevel, MemoryStorage, PlaywrightCrawler } from 'crawlee';
import { createGleaner, HttpStatusError } from '../../src/crawlee.js';
import type { Item } from '../../src/core/item.js';
import { chromiumPath } from '../../src/crawler/crawl.js';
import { serve, type FixtureResponse, type FixtureServer } from '../fixtures/crawler/server.js';
import { gleaner } from '../crawlfeat/cli.js';

const MISSING = 200;
const PARA = 'The committee met on Tuesday to review the proposal in detail, and members asked for more time to study the budget figures before the final vote next month.';
const story = (n: number) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Story ${n} about the city budget</title></head>
<body><article><h1>Story ${n} about the city budget</h1><p>By Jane Doe, March ${n}, 2024</p>${[1, 2, 3].map((k) => `<p>${PARA} Paragraph ${k}.</p>`).join('')}</article></body></html>`;
/** What python's http.server answers for a missing file (the page the issue found stored as items). */
const NOT_FOUND = '<!DOCTYPE HTML><html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: 404</p><p>Message: File not found.</p></body></html>';

function site(missing: number): (p: string) => FixtureResponse | undefined {
  const links = [
    ...[1, 2, 3, 4, 5].map((n) => `/story/${n}.html`),
    ...Array.from({ length: missing }, (_, i) => `/missing/${i + 1}.html`),
    '/flaky.html',
    '/gone.html',
  ];
  return (p) => {
    if (p === '/') return { body: `<!DOCTYPE html><html><head><title>Home</title></head><body><h1>City news</h1><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></body></html>` };
    const m = /^\/story\/(\d+)\.html$/.exec(p);
    if (m) return { body: story(Number(m[1])) };
    if (p.startsWith('/missing/')) return { status: 404, body: NOT_FOUND };
    if (p === '/flaky.html') return { status: 503, body: '<html><body>Service Unavailable</body></html>' };
    if (p === '/gone.html') return { status: 410, body: `<html><head><title>Gone</title></head><body><p>${PARA}</p></body></html>` };
    return undefined;
  };
}

const hitsOf = (server: FixtureServer) => {
  const hits = new Map<string, number>();
  for (const p of server.requests) hits.set(p, (hits.get(p) ?? 0) + 1);
  return hits;
};
const memory = () => new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false });
/** Crawlee logs each failed request at error level: 200 lines here, not the test's business. */
const quiet = () => new Log({ level: LogLevel.OFF });

describe('withGleaner: an error status is not an item', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await serve(site(MISSING));
  });
  afterAll(async () => server?.close());

  it(`CheerioCrawler, ${MISSING} links to 404 pages: 0 items for them, every failure counted by Crawlee, a 404 fetched once, a 503 retried`, async () => {
    const failed: Array<{ url: string; error: unknown }> = [];
    const g = createGleaner();
    const crawler = new CheerioCrawler(
      g.crawlerOptions({
        maxRequestRetries: 2,
        log: quiet(),
        failedRequestHandler: ({ request }, error) => void failed.push({ url: request.url, error }),
      }),
      memory(),
    );
    await crawler.run([`${server.url}/`]);
    await g.close();
    const { items } = (await crawler.getData()) as unknown as { items: Item[] };
    const paths = items.map((i) => new URL(i.url).pathname).sort();
    expect(paths).toEqual(['/', '/story/1.html', '/story/2.html', '/story/3.html', '/story/4.html', '/story/5.html']);
    // every stored page says how it was answered
    expect(items.map((i) => i.status)).toEqual(items.map(() => 200));
    expect(JSON.stringify(items)).not.toContain('File not found');
    // Crawlee's own count: the 404s, the 410 and the 503 that stayed a 503
    expect(crawler.stats.state.requestsFailed).toBe(MISSING + 2);
    expect(failed.length).toBe(MISSING + 2);
    expect(failed.filter((f) => f.error instanceof HttpStatusError && f.error.status === 404).length).toBe(MISSING);
    expect(g.stats.httpErrors).toEqual({ 404: MISSING, 410: 1 });
    expect(g.stats.items).toBe(6);
    const hits = hitsOf(server);
    // a 404 is not worth another attempt; a 503 is (Crawlee's HTTP crawlers fail it themselves: 1 + 2 retries)
    expect([...hits].filter(([p, n]) => p.startsWith('/missing/') && n !== 1)).toEqual([]);
    expect(hits.get('/gone.html')).toBe(1);
    expect(hits.get('/flaky.html')).toBe(3);
  }, 120_000);

  it('a status your crawler reads as a page (ignoreHttpErrorStatusCodes) is an item, with that status', async () => {
    const g = createGleaner();
    const crawler = new CheerioCrawler(g.crawlerOptions({ maxRequestsPerCrawl: 1, ignoreHttpErrorStatusCodes: [410], log: quiet() }), memory());
    await crawler.run([`${server.url}/gone.html`]);
    const { items } = (await crawler.getData()) as unknown as { items: Item[] };
    expect(items).toMatchObject([{ url: `${server.url}/gone.html`, status: 410 }]);
    expect(g.stats.httpErrors).toEqual({});
  }, 60_000);
});

describe.skipIf(!existsSync(chromiumPath()))('withGleaner on a PlaywrightCrawler (the status from the browser’s response)', () => {
  it('404s fail at once, a 503 is retried, the pages are items with status 200', async () => {
    const server = await serve(site(3));
    try {
      const g = createGleaner();
      const crawler = new PlaywrightCrawler(
        g.crawlerOptions({ maxRequestRetries: 1, log: quiet(), launchContext: { launchOptions: { executablePath: chromiumPath(), args: ['--no-sandbox'] } }, maxConcurrency: 2 }),
        memory(),
      );
      await crawler.run([`${server.url}/`]);
      const { items } = (await crawler.getData()) as unknown as { items: Item[] };
      expect(items.length).toBe(6);
      expect(items.every((i) => i.status === 200 && !i.url.includes('/missing/'))).toBe(true);
      expect(crawler.stats.state.requestsFailed).toBe(3 + 2);
      expect(g.stats.httpErrors).toEqual({ 404: 3, 410: 1, 503: 2 });
      const hits = hitsOf(server);
      expect(hits.get('/flaky.html')).toBe(2);
      expect(hits.get('/missing/1.html')).toBe(1);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('gleaner crawl: the same site, the same rule', () => {
  let server: FixtureServer;
  let dir: string;
  let items: Item[];
  let stdout: string;
  beforeAll(async () => {
    server = await serve(site(MISSING));
    dir = mkdtempSync(path.join(tmpdir(), 'gleaner-errors-'));
    writeFileSync(path.join(dir, 'errors.mjs'), `export default { name: 'errors', startUrls: ['${server.url}/'], allowPrivateAddresses: true, crawler: { maxRetries: 1, retryBackoffSecs: 0.05 } };\n`);
    const r = await gleaner(['crawl', path.join(dir, 'errors.mjs'), '--out', path.join(dir, 'items.jsonl'), '--threads', '0'], { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') });
    expect(r.status, r.stderr).toBe(0);
    stdout = r.stdout;
    items = readFileSync(path.join(dir, 'items.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Item);
  }, 120_000);
  afterAll(async () => server?.close());

  it(`${MISSING} 404s counted as failures, none an item`, () => {
    expect(items.map((i) => new URL(i.url).pathname).sort()).toEqual(['/', '/story/1.html', '/story/2.html', '/story/3.html', '/story/4.html', '/story/5.html']);
    expect(stdout).toMatch(new RegExp(`http 404 ${MISSING}\\b`));
    expect(stdout).toMatch(/http 410 1\b/);
    expect(stdout).toMatch(/http 503 1\b/);
  });

  // the crawl passes the response's status into RequestInfo (page-handler.ts), finishItem onto the item
  it('its items carry their HTTP status, as withGleaner’s do', () => {
    expect(items.map((i) => i.status)).toEqual(items.map(() => 200));
  });
});
