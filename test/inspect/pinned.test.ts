/**
 * Issue 27 item 3: pinned fields. A served site (127.0.0.1) whose author the extractor gets wrong
 * ("Reporting by Jane Roe") is fixed by one `fields` line; a pinned selector that matches nothing
 * keeps the extractor's value and says so once per site; a bad `fields` entry is refused by the
 * spider schema, naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { validateSpider } from '../../src/spider/config.js';
import type { Logger } from '../../src/core/middleware.js';
import { silentLogger } from '../../src/core/middleware.js';
import type { Item } from '../../src/core/item.js';
import { Extractor } from '../../src/chain/extractor.js';
import { fetchPage } from '../../src/inspect/fetch.js';

const article = readFileSync(new URL('./fixtures/byline.html', import.meta.url), 'utf8');
/** The same layout, a second story, a byline without a link (the pinned `a` matches nothing). */
const plainByline = article.replace('<a href="/people/jane-roe">Jane Roe</a>', 'Sam Poe').replace('River levels fall after a dry month', 'Ferry timetable changes for summer');

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = req.url === '/news/river.html' ? article : req.url === '/news/ferry.html' ? plainByline : undefined;
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function crawl(extra: Record<string, unknown>, log: Logger = silentLogger): Promise<Item[]> {
  const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-pinned-'));
  const summary = await runSpider(
    { name: 'pinned', startUrls: [`${base}/news/river.html`, `${base}/news/ferry.html`], allowPrivateAddresses: true, follow: [{ pattern: `${base}/nothing/**` }], ...extra },
    { storageDir, log, fresh: true },
  );
  expect(summary.finished).toBe(true);
  const dir = path.join(storageDir, 'datasets', 'pinned');
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item)
    .sort((a, b) => a.url.localeCompare(b.url));
}

const authorOf = (items: Item[], p: string) => {
  const it = items.find((i) => i.url.endsWith(p));
  return it?.kind === 'article' ? it.author : undefined;
};

describe('pinned fields', () => {
  it('one `fields` line fixes the author the extractor gets wrong', async () => {
    // the crawl thread's chain, then (below) the worker threads' chain: `fields` reaches both
    const before = await crawl({ crawler: { threads: 0 } });
    expect(authorOf(before, '/river.html')).toBe('Reporting by Jane Roe');
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warning: (m) => void warnings.push(m) };
    const after = await crawl({ fields: { author: '.byline a' } }, log);
    expect(authorOf(after, '/river.html')).toBe('Jane Roe');
    // no link in this byline: the extractor's value stays, and the miss is said once for the site
    expect(authorOf(after, '/ferry.html')).toBe(authorOf(before, '/ferry.html'));
    expect(warnings.filter((w) => w.includes('pinned field "author"'))).toHaveLength(1);
  }, 60_000);

  it('is scoped by URL glob, reads attributes, and shows in provenance', async () => {
    const ex = new Extractor({ middleware: { provenance: true, 'pinned-fields': { options: { fields: [{ pattern: '**/river.html', author: '.byline a', publishedAt: 'time@datetime' }] } } } });
    const river = (await ex.extract({ url: 'http://127.0.0.1/news/river.html', body: article })) as Item & { provenance: Record<string, { source: string; pinned?: string }> };
    const ferry = (await ex.extract({ url: 'http://127.0.0.1/news/ferry.html', body: article })) as Item & { author?: string };
    await ex.close();
    expect(river.kind === 'article' && river.author).toBe('Jane Roe');
    expect(river.kind === 'article' && river.publishedAt).toBe('2024-05-14T08:30:00+02:00');
    expect(river.provenance.author).toMatchObject({ source: 'pinned', pinned: '.byline a' });
    expect(river.provenance.title?.source).toBe('located');
    expect(ferry.author).toBe('Reporting by Jane Roe');
  });

  it('pins forum posts: one post per root, fields read inside it', async () => {
    const body = readFileSync(new URL('../fixtures/forum/phpbb/page.html', import.meta.url));
    const ex = new Extractor({ middleware: { provenance: true, 'pinned-fields': { options: { fields: { posts: { root: 'div.post', author: 'a.username', content: 'div.content' } } } } } });
    const item = (await ex.extract({ url: 'http://127.0.0.1/viewtopic.php?t=1', body })) as Item & { provenance: { posts: Array<{ root: { source: string }; author: { pinned: string } }> } };
    await ex.close();
    expect(item.kind).toBe('forum');
    const posts = item.kind === 'forum' ? item.posts! : [];
    expect(posts.map((p) => p.author)).toEqual(['alice', 'bob', 'alice', 'carol']);
    expect(posts[3]!.content).toContain('Downgrading the firmware package');
    expect(item.provenance.posts[1]).toMatchObject({ root: { source: 'pinned' }, author: { pinned: 'a.username' } });
  });

  it('the spider schema refuses an unknown field and bad CSS, naming them', () => {
    const spider = { name: 's', startUrls: ['http://127.0.0.1/'] };
    expect(() => validateSpider({ ...spider, fields: { autor: '.byline' } })).toThrow(/fields\.autor: unknown field \(did you mean "author"\?\)/);
    expect(() => validateSpider({ ...spider, fields: { author: 'div[' } })).toThrow(/fields\.author: not a CSS selector/);
    expect(() => validateSpider({ ...spider, fields: { posts: { author: '.u' } } })).toThrow(/fields\.posts\.root/);
    const ok = validateSpider({ ...spider, fields: [{ pattern: '**/t/*', posts: { root: '.post', author: '.u', content: '.msg' } }] });
    expect(ok.middleware?.['pinned-fields']).toMatchObject({ options: { fields: [{ pattern: '**/t/*' }] } });
  });
});

describe('gleaner inspect URL', () => {
  it('fetches through the crawl\'s guarded path: a loopback address only when allowed', async () => {
    await expect(fetchPage(`${base}/news/river.html`, { maxBytes: 1_000_000 })).rejects.toThrow(/address|blocked|private|loopback/i);
    const page = await fetchPage(`${base}/news/river.html`, { maxBytes: 1_000_000, allowPrivateAddresses: true });
    expect(page.url).toBe(`${base}/news/river.html`);
    expect(page.html).toContain('Reporting by');
  }, 60_000);
});
