/**
 * Second step of `npm run build`: `tsc -p tsconfig.build.json` has emitted JavaScript and
 * declarations into build/tsc/; this bundles them into dist/ per public entry (shared code in
 * chunks beside the entries), so the package ships a few dozen files, not one per module, and
 * `import('gleaner/extract')` reads a handful of files. Packages stay external (they are the
 * package's dependencies). Chunks sit in dist/ itself: code that finds files beside its own module
 * (the page-type model) then finds them in dist/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'rolldown';
import { dts } from 'rolldown-plugin-dts';

/** Public entries (package.json "exports") and the command line (package.json "bin"). */
export const ENTRIES = {
  index: 'build/tsc/src/index',
  extract: 'build/tsc/src/extract',
  crawlee: 'build/tsc/src/crawlee',
  cli: 'build/tsc/src/cli/main',
  // The worker threads of `gleaner extract --batch` (src/cli/batch.ts finds it beside its chunk).
  'batch-worker': 'build/tsc/src/cli/batch-worker',
  // The chain's worker threads in a crawl (src/crawler/pool/index.ts finds it beside its chunk).
  'pool-worker': 'build/tsc/src/crawler/pool/worker',
  // The bundled demo spider, loaded by `gleaner crawl` (no argument) from dist/spiders/.
  'spiders/demo': 'build/tsc/spiders/demo',
};

/** Entries with declarations: the ones in package.json "exports". */
const TYPED = ['index', 'extract', 'crawlee'];

const inputs = (ext, names = Object.keys(ENTRIES)) => Object.fromEntries(names.map((name) => [name, `${ENTRIES[name]}${ext}`]));

/** Data files read at run time from beside the code that reads them (`here/<name>`): in dist/, where
 * every chunk lives, they are the entries of one file, `data.json` (src/core/resources.ts
 * loadShippedJson: one tarball entry for every model). A data file a loader reads that is missing
 * here runs the built package without it — test/package compares the installed package's items
 * with the sources' on every fixture page. */
const DATA_FILES = {
  // the page-type SVM, read by middleware/classifier/index.ts
  'model.json': 'middleware/classifier/model.json',
  // the main-text line model, read by middleware/article/lines.ts
  'line-model.json': 'middleware/article/line-model.json',
  // the forum floor model, read by middleware/forum/model.ts
  'floor-model.json': 'middleware/forum/floor-model.json',
};
const DATA_BUNDLE = 'data.json';

/** The shared (Redis) frontier's scripts in one JSON file (src/crawler/redis/scripts.ts reads
 * `here/redis-lua.json` when there is no `here/lua/`): one file in the tarball instead of fifteen. */
const LUA_SOURCES = 'src/crawler/redis/lua';
const luaBundle = () =>
  JSON.stringify(Object.fromEntries(readdirSync(LUA_SOURCES).filter((f) => f.endsWith('.lua')).sort().map((f) => [f, readFileSync(`${LUA_SOURCES}/${f}`, 'utf8')])));

/** Emits DATA_FILES into the JavaScript build's output. */
const dataFiles = {
  name: 'gleaner-data-files',
  generateBundle() {
    const data = Object.fromEntries(Object.entries(DATA_FILES).map(([name, from]) => [name, JSON.parse(readFileSync(from, 'utf8'))]));
    this.emitFile({ type: 'asset', fileName: DATA_BUNDLE, source: JSON.stringify(data) });
    this.emitFile({ type: 'asset', fileName: 'redis-lua.json', source: luaBundle() });
  },
};

/**
 * Small modules that import no package (node: built-ins only) and that many chunks share: one chunk
 * instead of one each, so the tarball stays under its file limit (test/package: 60; the dynamic
 * imports of the command line each cost a re-export chunk of ~100 bytes). What they add to a
 * command that did not need them is a few kB of parsing (`gleaner --version` loads them with the
 * CLI's UsageError). Only package-free modules belong here: a group pulls its members' imports
 * along, and `gleaner/extract` must reach no crawler package.
 */
const SHARED_SMALL_MODULES = /src[\\/](cli[\\/]errors|crawler[\\/]errors|crawler[\\/]memory|cli[\\/]crawl-report|crawler[\\/]net-guard|crawler[\\/]recrawl|core[\\/]layout)\.js$/;

/** Bare specifiers (and node: built-ins) are dependencies, never bundled. */
const external = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

export default defineConfig([
  {
    input: inputs('.js'),
    platform: 'node',
    external,
    treeshake: true,
    plugins: [dataFiles],
    output: {
      dir: 'dist',
      format: 'esm',
      codeSplitting: { groups: [{ name: 'shared', test: SHARED_SMALL_MODULES }] },
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
      minify: false,
    },
  },
  {
    input: inputs('.d.ts', TYPED),
    platform: 'node',
    external,
    plugins: [dts({ dtsInput: true, emitDtsOnly: true, tsconfig: false })],
    output: {
      dir: 'dist',
      format: 'esm',
      entryFileNames: '[name].ts',
      chunkFileNames: '[name]-[hash].d.ts',
    },
  },
]);
