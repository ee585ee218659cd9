/**
 * Issue 5: a spider with nothing but start URLs crawls the demo site sensibly — every page reached,
 * content pages typed by the classifier (no follow rules label anything), list items followed.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { startDemoServer } from '../../src/demo/server.js';
import { silentLogger } from '../../src/core/middleware.js';
import type { Item } from '../../src/core/item.js';

/** The kind each content page of the demo site should get, from its URL shape. */
function expectedKind(url: string): string | undefined {
  const p = new URL(url).pathname;
  if (/\/news\/\d{4}\/\d{2}\/art_\d+\.html$/.test(p) || /\/blog\/posts\/[^/]+\.html$/.test(p)) return 'article';
  if (/\/forum\/thread-[\d-]+\.html$/.test(p)) return 'forum';
  if (/^\/news\/(list_\d+\.html)?$/.test(p) || /^\/blog\/(page\/\d+\/)?$/.test(p) || /^\/forum\/(board-\d+\.html)?$/.test(p)) return 'list';
  return undefined;
}

describe('zero-config crawl of the demo site', () => {
  it('reaches every content page and types it without follow rules', async () => {
    const demo = await startDemoServer();
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-zero-'));
    try {
      const summary = await runSpider(
        { name: 'zero', startUrls: [`${demo.url}/news/`, `${demo.url}/blog/`, `${demo.url}/forum/`], allowPrivateAddresses: true },
        { storageDir, log: silentLogger, fresh: true },
      );
      expect(summary.finished).toBe(true);
      const dir = path.join(storageDir, 'datasets', 'zero');
      const items = readdirSync(dir)
        .filter((f) => /^\d+\.json$/.test(f))
        .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
      const content = items.filter((i) => expectedKind(i.url));
      // 32 articles, 14 thread pages and 9 list pages in the demo site; a thread's pages are stored
      // as one item (spider option thread: 'merge', the default) that lists them in `pages`.
      expect(content.filter((i) => expectedKind(i.url) === 'article').length).toBeGreaterThanOrEqual(32);
      const threadPages = content.flatMap((i) => (i.kind === 'forum' && expectedKind(i.url) === 'forum' ? (i.pages?.length ? i.pages : [i.url]) : []));
      expect(new Set(threadPages.filter((u) => expectedKind(u) === 'forum')).size).toBeGreaterThanOrEqual(14);
      expect(content.filter((i) => expectedKind(i.url) === 'list').length).toBeGreaterThanOrEqual(8);
      const wrong = content.filter((i) => i.kind !== expectedKind(i.url)).map((i) => `${i.url} → ${i.kind}`);
      // Measured: 55 of 55 in five runs before the site-type model (issue 23). One page may depend
      // on crawl order: the demo's shortest news article (~680 characters beside a related-links
      // list) is list 0.50 / detail 0.45 to the classifier alone, and right only when its list-item
      // hint arrives before it is fetched.
      // Issue 23: the site-type model (trained on blogs) re-decided the forum's board pages (thread
      // lists, classifier list 0.92) as detail once the site showed evidence, and they were stored
      // as other; a list page whose entries lead to the site's forum threads now keeps its type.
      expect(wrong.filter((w) => /\/forum\/board-\d+\.html/.test(w)), wrong.join('\n')).toEqual([]);
      expect(wrong.length, wrong.join('\n')).toBeLessThanOrEqual(1);
      // Typed by the classifier, with probabilities.
      expect(content.every((i) => i.pageType && Math.abs(Object.values(i.pageType.probabilities).reduce((a, b) => a + b, 0) - 1) < 0.01)).toBe(true);
    } finally {
      await demo.close();
    }
  }, 120_000);
});

/**
 * Issue 23: what a page is typed depends on what its site showed before it, and a concurrent
 * crawl's answers come back in any order. A small blog served with two different seeded per-URL
 * delays must be typed the same — the same labels and the same probabilities, which carry the site
 * evidence each page saw — so its pages met the site's evidence in the same order.
 */
describe('zero-config crawl order', () => {
  const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ['river', 'stone', 'lamp', 'garden', 'winter', 'paper', 'signal', 'harbor', 'orbit', 'meadow'][(i * 7 + seed) % 10]).join(' ');
  const layout = (title: string, main: string) =>
    `<!doctype html><html><head><title>${title} | Field notes</title></head><body><header><a href="/">Field notes</a> <nav><a href="/">Home</a> <a href="/archive/">Archive</a> <a href="/about/">About</a></nav></header><main>${main}</main><footer>© Field notes</footer></body></html>`;
  const posts = Array.from({ length: 14 }, (_, i) => ({ path: `/2024/0${1 + (i % 9)}/${10 + i}/note-${i}/`, title: `Note ${i}: ${words(3, i)}`, tag: ['walks', 'tools', 'books'][i % 3]!, solo: i % 4 === 1 ? `solo-${i}` : undefined }));
  const entry = (p: (typeof posts)[number]) => `<article class="post-entry"><h2><a href="${p.path}">${p.title}</a></h2><p>${words(18, p.title.length)}</p></article>`;
  const site = new Map<string, string>();
  site.set('/', layout('Home', posts.slice(0, 8).map(entry).join('') + '<a href="/page/2/">Older posts</a>'));
  site.set('/page/2/', layout('Page 2', posts.slice(8).map(entry).join('')));
  site.set('/archive/', layout('Archive', `<ul>${posts.map((p) => `<li><a href="${p.path}">${p.title}</a></li>`).join('')}</ul>`));
  site.set('/about/', layout('About', `<h1>About</h1><p>${words(60, 3)}.</p><p>Write to me at the address below.</p>`));
  for (const tag of ['walks', 'tools', 'books']) site.set(`/tags/${tag}/`, layout(`Tag ${tag}`, posts.filter((p) => p.tag === tag).map(entry).join('')));
  // (tags of one post each: a list of one entry, which alone looks like little of anything)
  for (const p of posts) if (p.solo) site.set(`/tags/${p.solo}/`, layout(`Tag ${p.solo}`, entry(p)));
  posts.forEach((p, i) =>
    site.set(
      p.path,
      layout(p.title, `<article><h1>${p.title}</h1><time datetime="2024-0${1 + (i % 9)}-${10 + i}">2024</time><p>${words(120, i)}.</p><p>${words(90, i + 3)}.</p><p>${words(70, i + 5)}.</p><p>Tagged <a href="/tags/${p.tag}/">${p.tag}</a>${p.solo ? ` <a href="/tags/${p.solo}/">${p.solo}</a>` : ''}</p></article>`),
    ),
  );

  async function crawlWithDelays(seed: number, start = ['/'], full = true, pageType?: Record<string, unknown>, serial = false): Promise<Map<string, string>> {
    const delay = (p: string) => {
      let h = (0x811c9dc5 ^ seed) >>> 0;
      for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193) >>> 0;
      return (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0) % 120;
    };
    const server = http.createServer((req, res) => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      setTimeout(() => {
        const html = site.get(p);
        if (!html) res.writeHead(404).end('not found');
        else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      }, delay(p));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-order-'));
    try {
      const summary = await runSpider({ name: 'order', startUrls: start.map((p) => origin + p), allowPrivateAddresses: true, ...(serial ? { crawler: { maxConcurrency: 1 } } : {}), ...(pageType ? { middleware: { 'page-type': { options: pageType } } } : {}) }, { storageDir, log: silentLogger, fresh: true, ...(serial ? { threads: 0 } : {}) });
      expect(summary.finished).toBe(true);
      const dir = path.join(storageDir, 'datasets', 'order');
      const items = readdirSync(dir)
        .filter((f) => /^\d+\.json$/.test(f))
        .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
      return new Map(items.map((i) => [new URL(i.url).pathname, full ? `${i.kind} ${JSON.stringify(i.pageType)}` : i.kind]));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  it('types a site the same whatever order its answers come back in', async () => {
    const a = await crawlWithDelays(1);
    const b = await crawlWithDelays(2);
    expect(a.size).toBe(site.size);
    expect(b.size).toBe(site.size);
    const differ = [...a].filter(([p, t]) => b.get(p) !== t).map(([p, t]) => `${p}: ${t} / ${b.get(p)}`);
    expect(differ, differ.join('\n')).toEqual([]);
  }, 120_000);

  // A crawl that starts from a tag page of one post and the about page meets posts and tags before
  // the home page and the archive; the site is typed as a crawl from the home page types it — every
  // page, the start pages included, with the shipped site-type model and the page-type stage's
  // `recheck` option (default off: it costs bench:sites' other pages, see PageTypeOptions). The first pages are typed
  // before the site showed anything (the tag page: one entry, in markup no list of the site had
  // taught yet); they and the pages typed while the site settles are held and typed again from
  // their bodies once it has, each against the pages typed for good (site-rules.ts SETTLE_PAGES).
  // (Before: the start tag page kept the type it got from its own evidence, and /archive/, typed
  // right after the about page, followed its type through the URL shape they share: other.)
  // Both crawls fetch one page at a time and run the chain on the crawl thread (`threads: 0`), so
  // the next fetch waits for the page's links: what differs is where they start, not timing (with
  // two chain threads, under load, /archive/ was typed list in one run of three, also at
  // concurrency 1 — the recheck's types still hang on the order pages reach the chain; the test
  // above covers that for the default path).
  it('types a site the same whichever pages the crawl starts from (recheck of the held pages)', async () => {
    const a = await crawlWithDelays(1, ['/'], false, { recheck: true }, true);
    const b = await crawlWithDelays(1, ['/tags/solo-5/', '/about/'], false, { recheck: true }, true);
    expect(a.size).toBe(site.size);
    expect(b.size).toBe(site.size);
    const differ = [...a].filter(([p, t]) => b.get(p) !== t).map(([p, t]) => `${p}: ${t} / ${b.get(p)}`);
    expect(differ, differ.join('\n')).toEqual([]);
    // (and both are right: posts articles, the index pages and tags lists, about other)
    const wrong = [...a].filter(([p, t]) => t !== (p === '/about/' ? 'other' : /^\/\d{4}\//.test(p) ? 'article' : 'list')).map(([p, t]) => `${p}: ${t}`);
    expect(wrong, wrong.join('\n')).toEqual([]);
  }, 120_000);
});
