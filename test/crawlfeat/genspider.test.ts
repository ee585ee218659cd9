/** `gleaner genspider` (issue 16 item 6): the file it writes runs as written, and every option it
 * shows as a comment is valid when uncommented. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDemoServer } from '../../src/demo/server.js';
import { loadSpider } from '../../src/spider/load.js';
import { gleaner } from './cli.js';

/** Uncomment the option lines of a generated spider (`// name: …`, the follow rule block). */
export function uncommentOptions(src: string): string {
  return src.replace(/^(\s*)\/\/ ((?:[a-zA-Z]+: )|(?: {2}\{)|(?:\],))/gm, '$1$2');
}

describe('gleaner genspider', () => {
  it('writes spiders/<name>.ts that crawls the site as written; refuses to overwrite; checks its arguments', async () => {
    const demo = await startDemoServer();
    const cwd = mkdtempSync(path.join(tmpdir(), 'genspider-'));
    try {
      const gen = await gleaner(['genspider', 'citynews', `${demo.url}/news/`], {}, cwd);
      expect(gen.status, gen.stderr).toBe(0);
      expect(gen.stdout).toContain('wrote spiders/citynews.ts');
      const file = path.join(cwd, 'spiders', 'citynews.ts');
      const src = readFileSync(file, 'utf8');
      expect(src).toContain(`startUrls: ['${demo.url}/news/']`);
      expect(src).toContain('allowPrivateAddresses: true'); // a loopback start URL says so

      const again = await gleaner(['genspider', 'citynews', `${demo.url}/news/`], {}, cwd);
      expect(again.status).toBe(2);
      expect(again.stderr).toMatch(/exists \(--force overwrites it\)/);
      const bad = await Promise.all([gleaner(['genspider', 'bad name', 'http://h/'], {}, cwd), gleaner(['genspider', 'ok', 'ftp://h/'], {}, cwd)]);
      expect(bad.map((r) => r.status)).toEqual([2, 2]);

      const crawl = await gleaner(['crawl', 'spiders/citynews.ts', '--max-pages', '12'], {}, cwd);
      expect(crawl.status, crawl.stderr).toBe(0);
      expect(crawl.stdout).toMatch(/citynews: finished/);
      const stored = readdirSync(path.join(cwd, 'storage', 'datasets', 'citynews')).filter((f) => /^\d+\.json$/.test(f));
      expect(stored.length).toBe(12);

      // Every option shown as a comment is a valid option.
      const all = uncommentOptions(src);
      expect(all).not.toBe(src);
      expect(all).toMatch(/^\s+follow: \[$/m);
      writeFileSync(path.join(cwd, 'spiders', 'all.ts'), all);
      const { spider } = await loadSpider(path.join(cwd, 'spiders', 'all.ts'));
      expect(spider.follow?.length).toBe(4);
      expect(spider.pipelines?.length).toBe(1);
      expect(spider.recrawl).toEqual({ every: '1h' });
      expect(spider.sitemaps).toBe(true);
    } finally {
      await demo.close();
    }
  }, 120_000);
});
