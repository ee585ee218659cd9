#!/usr/bin/env node
// Thin launcher: runs the TypeScript CLI through tsx so `npx gleaner …` works without a build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const tsxCli = require.resolve('tsx/cli');
const main = path.join(here, '..', 'src', 'cli', 'main.ts');
const result = spawnSync(process.execPath, [tsxCli, main, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
