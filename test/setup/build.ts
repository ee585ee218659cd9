/**
 * Vitest global setup of the `crawl` project: the built package (`dist/`, what `bin/gleaner.js`
 * runs) is brought up to date with the sources once per run, before any file starts — the same
 * check `npm run crawl` makes (bin/dev.mjs). Tests that start the command line or a crawl in a
 * child process run the built code: the installed user's path, which also starts in a third of
 * the CPU time of the sources under tsx (~1.2 s vs ~2.7 s per crawl process with two chain threads).
 */
import { ensureBuilt as build } from '../../bin/dev.mjs';

/** dist/ as `npm run build` leaves it (emptied first: the package test packs it and counts its
 * files), rebuilt only when a source is newer or the last build was a development one. */
export const ensureBuilt = (): boolean => build({ clean: true });

export function setup(): void {
  ensureBuilt();
}
