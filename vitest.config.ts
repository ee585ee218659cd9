import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import gleaner by its public names (as a user's project does): in tests they
  // resolve to the sources; test/package checks the built, packed package.
  resolve: {
    alias: [
      { find: /^gleaner$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^gleaner\/(extract|crawlee)$/, replacement: fileURLToPath(new URL('./src/$1.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a real redis-server for the shared-crawl tests (test/redis)
    globalSetup: ['test/redis/global-setup.ts'],
  },
});
