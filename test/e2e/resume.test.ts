import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';
import { datasetUrls } from '../fixtures/dataset.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const LISTS = 6;
const PER_LIST = 8;
/** Per-response delay: the child crawl takes several seconds, so the kill lands mid-crawl. */
const DELAY_MS = 60;

const storedUrls = (storageDir: string): string[] => datasetUrls(storageDir, 'resume');

describe('resume after an interrupted crawl', () => {
  it.each(['SIGKILL', 'SIGINT'] as const)('%s: loses and duplicates no items', async (signal) => {
    const server = await serve(smallSite(LISTS, PER_LIST, DELAY_MS));
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-resume-'));
    const out = path.join(storageDir, 'items.jsonl');
    try {
      // plain node runs the crawl in this one process (the tsx CLI would fork a grandchild that
      // SIGKILL of the parent leaves running)
      const child = spawn(process.execPath, ['test/fixtures/crawler/resume-child.mjs'], {
        cwd: root,
        env: { ...process.env, RESUME_URL: server.url, RESUME_STORAGE: storageDir, RESUME_OUT: out },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Kill once a good part (but not all) of the site is stored.
      const deadline = Date.now() + 60_000;
      while (storedUrls(storageDir).length < 15) {
        if (Date.now() > deadline) throw new Error(`child crawl made no progress: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill(signal);
      const code = await exited;
      // Ctrl-C stops cleanly (exit 0 here: the child prints its summary); kill -9 gives no chance.
      if (signal === 'SIGINT') expect(code).toBe(0);
      const before = storedUrls(storageDir).length;
      const total = smallSitePaths(LISTS, PER_LIST).length;
      expect(before).toBeLessThan(total);
      const requestsBefore = server.requests.length;

      const summary = await runSpider(
        {
          name: 'resume',
          startUrls: [`${server.url}/`],
          allowPrivateAddresses: true,
          crawler: { maxConcurrency: 2 },
          follow: [
            { pattern: '**/story/*.html', label: 'detail' },
            { pattern: '**/list/*.html', label: 'list' },
          ],
        },
        { storageDir, out, log: silentLogger },
      );
      expect(summary.resumed).toBe(true);
      expect(summary.finished).toBe(true);
      const urls = storedUrls(storageDir).map((u) => new URL(u).pathname);
      expect(new Set(urls).size).toBe(urls.length); // no duplicates
      expect(urls.sort()).toEqual(smallSitePaths(LISTS, PER_LIST).sort()); // nothing lost
      // The --out export mirrors the dataset exactly.
      const exported = readFileSync(out, 'utf8').trim().split('\n').map((l) => new URL(JSON.parse(l).url).pathname);
      expect(exported.sort()).toEqual(urls.sort());
      // The resumed run fetched only what was missing (plus at most the pages in flight at the kill).
      const refetched = server.requests.slice(requestsBefore).filter((p) => p !== '/robots.txt').length;
      const counts: Record<string, number> = {};
      for (const p of server.requests) counts[p] = (counts[p] ?? 0) + 1;
      expect(refetched, JSON.stringify({ before, counts, after: server.requests.slice(requestsBefore) })).toBeLessThanOrEqual(total - before + 2 + 2);
    } finally {
      await server.close();
    }
  }, 120_000);
});
