/**
 * `npm run bench:monitor [-- --rounds N] [--max-pages N] [--threads N]`: what the live monitor
 * (`gleaner crawl --ui`, issue 27) costs a crawl. The realistic site of `bench:crawl`
 * (`../shared/tools/crawlsite`: 2,000 pages of 30–60 KB, ~150 links each, served by its own
 * process on 127.0.0.1) is crawled by `npm run crawl -- <spider> --fresh --threads 2` as a user runs
 * it, with and without `--ui`, alternating round by round (the order reversed every other round).
 * With `--ui`, a client polls the monitor's `/stats` once a second, as its page does.
 *
 * Per run: the crawl's own pages/s (its summary: crawl start to end, so neither the start-up nor the
 * monitor's 2.5 s linger after the end is in it) and the CPU ms per page of the whole process tree
 * (user + system, the shell's `times`; the steadier figure on a loaded machine). Printed: every run,
 * then per variant the median, and the ratios `--ui` / without. Target (issue 27): within 3%.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../bin/dev.mjs';
import { printTable } from './lib/data.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CRAWLSITE = path.resolve(process.env.GLEANER_CRAWLSITE ?? path.join(ROOT, '..', 'shared', 'tools', 'crawlsite'));
const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const ROUNDS = opt('--rounds', 3);
const MAX_PAGES = opt('--max-pages', 2000);
const THREADS = opt('--threads', 2);
/** The monitor page's poll interval (src/monitor/page.ts). */
const POLL_MS = 1_000;

interface Run {
  variant: 'plain' | 'ui';
  round: number;
  pages: number;
  crawlRate: number;
  wallSecs: number;
  cpuSecs: number;
  polls: number;
}

async function serveSite(): Promise<{ url: string; close(): void }> {
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(CRAWLSITE, 'serve.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    p.stdout.on('data', (d: Buffer) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    p.on('exit', (c) => reject(new Error(`crawlsite server exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}`, close: () => p.kill() };
}

async function crawl(variant: Run['variant'], round: number, spiderFile: string, work: string): Promise<Run> {
  const timesFile = path.join(work, 'times');
  rmSync(timesFile, { force: true });
  const storage = path.join(work, `storage-${variant}`);
  const cmd = ['npm', 'run', '--silent', 'crawl', '--', spiderFile, '--fresh', '--threads', String(THREADS), '--max-pages', String(MAX_PAGES), ...(variant === 'ui' ? ['--ui'] : [])];
  const t0 = Date.now();
  const p = spawn('bash', ['-c', '"$@"; rc=$?; times > "$BENCH_TIMES_FILE"; exit $rc', 'bash', ...cmd], { cwd: ROOT, env: { ...process.env, CRAWLEE_STORAGE_DIR: storage, BENCH_TIMES_FILE: timesFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let polls = 0;
  let poller: NodeJS.Timeout | undefined;
  p.stdout.on('data', (d: Buffer) => (stdout += d));
  p.stderr.on('data', (d: Buffer) => {
    stderr += d;
    const m = /monitor at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
    if (m && !poller) {
      // as the monitor page does: GET /stats once a second
      poller = setInterval(() => {
        fetch(`${m[1]}stats`)
          .then((r) => r.text())
          .then(() => polls++)
          .catch(() => {});
      }, POLL_MS);
    }
  });
  const code = await new Promise<number | null>((resolve) => p.on('exit', resolve));
  clearInterval(poller);
  const wallSecs = (Date.now() - t0) / 1000;
  if (code !== 0) throw new Error(`crawl (${variant}) exited ${code}: ${stderr.slice(-800)}`);
  const m = /pages:\s+(\d+) \(([\d.]+) pages\/s\)/.exec(stdout);
  if (!m) throw new Error(`no pages line in the summary:\n${stdout}`);
  const secs = (s: string) => {
    const x = /(\d+)m([\d.]+)s/.exec(s);
    return x ? Number(x[1]) * 60 + Number(x[2]) : NaN;
  };
  const kids = (readFileSync(timesFile, 'utf8').trim().split('\n')[1] ?? '').trim().split(/\s+/);
  rmSync(storage, { recursive: true, force: true });
  if (variant === 'ui' && polls === 0) throw new Error('the monitor was never polled (no "monitor at" line?)');
  return { variant, round, pages: Number(m[1]), crawlRate: Number(m[2]), wallSecs, cpuSecs: secs(kids[0] ?? '') + secs(kids[1] ?? ''), polls };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(path.join(CRAWLSITE, 'serve.ts'))) {
    console.log(`bench:monitor: ${CRAWLSITE} not found (set GLEANER_CRAWLSITE): skipped`);
    return;
  }
  ensureBuilt();
  const site = await serveSite();
  const work = mkdtempSync(path.join(tmpdir(), 'bench-monitor-'));
  const spiderFile = path.join(work, 'crawlsite.mjs');
  writeFileSync(spiderFile, `export default ${JSON.stringify({ name: 'crawlsite-monitor', startUrls: [`${site.url}/`], allowPrivateAddresses: true })};\n`);
  const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
  const loadBefore = load();
  const runs: Run[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order: Run['variant'][] = round % 2 ? ['plain', 'ui'] : ['ui', 'plain'];
      for (const v of order) {
        process.stderr.write(`bench:monitor: round ${round}, ${v === 'ui' ? '--ui' : 'without --ui'} …\n`);
        runs.push(await crawl(v, round, spiderFile, work));
      }
    }
  } finally {
    site.close();
    rmSync(work, { recursive: true, force: true });
  }
  const cpuMs = (r: Run) => (r.cpuSecs * 1000) / r.pages;
  console.log(`Monitor overhead: npm run crawl -- <crawlsite spider> --fresh --threads ${THREADS} --max-pages ${MAX_PAGES}, with and without --ui (+ /stats polled once a second), ${ROUNDS} rounds alternating; load ${loadBefore} → ${load()}`);
  printTable(
    ['round', 'variant', 'pages', 'pages/s (crawl)', 'wall s', 'CPU ms/page', '/stats polls'],
    runs.map((r) => [r.round, r.variant === 'ui' ? '--ui' : 'without', r.pages, r.crawlRate.toFixed(1), r.wallSecs.toFixed(1), cpuMs(r).toFixed(2), r.polls]),
  );
  const of = (v: Run['variant']) => runs.filter((r) => r.variant === v);
  const rate = (v: Run['variant']) => median(of(v).map((r) => r.crawlRate));
  const cpu = (v: Run['variant']) => median(of(v).map(cpuMs));
  printTable(
    ['variant', 'median pages/s', 'median CPU ms/page'],
    [
      ['without --ui', rate('plain').toFixed(1), cpu('plain').toFixed(2)],
      ['--ui', rate('ui').toFixed(1), cpu('ui').toFixed(2)],
      ['--ui / without', (rate('ui') / rate('plain')).toFixed(3), (cpu('ui') / cpu('plain')).toFixed(3)],
    ],
  );
  console.log('Target (issue 27): --ui within 3% of the pages/s without it (ratio ≥ 0.97); CPU ms/page ratio ≤ 1.03.');
}

await main();
