/**
 * Data files an algorithm ships with (the page-type model, learned weights): read and checked once
 * per process, re-read when the file changes on disk (a model retrained while a long-lived process
 * runs is picked up on its next load, not served stale). The one process-level cache of files; per-page
 * state goes through `page.memo` instead.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface Entry { mtimeMs: number; size: number; value: unknown }
const loaded = new Map<string, Entry>();

/**
 * The parsed JSON of `file`, passed once through `check` (which throws, saying what is wrong, for a
 * file it cannot use). `missing` is the message when the file does not exist.
 */
export function loadJsonResource<T>(file: string, check: (value: T, file: string) => void, missing: string): T {
  let st;
  try {
    st = statSync(file);
  } catch {
    throw new Error(missing);
  }
  const hit = loaded.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.value as T;
  const value = JSON.parse(readFileSync(file, 'utf8')) as T;
  check(value, file);
  loaded.set(file, { mtimeMs: st.mtimeMs, size: st.size, value });
  return value;
}

/** The build's one file for every data file (rolldown.config.mjs DATA_FILES): `{ name: value }`
 * beside the bundled code, one tarball entry instead of one per model. */
export const DATA_BUNDLE = 'data.json';

const checked = new WeakSet<object>();

/**
 * A data file shipped beside the code in `dir`: `dir/name` when it exists (the sources, or a model
 * retrained in place), else the entry `name` of `dir/data.json` (the built package). Checked once
 * per value; `missing` is the message when neither has it.
 */
export function loadShippedJson<T>(dir: string, name: string, check: (value: T, file: string) => void, missing: string): T {
  const own = path.join(dir, name);
  if (existsSync(own)) return loadJsonResource(own, check, missing);
  const bundle = path.join(dir, DATA_BUNDLE);
  if (!existsSync(bundle)) throw new Error(missing);
  const value = loadJsonResource<Record<string, unknown>>(bundle, () => {}, missing)[name] as T | undefined;
  if (value === undefined || value === null) throw new Error(missing);
  if (!checked.has(value as object)) {
    check(value, `${bundle} (${name})`);
    checked.add(value as object);
  }
  return value;
}
