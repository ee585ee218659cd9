/** Build dist/ unless it is newer than every source (bin/dev.mjs); true when it built. `clean`:
 * into an emptied dist/, as `npm run build` (the test suite packs dist/). */
export function ensureBuilt(options?: { clean?: boolean }): boolean;
