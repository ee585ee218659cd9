/**
 * Where the gleaner package lives and its version, for the source tree (src/cli/ run by tsx) and
 * the built one (dist/*.js run by node) alike: the nearest folder above this module whose
 * package.json names gleaner. Read once, on demand (`--version` must not load anything else).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'gleaner';

let root: string | undefined;
let manifest: { name: string; version: string } | undefined;

/** The package's root folder (holds package.json). */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const m = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (m.name === PACKAGE_NAME) {
        manifest = { name: m.name, version: m.version ?? '0.0.0' };
        return (root = dir);
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${PACKAGE_NAME}: package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export function packageVersion(): string {
  packageRoot();
  return manifest!.version;
}
