/**
 * `npm run gate [-- --all] [--bench NAME] [--require-data]`: the quality gate (issue 10, after
 * trafilatura's eval gate). Runs each bench named in bench/floors.json through its own script
 * (the same command a developer runs), reads the tables it prints (captured via GLEANER_FIGURES,
 * see printTable), and fails when a pinned figure is below its floor or is missing.
 *
 * Without `--all` only the `fast` benches run (what CI runs). Without the data sets (`../shared/data`
 * or GLEANER_DATA) the gate says so and passes, unless `--require-data`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir, printTable } from './lib/data.js';

interface Floor {
  bench: string;
  /** First cell of the row. */
  row: string;
  /** Column header. */
  column: string;
  /** Which number of the cell ("0.928 / 0.826 / 0.841" holds three); default 0. */
  index?: number;
  floor: number;
}
interface Spec {
  benches: Record<string, { args: string[]; fast: boolean }>;
  floors: Floor[];
}
interface Table {
  bench: string;
  headers: string[];
  rows: string[][];
}

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const all = args.includes('--all');
const only = args.includes('--bench') ? args[args.indexOf('--bench') + 1] : undefined;
const requireData = args.includes('--require-data');
const spec = JSON.parse(readFileSync(path.join(here, 'floors.json'), 'utf8')) as Spec;

/** Numbers of a table cell, in order ("0.980 (0.977/0.983)" → 0.980, 0.977, 0.983). */
export function numbersOf(cell: string): number[] {
  return [...cell.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

/** The figure a floor names, from the tables a bench printed; a string says why it is missing. */
export function figureOf(tables: Table[], f: Floor): number | string {
  const found: number[] = [];
  for (const t of tables) {
    const col = t.headers.indexOf(f.column);
    if (col < 0) continue;
    for (const r of t.rows) if (r[0] === f.row && r[col] !== undefined) found.push(...[numbersOf(r[col]!)[f.index ?? 0]].filter((x): x is number => x !== undefined));
  }
  if (found.length === 0) return `no row "${f.row}" with column "${f.column}"`;
  if (found.length > 1) return `row "${f.row}" / column "${f.column}" is ambiguous (${found.length} tables)`;
  return found[0]!;
}

function main(): void {
  if (!existsSync(dataDir())) {
    const msg = `gate: data sets not found at ${dataDir()} (set GLEANER_DATA): nothing to gate`;
    if (requireData) {
      console.error(msg);
      process.exit(1);
    }
    console.log(`${msg}; passing (use --require-data to fail instead)`);
    return;
  }
  const benches = Object.entries(spec.benches).filter(([name, b]) => (only ? name === only : all || b.fast));
  if (only && !benches.length) {
    console.error(`gate: no bench "${only}" in bench/floors.json (have: ${Object.keys(spec.benches).join(', ')})`);
    process.exit(2);
  }
  const tmp = mkdtempSync(path.join(tmpdir(), 'gleaner-gate-'));
  const rows: string[][] = [];
  let failed = 0;
  try {
    for (const [name, b] of benches) {
      const file = path.join(tmp, `${name}.jsonl`);
      const t0 = Date.now();
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, `${name}.ts`), ...b.args], {
        env: { ...process.env, GLEANER_FIGURES: file },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const secs = ((Date.now() - t0) / 1000).toFixed(0);
      if (r.status !== 0) {
        failed++;
        console.error(`gate: bench ${name} exited ${r.status}:\n${(r.stderr || r.stdout).split('\n').slice(-15).join('\n')}`);
        rows.push([name, '(bench failed)', '', '', 'FAIL']);
        continue;
      }
      const tables = existsSync(file)
        ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Table)
        : [];
      for (const f of spec.floors.filter((x) => x.bench === name)) {
        const v = figureOf(tables, f);
        const label = `${f.row} · ${f.column}${f.index ? ` [${f.index}]` : ''}`;
        if (typeof v === 'string') {
          failed++;
          rows.push([name, label, f.floor.toFixed(3), v, 'FAIL']);
        } else {
          const ok = v >= f.floor - 1e-9;
          if (!ok) failed++;
          rows.push([name, label, f.floor.toFixed(3), v.toFixed(3), ok ? (v > f.floor + 1e-9 ? 'ok (above: raise the floor?)' : 'ok') : 'FAIL']);
        }
      }
      console.log(`gate: ${name} done in ${secs} s`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  printTable(['bench', 'figure', 'floor', 'measured', 'status'], rows);
  if (failed) {
    console.error(`gate: ${failed} figure(s) below their floor or missing`);
    process.exit(1);
  }
  console.log(`gate: all ${rows.length} figures at or above their floors`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
