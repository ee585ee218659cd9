#!/usr/bin/env node
// `npm run crawl` / `npm run gleaner` in a checkout: the built package, as an installed user runs
// it (`bin/gleaner.js` → dist/), rebuilt first when a source is newer than the last build — so a
// crawl runs the code a user gets (one bundle: ~15 % less CPU and ~100 MB less memory than the
// TypeScript sources under tsx in every chain thread), and an edited source is never run stale.
// `node bin/dev.mjs --build` only brings dist/ up to date (the test suite's global setup).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.built');
/** What the build reads. */
const INPUTS = ['src', 'middleware', 'spiders', 'bin/gleaner.js', 'package.json', 'rolldown.config.mjs', 'tsconfig.json', 'tsconfig.build.json'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const name of readdirSync(p)) m = Math.max(m, newest(path.join(p, name)));
  return m;
}

const LOCK = path.join(root, '.build-lock');
/** How long a build may hold the lock before another process takes it over (a build takes ~5 s). */
const LOCK_STALE_MS = 5 * 60_000;

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};

/** One build at a time in this checkout: `npm run crawl` twice, or the test suite beside a crawl,
 * after an edit. A lock left by a killed build (its process gone, or older than LOCK_STALE_MS) is
 * taken over. */
function withBuildLock(fn) {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let owner = NaN;
      let age = 0;
      try {
        owner = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
        age = Date.now() - statSync(LOCK).mtimeMs;
      } catch {
        // the owner is between mkdir and writing its pid, or has just released the lock
      }
      if ((Number.isInteger(owner) && owner > 0 && !alive(owner)) || age > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      else sleep(100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** dist/ is newer than every source (and, for `clean`, was built into an empty dist/: the stamp says). */
const current = (clean) => {
  const sources = Math.max(...INPUTS.map((p) => newest(path.join(root, p))));
  return existsSync(STAMP) && statSync(STAMP).mtimeMs >= sources && (!clean || readFileSync(STAMP, 'utf8').includes('clean'));
};

/**
 * Build dist/ unless it is newer than every source; throws with the build's output if it fails.
 * By default the build does not empty dist/ first: a crawl already running from dist/ still finds
 * the chunks it imports later (their names carry a hash of their content; only the entry files
 * are rewritten in place). `clean` (the test suite: it packs dist/ and counts its files) empties it
 * as `npm run build` does.
 */
export function ensureBuilt({ clean = false } = {}) {
  if (current(clean)) return false;
  return withBuildLock(() => {
    if (current(clean)) return false; // built by the process that held the lock
    const r = spawnSync('npm', ['run', '--silent', clean ? 'build' : 'build:dev'], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
    writeFileSync(STAMP, `${new Date().toISOString()} ${clean ? 'clean' : 'dev'}\n`);
    return true;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (ensureBuilt() && process.argv[2] !== '--build') process.stderr.write('gleaner: sources changed since the last build: dist/ rebuilt\n');
  } catch (e) {
    process.stderr.write(`gleaner: ${e.message}\n`);
    process.exit(2);
  }
  if (process.argv[2] !== '--build') {
    // as the installed command: one process, so signals reach the crawl itself
    process.argv.splice(1, 1, path.join(root, 'bin', 'gleaner.js'));
    await import('./gleaner.js');
  }
}
