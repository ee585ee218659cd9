/** Issue 12 item 4: the page budget counts successful pages, the summary names what the budget
 * left unvisited, `…/` and `…/index.html` are one URL, repeated failures are summarised and URLs
 * in the log are decoded. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { summaryText } from '../../src/cli/crawl-report.js';
import type { Logger } from '../../src/core/middleware.js';
import { serve } from '../fixtures/crawler/server.js';
import { directoryTwins } from '../../src/crawler/url-aliases.js';
import { displayUrl } from '../../src/crawler/failure-log.js';

const PARA = '<p>The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot.</p>';
const POSTS = 10;
const BROKEN = 30;

function site() {
  const post = (n: number) => `<html><head><title>Post ${n}</title></head><body><article><h1>Post ${n}</h1>${PARA.repeat(3)}</article></body></html>`;
  const links = [
    ...Array.from({ length: POSTS }, (_, i) => `<a href="/posts/${i + 1}.html">post ${i + 1}</a>`),
    ...Array.from({ length: BROKEN }, (_, i) => `<a href="/标签/失效-${i + 1}/">broken ${i + 1}</a>`),
    '<a href="/categories/">categories</a>',
    '<a href="/categories/index.html">categories again</a>',
  ].join(' ');
  return (p: string) => {
    if (p === '/') return { body: `<html><head><title>Blog</title></head><body>${links}</body></html>` };
    const m = /^\/posts\/(\d+)\.html$/.exec(p);
    if (m) return { body: post(Number(m[1])) };
    if (p === '/categories/' || p === '/categories/index.html') return { body: `<html><head><title>Categories</title></head><body><ul><li><a href="/posts/1.html">Post 1</a></li><li><a href="/posts/2.html">Post 2</a></li></ul></body></html>` };
    return undefined;
  };
}

function capture(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { log: { debug: () => {}, info: push, warning: push, error: push }, lines };
}

describe('page budget and URLs', () => {
  it('a site with many broken links is crawled whole with a budget equal to its page count', async () => {
    const server = await serve(site());
    const storageDir = mkdtempSync(path.join(tmpdir(), 'budget-'));
    const { log, lines } = capture();
    try {
      const pagesOfSite = 1 + POSTS + 1; // home, posts, categories (one URL)
      const summary = await runSpider({ name: 'budget', startUrls: [`${server.url}/`], allowPrivateAddresses: true, maxPages: pagesOfSite, crawler: { robotsTxt: false, maxRetries: 0 } }, { storageDir, log });
      const urls = readdirSync(path.join(storageDir, 'datasets', 'budget'))
        .filter((f) => /^\d+\.json$/.test(f))
        .map((f) => new URL(JSON.parse(readFileSync(path.join(storageDir, 'datasets', 'budget', f), 'utf8')).url).pathname);
      expect(summary.pages).toBe(pagesOfSite);
      expect(urls.filter((u) => u.startsWith('/posts/'))).toHaveLength(POSTS);
      expect(urls.filter((u) => u.startsWith('/categories/'))).toEqual(['/categories/']);
      expect(server.requests).not.toContain('/categories/index.html');
      expect(summary.directoryTwins).toBe(1);
      expect(summary.failuresByReason).toEqual({ 'http 404': BROKEN });
      expect(summary.finished).toBe(true);
      // Three failures printed, then one line saying the rest are counted; URLs decoded.
      const failLines = lines.filter((l) => l.startsWith('failed '));
      expect(failLines).toHaveLength(3);
      expect(failLines[0]).toMatch(/failed http:\/\/127\.0\.0\.1:\d+\/标签\/失效-\d+\/: HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/标签\/失效-\d+\//);
      expect(lines.filter((l) => /more "http 404" failures are counted/.test(l))).toHaveLength(1);
      const text = summaryText(summary);
      expect(text).toMatch(/fetch: http 404 30 \(e\.g\. http:\/\/127\.0\.0\.1:\d+\/标签\/失效-\d+\/, /);
      expect(text).not.toContain('%E6');
    } finally {
      await server.close();
    }
  });

  it('says how many URLs the budget left unvisited', async () => {
    const server = await serve(site());
    const storageDir = mkdtempSync(path.join(tmpdir(), 'budget-'));
    try {
      const summary = await runSpider({ name: 'budget2', startUrls: [`${server.url}/`], allowPrivateAddresses: true, maxPages: 4, crawler: { robotsTxt: false, maxRetries: 0, maxConcurrency: 1 } }, { storageDir, log: capture().log });
      expect(summary.pages).toBe(4);
      expect(summary.finished).toBe(true);
      expect(summary.stoppedBy).toBe('maxPages (4) reached');
      // Everything found and not fetched: the rest of the posts and categories, and the broken links not tried.
      expect(summary.unvisitedByBudget).toBe(POSTS + BROKEN + 1 + 1 - 4 - summary.failed);
      expect(summaryText(summary)).toMatch(new RegExp(`${summary.unvisitedByBudget} URLs left unvisited by the page budget`));
    } finally {
      await server.close();
    }
  });

  it('directory-index twins and display URLs', () => {
    expect(directoryTwins('http://a.test/x/index.html')).toContain('http://a.test/x/');
    expect(directoryTwins('http://a.test/x/?p=1')).toContain('http://a.test/x/index.html?p=1');
    expect(directoryTwins('http://a.test/x/page.html')).toEqual([]);
    expect(displayUrl('http://a.test/%E6%A0%87%E7%AD%BE/')).toBe('http://a.test/标签/');
    expect(displayUrl('http://a.test/%E6%A0%ZZ/%0A')).toBe('http://a.test/%E6%A0%ZZ/%0A');
    expect(displayUrl('http://a.test/' + 'a'.repeat(1000)).length).toBeLessThanOrEqual(301);
  });
});
