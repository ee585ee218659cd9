/** Logs, stats and signals (issue 16 item 5), through the command line in one process as the
 * installed launcher runs it (bin/gleaner.js imports the built CLI: no child to orphan): debug lines at middleware decisions, the progress line, the stats
 * file, and kill -TERM stopping the crawl (no request after) so that the next run resumes it. */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';
import { GLEANER_BIN } from '../fixtures/cli.js';
import { datasetUrls } from '../fixtures/dataset.js';

const LISTS = 6;
const PER_LIST = 8;
/** Slow enough that the crawl is still running when it is signalled. */
const DELAY_MS = 150;

const spiderSource = (url: string) => `export default {
  name: 'slow',
  startUrls: ['${url}/'],
  allowPrivateAddresses: true,
  maxPages: 200,
  logLevel: 'debug',
  crawler: { maxConcurrency: 2 },
  follow: [{ pattern: '**/story/*.html', label: 'detail' }, { pattern: '**/list/*.html', label: 'list' }],
};
`;

const stored = (storage: string) => datasetUrls(storage, 'slow');

describe('logs, stats and signals', () => {
  it('kill -TERM on gleaner stops the crawl cleanly; debug lines, progress with ETA, stats file; the next run resumes', async () => {
    const server = await serve(smallSite(LISTS, PER_LIST, DELAY_MS));
    const cwd = mkdtempSync(path.join(tmpdir(), 'gleaner-logs-'));
    writeFileSync(path.join(cwd, 'slow.ts'), spiderSource(server.url));
    try {
      const child = spawn(process.execPath, [GLEANER_BIN, 'crawl', 'slow.ts'], { cwd, env: { ...process.env, CRAWLEE_STORAGE_DIR: path.join(cwd, 'storage') }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.on('data', (d) => (stdout += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const deadline = Date.now() + 90_000;
      while (stored(path.join(cwd, 'storage')).length < 12 || !/elapsed/.test(stderr)) {
        if (Date.now() > deadline) throw new Error(`no progress: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const t0 = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(code, stderr).toBe(130); // stopped with pages left: the next run resumes
      // Stopped: nothing reaches the server once the process is gone.
      const after = server.requests.length;
      await new Promise((r) => setTimeout(r, 1_000));
      expect(server.requests.length).toBe(after);

      expect(stdout).toMatch(/slow: stopped \(SIGTERM\)/);
      // Crawlee's logger: level, timestamp, spider prefix.
      expect(stderr).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S*INFO\S*\s+\S*slow:\S* .*elapsed · \d+\/200 pages \([\d.]+\/s\) · \d+ queued · \d+ items · \d+ errors · \d+ MB · ETA \d+:\d\d/m);
      expect(stderr).toMatch(/DEBUG.*page type detail \(.*\) · http/);
      expect(stderr).toMatch(/DEBUG.*article: content block of \d+ chars in \d+ paragraphs/);
      expect(stderr).toMatch(/DEBUG.*list: \d+ entries/);

      const stats = JSON.parse(readFileSync(path.join(cwd, 'storage', 'gleaner', 'slow.stats.json'), 'utf8'));
      expect(stats.finish_reason).toBe('SIGTERM');
      expect(stats.item_scraped_count).toBe(stored(path.join(cwd, 'storage')).length);
      expect(stats.log_count.debug).toBeGreaterThan(10);
      expect(stats['downloader/response_bytes']).toBeGreaterThan(1000);

      const before = stored(path.join(cwd, 'storage')).length;
      const summary = await runSpider(
        { name: 'slow', startUrls: [`${server.url}/`], allowPrivateAddresses: true, follow: [{ pattern: '**/story/*.html', label: 'detail' }, { pattern: '**/list/*.html', label: 'list' }] },
        { storageDir: path.join(cwd, 'storage'), log: silentLogger },
      );
      expect(summary.resumed).toBe(true);
      expect(summary.finished).toBe(true);
      const urls = stored(path.join(cwd, 'storage'));
      expect(urls.length).toBeGreaterThan(before);
      expect(new Set(urls).size).toBe(urls.length); // nothing twice
      expect(urls.map((u) => new URL(u).pathname).sort()).toEqual(smallSitePaths(LISTS, PER_LIST).sort());
      expect(JSON.parse(readFileSync(path.join(cwd, 'storage', 'gleaner', 'slow.stats.json'), 'utf8')).finish_reason).toBe('finished');
    } finally {
      await server.close();
    }
  }, 150_000);
});
