import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { validateSpider, SpiderConfigError, suggest } from '../../src/spider/config.js';
import { loadSpider } from '../../src/spider/load.js';
import { serve } from '../fixtures/crawler/server.js';
import { GLEANER_BIN } from '../fixtures/cli.js';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('spider config validation', () => {
  it('accepts a minimal spider', () => {
    const s = validateSpider({ name: 'ok', startUrls: ['https://example.com/'] });
    expect(s.startUrls).toEqual(['https://example.com/']);
  });

  it('names a misspelt field and suggests the right one', () => {
    expect(() => validateSpider({ name: 'x', startUrls: ['https://example.com/'], crawler: { maxConcurency: 3 } }, 'spiders/x.ts')).toThrowError(
      /spiders\/x\.ts: crawler\.maxConcurency: unknown field \(did you mean "maxConcurrency"\?\)/,
    );
    expect(() => validateSpider({ name: 'x', startUrl: ['https://example.com/'] })).toThrowError(/startUrl: unknown field \(did you mean "startUrls"\?\)/);
  });

  it('reports every problem, with its path, in one error', () => {
    let err: SpiderConfigError | undefined;
    try {
      validateSpider(
        {
          name: 'x',
          startUrls: ['https://example.com/', 'not a url', 'ftp://example.com/'],
          crawler: { maxConcurency: 3, render: 'yes', timeoutSecs: -1 },
          follow: [{ pattern: '**', lable: 'detail' }],
          middleware: { artcle: false, list: { priorty: 3 } },
          timezone: 'Mars/Olympus',
        },
        'spiders/x.ts',
      );
    } catch (e) {
      err = e as SpiderConfigError;
    }
    expect(err).toBeInstanceOf(SpiderConfigError);
    expect(err!.name).toBe('SpiderConfigError');
    const m = err!.message;
    expect(m.startsWith('spiders/x.ts: ')).toBe(true);
    for (const part of [
      'startUrls[1]: Invalid URL',
      'startUrls[2]: Invalid URL',
      'crawler.maxConcurency: unknown field (did you mean "maxConcurrency"?)',
      'crawler.render:',
      'crawler.timeoutSecs:',
      'follow[0].lable: unknown field (did you mean "label"?)',
      'middleware.artcle: unknown middleware (did you mean "article"?)',
      'timezone: unknown IANA time zone',
    ])
      expect(m).toContain(part);
    expect(err!.problems.length).toBeGreaterThanOrEqual(8);
  });

  it('accepts user middleware names in middleware settings', () => {
    const mw = { name: 'my-filter', priority: 450, process() {} };
    expect(() => validateSpider({ name: 'x', startUrls: ['https://e.com/'], extraMiddleware: [mw], middleware: { 'my-filter': { priority: 10 } } })).not.toThrow();
    expect(() => validateSpider({ name: 'x', startUrls: ['https://e.com/'], extraMiddleware: [{ name: 'broken' }] })).toThrowError(/extraMiddleware\[0\]: expected a middleware object/);
  });

  it('suggests only near misses', () => {
    expect(suggest('maxConcurency', ['maxConcurrency', 'maxDepth'])).toBe('maxConcurrency');
    expect(suggest('colour', ['maxConcurrency', 'maxDepth'])).toBeUndefined();
  });

  it('loads a spider file by path and reports a missing one', async () => {
    await expect(loadSpider('test/fixtures/crawler/bad-spider.ts', root)).rejects.toThrowError(/bad-spider\.ts: .*crawler\.maxConcurency: unknown field/);
    await expect(loadSpider('no-such-spider', root)).rejects.toThrowError(/spider "no-such-spider" not found/);
    const demo = await loadSpider('demo', root);
    expect(demo.spider.name).toBe('demo');
  });
});

describe('gleaner crawl with a bad spider', () => {
  it('prints every problem and exits 2 before any request', async () => {
    const server = await serve({ '/': { body: '<html><body>hi</body></html>' } });
    try {
      const r = spawnSync(process.execPath, [GLEANER_BIN, 'crawl', 'test/fixtures/crawler/bad-spider.ts'], {
        cwd: root,
        env: { ...process.env, BAD_SPIDER_URL: `${server.url}/`, CRAWLEE_STORAGE_DIR: '/tmp/gleaner-test-bad-spider' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^gleaner: test\/fixtures\/crawler\/bad-spider\.ts: /);
      expect(r.stderr).toContain('startUrls[1]: Invalid URL');
      expect(r.stderr).toContain('crawler.maxConcurency: unknown field (did you mean "maxConcurrency"?)');
      expect(r.stderr).toContain('middleware.artcle: unknown middleware (did you mean "article"?)');
      expect(r.stderr).toContain('follow[0].lable: unknown field (did you mean "label"?)');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
