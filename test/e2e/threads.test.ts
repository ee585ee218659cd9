/**
 * Whole threads in a crawl (issue 29 item 4; src/crawler/run/thread-merge.ts): a 5-page thread
 * served on 127.0.0.1, crawled from its first page through its pager, is stored as one thread
 * item — posts in order across the pages, none twice, the main post once — and the same after a
 * crawl killed halfway and resumed. `thread: 'pages'` keeps one item per page.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import type { ForumItem, Item } from '../../src/core/item.js';
import type { SpiderConfig } from '../../src/spider/config.js';
import { serve, type FixtureServer } from '../fixtures/crawler/server.js';
import { threadPage } from '../forum/thread-site.js';

const root = path.resolve(import.meta.dirname, '..', '..');

async function threadServer(delay = 0): Promise<FixtureServer> {
  let base = '';
  const server = await serve((p) => {
    const m = p.match(/^\/thread-9-(\d)\.html$/);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 5) return undefined;
    return { body: threadPage(Number(m[1]), base), delay };
  });
  base = server.url;
  return server;
}

const spiderFor = (url: string, extra: Partial<SpiderConfig> = {}): SpiderConfig => ({
  name: 'threads',
  startUrls: [`${url}/thread-9-1.html`],
  allowPrivateAddresses: true,
  follow: [{ pattern: '**/thread-*.html', label: 'forum' }],
  crawler: { maxConcurrency: 2 },
  ...extra,
});

function stored(storageDir: string): Item[] {
  const dir = path.join(storageDir, 'datasets', 'threads');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
}

function expectOneThread(items: Item[], url: string): void {
  expect(items.map((it) => it.kind)).toEqual(['forum']);
  const t = items[0] as ForumItem;
  expect(t.url).toBe(`${url}/thread-9-1.html`);
  expect(t.pages).toEqual([1, 2, 3, 4, 5].map((n) => `${url}/thread-9-${n}.html`));
  expect(t.posts!.map((p) => p.floor)).toEqual(Array.from({ length: 21 }, (_, k) => k + 1));
  expect(t.posts!.filter((p) => p.isMain).map((p) => p.author)).toEqual(['starter']);
  expect(t.posts![20]!.content).toContain('Reply number 21');
  expect(t.nextPage).toBeUndefined();
}

describe('a 5-page thread crawled into one thread', () => {
  it('merge (the default): one item, posts in order, none twice, one main post', async () => {
    const server = await threadServer();
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-threads-'));
    try {
      const onItem: Item[] = [];
      const summary = await runSpider(spiderFor(server.url), { storageDir, log: silentLogger, threads: 0, onItem: (it) => void onItem.push(it) });
      expect(summary.finished).toBe(true);
      expect(summary.pages).toBe(5);
      expectOneThread(stored(storageDir), server.url);
      expect(onItem).toHaveLength(1);
      // The held pages' file is gone once the crawl finished.
      expect(existsSync(path.join(storageDir, 'gleaner', 'threads.threads.jsonl'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("thread: 'pages' stores one item per page", async () => {
    const server = await threadServer();
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-threads-'));
    try {
      await runSpider(spiderFor(server.url, { thread: 'pages' }), { storageDir, log: silentLogger, threads: 0 });
      const items = stored(storageDir);
      expect(items.map((it) => new URL(it.url).pathname).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `/thread-9-${n}.html`));
    } finally {
      await server.close();
    }
  });

  it('killed halfway (SIGKILL) and resumed: the same one thread, nothing lost or doubled', async () => {
    // Slow pages, one at a time: the kill lands with some pages held and others not fetched.
    const server = await threadServer(400);
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-threads-'));
    const held = path.join(storageDir, 'gleaner', 'threads.threads.jsonl');
    try {
      const spider = spiderFor(server.url, { crawler: { maxConcurrency: 1 } });
      const child = spawn(process.execPath, ['test/fixtures/forum/thread-crawl-child.mjs'], {
        cwd: root,
        env: { ...process.env, THREAD_SPIDER: JSON.stringify(spider), THREAD_STORAGE: storageDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const lines = () => (existsSync(held) ? readFileSync(held, 'utf8').split('\n').filter(Boolean).length : 0);
      const deadline = Date.now() + 60_000;
      while (lines() < 2) {
        if (Date.now() > deadline) throw new Error(`child crawl held no pages: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      await exited;
      // Killed before the thread was complete: nothing stored yet, the pages wait in the file.
      expect(stored(storageDir)).toEqual([]);
      const fetchedBefore = server.requests.filter((p) => p.startsWith('/thread-')).length;
      expect(fetchedBefore).toBeLessThan(5);

      const summary = await runSpider(spider, { storageDir, log: silentLogger, threads: 0 });
      expect(summary.resumed).toBe(true);
      expect(summary.finished).toBe(true);
      expectOneThread(stored(storageDir), server.url);
      // The held pages were not fetched again (at most the page in flight at the kill was).
      const fetches = server.requests.filter((p) => p.startsWith('/thread-'));
      expect(fetches.length, fetches.join(' ')).toBeLessThanOrEqual(6);
    } finally {
      await server.close();
    }
  }, 120_000);
});
