/**
 * Load a spider by name (`spiders/<name>.ts`) or by path. The module's default export (or a named
 * `spider` export) is validated before anything else happens: no request leaves with a bad config.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SpiderConfigError, validateSpider, type SpiderConfig } from './config.js';

/** The package root (where the bundled `spiders/` live). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/** Resolve `<name|path>` to a file: a path as given, else `spiders/<name>.ts` in the working
 * directory, else in the package. */
export function resolveSpiderFile(arg: string, cwd = process.cwd()): string | undefined {
  const looksLikePath = arg.includes('/') || arg.includes('\\') || EXTENSIONS.some((e) => arg.endsWith(e));
  if (looksLikePath) {
    const p = path.resolve(cwd, arg);
    return existsSync(p) ? p : undefined;
  }
  for (const dir of [path.join(cwd, 'spiders'), path.join(PACKAGE_ROOT, 'spiders')]) {
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
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    throw new SpiderConfigError(`${shown}: cannot load: ${(e as Error).message}`);
  }
  const raw = mod.default ?? mod.spider;
  if (raw === undefined) throw new SpiderConfigError(`${shown}: no default export (export default defineSpider({...}))`);
  return { spider: validateSpider(raw, shown), file };
}
