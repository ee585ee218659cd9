/**
 * Whole-process bounds of `gleaner extract` on a huge flat page (issue 24 item 1 target):
 * '<p>x</p>' × 1,000,000 (8 MB) through the built command, as a user runs it, in at most 10 s of
 * CPU (user + system: wall time on a shared 2-core machine is the load's) and 500 MB peak RSS. The
 * page model builds its first 100,000 elements (MAX_ELEMENTS) and the item says the rest was not
 * read. Before: killed at 120 s, 2.5 GB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gleanerArgs } from '../fixtures/cli.js';

const PRELOAD = path.join(import.meta.dirname, 'rusage-preload.cjs');

describe('gleaner extract on 1,000,000 sibling paragraphs (8 MB)', () => {
  it('≤ 10 s of CPU and ≤ 500 MB peak RSS for the whole process; the truncation is named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-bounds-'));
    const file = path.join(dir, 'flat.html');
    writeFileSync(file, `<!DOCTYPE html><html><head><title>Flat</title></head><body>${'<p>x</p>'.repeat(1_000_000)}</body></html>`);
    const t0 = Date.now();
    const r = spawnSync(process.execPath, ['--require', PRELOAD, ...gleanerArgs('extract', file)], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    const wall = (Date.now() - t0) / 1000;
    expect(r.status, r.stderr).toBe(0);
    const use = JSON.parse(/RUSAGE (.*)/.exec(r.stderr)![1]!) as { maxRSS: number; user: number; system: number };
    const cpu = (use.user + use.system) / 1e6;
    const rssMb = use.maxRSS / 1024;
    console.log(`1e6 <p>: wall ${wall.toFixed(1)} s, CPU ${cpu.toFixed(1)} s, peak RSS ${rssMb.toFixed(0)} MB`);
    const item = JSON.parse(r.stdout) as { content?: string; error?: string };
    expect(item.error).toMatch(/page truncated: the first 100,000 elements were read, 900,00\d more were not/);
    expect(item.content?.split('\n').length).toBeGreaterThan(90_000);
    expect(cpu).toBeLessThanOrEqual(10);
    expect(rssMb).toBeLessThanOrEqual(500);
  }, 150_000);
});
