/**
 * Every TypeScript snippet of the README runs here against this checkout's sources (issue 16):
 * spider snippets are loaded as spider files and crawl the demo site (their example.com hosts
 * mapped to the demo's sites); the others run as modules against the demo. The README's follow
 * rules must match all 24 demo articles. The snippets import the package by its public names
 * (`gleaner`, `gleaner/extract`, `gleaner/crawlee`), mapped here to src/; test/package runs the
 * same snippets, as they are, from the packed package in a new project.
 */
import { describe, expect, it, beforeAll, afterAll, vi } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runSpider } from '../../src/crawler/crawl.js';
import { loadSpider } from '../../src/spider/load.js';
import { compileRules, decideFollow } from '../../src/spider/follow-rules.js';
import { silentLogger } from '../../src/core/middleware.js';
import type { SpiderConfig } from '../../src/spider/config.js';
import { startDemoServer, newsUrl, NEWS_PAGES, NEWS_PER_PAGE, type DemoServer } from '../../src/demo/server.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const isSpider = (src: string) => /defineSpider\(|export default \{/.test(src);

/** Imports of the package by its public names → this checkout's sources. */
function localImports(src: string): string {
  return src
    .replace(/from 'gleaner'/g, `from '${pathToFileURL(path.join(root, 'src/index.ts')).href}'`)
    .replace(/from 'gleaner\/(extract|crawlee)'/g, (_, entry: string) => `from '${pathToFileURL(path.join(root, 'src', `${entry}.ts`)).href}'`);
}

/** The example hosts → the demo's sites. */
const SITES: Record<string, string> = { 'news.example.com': '/news/', 'forum.example.com': '/forum/', 'blog.example.com': '/blog/' };
function onDemo(spider: SpiderConfig, demo: string, dir: string): SpiderConfig {
  const startUrls = spider.startUrls.map((u) => `${demo}${SITES[new URL(u).hostname] ?? '/'}`);
  const crawler = { ...(spider.crawler ?? {}) };
  delete crawler.maxRequestsPerMinute; // the snippet's politeness toward a real site; the demo is local
  delete crawler.proxyUrls;
  const feeds = spider.feeds ? Object.fromEntries(Object.entries(spider.feeds).map(([f, o]) => [path.join(dir, f), o])) : undefined;
  return { ...spider, startUrls, allowedDomains: ['127.0.0.1'], allowPrivateAddresses: true, crawler, feeds };
}

describe('README snippets', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemoServer();
  });
  afterAll(async () => {
    await demo.close();
  });

  it('has the snippets this test expects (spiders, gleaner/extract, a plain-Crawlee one), importing the package by its names', () => {
    expect(snippets.filter(isSpider).length).toBeGreaterThanOrEqual(4);
    expect(snippets.filter((s) => s.includes("from 'gleaner/extract'")).length).toBeGreaterThanOrEqual(1);
    expect(snippets.filter((s) => s.includes("from 'gleaner/crawlee'")).length).toBeGreaterThanOrEqual(1);
    // a consumer's imports, never a path into a checkout
    expect(snippets.filter((s) => /from '\.\.?\//.test(s))).toEqual([]);
  });

  it.each(snippets.filter(isSpider).map((s, i) => [i, s] as const))('spider snippet %i loads and crawls the demo', async (i, src) => {
    const dir = mkdtempSync(path.join(tmpdir(), `readme-${i}-`));
    const file = path.join(dir, `snippet-${i}.ts`);
    writeFileSync(file, localImports(src));
    const { spider: raw } = await loadSpider(file);
    const spider = onDemo(raw, demo.url, dir);
    const articles = Array.from({ length: NEWS_PAGES * NEWS_PER_PAGE }, (_, k) => demo.url + newsUrl(k));
    if (spider.follow?.some((r) => r.label === 'detail')) {
      // The README's follow rule: all 24 demo articles are labelled detail by it.
      const rules = compileRules(spider.follow);
      expect(articles.filter((u) => decideFollow(u, rules).label === 'detail')).toEqual(articles);
    }
    const storageDir = path.join(dir, 'storage');
    const summary = await runSpider(spider, { storageDir, log: silentLogger, maxPages: Math.min(spider.maxPages ?? 60, 60) });
    expect(summary.finished).toBe(true);
    expect(summary.items).toBeGreaterThan(0);
    expect(summary.pipelineErrors).toEqual({});
    expect(summary.failuresByMiddleware).toEqual({});
    if (spider.follow?.some((r) => r.label === 'detail')) {
      const stored = readdirSync(path.join(storageDir, 'datasets', spider.name)).filter((f) => /^\d+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(path.join(storageDir, 'datasets', spider.name, f), 'utf8')));
      expect(stored.filter((it) => it.kind === 'article' && articles.includes(it.url)).length).toBe(24);
    }
    for (const f of Object.keys(spider.feeds ?? {})) expect(existsSync(f.replaceAll('{spider}', spider.name)), f).toBe(true);
    if (spider.recrawl) {
      // As written: a pass right after the crawl re-visits nothing (every page was seen < `every` ago).
      const soon = await runSpider(spider, { storageDir, log: silentLogger });
      expect(soon.recrawl).toMatchObject({ pass: 1, revisited: 0 });
      // Once the pages are due (every: 0 here), the pass asks each with a conditional request.
      const pass = await runSpider({ ...spider, recrawl: { ...spider.recrawl, every: 0 } }, { storageDir, log: silentLogger });
      expect(pass.recrawl?.pass, JSON.stringify(pass)).toBe(2);
      expect(pass.recrawl!.notModified, JSON.stringify(pass)).toBeGreaterThan(0);
    }
  }, 120_000);

  it.each(snippets.filter((s) => !isSpider(s)).map((s, i) => [i, s] as const))('code snippet %i runs against the demo', async (i, src) => {
    const dir = mkdtempSync(path.join(tmpdir(), `readme-code-${i}-`));
    const before = process.env.CRAWLEE_STORAGE_DIR;
    process.env.CRAWLEE_STORAGE_DIR = dir;
    const file = path.join(dir, `code-${i}.mts`);
    writeFileSync(file, localImports(src).replace(/https:\/\/news\.example\.com\//g, `${demo.url}/news/`));
    const { log } = await import('crawlee');
    log.setLevel(log.LEVELS.WARNING);
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      spy.mockRestore();
      // test files may share this process: the storage root goes back as it was
      if (before === undefined) delete process.env.CRAWLEE_STORAGE_DIR;
      else process.env.CRAWLEE_STORAGE_DIR = before;
    }
    const out = printed.join('\n');
    if (src.includes("from 'gleaner/crawlee'")) {
      // from the home page, through the list's pages, every article
      expect(out).toMatch(/\d+ items, 24 articles/);
      const ds = path.join(dir, 'datasets', 'default');
      expect(readdirSync(ds).filter((f) => /^\d+\.json$/.test(f)).length).toBeGreaterThan(24);
    }
    if (src.includes("from 'gleaner/extract'")) expect(out).toMatch(/[\u4e00-\u9fff]/); // the GBK article's title, decoded
  }, 120_000);
});
