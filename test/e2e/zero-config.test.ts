/**
 * Issue 5: a spider with nothing but start URLs crawls the demo site sensibly — every page reached,
 * content pages typed by the classifier (no follow rules label anything), list items followed.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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
