/** The command line's feeds and option checks (issue 16 item 2), as a user runs them. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvObjects } from './csv.js';
import { gleaner } from './cli.js';

describe('gleaner crawl --out (several feeds at once)', () => {
  it('writes JSON Lines, JSON and CSV (rows per post, BOM) from one crawl of the demo', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-feeds-'));
    const r = await gleaner(['crawl', '--out', path.join(dir, 'items.jsonl'), '--out', path.join(dir, 'items.json'), '--out', path.join(dir, 'posts.csv'), '--csv-rows', 'entry', '--bom'], { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/feeds: +.*items\.jsonl, .*items\.json, .*posts\.csv/);
    const lines = readFileSync(path.join(dir, 'items.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const stored = readdirSync(path.join(dir, 'storage', 'datasets', 'demo')).filter((f) => /^\d+\.json$/.test(f)).length;
    expect(lines.length).toBe(stored);
    expect(JSON.parse(readFileSync(path.join(dir, 'items.json'), 'utf8'))).toEqual(lines);
    const csv = readFileSync(path.join(dir, 'posts.csv'), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const rows = csvObjects(csv);
    const floors = lines.filter((i) => i.kind === 'forum').reduce((n, i) => n + i.posts.length, 0);
    const entries = lines.filter((i) => i.kind === 'list').reduce((n, i) => n + Math.max(1, i.items?.length ?? 0), 0);
    const others = lines.filter((i) => i.kind !== 'forum' && i.kind !== 'list').length;
    expect(rows.length).toBe(floors + entries + others);
    const post = rows.find((x) => x.kind === 'forum')!;
    expect(post['post.content']).toBeTruthy();
    expect(post['post.author']).toMatch(/\S/);
  }, 150_000);
});

describe('bad options are one clear message and exit 2', () => {
  it('crawl: unknown --out format, --bom without a CSV output, bad --csv-rows, bad --log-level; extract: bad --timezone, --out without --batch', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-bad-'));
    writeFileSync(path.join(dir, 'p.html'), '<html><body><p>x</p></body></html>');
    const runs = await Promise.all([
      gleaner(['crawl', '--out', 'items.xml']),
      gleaner(['crawl', '--out', 'items.jsonl', '--bom']),
      gleaner(['crawl', '--out', 'items.csv', '--csv-rows', 'floors']),
      gleaner(['crawl', '--log-level', 'loud']),
      gleaner(['extract', path.join(dir, 'p.html'), '--timezone', 'Mars/Olympus']),
      gleaner(['extract', path.join(dir, 'p.html'), '--out', path.join(dir, 'x.jsonl')]),
    ]);
    const want = [
      /cannot tell the format from the extension/,
      /--bom applies to CSV outputs/,
      /--csv-rows must be one of item, entry \(got "floors"\)/,
      /--log-level must be one of debug, info, warning, error, off \(got "loud"\)/,
      /--timezone: unknown IANA time zone "Mars\/Olympus"/,
      /--out needs --batch/,
    ];
    runs.forEach((r, i) => {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(want[i]!);
      expect(r.stderr.split('\n').filter(Boolean).length).toBe(1); // one line, no stack
    });
    expect(readdirSync(dir)).toEqual(['p.html']); // nothing written
  }, 60_000);

  it('extract --batch --out FILE.csv writes CSV (it wrote JSON lines before)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-batch-'));
    writeFileSync(path.join(dir, 'a.html'), '<html><head><title>Hello</title></head><body><article><h1>Hello</h1><p>' + 'Some words in a paragraph. '.repeat(20) + '</p></article></body></html>');
    writeFileSync(path.join(dir, 'm.jsonl'), JSON.stringify({ id: 'a1', path: 'a.html', url: 'http://example.com/a' }) + '\n');
    const r = await gleaner(['extract', '--batch', path.join(dir, 'm.jsonl'), '--out', path.join(dir, 'o.csv'), '--out', path.join(dir, 'o.jsonl')]);
    expect(r.status, r.stderr).toBe(0);
    const rows = csvObjects(readFileSync(path.join(dir, 'o.csv'), 'utf8'));
    expect(rows.length).toBe(1);
    expect(rows[0]!.id).toBe('a1');
    expect(rows[0]!.url).toBe('http://example.com/a');
    expect(JSON.parse(readFileSync(path.join(dir, 'o.jsonl'), 'utf8')).id).toBe('a1');
  }, 60_000);
});
