/**
 * `npm run bench:cli [-- --runs 3] [--manifest articles/aeb/manifest.jsonl]` (issue 15): the
 * command line as a user meets it — the built package run by plain node, each figure a whole
 * process (start-up included) — beside Readability.js + linkedom's whole process in the same run.
 *
 * Rows: `import('gleaner/extract')` (and the other entries) in a fresh node, `gleaner --version`,
 * `gleaner extract page.html` on one page, `gleaner extract --batch` over the manifest (default
 * AEB, 181 pages; one thread, two threads, and `--kind article`) and the peer over the same manifest (bench/peers/readability-batch.mjs);
 * `gleaner crawl spiders/demo.ts` (`npm run crawl`: the bundled demo site, 55 pages) with 0 and 2 chain threads. Each
 * is run `--runs` times, interleaved; the table shows the median wall time and the median CPU
 * time (user + system, from bash's `time`): on a machine shared with other jobs the wall time
 * moves with their load, the CPU time much less. Both outputs are scored with the AEB metric, so
 * the speed is not bought with quality.
 *
 * `npm run bench:cli` builds first (dist/ is what the `gleaner` command runs); run directly (the
 * gate does, after `npm ci` built dist/) it uses dist/ as it is. The AEB F1 figures are pinned in
 * bench/floors.json (speed is not: it moves with the machine's load).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dataPath, median, printTable, readExpected, readManifest } from './lib/data.js';
import { aebAggregate, aebPageScore } from './lib/metrics.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const runs = Number(opt('runs') ?? 3);
const manifestRel = opt('manifest') ?? 'articles/aeb/manifest.jsonl';
const manifest = dataPath(manifestRel);
const entries = readManifest(manifestRel);
const bin = path.join(root, 'bin', 'gleaner.js');
const peer = path.join(root, 'bench', 'peers', 'readability-batch.mjs');
if (!existsSync(path.join(root, 'dist', 'cli.js'))) {
  console.error('bench:cli: dist/ is missing: run npm run build (npm run bench:cli does)');
  process.exit(2);
}
const tmp = mkdtempSync(path.join(tmpdir(), 'gleaner-bench-cli-'));

interface Timing {
  wall: number;
  cpu: number;
  /** What the child printed on stdout (the import probes print their own in-process figures). */
  stdout: string;
}

/** One whole process under bash's `time`: wall and user+system seconds of the child. */
function timed(cmd: string[]): Timing {
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%R %U %S"; time "$@" 2>"$BENCH_ERR"', '_', ...cmd], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BENCH_ERR: path.join(tmp, 'stderr.txt') },
    maxBuffer: 64 * 2 ** 20,
  });
  if (r.status !== 0) {
    throw new Error(`${cmd.join(' ')} exited ${r.status}: ${readFileSync(path.join(tmp, 'stderr.txt'), 'utf8').slice(0, 2000)}`);
  }
  const last = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { wall: last[0]!, cpu: last[1]! + last[2]!, stdout: r.stdout };
}

/** A fresh node that imports one entry of the built package by its public name and prints how
 * long the import took inside the process (wall and CPU). */
function importProbe(spec: string): string[] {
  const code = `const c0 = process.cpuUsage(), t0 = performance.now(); await import(${JSON.stringify(spec)}); const c = process.cpuUsage(c0); console.log(JSON.stringify({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 }));`;
  return ['node', '--input-type=module', '-e', code];
}

// One page of the manifest, the median-sized one: a typical page, not a best case.
const bySize = [...entries].sort((a, b) => statSync(a.file).size - statSync(b.file).size);
const onePage = bySize[Math.floor(bySize.length / 2)]!;
const oursOut = path.join(tmp, 'gleaner.jsonl');
const peerOut = path.join(tmp, 'peer.jsonl');

interface Case {
  name: string;
  cmd: string[];
  probe?: boolean;
}
const cases: Case[] = [
  { name: "import('gleaner/extract')", cmd: importProbe('gleaner/extract'), probe: true },
  { name: "import('gleaner/crawlee')", cmd: importProbe('gleaner/crawlee'), probe: true },
  { name: "import('gleaner')", cmd: importProbe('gleaner'), probe: true },
  { name: 'gleaner --version', cmd: ['node', bin, '--version'] },
  { name: `gleaner extract page.html (${(statSync(onePage.file).size / 1024).toFixed(0)} kB)`, cmd: ['node', bin, 'extract', onePage.file, '--url', onePage.url ?? 'http://localhost/page.html'] },
  { name: `gleaner extract --batch --kind auto (${entries.length} pages)`, cmd: ['node', bin, 'extract', '--batch', manifest, '--out', oursOut, '--jobs', '1'] },
  { name: `gleaner extract --batch --jobs 2`, cmd: ['node', bin, 'extract', '--batch', manifest, '--out', path.join(tmp, 'gleaner-2.jsonl'), '--jobs', '2'] },
  { name: `gleaner extract --batch --kind article`, cmd: ['node', bin, 'extract', '--batch', manifest, '--out', path.join(tmp, 'gleaner-article.jsonl'), '--jobs', '1', '--kind', 'article'] },
  { name: `Readability.js + linkedom (${entries.length} pages)`, cmd: ['node', peer, manifest, peerOut] },
  // `npm run crawl` as a checkout runs it (the TypeScript demo spider, its bundled site served on
  // loopback), from a fresh storage each time: start-up, 55 pages, the summary
  ...[0, 2].map((threads) => ({ name: `gleaner crawl spiders/demo.ts --threads ${threads} (55 pages)`, cmd: ['env', `CRAWLEE_STORAGE_DIR=${path.join(tmp, `crawl-${threads}`)}`, 'node', bin, 'crawl', 'spiders/demo.ts', '--threads', String(threads), '--fresh'] })),
];

const samples = new Map<string, { wall: number[]; cpu: number[]; inWall: number[]; inCpu: number[] }>();
const load0 = loadavg()[0]!;
try {
  for (let k = 0; k < runs; k++) {
    // alternate the order round by round, so that no tool always runs on a warmer (or busier) machine
    for (const c of k % 2 ? [...cases].reverse() : cases) {
      process.stderr.write(`run ${k + 1}/${runs}: ${c.name}\n`);
      const t = timed(c.cmd);
      const s = samples.get(c.name) ?? { wall: [], cpu: [], inWall: [], inCpu: [] };
      s.wall.push(t.wall);
      s.cpu.push(t.cpu);
      if (c.probe) {
        const inner = JSON.parse(t.stdout.trim()) as { wall: number; cpu: number };
        s.inWall.push(inner.wall / 1000);
        s.inCpu.push(inner.cpu / 1000);
      }
      samples.set(c.name, s);
    }
  }

  // Quality of both batch outputs (AEB's own metric), so the speed is not bought with quality.
  const gold = new Map(entries.map((e) => [e.id, readExpected<{ articleBody?: string }>(e)?.articleBody ?? '']));
  const f1Of = (file: string) => {
    const scores = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; content?: string })
      .map((o) => aebPageScore(o.content ?? '', gold.get(o.id) ?? ''));
    return scores.length === entries.length ? aebAggregate(scores).f1.toFixed(3) : `${scores.length} of ${entries.length} pages`;
  };
  const quality = new Map([
    [cases[5]!.name, f1Of(oursOut)],
    [cases[6]!.name, f1Of(path.join(tmp, 'gleaner-2.jsonl'))],
    [cases[7]!.name, f1Of(path.join(tmp, 'gleaner-article.jsonl'))],
    [cases[8]!.name, f1Of(peerOut)],
  ]);

  const ms = (x: number) => `${(x * 1000).toFixed(0)} ms`;
  const rows = cases.map((c) => {
    const s = samples.get(c.name)!;
    return [c.name, ms(Math.min(...s.wall)), ms(median(s.wall)), ms(median(s.cpu)), c.probe ? `${ms(median(s.inWall))} / ${ms(median(s.inCpu))}` : '', quality.get(c.name) ?? ''];
  });
  const theirs = samples.get(cases[8]!.name)!;
  for (const c of cases.slice(5, 8)) {
    const ours = samples.get(c.name)!;
    rows.push([`speed-up over Readability.js + linkedom: ${c.name.replace(/ \(\d+ pages\)/, '')}`, `${(Math.min(...theirs.wall) / Math.min(...ours.wall)).toFixed(2)}×`, `${(median(theirs.wall) / median(ours.wall)).toFixed(2)}×`, `${(median(theirs.cpu) / median(ours.cpu)).toFixed(2)}×`, '', '']);
  }
  printTable(['whole process (plain node, dist/)', 'wall best', 'wall median', 'CPU median', 'import itself: wall / CPU', 'AEB F1'], rows);
  console.log(`(best and median of ${runs} rounds, the tools alternating in order round by round; load average ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end on ${pathToFileURL(root).pathname}; CPU = user + system of the process)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
