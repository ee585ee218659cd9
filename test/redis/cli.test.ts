/** The command line of shared crawls: `--workers N`, the spider's `redis:` field, usage errors. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateSpider } from '../../src/spider/config.js';
import { crawlStatus } from '../../src/cli/status.js';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';
import { redisUrl, spiderName } from './helpers.js';
import { ROOT, SPIDER_FILE } from './workers.js';
import { GLEANER_BIN } from '../fixtures/cli.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Asynchronous: the fixture server answers from this process. */
const cliAsync = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(process.execPath, [GLEANER_BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [GLEANER_BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });

describe('shared crawl command line', () => {
  it('the spider may name its Redis; a bad URL is a spider error', () => {
    expect(validateSpider({ name: 'x', startUrls: ['http://127.0.0.1/'], redis: 'redis://127.0.0.1:6379/0' }).redis).toBe('redis://127.0.0.1:6379/0');
    expect(() => validateSpider({ name: 'x', startUrls: ['http://127.0.0.1/'], redis: 'http://127.0.0.1:6379' })).toThrow(/redis: expected a redis:\/\/ or rediss:\/\/ URL/);
  });

  it('--workers without --redis, and an unreachable Redis, are clear errors', () => {
    const r = cli(['crawl', SPIDER_FILE, '--workers', '2'], { GLEANER_TEST_SITE: 'http://127.0.0.1:9' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--workers needs --redis/);
    const down = cli(['crawl', SPIDER_FILE, '--redis', 'redis://127.0.0.1:9/0'], { GLEANER_TEST_SITE: 'http://127.0.0.1:9' });
    expect(down.status).not.toBe(0);
    expect(down.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:9\/0/);
  });

  it('--workers 2 runs two worker processes on one crawl and writes the dataset once on the finish (redis from the spider file)', async () => {
    const server = await serve(smallSite(3, 8, 60));
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-workers-'));
      dirs.push(dir);
      const spider = spiderName('workers');
      const file = path.join(dir, 'spider.ts');
      writeFileSync(file, `export default { name: '${spider}', startUrls: ['${server.url}/'], allowPrivateAddresses: true, redis: '${redisUrl()}', crawler: { maxConcurrency: 2 } };\n`);
      const out = path.join(dir, 'items.jsonl');
      const r = await cliAsync(['crawl', file, '--workers', '2', '--out', out], { CRAWLEE_STORAGE_DIR: dir });
      expect(r.status, r.stderr + r.stdout).toBe(0);
      expect(r.stderr).toMatch(/\[w1\]/);
      expect(r.stderr).toMatch(/\[w2\]/);
      expect(r.stdout).toMatch(/finished by 2 workers/);
      const all = smallSitePaths(3, 8);
      expect(readdirSync(path.join(dir, 'datasets', spider)).filter((f) => /^\d+\.json$/.test(f))).toHaveLength(all.length);
      const st = (await crawlStatus(redisUrl(), spider))!;
      expect(st.workers.map((w) => w.id).sort()).toEqual([expect.stringMatching(/-w1$/), expect.stringMatching(/-w2$/)]);
      expect(st.items).toBe(all.length);
    } finally {
      await server.close();
    }
  }, 120_000);
});
