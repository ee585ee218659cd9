/**
 * One crawl in a child process of its own (crawl-child.mjs: the built package, signals handled as
 * the CLI does), run to its end: its exit code, output and the JSON line it prints last.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ChildCrawl<R> {
  code: number | null;
  stderr: string;
  /** The child's last stdout line, parsed (summary, peakRssMB, ms). */
  result: R | undefined;
}

/** `env` adds to the child's environment (e.g. `GLEANER_HEAP: 'small'`, the small-heap policy). */
export async function crawlInChild<R = { summary: Record<string, unknown>; peakRssMB: number; ms: number }>(spider: object, storagePrefix: string, env: Record<string, string> = {}): Promise<ChildCrawl<R>> {
  const child = spawn(process.execPath, ['test/faults/crawl-child.mjs'], {
    cwd: root,
    env: { ...process.env, ...env, FAULT_SPIDER: JSON.stringify(spider), FAULT_STORAGE: mkdtempSync(path.join(tmpdir(), storagePrefix)) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  const last = out.trim().split('\n').pop();
  return { code, stderr, result: last ? (JSON.parse(last) as R) : undefined };
}
