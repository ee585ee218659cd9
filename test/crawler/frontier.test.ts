import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('keeps a bounded part of the queue in memory, spills the rest, hands it out in order', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const f = JournalFrontier.open(dir, 's', { spillMemory: 100 });
    const urls = Array.from({ length: 5_000 }, (_, i) => `http://a/p/${i}`);
    for (let i = 0; i < urls.length; i += 250) f.add(urls.slice(i, i + 250).map((u) => req(u)));
    expect(f.queuedInMemory).toBeLessThanOrEqual(200);
    expect(readdirSync(path.join(dir, 's.spill')).length).toBeGreaterThan(10);
    const out: string[] = [];
    for (let batch = f.take(64); batch.length; batch = f.take(64)) out.push(...batch.map((r) => r.url));
    expect(out).toEqual(urls);
    f.close(false);
    expect(existsSync(path.join(dir, 's.spill'))).toBe(false);
  });

  it("a snapshot of a spilled queue, with requests in flight and a recrawl's revisits, reopens as it was", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const f = JournalFrontier.open(dir, 's', { spillMemory: 50 });
    const urls = Array.from({ length: 1_000 }, (_, i) => `http://a/p/${i}`);
    f.add(urls.map((u) => req(u)));
    const inFlight = f.take(10).map((r) => r.url);
    f.done(inFlight[0]!, 'ok');
    f.done(inFlight[1]!, 'skipped');
    f.revisit([{ url: inFlight[0]!, depth: 1, revisit: true }]);
    f.close(false);
    const g = JournalFrontier.open(dir, 's', { spillMemory: 50 });
    expect(g.stats()).toEqual({ seen: 1_000, pending: 999, done: 1, failed: 0, skipped: 1 });
    // an item of an earlier pass does not mark a revisited page done
    g.markStored([inFlight[0]!, urls[500]!]);
    expect(g.stats().done).toBe(2);
    const out: string[] = [];
    for (let batch = g.take(100); batch.length; batch = g.take(100)) out.push(...batch.map((r) => r.url));
    // in flight first, then the queue in order, the revisited page behind it; no URL twice
    expect(out).toEqual([...inFlight.slice(2), ...urls.slice(10).filter((u) => u !== urls[500]), inFlight[0]]);
    g.close(false);
  });

  it('queues at most maxQueued requests and says so once', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    const full: number[] = [];
    const f = JournalFrontier.open(dir, 's', { maxQueued: 100, onQueueFull: (n) => full.push(n) });
    f.add(Array.from({ length: 150 }, (_, i) => req(`http://a/${i}`)));
    f.add(Array.from({ length: 50 }, (_, i) => req(`http://b/${i}`)));
    expect(f.stats().pending).toBe(100);
    expect(f.droppedByQueueLimit).toBe(100);
    expect(full).toEqual([100]);
    // room again once requests are done
    for (const r of f.take(10)) f.done(r.url, 'ok');
    expect(f.add([req('http://c/1')]).length).toBe(1);
    f.close(false);
  });

  it('reads the snapshot of the earlier format', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frontier-'));
    writeFileSync(path.join(dir, 's.frontier.json'), JSON.stringify({ version: 1, finished: false, pending: [req('http://a/3'), req('http://a/4')], done: ['http://a/1'], failed: ['http://a/2'], skipped: [] }));
    const f = JournalFrontier.open(dir, 's');
    expect(f.resumed).toBe(true);
    expect(f.stats()).toEqual({ seen: 4, pending: 2, done: 2, failed: 1, skipped: 0 });
    expect(f.has('http://a/1')).toBe(true);
    expect(f.take(5).map((r) => r.url)).toEqual(['http://a/3', 'http://a/4']);
    f.close(true);
    expect(JSON.parse(readFileSync(path.join(dir, 's.frontier.json'), 'utf8'))).toMatchObject({ version: 2, finished: true });
  });
});

