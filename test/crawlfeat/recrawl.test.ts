/** Incremental recrawl of the demo (issue 16 targets): after 5 new articles and 3 new replies,
 * a recrawl pass emits exactly those 5 articles and 3 changed thread pages; unchanged pages are
 * answered 304 and not parsed. */
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger, type Middleware } from '../../src/core/middleware.js';
import type { Item } from '../../src/core/item.js';
import { startDemoServer } from '../../src/demo/server.js';
import demoSpider from '../../spiders/demo.js';

function spiderFor(url: string, parsed: string[]) {
  const counter: Middleware = { name: 'parsed-pages', priority: 1, process: (ctx) => void parsed.push(ctx.page.url) };
  return { ...demoSpider, startUrls: demoSpider.startUrls.map((u) => u.replace(/^http:\/\/[^/]+/, url)), extraMiddleware: [counter] };
}

describe('incremental recrawl of the demo', () => {
  it('emits exactly the new articles and the changed thread pages; 304 pages are not parsed', async () => {
    const demo = await startDemoServer();
    const storageDir = mkdtempSync(path.join(tmpdir(), 'recrawl-'));
    try {
      const first: Item[] = [];
      const s1 = await runSpider(spiderFor(demo.url, []), { storageDir, log: silentLogger, onItem: (i) => void first.push(i) });
      expect(s1.finished).toBe(true);
      expect(s1.recrawl).toBeUndefined();
      const firstUrls = new Set(first.map((i) => i.url));

      const newArticles = demo.addArticles(5);
      const changedThreads = demo.addReplies(3);
      expect(changedThreads.length).toBe(3);
      demo.log.length = 0;

      const parsed: string[] = [];
      const second: Item[] = [];
      const before = Date.now();
      const feed = path.join(storageDir, 'pass.jsonl');
      const s2 = await runSpider(spiderFor(demo.url, parsed), { storageDir, log: silentLogger, recrawl: true, out: feed, onItem: (i) => void second.push(i) });
      // The pass's feed holds what the pass stored, not the whole dataset.
      expect(readFileSync(feed, 'utf8').trim().split('\n').map((l) => JSON.parse(l).url).sort()).toEqual(second.map((i) => i.url).sort());
      expect(s2.finished).toBe(true);
      expect(second.filter((i) => i.kind === 'article').map((i) => i.url).sort()).toEqual([...newArticles].sort());
      expect(second.filter((i) => i.kind === 'forum').map((i) => i.url).sort()).toEqual([...changedThreads].sort());
      expect(second.map((i) => `${i.kind} ${i.url}`).filter((k) => !/ (article|forum) /.test(` ${k} `))).toEqual([]);
      expect(second.length).toBe(8); // nothing else
      expect(s2.recrawl).toMatchObject({ pass: 1, changed: 3 });

      // Only links never seen were followed: no old article fetched again.
      const fetched = demo.log.map((r) => r.path);
      for (const u of firstUrls) if (/\/art_\d+\.html$/.test(u)) expect(fetched).not.toContain(new URL(u).pathname);
      // Unchanged list and thread pages were answered 304 and never reached the chain.
      const notModified = demo.log.filter((r) => r.status === 304).map((r) => r.path);
      expect(notModified.length).toBeGreaterThan(5);
      expect(notModified.length).toBe(s2.recrawl!.notModified);
      const parsedPaths = new Set(parsed.map((u) => new URL(u).pathname));
      for (const p of notModified) expect(parsedPaths.has(p)).toBe(false);

      // The new replies say "5分钟前": resolved against this visit's fetch time.
      const thread = second.find((i) => i.kind === 'forum')!;
      const fresh = thread.posts!.at(-1)!;
      expect(fresh.publishedAtText).toMatch(/分钟前/);
      const fetchedAt = Date.parse(thread.fetchedAt!);
      expect(fetchedAt).toBeGreaterThanOrEqual(before - 1000);
      const minutes = Number(/(\d+)分钟前/.exec(fresh.publishedAtText!)![1]);
      expect(Math.abs(Date.parse(fresh.publishedAt!) - (fetchedAt - minutes * 60_000))).toBeLessThan(61_000);

      // A pass over an unchanged site emits nothing, and every re-visited page is a 304.
      demo.log.length = 0;
      const third: Item[] = [];
      const s3 = await runSpider(spiderFor(demo.url, []), { storageDir, log: silentLogger, recrawl: true, onItem: (i) => void third.push(i) });
      expect(third).toEqual([]);
      expect(s3.recrawl).toMatchObject({ pass: 2, changed: 0 });
      expect(s3.recrawl!.notModified).toBe(s3.recrawl!.revisited);
      expect(demo.log.filter((r) => r.path !== '/robots.txt').every((r) => r.status === 304)).toBe(true);
    } finally {
      await demo.close();
    }
  }, 120_000);

  it('an interrupted pass resumes as a pass: the same 8 items in all, none twice', async () => {
    const demo = await startDemoServer();
    const storageDir = mkdtempSync(path.join(tmpdir(), 'recrawl-resume-'));
    try {
      await runSpider(spiderFor(demo.url, []), { storageDir, log: silentLogger });
      const expected = [...demo.addArticles(5), ...demo.addReplies(3)].sort();
      const got: string[] = [];
      // Ctrl-C after the pass's second item (the handler the CLI installs).
      const s1 = await runSpider(spiderFor(demo.url, []), {
        storageDir,
        log: silentLogger,
        recrawl: true,
        handleSignals: true,
        onItem: (i) => {
          got.push(i.url);
          if (got.length === 2) process.emit('SIGINT');
        },
      });
      expect(s1.finished).toBe(false);
      expect(s1.recrawl?.pass).toBe(1);
      // A stopped crawl leaves the program alone (the signal's grace-period exit is cancelled).
      const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
      await new Promise((r) => setTimeout(r, 1_800));
      expect(exit).not.toHaveBeenCalled();
      exit.mockRestore();
      const s2 = await runSpider(spiderFor(demo.url, []), { storageDir, log: silentLogger, recrawl: true, onItem: (i) => void got.push(i.url) });
      expect(s2.resumed).toBe(true);
      expect(s2.recrawl?.pass).toBe(1); // the same pass, resumed
      expect(s2.finished).toBe(true);
      expect([...got].sort()).toEqual(expected);
    } finally {
      await demo.close();
    }
  }, 120_000);
});
