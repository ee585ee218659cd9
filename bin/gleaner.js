#!/usr/bin/env node
// The `gleaner` command: the built CLI, run by plain node. The package ships dist/ (`npm pack`
// builds it: `prepack`); in a checkout `npm run crawl` / `npm run gleaner -- …` build it when a
// source is newer (bin/dev.mjs).
try {
  await import('../dist/cli.js');
} catch (e) {
  if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/cli.js')) {
    process.stderr.write('gleaner: dist/ is missing: run `npm run build` in the gleaner checkout (or `npm run gleaner -- …`, which builds it)\n');
    process.exit(2);
  }
  throw e;
}
