import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Item } from '../../src/core/item.js';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('npm run crawl (the demo)', () => {
  it('serves the demo site and fills the demo dataset with article, list and forum items', () => {
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-demo-'));
    const out = path.join(storageDir, 'out.csv');
    const r = spawnSync('npm', ['run', '--silent', 'crawl', '--', '--out', out], {
      cwd: root,
      env: { ...process.env, CRAWLEE_STORAGE_DIR: storageDir, GLEANER_DEMO_URL: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/demo site at http:\/\/127\.0\.0\.1:\d+\//);
    expect(r.stdout).toMatch(/demo: finished/);
    expect(r.stdout).toMatch(/items: +\d+ stored \(.*article \d+/);
    // every link the demo pages show leads to a page (a 404 means the demo site or a link is wrong)
    expect(r.stdout).not.toMatch(/failures: [1-9]/);
    const dir = path.join(storageDir, 'datasets', 'demo');
    const items = readdirSync(dir)
      .filter((f) => /^\d+\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
    const kinds = new Map<string, Item[]>();
    for (const i of items) kinds.set(i.kind, [...(kinds.get(i.kind) ?? []), i]);
    expect(kinds.get('article')?.length).toBeGreaterThanOrEqual(20);
    expect(kinds.get('list')?.length).toBeGreaterThanOrEqual(5);
    expect(kinds.get('forum')?.length).toBeGreaterThanOrEqual(5);
    // GBK news decoded (no replacement characters), forum floors present.
    expect(JSON.stringify(items)).not.toContain('\uFFFD');
    const news = kinds.get('article')!.find((i) => i.url.includes('/news/'))!;
    expect(news.title).toMatch(/[\u4e00-\u9fff]/);
    expect(kinds.get('forum')!.some((i) => i.kind === 'forum' && (i.posts?.length ?? 0) > 1)).toBe(true);
    // The CSV export holds the same items.
    expect(readFileSync(out, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(items.length + 1);
  }, 150_000);
});
