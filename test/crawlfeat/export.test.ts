/**
 * `gleaner export <spider>` from the local dataset (issue 25 item 4): a finished crawl exported to
 * JSON Lines, JSON and CSV gives byte for byte the files its own `--out` gave; `--csv-rows entry`
 * and `--csv-columns` shape the CSV as they do for a crawl; the mistakes are one-line errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gleaner } from './cli.js';
import { csvObjects } from './csv.js';

let dir: string;
let env: Record<string, string>;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gleaner-export-'));
  env = { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') };
  // the bundled demo (news in GBK, blog, forum): its own --out files
  const r = await gleaner(['crawl', '--threads', '0', '--out', file('crawl.jsonl'), '--out', file('crawl.csv'), '--out', file('crawl.json')], env, dir);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/demo: finished/);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('gleaner export from the local dataset', () => {
  it('a finished crawl to JSON Lines, CSV and JSON: the files its own --out gave', async () => {
    const r = await gleaner(['export', 'demo', '--out', file('export.jsonl'), '--out', file('export.csv'), '--out', `${file('export.txt')}:json`], env, dir);
    expect(r.status, r.stderr).toBe(0);
    const n = readFileSync(file('crawl.jsonl'), 'utf8').trim().split('\n').length;
    expect(n).toBeGreaterThan(40);
    expect(r.stdout).toContain(`demo: ${n} items → ${file('export.jsonl')}, ${file('export.csv')}, ${file('export.txt')}`);
    expect(readFileSync(file('export.jsonl'), 'utf8')).toBe(readFileSync(file('crawl.jsonl'), 'utf8'));
    expect(readFileSync(file('export.csv'), 'utf8')).toBe(readFileSync(file('crawl.csv'), 'utf8'));
    expect(readFileSync(file('export.txt'), 'utf8')).toBe(readFileSync(file('crawl.json'), 'utf8'));
    // the lean CSV: the kinds' columns, no HTML, no nested arrays
    expect(readFileSync(file('crawl.csv'), 'utf8').split('\n')[0]).toBe('url,kind,title,author,publishedAt,content');
  });

  it('--csv-rows entry: a row per post (its own text) and per list entry, the thread’s fields, not its content', async () => {
    const r = await gleaner(['export', 'demo', '--out', file('posts.csv'), '--csv-rows', 'entry', '--bom'], env, dir);
    expect(r.status, r.stderr).toBe(0);
    const items = readFileSync(file('crawl.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; url: string; content?: string; posts?: Array<{ author?: string }>; items?: unknown[] });
    const text = readFileSync(file('posts.csv'), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = csvObjects(text.slice(1));
    const threads = items.filter((i) => i.kind === 'forum' && i.posts?.length);
    expect(threads.length).toBeGreaterThan(2);
    expect(rows.filter((r) => r.kind === 'forum').length).toBe(threads.reduce((n, t) => n + t.posts!.length, 0));
    expect(rows.filter((r) => r.kind === 'list').length).toBe(items.filter((i) => i.kind === 'list').reduce((n, l) => n + Math.max(1, l.items?.length ?? 0), 0));
    // a post row holds the post, not the thread's whole text
    const t = threads[0]!;
    const own = rows.filter((r) => r.url === t.url);
    expect(own.map((r) => r['post.author'])).toEqual(t.posts!.map((p) => p.author ?? ''));
    expect(own.every((r) => r.content === '' && r['post.content'] !== '' && r['post.content']!.length < t.content!.length)).toBe(true);
  });

  it('--csv-columns: the columns asked for (dotted paths), or all of them', async () => {
    const r = await gleaner(['export', 'demo', '--out', file('few.csv'), '--csv-columns', 'url,kind,items.1.url', '--out', file('few.jsonl')], env, dir);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(file('few.csv'), 'utf8').split('\n')[0]).toBe('url,kind,items.1.url');
    const rows = csvObjects(readFileSync(file('few.csv'), 'utf8'));
    // a list's first entry, in a list's row only
    expect(rows.filter((r) => r['items.1.url']).map((r) => r.kind)).toEqual(rows.filter((r) => r.kind === 'list' && r['items.1.url']).map(() => 'list'));
    expect(rows.filter((r) => r['items.1.url']).length).toBeGreaterThan(2);
    // JSON outputs are whole items whatever the CSV columns
    expect(readFileSync(file('few.jsonl'), 'utf8')).toBe(readFileSync(file('crawl.jsonl'), 'utf8'));
    const every = await gleaner(['export', 'demo', '--out', file('every.csv'), '--csv-columns', 'all'], env, dir);
    expect(every.status, every.stderr).toBe(0);
    const header = readFileSync(file('every.csv'), 'utf8').split('\n')[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['contentHtml', 'posts.1.author', 'items.1.url', 'items.2.title']));
  });

  it('mistakes are one line each: no dataset, no --out, a CSV option without a CSV output', async () => {
    const [none, noOut, bom, cols] = await Promise.all([
      gleaner(['export', 'nothing-here', '--out', file('x.jsonl')], env, dir),
      gleaner(['export', 'demo'], env, dir),
      gleaner(['export', 'demo', '--out', file('x.jsonl'), '--bom'], env, dir),
      gleaner(['export', 'demo', '--out', file('x.csv'), '--csv-columns', 'url,,title'], env, dir),
    ]);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^gleaner: nothing-here: no dataset at .*datasets\/nothing-here \(crawl it first; for a crawl shared through Redis give --redis URL\)\n$/);
    expect(noOut.status).toBe(2);
    expect(noOut.stderr).toMatch(/^gleaner: demo: the items are in .* give --out FILE\[:FORMAT\]/);
    expect(bom.status).toBe(2);
    expect(bom.stderr).toBe('gleaner: --bom applies to CSV outputs, and no --out names a .csv file\n');
    expect(cols.status).toBe(2);
    expect(cols.stderr).toMatch(/--csv-columns takes column names separated by commas/);
  }, 120_000);
});
