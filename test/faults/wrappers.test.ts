/**
 * Signals through wrappers (issue 24 item 9): a process manager sends SIGTERM to the top process —
 * `npm run crawl` (npm, then `sh -c`, then node) or an `npx`-style `sh -c 'gleaner crawl …'`. The
 * wrapper dies; the crawl, re-parented, must notice and stop within 3 s with its state saved, and
 * the next run resumes with nothing lost or doubled.
 */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';
import { GLEANER_BIN, root } from '../fixtures/cli.js';
import { datasetUrls } from '../fixtures/dataset.js';

const LISTS = 4;
const PER_LIST = 10;
/** The bound: the whole process tree gone within 3 s of the signal. */
const GONE_MS = 3_000;

const stored = (storage: string): string[] => datasetUrls(storage, 'wrapped').map((u) => new URL(u).pathname);

/** PIDs of the processes whose command line mentions `marker` (the whole tree of one run). */
function pidsOf(marker: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker)) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const WRAPPERS: Record<string, (spider: string, storage: string) => ChildProcess> = {
  'npm run crawl': (spider, storage) => spawn('npm', ['run', '--silent', 'crawl', '--', spider, '--threads', '1'], { cwd: root, env: { ...process.env, CRAWLEE_STORAGE_DIR: storage }, stdio: 'ignore' }),
  // what `npx gleaner crawl` runs: npm exec, then `sh -c 'gleaner …'` (kept as the parent here)
  "sh -c 'gleaner crawl …' (npx)": (spider, storage) => spawn('sh', ['-c', `"${process.execPath}" "${GLEANER_BIN}" crawl "${spider}" --threads 1; true`], { cwd: root, env: { ...process.env, CRAWLEE_STORAGE_DIR: storage }, stdio: 'ignore' }),
};

describe('SIGTERM to the wrapper of a crawl', () => {
  it.each(Object.keys(WRAPPERS))('%s: the whole tree gone within 3 s; the next run resumes, 0 lost, 0 doubled', async (name) => {
    let delay = 200;
    const site = smallSite(LISTS, PER_LIST);
    const server = await serve((p) => {
      const r = site(p);
      return r && { ...r, delay };
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-wrapped-'));
    const storage = path.join(dir, 'storage');
    const spider = path.join(dir, 'wrapped.mjs');
    writeFileSync(spider, `export default { name: 'wrapped', startUrls: ['${server.url}/'], allowPrivateAddresses: true, crawler: { maxConcurrency: 2, robotsTxt: false }, follow: [{ pattern: '**/story/*.html', label: 'detail' }, { pattern: '**/list/*.html', label: 'list' }] };\n`);
    try {
      const top = WRAPPERS[name]!(spider, storage);
      const exited = new Promise<void>((resolve) => top.on('exit', () => resolve()));
      await waitFor(() => stored(storage).length >= 5, 90_000, 'the crawl to store pages');
      const tree = pidsOf(spider);
      expect(tree.length).toBeGreaterThan(0);
      const t0 = Date.now();
      top.kill('SIGTERM');
      await exited;
      await waitFor(() => pidsOf(spider).length === 0, GONE_MS + 5_000, 'the crawl to stop');
      expect(Date.now() - t0).toBeLessThan(GONE_MS);
      // the state was saved: the next run resumes and finishes the site
      delay = 0;
      const again = spawn(process.execPath, [GLEANER_BIN, 'crawl', spider, '--threads', '1'], { cwd: dir, env: { ...process.env, CRAWLEE_STORAGE_DIR: storage }, stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => again.on('exit', resolve));
      expect(code).toBe(0);
      const urls = stored(storage);
      expect(urls.length).toBe(new Set(urls).size);
      expect(new Set(urls)).toEqual(new Set(smallSitePaths(LISTS, PER_LIST)));
    } finally {
      await server.close();
    }
  }, 150_000);
});
