/** Run the gleaner command line as a user would (tsx + src/cli/main.ts), without a shell. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..', '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

export function gleaner(args: string[], env: Record<string, string> = {}, cwd = root): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, path.join(root, 'src/cli/main.ts'), ...args], { cwd, env: { ...process.env, GLEANER_DEMO_URL: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

