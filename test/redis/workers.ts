/** Worker processes for the shared-crawl tests: the real command line, one process each. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { GLEANER_BIN } from '../fixtures/cli.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const SPIDER_FILE = 'test/fixtures/redis/spider.ts';

export interface Worker {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** `gleaner crawl <fixture spider> --redis URL …` in its own process (the built command: one
 * process, so SIGKILL reaches the crawl itself). */
export function startWorker(args: string[], env: Record<string, string>): Worker {
  const proc = spawn(process.execPath, [GLEANER_BIN, 'crawl', SPIDER_FILE, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, out: () => out, exited };
}
