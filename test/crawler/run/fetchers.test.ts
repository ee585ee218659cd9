/** The crawl's downloaders (src/crawler/run/fetchers.ts), against a loopback server (127.0.0.1
 * only): the page downloader's steps as the spider sets them, robots.txt, sitemaps. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../src/core/middleware.js';
import { BlockedError } from '../../../src/crawler/errors.js';
import { linkPolicyOf } from '../../../src/crawler/links.js';
import { AddressGuard } from '../../../src/crawler/net-guard.js';
import { HostRateLimiter } from '../../../src/crawler/politeness.js';
import { NotModifiedError, PageMemory } from '../../../src/crawler/recrawl.js';
import { cookieHeaderFor, pageFetcher, robotsCache, sitemapCandidates, type FetchContext } from '../../../src/crawler/run/fetchers.js';
import { CrawlStats } from '../../../src/crawler/run/stats.js';
import type { SpiderConfig } from '../../../src/spider/config.js';
import { serve, type FixtureResponse, type FixtureServer } from '../../fixtures/crawler/server.js';
import { listPage, recordingLogger } from './fakes.js';

const PAGE = '<html><head><title>A page</title></head><body><p>Hello.</p></body></html>';

/** Requests per path, for routes that answer differently the second time. */
const hits = new Map<string, number>();
let server: FixtureServer;
let origin: string;

beforeAll(async () => {
  server = await serve((p): FixtureResponse | undefined => {
    const n = (hits.get(p) ?? 0) + 1;
    hits.set(p, n);
    switch (p) {
      case '/robots.txt':
        return { body: `User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`, type: 'text/plain' };
      case '/sitemap.xml':
        return {
          body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/story/1.html</loc></url><url><loc>${origin}/story/2.html#top</loc></url><url><loc>${origin}/story/1.html</loc></url><url><loc>http://elsewhere.example/x.html</loc></url></urlset>`,
          type: 'application/xml',
        };
      case '/flaky':
        return n === 1 ? { body: 'busy', status: 503 } : { body: PAGE };
      case '/thread':
        return { body: PAGE, headers: { etag: '"v2"' } };
      case '/unchanged':
        return { body: '', status: 304 };
      case '/away':
        // never followed: the off-site step refuses the hop before any request leaves loopback
        return { body: '', status: 302, headers: { location: 'http://elsewhere.example/x.html' } };
      default:
        return p.startsWith('/private/') || p === '/page' || p.startsWith('/story/') ? { body: PAGE } : undefined;
    }
  });
  origin = server.url;
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

function context(spider: Partial<SpiderConfig> = {}, log: Logger = recordingLogger()): FetchContext & { controller: AbortController } {
  const s: SpiderConfig = { name: 'site', startUrls: [`${origin}/`], allowPrivateAddresses: true, ...spider };
  const stats = new CrawlStats(log, s.name);
  const controller = new AbortController();
  return {
    spider: s,
    settings: { timeoutSecs: 5, maxBytes: 1024 * 1024, maxRetries: 2, retryBackoffSecs: 0, maxRetryDelaySecs: 1 },
    guard: new AddressGuard(!!s.allowPrivateAddresses),
    limiter: new HostRateLimiter(),
    signal: controller.signal,
    log: stats.log,
    stats,
    links: linkPolicyOf(s),
    controller,
  };
}

const noRecrawl = { memory: PageMemory.open(undefined), active: () => false };
const requestsTo = (path: string) => server.headers.filter((h) => h[':path'] === path);

describe('cookieHeaderFor', () => {
  it("the spider's cookies for a URL, by domain (and subdomains) and path", () => {
    const spider: SpiderConfig = {
      name: 's',
      startUrls: ['http://a.example/'],
      crawler: { cookies: [{ name: 'all', value: '1' }, { name: 'sub', value: '2', domain: 'a.example' }, { name: 'forum', value: '3', path: '/forum/' }, { name: 'other', value: '4', domain: 'b.example' }] },
    };
    expect(cookieHeaderFor('http://a.example/', spider)).toBe('all=1; sub=2');
    expect(cookieHeaderFor('http://www.a.example/forum/t/1', spider)).toBe('all=1; sub=2; forum=3');
    expect(cookieHeaderFor('http://b.example/forum/', spider)).toBe('all=1; forum=3; other=4');
    expect(cookieHeaderFor('http://a.example/', { name: 's', startUrls: [] })).toBeUndefined();
  });
});

describe('pageFetcher', () => {
  it("fetches a page with the spider's headers and cookies; no session pool unless asked", async () => {
    const x = context({ crawler: { headers: { 'x-crawl': 'gleaner-test' }, cookies: [{ name: 'consent', value: 'yes' }] } });
    const f = await pageFetcher(x, undefined, noRecrawl, false);
    expect(f.sessions).toBeUndefined();
    const res = await f.downloader.fetch(`${origin}/page`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(PAGE);
    const h = requestsTo('/page').at(-1)!;
    expect(h['x-crawl']).toBe('gleaner-test');
    expect(h.cookie).toBe('consent=yes');
  });

  it('retries a 503 (counted in the stats) and gets the page', async () => {
    const x = context();
    const f = await pageFetcher(x, undefined, noRecrawl, false);
    const res = await f.downloader.fetch(`${origin}/flaky`);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(x.stats.retries).toBe(1);
  });

  it('gives up after maxRetries with the status as the error', async () => {
    const x = context();
    x.settings.maxRetries = 0;
    const f = await pageFetcher(x, undefined, noRecrawl, false);
    hits.delete('/flaky');
    await expect(f.downloader.fetch(`${origin}/flaky`)).rejects.toMatchObject({ reason: 'http 503' });
    expect(x.stats.retries).toBe(0);
  });

  it('refuses a redirect off-site and, without allowPrivateAddresses, a loopback URL — before any request', async () => {
    const onSite = await pageFetcher(context(), undefined, noRecrawl, false);
    await expect(onSite.downloader.fetch(`${origin}/away`)).rejects.toMatchObject({ reason: 'redirect off-site' });
    const before = requestsTo('/page').length;
    const guarded = await pageFetcher(context({ allowPrivateAddresses: false }), undefined, noRecrawl, false);
    const err = await guarded.downloader.fetch(`${origin}/page`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect((err as BlockedError).kind).toBe('address');
    expect(requestsTo('/page').length).toBe(before);
  });

  it('with robots.txt: a disallowed URL is refused as a robots BlockedError (never requested)', async () => {
    const x = context();
    const robots = robotsCache(x, undefined);
    const f = await pageFetcher(x, robots, noRecrawl, false);
    const err = await f.downloader.fetch(`${origin}/private/a`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect((err as BlockedError).kind).toBe('robots');
    expect(requestsTo('/private/a')).toEqual([]);
    expect((await f.downloader.fetch(`${origin}/page`)).status).toBe(200);
  });

  it('a recrawl pass asks conditionally with the validators remembered; a 304 is NotModifiedError; outside a pass nothing is added', async () => {
    const memory = PageMemory.open(undefined);
    memory.record(`${origin}/unchanged`, listPage(`${origin}/unchanged`, []), { depth: 1, fetchedAt: new Date(0), headers: { etag: '"v1"', 'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT' } });
    memory.record(`${origin}/thread`, listPage(`${origin}/thread`, []), { depth: 1, fetchedAt: new Date(0), headers: { etag: '"v1"' } });
    let active = true;
    const f = await pageFetcher(context(), undefined, { memory, active: () => active }, false);
    await expect(f.downloader.fetch(`${origin}/unchanged`)).rejects.toBeInstanceOf(NotModifiedError);
    expect(requestsTo('/unchanged').at(-1)).toMatchObject({ 'if-none-match': '"v1"', 'if-modified-since': 'Tue, 01 Dec 2026 10:00:00 GMT' });
    const res = await f.downloader.fetch(`${origin}/thread`);
    expect(res.headers.etag).toBe('"v2"');
    expect(requestsTo('/thread').at(-1)!['if-none-match']).toBe('"v1"');
    active = false;
    await f.downloader.fetch(`${origin}/thread`);
    expect(requestsTo('/thread').at(-1)!['if-none-match']).toBeUndefined();
  });

  it("crawler.sessions: a session pool for HTTP crawls (the spider's cookies sent once), none in render mode", async () => {
    const x = context({ crawler: { sessions: true, cookies: [{ name: 'consent', value: 'yes' }] } });
    const f = await pageFetcher(x, undefined, noRecrawl, false);
    try {
      expect(f.sessions).toBeDefined();
      await f.downloader.fetch(`${origin}/page`);
      expect(requestsTo('/page').at(-1)!.cookie).toBe('consent=yes');
      expect(f.sessions!.stats.used).toBeGreaterThan(0);
    } finally {
      await f.sessions?.pool.teardown({ persistState: false });
    }
    const render = await pageFetcher(x, undefined, noRecrawl, true);
    expect(render.sessions).toBeUndefined();
  });

  it('the crawl stopping aborts the fetch', async () => {
    const x = context();
    const f = await pageFetcher(x, undefined, noRecrawl, false);
    x.controller.abort();
    await expect(f.downloader.fetch(`${origin}/page`)).rejects.toMatchObject({ name: 'AbortedError' });
  });
});

describe('robotsCache', () => {
  it('none with crawler.robotsTxt: false', () => {
    expect(robotsCache(context({ crawler: { robotsTxt: false } }), undefined)).toBeUndefined();
  });

  it('reads robots.txt once per origin, through the shared wrapper when one is given', async () => {
    const shared: string[] = [];
    const x = context();
    const robots = robotsCache(x, (fetch) => async (url) => {
      shared.push(url);
      return fetch(url);
    })!;
    const before = requestsTo('/robots.txt').length;
    expect(await robots.allowed(`${origin}/private/x`)).toBe(false);
    expect(await robots.allowed(`${origin}/page`)).toBe(true);
    expect(await robots.sitemaps(origin)).toEqual([`${origin}/sitemap.xml`]);
    expect(shared).toEqual([`${origin}/robots.txt`]);
    expect(requestsTo('/robots.txt').length).toBe(before + 1);
  });

  it('a robots.txt on a refused (loopback) address counts as none: everything allowed, nothing requested', async () => {
    const x = context({ allowPrivateAddresses: false });
    const robots = robotsCache(x, undefined)!;
    const before = requestsTo('/robots.txt').length;
    expect(await robots.allowed(`${origin}/private/x`)).toBe(true);
    expect(requestsTo('/robots.txt').length).toBe(before);
    expect(x.stats.robotsUnavailable.size).toBe(0);
  });

  it('a robots.txt redirect loop counts as none (RFC 9309: unavailable, no rules)', async () => {
    const looping = await serve((p) => (p === '/robots.txt' ? { body: '', status: 301, headers: { location: '/robots.txt' } } : { body: PAGE }));
    try {
      const x = context({ startUrls: [`${looping.url}/`] });
      const robots = robotsCache(x, undefined)!;
      expect(await robots.check(`${looping.url}/private/x`)).toEqual({ allowed: true });
      expect(looping.requests.filter((p) => p === '/robots.txt').length).toBeGreaterThan(0);
      expect(x.stats.robotsUnavailable.size).toBe(0);
    } finally {
      await looping.close();
    }
  });

  it('robots.txt unavailable (5xx after the retries): the origin is counted and logged, every URL refused', async () => {
    vi.useFakeTimers();
    const log = recordingLogger();
    const x = context({}, log);
    let asked = 0;
    const robots = robotsCache(x, () => async () => {
      asked++;
      return { status: 503 };
    })!;
    const verdict = robots.check(`${origin}/page`);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await verdict).toEqual({ allowed: false, why: `robots.txt unavailable (http 503): every URL of ${origin} is refused (RFC 9309)` });
    expect(asked).toBe(3);
    expect([...x.stats.robotsUnavailable]).toEqual([origin]);
    expect(log.at('warning')).toEqual([`robots.txt unavailable (http 503): every URL of ${origin} is refused (RFC 9309)`]);
    expect(x.stats.logCounts.warning).toBe(1);
  });
});

describe('sitemapCandidates', () => {
  it('sitemaps: true reads the robots.txt Sitemap: lines; the URLs come back as on-site, normalised, deduplicated candidates', async () => {
    const x = context({ sitemaps: true });
    const robots = robotsCache(x, undefined);
    const found = await sitemapCandidates(x, robots, true);
    expect(found.sitemaps).toBe(1);
    expect(found.listed).toBe(4);
    expect(found.candidates.map((c) => c.url)).toEqual([`${origin}/story/1.html`, `${origin}/story/2.html`]);
  });

  it('a sitemap that cannot be fetched is a warning, not an error', async () => {
    const log = recordingLogger();
    const x = context({}, log);
    const found = await sitemapCandidates(x, undefined, [`${origin}/missing.xml`]);
    expect(found).toEqual({ candidates: [], sitemaps: 0, listed: 0 });
    expect(log.at('warning')).toEqual([`sitemap ${origin}/missing.xml: http 404`]);
  });

  it('without robots.txt, sitemaps: true falls back to /sitemap.xml of each start origin', async () => {
    const x = context();
    const found = await sitemapCandidates(x, undefined, true);
    expect(found.sitemaps).toBe(1);
    expect(found.candidates).toHaveLength(2);
    expect(requestsTo('/sitemap.xml').length).toBeGreaterThan(0);
  });
});

