/** Build dist/ unless it is newer than every source (bin/dev.mjs); true when it built. */
export function ensureBuilt(): boolean;
