#!/usr/bin/env node
// The `gleaner` command: the built CLI, run by plain node (`npm run build` writes dist/; `prepare`
// runs it on install from a checkout). During development `npm run gleaner -- …` runs the
// TypeScript sources through tsx instead.
try {
  await import('../dist/cli.js');
} catch (e) {
  if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/cli.js')) {
    process.stderr.write('gleaner: dist/ is missing: run `npm run build` in the gleaner checkout (or `npm run gleaner -- …` to run the sources)\n');
    process.exit(2);
  }
  throw e;
}
