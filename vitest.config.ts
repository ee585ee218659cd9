import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two projects, run side by side (issue 22: the suite ran one file at a time, 6 min on 2 cores):
 *
 * - `unit`: tests that run in this process only (no crawl, no child process, no worker pool):
 *   files share their worker's module cache (`isolate: false`), so the middleware, the page model
 *   and their data load once per worker instead of once per file. `npm run test:unit` runs these
 *   alone (the edit loop).
 * - `crawl`: whole crawls, child processes, servers, Redis, the package, the fault suite: each file
 *   in a fresh process (`isolate: true`), as before.
 *
 * Files run in parallel across both (`maxWorkers`): most crawl files wait on sockets and child
 * processes, so more workers than cores pay.
 */
const UNIT = [
  'test/architecture.test.ts',
  'test/unit/**/*.test.ts',
  'test/article/**/*.test.ts',
  'test/classifier/**/*.test.ts',
  'test/forum/**/*.test.ts',
  'test/list/**/*.test.ts',
  'test/template/**/*.test.ts',
  'test/crawler/run/**/*.test.ts',
  'test/crawler/follow-rules.test.ts',
  'test/crawler/frontier.test.ts',
  'test/crawler/normalise-url.test.ts',
  'test/crawler/pipeline.test.ts',
  'test/crawler/net-guard.test.ts',
  'test/crawlfeat/feeds.test.ts',
  'test/crawlfeat/pipeline-stages.test.ts',
  'test/faults/extract-input.test.ts',
];

const alias = [
  // The examples import gleaner by its public names (as a user's project does): in tests they
  // resolve to the sources; test/package checks the built, packed package.
  { find: /^gleaner$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  { find: /^gleaner\/(extract|crawlee)$/, replacement: fileURLToPath(new URL('./src/$1.ts', import.meta.url)) },
];

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
    // Crawls from the sources that name no chain threads run the chain on the crawl thread
    // (src/crawler/pool/settings.ts SOURCE_THREADS_ENV): there each worker thread loads the chain
    // through tsx, ~2.4 s of CPU per thread and crawl. The built package (child crawls, the CLI)
    // ignores it; the tests of the threads name theirs.
    env: { GLEANER_SOURCE_THREADS: '0' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'crawl',
          include: ['test/**/*.test.ts'],
          exclude: UNIT,
          isolate: true,
          // the built package for child processes (test/setup/build.ts); a real redis-server for the
          // shared-crawl tests (test/redis)
          globalSetup: ['test/setup/build.ts', 'test/redis/global-setup.ts'],
        },
      },
    ],
  },
});
