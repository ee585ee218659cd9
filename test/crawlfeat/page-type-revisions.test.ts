/**
 * Page types revised in a crawl (issue 23 item 1, src/crawler/run/revisions.ts): a page typed before
 * its site showed any evidence is held — not stored, not done — until its type is final, then
 * stored once with that type. A crawl that starts on a post which is itself a list of links (a
 * weekly roundup) types it a list (nothing known of the site yet); the index then lists it among the
 * site's posts, the page is typed again, and the dataset gets one item for it: an article. A crawl
 * interrupted while the item is held leaves the page pending; the resumed crawl stores it once.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve } from '../fixtures/crawler/server.js';

const nav = '<header class="site-header"><nav><a href="/">Home</a> <a href="/about/">About</a></nav></header>';
const postUrl = (i: number) => `/2024/03/0${i + 1}/post-${i}/`;
const side = '<aside class="sidebar"><h3>Recent</h3><ul>' + [0, 1, 2, 3, 4].map((i) => `<li><a href="${postUrl(i)}">Recent post number ${i} of the garden</a></li>`).join('') + '</ul></aside>';
const entry = (i: number) => `<article class="post-entry"><h2 class="post-title"><a class="post-link" href="${postUrl(i)}">Notes from the garden, week number ${i} of the year</a></h2><time datetime="2024-03-0${i + 1}">March ${i + 1}, 2024</time><p class="excerpt">A short teaser of the note, one line about the week in the garden.</p></article>`;
// (pages over 4 KB: a worker thread is sent their bytes, not a view into Node's shared buffer pool,
// and the crawl thread keeps a copy of those it may hold)
const shell = (title: string, main: string) => `<html><head><title>${title}</title><!-- ${'layout '.repeat(800)} --></head><body>${nav}<main class="content">${main}</main>${side}<footer class="site-footer">© 2024</footer></body></html>`;
const para = (n: number) => Array.from({ length: n }, (_, i) => `<p>This is sentence ${i} of a long text about gardens, with a clause, and an end. It goes on to say more things.</p>`).join('');
/** Post 3 is a roundup: a heading and a list of links to other sites, each with a note. */
const ROUNDUP = postUrl(3);
const roundup = shell('Links of the week', `<article class="post"><h1>Links of the week</h1><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="https://elsewhere${i}.example/a/">A good read elsewhere about gardens, number ${i}</a> — a note on why it is worth the time, and what it says.</li>`).join('')}</ul></article>`);

function site(indexDelay = 0) {
  const pages: Record<string, { body: string; delay?: number }> = {
    '/': { body: shell('Garden notes', [0, 1, 2, 3, 4, 5, 6, 7].map(entry).join('')), delay: indexDelay },
    '/about/': { body: shell('About me', `<h1>About me</h1>${para(6)}`) },
  };
  for (let i = 0; i < 8; i++) pages[postUrl(i)] = { body: i === 3 ? roundup : shell(`Notes from the garden, week number ${i}`, `<article class="post"><h1>Notes from the garden, week number ${i} of the year</h1><time datetime="2024-03-0${i + 1}">March ${i + 1}, 2024</time>${para(8)}</article>`) };
  return pages;
}

const items = (storageDir: string, name: string) => {
  const dir = path.join(storageDir, 'datasets', name);
  return existsSync(dir) ? readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { url: string; kind: string; pageType?: { label: string } }) : [];
};
const paths = (its: Array<{ url: string }>) => its.map((i) => new URL(i.url).pathname).sort();

describe('page types revised in a crawl', () => {
  it('a page typed before the site showed evidence is stored once, with its revised type', async () => {
    const server = await serve(site());
    const storageDir = mkdtempSync(path.join(tmpdir(), 'revisions-'));
    try {
      const summary = await runSpider({ name: 'rev', startUrls: [`${server.url}${ROUNDUP}`], allowPrivateAddresses: true, crawler: { robotsTxt: false, maxConcurrency: 1 } }, { storageDir, log: silentLogger, threads: 0 });
      expect(summary.finished).toBe(true);
      const got = items(storageDir, 'rev');
      expect(paths(got)).toEqual(Object.keys(site()).sort()); // every page once
      const r = got.find((i) => new URL(i.url).pathname === ROUNDUP)!;
      expect(r.kind).toBe('article');
      expect(r.pageType?.label).toBe('detail');
      expect(got.find((i) => new URL(i.url).pathname === '/')!.kind).toBe('list');
    } finally {
      await server.close();
    }
  });

  it('interrupted while the item is held: the page stays pending, the resumed crawl stores it once', async () => {
    // the index answers slowly; the crawl is stopped (SIGTERM) as soon as it asks for it
    const pages = site(400);
    let signalled = false;
    const server = await serve((p) => {
      if (p === '/' && !signalled) {
        signalled = true;
        setImmediate(() => process.emit('SIGTERM'));
      }
      return pages[p];
    });
    const storageDir = mkdtempSync(path.join(tmpdir(), 'revisions-'));
    const spider = { name: 'rev2', startUrls: [`${server.url}${ROUNDUP}`], allowPrivateAddresses: true, crawler: { robotsTxt: false, maxConcurrency: 1 } };
    try {
      const first = await runSpider(spider, { storageDir, log: silentLogger, threads: 0, handleSignals: true });
      expect(first.finished).toBe(false);
      expect(server.requests).toContain(ROUNDUP);
      // the roundup was fetched and typed (a list, nothing known of the site yet) but not stored
      expect(paths(items(storageDir, 'rev2'))).not.toContain(ROUNDUP);
      const second = await runSpider(spider, { storageDir, log: silentLogger, threads: 0 });
      expect(second.resumed).toBe(true);
      expect(second.finished).toBe(true);
      const got = items(storageDir, 'rev2');
      expect(paths(got)).toEqual(Object.keys(pages).sort()); // every page once: nothing lost, nothing twice
      expect(got.find((i) => new URL(i.url).pathname === ROUNDUP)!.kind).toBe('article');
      expect(server.requests.filter((p) => p === ROUNDUP)).toHaveLength(2); // fetched again on resume
    } finally {
      await server.close();
    }
  });

  it('in worker threads too', async () => {
    const server = await serve(site());
    const storageDir = mkdtempSync(path.join(tmpdir(), 'revisions-'));
    try {
      await runSpider({ name: 'rev3', startUrls: [`${server.url}${ROUNDUP}`], allowPrivateAddresses: true, crawler: { robotsTxt: false } }, { storageDir, log: silentLogger, threads: 2 });
      const got = items(storageDir, 'rev3');
      expect(paths(got)).toEqual(Object.keys(site()).sort());
      expect(got.find((i) => new URL(i.url).pathname === ROUNDUP)!.kind).toBe('article');
    } finally {
      await server.close();
    }
  });
});
