/**
 * `npm run bench:crawl -- --redis [--pages 2000] [--kills 5] [--seed N]`: the shared (Redis) crawl,
 * one run, one table (issue 17). Every crawl is the command line (`gleaner crawl <spider>
 * [--redis URL --worker-id W]`, one process per worker) against bench/crawl.ts's generated site
 * served from its own process on 127.0.0.1, and a redis-server of its own (loopback, persistence
 * off):
 *
 *   1. the journal frontier (no Redis), one process — the reference for speed and for the items;
 *   2. one Redis worker;  3. two Redis workers started together;
 *   4. two Redis workers, one of them killed with `kill -9` at `--kills` random moments and started
 *      again at once under its name: items lost, items doubled, pages fetched twice (from the
 *      site's request log) against the pages the killed worker had leased;
 *   5. per-host spacing: two workers on a spider with maxRequestsPerMinute, gaps between requests
 *      as the site saw them;
 *   6. Redis memory at 100,000 URLs: bytes per seen URL (the seen-set) and per queued request.
 *
 * pages/s = pages / (last − first request the site saw): start-up (tsx, module loading) is left
 * out alike for every row. CPU-seconds per page = the workers' CPU (from /proc, from their first
 * request on) + redis-server's CPU, per page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startRedis, stopAndClean, type TestRedis } from '../test/redis/server.js';
import { RedisFrontier } from '../src/crawler/redis/frontier.js';
import { parseState } from '../src/crawler/redis/state.js';
import { crawlKeys, genKey } from '../src/crawler/redis/keys.js';
import { withScripts } from '../src/crawler/redis/scripts.js';
import { streamItems } from '../src/storage/redis-item-sink.js';
import { rng } from '../src/demo/text.js';
import { printTable } from './lib/data.js';
import { ensureBuilt } from '../bin/dev.mjs';

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');
const crawlBench = path.join(path.dirname(here), 'crawl.ts');

/** Interval for the spacing row: 4 requests/s keeps the row short (60 pages ≈ 15 s). */
const SPACING_RATE_PER_MIN = 240;
const SPACING_PAGES = 60;
/** Synthetic URLs for the memory row (issue 17: report bytes at 100,000 URLs). */
const MEMORY_URLS = 100_000;
/** Kill moments are drawn between these shares of the pages (a kill at the very start or end
 * tests little). */
const KILL_FROM = 0.05;
const KILL_TO = 0.9;

interface Proc {
  proc: ChildProcess;
  out: string;
  exited: Promise<number | null>;
  /** CPU ticks (utime + stime) from /proc, last sample, and at the crawl's first request. */
  cpuTicks: number;
  /** [ms, ticks] samples, to read the CPU spent up to the crawl's last request (the dataset export
   * and shutdown after it are not crawling). */
  samples: Array<[number, number]>;
}

const CLK_TCK = 100;

function cpuTicksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  } catch {
    return undefined;
  }
}

/** `gleaner <args>` as the package runs it (bin/gleaner.js → dist/), pinned to one core with
 * taskset(1) when `core` is given (taskset execs node: the pid is the crawl's). */
function spawnCli(args: string[], env: Record<string, string>, core?: number): Proc {
  const cmd = [process.execPath, path.join(root, 'bin', 'gleaner.js'), ...args];
  const proc = core === undefined ? spawn(cmd[0]!, cmd.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn('taskset', ['-c', String(core), ...cmd], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = { proc, out: '', exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))), cpuTicks: 0, samples: [] };
  proc.stdout!.on('data', (d) => (p.out += d));
  proc.stderr!.on('data', (d) => (p.out += d));
  const timer = setInterval(() => {
    const t = proc.pid ? cpuTicksOf(proc.pid) : undefined;
    if (t !== undefined) {
      p.cpuTicks = t;
      p.samples.push([Date.now(), t]);
    }
  }, 50);
  void p.exited.then(() => clearInterval(timer));
  return p;
}

async function redisCpu(r: Redis): Promise<number> {
  const info = await r.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
}

interface Site {
  url: string;
  proc: ChildProcess;
  /** The request log since the last call: [path, ms]. */
  log(): Promise<Array<[string, number]>>;
}

async function startSite(pages: number): Promise<Site> {
  const proc = spawn(process.execPath, ['--import', 'tsx', crawlBench, '--serve', '--pages', String(pages)], { env: { ...process.env, BENCH_REQUEST_LOG: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => proc.stdout!.once('data', (d: Buffer) => resolve(String(d).trim())));
  const url = `http://127.0.0.1:${port}`;
  return { url, proc, log: async () => (await (await fetch(`${url}/__bench/log`)).json()) as Array<[string, number]> };
}

function writeSpider(dir: string, name: string, site: string, maxPages: number | undefined, extra = ''): string {
  const file = path.join(dir, `${name}.ts`);
  const budget = maxPages === undefined ? '' : ` maxPages: ${maxPages},`;
  writeFileSync(file, `export default { name: '${name}', startUrls: ['${site}/'], allowPrivateAddresses: true,${budget} crawler: { robotsTxt: false${extra} } };\n`);
  return file;
}

interface Run {
  pages: number;
  secs: number;
  cpuPerPage: number;
  /** The workers' CPU alone per page (seconds). */
  workerCpuPerPage: number;
  /** Paths requested more than once, counted once per extra fetch. */
  fetchedTwice: number;
  log: Array<[string, number]>;
}

/** Run worker processes until all exit; pages/s and CPU from the site's log and /proc. */
async function runWorkers(site: Site, redis: Redis | undefined, argsList: string[][], env: Record<string, string>, during?: (procs: Proc[]) => Promise<void>, pin = false): Promise<Run> {
  await site.log(); // start the log afresh
  const cpu0 = redis ? await redisCpu(redis) : 0;
  const procs = argsList.map((a, i) => spawnCli(a, env, pin ? i % cpus().length : undefined));
  // CPU from the first request on: start-up (tsx, imports) is not crawling
  const base = new Map<Proc, number>();
  // workers that all exit before the site saw a request (a start-up failure) end the wait
  let allExited = false;
  void Promise.all(procs.map((p) => p.exited)).then(() => (allExited = true));
  const firstSeen = (async () => {
    for (;;) {
      if (allExited) throw new Error(`every worker exited before the site saw a request:\n${procs.map((p) => p.out.slice(-2000)).join('\n---\n')}`);
      const l = await site.log();
      if (l.length) {
        for (const p of procs) base.set(p, p.cpuTicks);
        return l;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const early = await firstSeen;
  if (during) await during(procs);
  const codes = await Promise.all(procs.map((p) => p.exited));
  for (const [i, c] of codes.entries()) if (c !== 0 && c !== null) throw new Error(`worker ${argsList[i]!.join(' ')} exited ${c}:\n${procs[i]!.out.slice(-3000)}`);
  const log = [...early, ...(await site.log())];
  const pagesLog = log.filter(([p]) => p !== '/robots.txt');
  const secs = (pagesLog[pagesLog.length - 1]![1] - pagesLog[0]![1]) / 1000;
  const counts = new Map<string, number>();
  for (const [p] of pagesLog) counts.set(p, (counts.get(p) ?? 0) + 1);
  let twice = 0;
  for (const n of counts.values()) twice += n - 1;
  const end = pagesLog[pagesLog.length - 1]![1];
  const ticksAt = (p: Proc) => {
    let v = p.samples[0]?.[1] ?? 0;
    for (const [t, ticks] of p.samples) if (t <= end + 100) v = ticks;
    return v;
  };
  const workerCpu = procs.reduce((a, p) => a + (ticksAt(p) - (base.get(p) ?? 0)), 0) / CLK_TCK;
  const cpu = workerCpu + (redis ? (await redisCpu(redis)) - cpu0 : 0);
  return { pages: counts.size, secs, cpuPerPage: cpu / counts.size, workerCpuPerPage: workerCpu / counts.size, fetchedTwice: twice, log: pagesLog };
}

async function streamKeys(redis: Redis, spider: string): Promise<string[]> {
  const gen = Number(await redis.hget(genKey(spider), 'cur'));
  const keys: string[] = [];
  for await (const it of streamItems(redis, crawlKeys(spider, gen).items)) keys.push(it.url);
  return keys;
}

function datasetKeys(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => {
      const it = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { kind: string; url: string };
      return it.url;
    });
}

/** Bytes of the keys matching a pattern (MEMORY USAGE, all samples). */
async function keyBytes(redis: Redis, match: string): Promise<{ bytes: number; keys: number }> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    for (const k of batch) {
      bytes += Number(await redis.memory('USAGE', k, 'SAMPLES', 0));
      keys++;
    }
  } while (cursor !== '0');
  return { bytes, keys };
}

async function memoryRow(redis: Redis): Promise<{ seen: number; queued: number; buckets: number; listpack: number }> {
  await redis.flushdb();
  const spider = 'bench-memory';
  const f = await RedisFrontier.open(redis, { spider, workerId: 'm' });
  // URLs of the generated site's shape, with what a follow-up carries (depth, referrer, anchor)
  const batch = 1_000;
  for (let i = 0; i < MEMORY_URLS; i += batch) {
    await f.add(
      Array.from({ length: batch }, (_, k) => {
        const n = i + k;
        return { url: `http://127.0.0.1:40000/a/${n}.html`, depth: 2, referrer: `http://127.0.0.1:40000/s${n % 10}/${1 + (n % 11)}.html`, anchorText: `Article ${n} about the city budget` };
      }),
    );
  }
  const p = f.keys.prefix.replace(/[?*[\]\\]/g, '\\$&');
  const seen = await keyBytes(redis, `${p}s:*`);
  const queued = await keyBytes(redis, `${p}q:*`);
  const ready = await keyBytes(redis, `${p}ready`);
  let listpack = 0;
  let cursor = '0';
  do {
    const [next, b] = await redis.scan(cursor, 'MATCH', `${p}s:*`, 'COUNT', 1000);
    cursor = next;
    for (const k of b) if ((await redis.object('ENCODING', k)) === 'listpack') listpack++;
  } while (cursor !== '0');
  await f.close(false);
  return { seen: seen.bytes / MEMORY_URLS, queued: (queued.bytes + ready.bytes) / MEMORY_URLS, buckets: seen.keys, listpack };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const total = Number(arg('--pages') ?? 2000);
  const kills = Number(arg('--kills') ?? 5);
  const rounds = Number(arg('--rounds') ?? 2);
  const seed = Number(arg('--seed') ?? Date.now() % 100_000);
  // Speed rows pinned (issue 26): each worker `--threads 1` on a core of its own (taskset), so one
  // worker vs two shows what a second machine adds; the site server and redis-server are not
  // pinned and share the cores with the workers. `--no-pin`: unpinned, default threads.
  const pin = !argv.includes('--no-pin') && cpus().length >= 2 && existsSync('/usr/bin/taskset');
  const workerArgs = pin ? ['--threads', '1'] : [];
  ensureBuilt();
  const load = loadavg()[0]!;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-crawl-redis-'));
  let redisServer: TestRedis | undefined;
  let site: Site | undefined;
  let redis: Redis | undefined;
  const rows: string[][] = [];
  try {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    site = await startSite(total);
    const storage = path.join(dir, 'storage');
    const env = { CRAWLEE_STORAGE_DIR: storage, GLEANER_LOG_LEVEL: 'warning' };
    // The whole site (no page budget: a budget makes the page set depend on the crawl order, and
    // the runs are compared by their items)
    const spiderFile = writeSpider(dir, 'bench-redis', site.url, undefined);
    const r = redisServer.url;

    // Speed rows: best of `rounds` rounds in alternating order, so that a change of machine load
    // during the run does not fall on one variant only.
    const pps = (x: Run) => x.pages / x.secs;
    const speed: Record<'journal' | 'one' | 'two', Run | undefined> = { journal: undefined, one: undefined, two: undefined };
    let expected = new Set<string>();
    let oneItems: string[] = [];
    let twoItems: string[] = [];
    let streamBytes = 0;
    const keep = (v: keyof typeof speed, r: Run) => {
      if (!speed[v] || pps(r) > pps(speed[v]!)) speed[v] = r;
    };
    for (let k = 0; k < rounds; k++) {
      for (const v of k % 2 ? (['two', 'one', 'journal'] as const) : (['journal', 'one', 'two'] as const)) {
        process.stderr.write(`bench:crawl --redis: round ${k + 1}/${rounds}: ${v === 'journal' ? 'journal frontier' : v === 'one' ? '1 Redis worker' : '2 Redis workers'} …\n`);
        if (v === 'journal') {
          keep(v, await runWorkers(site, undefined, [['crawl', spiderFile, '--fresh', ...workerArgs]], env, undefined, pin));
          if (!expected.size) expected = new Set(datasetKeys(path.join(storage, 'datasets', 'bench-redis')));
          continue;
        }
        await redis.flushdb();
        const ids = v === 'one' ? ['w1'] : ['w1', 'w2'];
        keep(v, await runWorkers(site, redis, ids.map((id) => ['crawl', spiderFile, '--redis', r, '--worker-id', id, ...workerArgs]), env, undefined, pin));
        const items = await streamKeys(redis, 'bench-redis');
        // the worst round's items count (each round must store every item once)
        if (v === 'one' && (!oneItems.length || items.length !== new Set(items).size)) oneItems = items;
        if (v === 'two') {
          if (!twoItems.length || items.length !== new Set(items).size) twoItems = items;
          const gen = Number(await redis.hget(genKey('bench-redis'), 'cur'));
          streamBytes = Number(await redis.memory('USAGE', crawlKeys('bench-redis', gen).items, 'SAMPLES', 0));
        }
      }
    }
    const journal = speed.journal!;
    const one = speed.one!;
    const two = speed.two!;

    process.stderr.write(`bench:crawl --redis: 2 workers, kill -9 × ${kills} (seed ${seed}) …\n`);
    await redis.flushdb();
    const rand = rng(seed);
    const points = Array.from({ length: kills }, () => Math.floor(total * (KILL_FROM + (KILL_TO - KILL_FROM) * rand()))).sort((a, b) => a - b);
    let inFlightAtKills = 0;
    const restarted: Proc[] = [];
    const scripted = withScripts(redis);
    const killed = await runWorkers(
      site,
      redis,
      [
        ['crawl', spiderFile, '--redis', r, '--worker-id', 'k1'],
        ['crawl', spiderFile, '--redis', r, '--worker-id', 'k2'],
      ],
      env,
      async (procs) => {
        const live: Record<string, Proc> = { k1: procs[0]!, k2: procs[1]! };
        for (const at of points) {
          const gen = Number(await redis!.hget(genKey('bench-redis'), 'cur'));
          const keys = crawlKeys('bench-redis', gen);
          while (parseState((await scripted.glState(keys.meta, 0, '', '', 0)) as number[]).ok < at) await new Promise((res) => setTimeout(res, 20));
          const id = rand() < 0.5 ? 'k1' : 'k2';
          const owners = Object.values(await redis!.hgetall(`${keys.prefix}lo`));
          inFlightAtKills += owners.filter((t) => t.startsWith(`${id}#`)).length;
          live[id]!.proc.kill('SIGKILL');
          await live[id]!.exited;
          const again = spawnCli(['crawl', spiderFile, '--redis', r, '--worker-id', id], env);
          restarted.push(again);
          live[id] = again;
        }
        for (const p of Object.values(live)) await p.exited;
      },
    );
    for (const p of restarted) {
      const c = await p.exited;
      if (c !== 0 && c !== null) throw new Error(`restarted worker exited ${c}:\n${p.out.slice(-3000)}`);
    }
    // (the restarted processes' CPU is not in `killed`: only its items and fetches are read)
    const killedItems = await streamKeys(redis, 'bench-redis');
    const distinct = new Set(killedItems);
    const lost = [...expected].filter((k) => !distinct.has(k)).length;
    const doubled = killedItems.length - distinct.size;

    process.stderr.write(`bench:crawl --redis: per-host spacing, 2 workers at ${SPACING_RATE_PER_MIN}/min …\n`);
    await redis.flushdb();
    const spacedFile = writeSpider(dir, 'bench-spacing', site.url, SPACING_PAGES, `, maxRequestsPerMinute: ${SPACING_RATE_PER_MIN}`);
    const spaced = await runWorkers(site, redis, [['crawl', spacedFile, '--redis', r, '--worker-id', 's1'], ['crawl', spacedFile, '--redis', r, '--worker-id', 's2']], env);
    const times = spaced.log.map(([, t]) => t);
    const gaps = times.slice(1).map((t, i) => t - times[i]!).sort((a, b) => a - b);
    const interval = 60_000 / SPACING_RATE_PER_MIN;

    process.stderr.write(`bench:crawl --redis: memory at ${MEMORY_URLS} URLs …\n`);
    const mem = await memoryRow(redis);

    const ok = (b: boolean) => (b ? 'yes' : 'NO');
    const itemsOnce = (keys: string[]) => {
      const d = new Set(keys);
      return 100 * (1 - ([...expected].filter((k) => !d.has(k)).length + (keys.length - d.size)) / expected.size);
    };
    rows.push(['journal frontier, 1 process', `${journal.pages} pages in ${fmt(journal.secs)} s: ${fmt(pps(journal))} pages/s, ${fmt(journal.cpuPerPage * 1000, 2)} ms CPU/page, ${expected.size} items`, 'reference', '']);
    const cpuText = (x: Run) => `${fmt(x.workerCpuPerPage * 1000, 2)} ms CPU/page in the workers (${fmt(x.cpuPerPage * 1000, 2)} with redis-server)`;
    rows.push(['1 Redis worker', `${fmt(pps(one))} pages/s = ${fmt(pps(one) / pps(journal), 2)}× journal, ${cpuText(one)}, items once ${fmt(itemsOnce(oneItems))} %`, '≥ 0.8× journal', ok(pps(one) >= 0.8 * pps(journal))]);
    rows.push(['2 Redis workers', `${fmt(pps(two))} pages/s = ${fmt(pps(two) / pps(one), 2)}× one worker, items once ${fmt(itemsOnce(twoItems))} %`, '≥ 1.5× (> 2× on 2 cores: the measurement is wrong)', ok(pps(two) >= 1.5 * pps(one) && pps(two) <= 2 * pps(one))]);
    rows.push(['2 Redis workers: coordination cost', `${cpuText(two)} = ${fmt(two.cpuPerPage / one.cpuPerPage, 2)}× one worker's`, '≤ 1.1× one worker', ok(two.cpuPerPage <= 1.1 * one.cpuPerPage)]);
    rows.push([`2 workers, kill -9 × ${kills}`, `${lost} lost, ${doubled} doubled, items once ${fmt(itemsOnce(killedItems))} %; ${killed.fetchedTwice} pages fetched twice, ${inFlightAtKills} leased by the killed worker at the kills`, '0 lost, 0 doubled, twice ≤ leased', ok(lost === 0 && doubled === 0 && killed.fetchedTwice <= inFlightAtKills)]);
    rows.push([`per-host spacing, 2 workers, ${fmt(interval, 0)} ms`, `${gaps.length} gaps: min ${gaps[0]} ms, 5th percentile ${gaps[Math.floor(gaps.length * 0.05)]} ms, median ${gaps[Math.floor(gaps.length / 2)]} ms`, `≥ ${fmt(0.95 * interval, 1)} ms`, ok(gaps[0]! >= 0.95 * interval)]);
    rows.push([`Redis memory at ${MEMORY_URLS} URLs`, `${fmt(mem.seen)} B per seen URL (${fmt(1024 / mem.seen)} URLs/KiB; ${mem.listpack}/${mem.buckets} buckets listpack), ${fmt(mem.queued)} B per queued request; items stream ${fmt(streamBytes / twoItems.length / 1024)} KiB per item`, '≤ 40 B per seen URL', ok(mem.seen <= 40)]);
  } finally {
    await redis?.quit().catch(() => {});
    if (redisServer) await stopAndClean(redisServer);
    site?.proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const after = loadavg()[0]!;
  console.log(`\nbench:crawl --redis — ${total}-page generated site on 127.0.0.1, ${cpus().length} cores, load average ${fmt(load)} → ${fmt(after)} (${load > 1.5 || after > 1.5 ? 'under load: speed figures are low' : 'quiet'})`);
  printTable(['measurement', 'figure', 'target', 'met'], rows);
  console.log(`speed rows: ${pin ? `each worker --threads 1 pinned to a core of its own with taskset (1 worker: core 0; 2 workers: cores 0 and 1; the journal run: core 0); the site server and redis-server unpinned, sharing both cores with the workers; ` : 'unpinned (--no-pin), default threads; '}best of ${rounds} rounds in alternating order; pages/s = pages / (last − first request the site saw); CPU = the workers from their first to the crawl's last request + redis-server, per page; items once = share of the journal run's item URLs stored exactly once`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) await main();
