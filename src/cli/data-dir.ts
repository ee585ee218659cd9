/**
 * The benchmark and training data folder, defined once: `GLEANER_DATA` when set (read at call
 * time, never at import), else `../shared/data` beside the project checkout (the data sets live
 * beside the project, never in it).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// src/cli/ in the sources; the built CLI runs from a chunk directly in dist/.
const projectRoot = path.basename(here) === 'dist' ? path.dirname(here) : path.resolve(here, '..', '..');

export function dataDir(): string {
  return process.env.GLEANER_DATA || path.resolve(projectRoot, '..', 'shared', 'data');
}
