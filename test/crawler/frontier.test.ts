import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JournalFrontier } from '../../src/crawler/frontier.js';

const req = (url: string, depth = 1) => ({ url, depth });

describe('JournalFrontier', () => {
  it('dedupes, hands out once, respects the page budget', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const f = JournalFrontier.open(dir, 's', { maxPages: 3 });
    expect(f.add([req('http://a/1'), req('http://a/1'), req('http://a/2')]).map((r) => r.url)).toEqual(['http://a/1', 'http://a/2']);
    expect(f.add([req('http://a/2'), req('http://a/3'), req('http://a/4')]).map((r) => r.url)).toEqual(['http://a/3']);
    expect(f.take(2).map((r) => r.url)).toEqual(['http://a/1', 'http://a/2']);
    expect(f.take(5).map((r) => r.url)).toEqual(['http://a/3']);
    expect(f.take(5)).toEqual([]);
    f.done('http://a/1', 'ok');
    f.done('http://a/2', 'failed');
    expect(f.stats()).toEqual({ seen: 3, pending: 1, done: 2, failed: 1, skipped: 0 });
    f.close(false);
  });

  it('replays the journal after a crash (no snapshot, torn last line)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const f = JournalFrontier.open(dir, 's');
    f.add([req('http://a/1'), req('http://a/2'), req('http://a/3')]);
    f.take(3);
    f.done('http://a/1', 'ok');
    // Simulate kill -9: no close(), and a half-written line at the end.
    appendFileSync(f.journalFile, '{"d":"http://a/');
    const g = JournalFrontier.open(dir, 's');
    expect(g.resumed).toBe(true);
    expect(g.previousFinished).toBe(false);
    expect(g.has('http://a/1')).toBe(true);
    // In-flight requests come back as pending.
    expect(g.take(10).map((r) => r.url)).toEqual(['http://a/2', 'http://a/3']);
    g.close(false);
  });

  it('checkpoint compacts the journal; a finished crawl is recorded', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const f = JournalFrontier.open(dir, 's');
    f.add([req('http://a/1'), req('http://a/2')]);
    f.done('http://a/1', 'ok');
    f.checkpoint(); // small journal: nothing to compact yet
    expect(readFileSync(f.journalFile, 'utf8')).not.toBe('');
    const many = Array.from({ length: 20_000 }, (_, i) => req(`http://a/page/${i}/with/a/reasonably/long/path`));
    f.add(many);
    f.checkpoint();
    expect(readFileSync(f.journalFile, 'utf8')).toBe('');
    f.add([req('http://a/3')]);
    const g = JournalFrontier.open(dir, 's');
    expect(g.stats()).toMatchObject({ seen: 20_003, pending: 20_002, done: 1 });
    g.done('http://a/2', 'ok');
    g.done('http://a/3', 'ok');
    g.close(true);
    const h = JournalFrontier.open(dir, 's');
    expect(h.previousFinished).toBe(true);
    h.reset();
    expect(h.stats().seen).toBe(0);
    h.close(false);
  });
});
