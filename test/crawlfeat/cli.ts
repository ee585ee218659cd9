/** Run the gleaner command line as a user would (the built `bin/gleaner.js`), without a shell. */
import { spawn } from 'node:child_process';
import { GLEANER_BIN, root } from '../fixtures/cli.js';

export { root };

export function gleaner(args: string[], env: Record<string, string> = {}, cwd = root): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [GLEANER_BIN, ...args], { cwd, env: { ...process.env, GLEANER_DEMO_URL: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

