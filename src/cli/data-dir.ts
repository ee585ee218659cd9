/**
 * The benchmark and training data folder, defined once: `GLEANER_DATA` when set (read at call
 * time, never at import), else `../shared/data` beside the project checkout (the data sets live
 * beside the project, never in it).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function dataDir(): string {
  return process.env.GLEANER_DATA || path.resolve(projectRoot, '..', 'shared', 'data');
}
