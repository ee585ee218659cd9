/**
 * One crawl per spider and storage (issue 24 item 4): a lock beside the journal
 * (`storage/gleaner/<spider>.lock`, proper-lockfile: a directory created atomically, its mtime
 * refreshed while the crawl lives, stale after `STALE_MS` without refresh — which also covers a
 * storage shared between machines) and an owner file saying who holds it. A second crawl of the
 * same spider on the same storage stops before anything is opened and names the running one; a
 * lock left by a crawl killed on this host (its PID is gone) is taken over at once.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from '../../core/middleware.js';

/** Without a refresh for this long, a lock is stale (its holder died or hangs). */
export const STALE_MS = 10_000;
/** How often the holder refreshes it. */
const UPDATE_MS = 2_000;

/** Another crawl holds the spider's storage: the CLI exits 2 with this message. */
export class CrawlLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrawlLockedError';
  }
}

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/** The process still runs (a signal 0 reaches it, or it exists under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The message of a lock held by a live crawl. */
function lockedMessage(spider: string, owner: Owner | undefined): string {
  const who = owner ? `PID ${owner.pid}${owner.host === os.hostname() ? '' : ` on ${owner.host}`}, started ${owner.startedAt}` : 'a process that is starting';
  return `"${spider}" is already being crawled on this storage (${who}): wait for it to end or stop it (a second crawl would fetch every page twice), or give this one another --storage-dir`;
}

/** The lock is held by a live crawl (an owner on this host whose PID is gone does not count). */
function heldByOther(owner: Owner | undefined): boolean {
  return !owner || owner.host !== os.hostname() || alive(owner.pid);
}

/**
 * Throw `CrawlLockedError` if a live crawl holds the spider's lock — a cheap check the command line
 * makes before it starts anything (worker threads), so a second crawl stops at once.
 */
export function assertNotLocked(stateDir: string, spider: string): void {
  const target = path.join(stateDir, spider);
  let locked = false;
  try {
    locked = lockfile.checkSync(target, { realpath: false, lockfilePath: `${target}.lock`, stale: STALE_MS });
  } catch {
    return; // unreadable: lockCrawl decides
  }
  const owner = readOwner(`${target}.owner.json`);
  if (locked && heldByOther(owner)) throw new CrawlLockedError(lockedMessage(spider, owner));
}

/** Take the spider's lock; resolves to its release. */
export async function lockCrawl(stateDir: string, spider: string, log: Logger): Promise<() => Promise<void>> {
  mkdirSync(stateDir, { recursive: true });
  const target = path.join(stateDir, spider);
  const lockPath = `${target}.lock`;
  const ownerFile = `${target}.owner.json`;
  const options: lockfile.LockOptions = {
    realpath: false,
    lockfilePath: lockPath,
    stale: STALE_MS,
    update: UPDATE_MS,
    retries: 0,
    // A refresh that came too late (the event loop stalled past STALE_MS): say so, go on.
    onCompromised: (e) => log.warning(`the crawl lock of "${spider}" was not refreshed in time (${e.message}); another crawl could take it over`),
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(target, options);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
    const owner = readOwner(ownerFile);
    if (!owner || heldByOther(owner)) throw new CrawlLockedError(lockedMessage(spider, owner));
    // Killed without releasing (kill -9): its PID is gone, so the lock is ours at once.
    rmSync(lockPath, { recursive: true, force: true });
    try {
      release = await lockfile.lock(target, options);
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'ELOCKED') throw new CrawlLockedError(`"${spider}" is already being crawled on this storage (another crawl took over the lock of PID ${owner.pid} just now)`);
      throw e2;
    }
    log.info(`the previous crawl of "${spider}" (PID ${owner.pid}) ended without releasing its lock: taken over`);
  }
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() } satisfies Owner));
  return async () => {
    rmSync(ownerFile, { force: true });
    await release().catch(() => {});
  };
}
