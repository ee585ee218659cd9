/**
 * A bounded frontier (issue 24 item 3): queued requests cost at most 150 bytes of memory each (the
 * issue measured ~1.8 KB: 600,000 queued URLs held 1.2 GB), the queue keeps a bounded number of
 * requests in memory and the rest on disk. Measured in a child process (the built package, a full
 * GC before and after) on 200,000 queued links; `FRONTIER_N=1000000` gives the figure
 * (37.8 MB for a million, 38 bytes a URL, when this test was written).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { root } from '../fixtures/cli.js';

const MAX_BYTES_PER_URL = 150;

describe('bounded frontier memory', () => {
  it(`200,000 queued links hold ≤ ${MAX_BYTES_PER_URL} bytes each; ≤ 20,000 requests in memory`, async () => {
    const child = spawn(process.execPath, ['--expose-gc', 'test/faults/frontier-memory-child.mjs'], { cwd: root, env: { ...process.env, FRONTIER_N: '200000' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err).toBe(0);
    const r = JSON.parse(out.trim()) as { queued: number; perUrl: number; inMemory: number; bytes: number };
    expect(r.queued).toBe(200_000);
    expect(r.perUrl).toBeLessThanOrEqual(MAX_BYTES_PER_URL);
    expect(r.inMemory).toBeLessThanOrEqual(20_000);
  }, 120_000);
});
