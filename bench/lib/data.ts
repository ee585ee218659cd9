/**
 * Benchmark data access: the shared data sets live beside the project (`../shared/data`), never in
 * it. `GLEANER_DATA` overrides the location (see src/cli/data-dir.ts, shared with the training
 * command). A missing data set is reported clearly.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../../src/cli/data-dir.js';
export { dataDir };

export interface ManifestEntry {
  id: string;
  path: string;
  url?: string;
  site?: string;
  gold?: unknown;
  /** Absolute path of the page. */
  file: string;
  /** Absolute folder of the page (expected.json lives there). */
  dir: string;
}

export function dataPath(...parts: string[]): string {
  return path.join(dataDir(), ...parts);
}

/** Read a manifest (path relative to the data dir, e.g. `articles/aeb/manifest.jsonl`). */
export function readManifest(rel: string): ManifestEntry[] {
  const file = dataPath(rel);
  if (!existsSync(file)) {
    console.error(`data set not found: ${file}\nSet GLEANER_DATA to the folder that holds articles/, forums/, lists/, sites/.`);
    process.exit(2);
  }
  const base = path.dirname(file);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const e = JSON.parse(l) as Omit<ManifestEntry, 'file' | 'dir'>;
      const f = path.join(base, e.path);
      return { ...e, file: f, dir: path.dirname(f) };
    });
}

export function readExpected<T = Record<string, unknown>>(e: ManifestEntry): T | undefined {
  const f = path.join(e.dir, 'expected.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : undefined;
}

/** Print a table with aligned columns. With `GLEANER_FIGURES=<file>` set, the table is also
 * appended to that file as one JSON line `{bench, headers, rows}`: how `npm run gate` reads every
 * bench's figures without a second copy of its scoring code. */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(3)) : c)))];
  const figures = process.env.GLEANER_FIGURES;
  if (figures) appendFileSync(figures, JSON.stringify({ bench: path.basename(process.argv[1] ?? '', '.ts'), headers, rows: cells.slice(1) }) + '\n');
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => '| ' + r.map((c, i) => String(c ?? '').padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(cells[0]!));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of cells.slice(1)) console.log(line(r));
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
}
