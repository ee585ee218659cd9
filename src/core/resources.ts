/**
 * Data files an algorithm ships with (the page-type model, learned weights): read and checked once
 * per process, re-read when the file changes on disk (a model retrained while a long-lived process
 * runs is picked up on its next load, not served stale). The one process-level cache of files; per-page
 * state goes through `page.memo` instead.
 */
import { readFileSync, statSync } from 'node:fs';

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
