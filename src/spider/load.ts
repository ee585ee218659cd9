/**
 * Load a spider by name (`spiders/<name>.ts`) or by path. The module's default export (or a named
 * `spider` export) is validated before anything else happens: no request leaves with a bad config.
 */
import { existsSync } from 'node:fs';
import { createRequire, register as registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SpiderConfigError, validateSpider, type SpiderConfig } from './config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The package root: two levels above src/spider/ in the sources; in the built package this code
 * sits in a chunk directly in dist/. */
export const PACKAGE_ROOT = path.basename(here) === 'dist' ? path.dirname(here) : path.resolve(here, '..', '..');
/** Where the bundled spiders live: spiders/*.ts in the sources, dist/spiders/*.js when built. */
export const BUNDLED_SPIDER_DIRS = [path.join(PACKAGE_ROOT, 'spiders'), path.join(PACKAGE_ROOT, 'dist', 'spiders')];

/** Whether `file` is the bundled spider `name` (e.g. the demo, whose site the CLI serves). */
export function isBundledSpider(file: string, name: string): boolean {
  const p = path.resolve(file);
  return BUNDLED_SPIDER_DIRS.some((dir) => EXTENSIONS.some((ext) => p === path.join(dir, name + ext)));
}

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/** Resolve `<name|path>` to a file: a path as given, else `spiders/<name>.ts` in the working
 * directory, else in the package. */
export function resolveSpiderFile(arg: string, cwd = process.cwd()): string | undefined {
  const looksLikePath = arg.includes('/') || arg.includes('\\') || EXTENSIONS.some((e) => arg.endsWith(e));
  if (looksLikePath) {
    const p = path.resolve(cwd, arg);
    return existsSync(p) ? p : undefined;
  }
  for (const dir of [path.join(cwd, 'spiders'), ...BUNDLED_SPIDER_DIRS]) {
    for (const ext of EXTENSIONS) {
      const p = path.join(dir, arg + ext);
      if (existsSync(p)) return p;
    }
  }
  return undefined;
}

export async function loadSpider(arg: string, cwd = process.cwd()): Promise<{ spider: SpiderConfig; file: string }> {
  const file = resolveSpiderFile(arg, cwd);
  if (!file) throw new SpiderConfigError(`spider "${arg}" not found (looked for ${arg.includes('/') ? arg : `spiders/${arg}.ts`})`);
  const shown = path.relative(cwd, file) || file;
  let mod: Record<string, unknown>;
  try {
    mod = await importSpiderModule(file, cwd);
  } catch (e) {
    if (e instanceof SpiderConfigError) throw e;
    throw new SpiderConfigError(`${shown}: cannot load: ${(e as Error).message}`);
  }
  const raw = mod.default ?? mod.spider;
  if (raw === undefined) throw new SpiderConfigError(`${shown}: no default export (export default defineSpider({...}))`);
  return { spider: validateSpider(raw, shown), file };
}

/**
 * Import a spider file as `loadSpider` does — with tsx's loader registered first when it is
 * TypeScript and this thread cannot import TypeScript yet. The chain's worker threads import the
 * spider (its `extraMiddleware`) through this too: Node does not hand the main thread's loader to
 * its workers, and a `.ts` spider must load the same in every thread.
 */
export async function importSpiderModule(file: string, cwd = process.cwd()): Promise<Record<string, unknown>> {
  if (/\.m?ts$/.test(file)) await enableTypeScript(path.relative(cwd, file) || file, cwd);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

let typeScriptEnabled = false;

/** A module resolve hook: the user's `.ts` files load as ES modules. */
const TS_AS_MODULE_HOOK = `export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  return r.url.startsWith('file:') && /\\.ts$/.test(new URL(r.url).pathname) && !r.url.includes('/node_modules/') ? { ...r, format: 'module' } : r;
}`;

/**
 * Plain node (the built `gleaner` command on Node 20) cannot import a `.ts` spider. When this
 * process cannot already (it runs under tsx, or a Node that strips types), register tsx's loader,
 * found in the user's project or beside gleaner; without tsx, say what to do.
 */
async function enableTypeScript(shown: string, cwd: string): Promise<void> {
  // This module loaded as .ts (gleaner's sources, run by tsx or vitest) proves .ts imports work.
  if (typeScriptEnabled || import.meta.url.endsWith('.ts') || (process.features as { typescript?: unknown }).typescript) return;
  for (const from of [path.join(cwd, 'package.json'), fileURLToPath(import.meta.url)]) {
    let api: string;
    try {
      api = createRequire(from).resolve('tsx/esm/api');
    } catch {
      continue;
    }
    // require-resolution finds the CommonJS build, whose register() points Node's loader at a file
    // beside itself that does not exist (tsx 4.23: ".../esm/api/esm/index.mjs"); the ES module build
    // next to it registers correctly
    const esm = api.replace(/\.cjs$/, '.mjs');
    if (esm !== api && existsSync(esm)) api = esm;
    const { register } = (await import(pathToFileURL(api).href)) as { register: () => unknown };
    register();
    // A spider is an ES module whatever its folder's package.json says: tsx takes a `.ts` file
    // outside a "type": "module" package for CommonJS, and its imports of ES-only packages (gleaner
    // itself) then fail ('Cannot require() ES Module … in a cycle'). This hook, after tsx's, says
    // "module" for the user's own .ts files (not those under node_modules).
    registerHooks(`data:text/javascript,${encodeURIComponent(TS_AS_MODULE_HOOK)}`);
    typeScriptEnabled = true;
    return;
  }
  throw new SpiderConfigError(`${shown}: a TypeScript spider needs tsx to load: npm install --save-dev tsx (or write the spider as .mjs, or run node with --experimental-strip-types on Node >= 22.6)`);
}
