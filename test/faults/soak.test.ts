/**
 * kill -9 soak (issue 14): a 2,001-page loopback crawl killed at random moments at least 10 times,
 * resumed after each kill, then run to its end: every page stored exactly once, in the dataset and
 * in the --out export alike.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';
import { datasetUrlsIn } from '../fixtures/dataset.js';

const root = path.resolve(import.meta.dirname, '..', '..');
/** 1 home + 40 lists + 1,960 stories = 2,001 pages. */
const LISTS = 40;
const PER_LIST = 49;
const KILLS = 10;
/** The soak must fit in CI: 3 minutes (issue 14). */
const SOAK_BUDGET_MS = 180_000;

const storedUrls = datasetUrlsIn;

function storedCount(dir: string): number {
  return existsSync(dir) ? readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)).length : 0;
}

describe('kill -9 soak', () => {
  it(`${KILLS} random kills during a 2,001-page crawl: 0 lost, 0 doubled`, async () => {
    const t0 = Date.now();
    const server = await serve(smallSite(LISTS, PER_LIST));
    const storage = mkdtempSync(path.join(tmpdir(), 'gleaner-soak-'));
    const out = path.join(storage, 'items.jsonl');
    const datasetDir = path.join(storage, 'datasets', 'soak');
    const spider = {
      name: 'soak',
      startUrls: [`${server.url}/`],
      allowPrivateAddresses: true,
      crawler: { maxConcurrency: 10, robotsTxt: false },
      follow: [
        { pattern: '**/story/*.html', label: 'detail' },
        { pattern: '**/list/*.html', label: 'list' },
      ],
    };
    // A fixed seed: the kill points are the same on every run of the suite.
    let seed = 20261201;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const run = () => {
      const child = spawn(process.execPath, ['test/faults/crawl-child.mjs'], {
        cwd: root,
        env: { ...process.env, FAULT_SPIDER: JSON.stringify(spider), FAULT_STORAGE: storage, FAULT_OUT: out },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return { child, exited, output: () => ({ stdout, stderr }) };
    };
    const killedAt: number[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        // Kill points spread over the whole crawl: evenly spaced, each moved by up to ±60 items.
        const before = storedCount(datasetDir);
        const target = Math.max(before + 10, Math.round(((k + 1) * 2001) / (KILLS + 1) + (random() - 0.5) * 120));
        const { child, exited, output } = run();
        let ended = false;
        void exited.then(() => (ended = true));
        while (!ended && storedCount(datasetDir) < target) await new Promise((r) => setTimeout(r, 5 + random() * 20));
        expect(ended, `run ${k} ended before its kill: ${output().stderr}`).toBe(false);
        child.kill('SIGKILL');
        await exited;
        killedAt.push(storedCount(datasetDir));
      }
      const last = run();
      const code = await last.exited;
      expect(code, last.output().stderr).toBe(0);
      const summary = JSON.parse(last.output().stdout.trim().split('\n').pop()!).summary;
      expect(summary.resumed).toBe(true);
      expect(summary.finished).toBe(true);
      const urls = storedUrls(datasetDir).map((u) => new URL(u).pathname);
      const expected = smallSitePaths(LISTS, PER_LIST).sort();
      expect(expected.length).toBe(2001);
      expect(urls.length - new Set(urls).size, 'doubled').toBe(0);
      expect(expected.filter((p) => !urls.includes(p)), 'lost').toEqual([]);
      expect(urls.sort()).toEqual(expected);
      const exported = readFileSync(out, 'utf8').trim().split('\n').map((l) => new URL(JSON.parse(l).url).pathname);
      expect(exported.length - new Set(exported).size, 'doubled in --out').toBe(0);
      expect(exported.sort()).toEqual(expected);
      const ms = Date.now() - t0;
      console.log(`soak: ${KILLS} kills at ${killedAt.join(', ')} items; 2,001 pages, 0 lost, 0 doubled; ${(ms / 1000).toFixed(1)} s`);
      // The 3-minute budget is CI's (a clean machine); a developer's box shared with other jobs
      // runs the same soak slower (149 s at load 16 on 2 cores), so there it is only printed.
      if (process.env.CI) expect(ms).toBeLessThan(SOAK_BUDGET_MS);
    } finally {
      await server.close();
    }
  }, 2 * SOAK_BUDGET_MS);
});
