/**
 * `npm run bench:crawl [-- options]`: crawl speed and memory, peers side by side in one run, on two
 * sites served from their own processes on 127.0.0.1.
 *
 * Realistic site (issue 13): `../shared/tools/crawlsite` (2,000 pages of 30–60 KB, ~150 links
 * each, one template with mega menu and sidebar), served by its own `serve.ts`, crawled by
 *   - `scrapy`: its `fixture_spider.py` (Scrapy 2.8, Debian python3-scrapy, 16 concurrent, CSS
 *     selectors on article pages), when /usr/bin/python3 can import scrapy;
 *   - `gleaner-2t`: a whole `npm run crawl -- <spider>` process (start-up included) with every
 *     middleware on, `--threads 2`: the chain in two worker threads (one per core here);
 *   - `gleaner-1t`: the same with `--threads 0`: fetching, links and the chain on one JS thread;
 *   - `gleaner-1w` (with `--only`): `--threads 1`, one worker thread.
 * Each row: pages, wall seconds of the whole process, pages/s, CPU seconds per page (user + system
 * of the process tree, from the shell's `times`), RSS after 200 pages (the server's request count
 * tells when) and at the end.
 *
 * Light site: a generated 2,000-page site (lists of 19, 10 repeated links per page), crawled
 * in-process (start-up excluded) by CheerioCrawler with defaults, CheerioCrawler tuned and gleaner.
 * Both sites' rows are printed in one table.
 *
 * Options: `--site realistic|light|both` (default both), `--only a,b` (variants), `--rounds N`
 * (repeat the realistic group N times, alternating), `--profile` (CPU profile of the gleaner
 * crawl process: top 10 functions by self time over all its threads), `--pages N` (light site),
 * `--max-secs N` (cap for the slow CheerioCrawler-defaults run).
 *
 * Targets (issue 13): realistic gleaner ≥ 1.8 × Scrapy's pages/s in the same run and ≥ 1.6 × the
 * single-thread figure; RSS(end) ≤ 1.5 × RSS(200); light site ≥ 140 pages/s.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { enPost, zhArticle, rng, pick } from '../src/demo/text.js';
import { ensureBuilt } from '../bin/dev.mjs';

const here = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(here), '..');
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** The realistic site and its Scrapy spider (issue 13); GLEANER_CRAWLSITE moves it. */
const CRAWLSITE = path.resolve(process.env.GLEANER_CRAWLSITE ?? path.join(ROOT, '..', 'shared', 'tools', 'crawlsite'));
const PYTHON = '/usr/bin/python3';
/** Scrapy's concurrency in the issue's figure (fixture_spider.py CONC). */
const SCRAPY_CONCURRENCY = 16;
/** How often the bench samples the crawler's RSS and the server's page count. */
const SAMPLE_MS = 100;
/** Page count at which the first RSS is read (issue 2: RSS(end) ≤ 1.5 × RSS(200)). */
const RSS_FIRST_PAGES = 200;

// ---------------------------------------------------------------- the light site ---------------
/** Site shape: SECTIONS sections, each with list pages of PER_LIST articles; the rest articles. */
const SECTIONS = 10;
const PER_LIST = 19;
/** Time cap for the slow CheerioCrawler-defaults run (`--max-secs`), so the bench takes minutes. */
const MAX_SECS = Number(argValue('--max-secs') ?? 120);
/** Links from each article to other articles ("related", "most read"): most are repeats. */
const RELATED = 10;

function siteShape(total: number) {
  // lists + articles = total, articles = lists * PER_LIST
  const lists = Math.max(SECTIONS, Math.round(total / (PER_LIST + 1)));
  const articles = total - lists;
  return { lists, articles, listsPerSection: Math.ceil(lists / SECTIONS) };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function chrome(title: string, main: string, seed: number, shape: ReturnType<typeof siteShape>, zh: boolean): string {
  const r = rng(seed);
  const nav = Array.from({ length: SECTIONS }, (_, s) => `<li><a href="/s${s}/1.html">${zh ? `栏目${s + 1}` : `Section ${s + 1}`}</a></li>`).join('');
  const hot = Array.from({ length: RELATED }, () => {
    const a = Math.floor(r() * shape.articles);
    return `<li><a href="/a/${a}.html">${esc(title.slice(0, 8))} ${a}</a></li>`;
  }).join('');
  return `<!DOCTYPE html><html lang="${zh ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="description" content="${esc(title)}"><link rel="stylesheet" href="/s.css"><script>window.dataLayer=[];</script></head>
<body><div class="top"><a href="/">Home</a> <a href="/login">Sign in</a> <span>${pick(r, ['Sunny 21°', 'Cloudy 17°', 'Rain 14°'])}</span></div>
<header><a class="logo" href="/">The Bench Times</a></header><ul class="nav">${nav}</ul>
<div class="ad">${pick(r, ['Subscribe today', 'Try our app', 'Advertise with us'])}</div>
<div class="wrap"><main>${main}</main><aside><h3>${zh ? '热门' : 'Most read'}</h3><ol>${hot}</ol></aside></div>
<footer><a href="/about">About</a> · <a href="/contact">Contact</a> · © 2024 The Bench Times</footer></body></html>`;
}

function page(p: string, shape: ReturnType<typeof siteShape>): string | undefined {
  let m: RegExpExecArray | null;
  if (p === '/') return chrome('The Bench Times', `<h1>Front page</h1><ul>${Array.from({ length: SECTIONS }, (_, s) => `<li><a href="/s${s}/1.html">Section ${s + 1}</a></li>`).join('')}</ul>`, 1, shape, false);
  if ((m = /^\/s(\d+)\/(\d+)\.html$/.exec(p))) {
    const s = Number(m[1]);
    const n = Number(m[2]);
    const listIndex = s * shape.listsPerSection + (n - 1);
    if (s >= SECTIONS || n < 1 || n > shape.listsPerSection || listIndex >= shape.lists) return undefined;
    const zh = s % 2 === 1;
    const items = Array.from({ length: PER_LIST }, (_, i) => listIndex * PER_LIST + i)
      .filter((a) => a < shape.articles)
      .map((a) => {
        const t = zh ? zhArticle(a).title : enPost(a).title;
        return `<li><a href="/a/${a}.html">${esc(t)}</a> <span class="date">2024-05-${String(1 + (a % 28)).padStart(2, '0')}</span></li>`;
      })
      .join('');
    const pager = Array.from({ length: shape.listsPerSection }, (_, k) => `<a href="/s${s}/${k + 1}.html">${k + 1}</a>`).join(' ');
    return chrome(`Section ${s + 1} page ${n}`, `<h1>Section ${s + 1}</h1><ul class="list">${items}</ul><div class="pager">${pager}</div>`, 100 + listIndex, shape, zh);
  }
  if ((m = /^\/a\/(\d+)\.html$/.exec(p))) {
    const a = Number(m[1]);
    if (a >= shape.articles) return undefined;
    const section = Math.floor(a / PER_LIST / shape.listsPerSection) % SECTIONS;
    const zh = section % 2 === 1;
    const art = zh ? zhArticle(a) : undefined;
    const post = zh ? undefined : enPost(a);
    const title = art?.title ?? post!.title;
    const byline = art ? `<div class="info">${art.dateText} 来源：${art.source} 作者：${art.author}</div>` : `<p class="byline">By ${post!.author} · ${post!.dateText}</p>`;
    const paras = (art?.paragraphs ?? post!.paragraphs).map((x) => `<p>${esc(x)}</p>`).join('\n');
    return chrome(title, `<article><h1>${esc(title)}</h1>${byline}<div class="content">${paras}</div></article>`, 10_000 + a, shape, zh);
  }
  return undefined;
}

async function serveSite(total: number): Promise<void> {
  const shape = siteShape(total);
  // bench/crawl-redis.ts reads the request log (pages fetched twice, per-host spacing).
  const log: Array<[string, number]> | undefined = process.env.BENCH_REQUEST_LOG === '1' ? [] : undefined;
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (log && p === '/__bench/log') return void res.end(JSON.stringify(log.splice(0)));
    log?.push([p, Date.now()]);
    const body = page(p, shape);
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('not found');
      return;
    }
    const buf = Buffer.from(body);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': buf.length });
    res.end(buf);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
}

// ---------------------------------------------------------------- light site: in-process runs ----
interface RunResult {
  variant: string;
  /** Built-in middleware that could not run (e.g. a missing model): the chain was not complete. */
  skipped?: string[];
  pages: number;
  secs: number;
  /** CPU seconds (user + system) of the crawl, all threads. */
  cpuSecs?: number;
  rss200?: number;
  rssEnd: number;
  /** Peak RSS of the process (realistic site). */
  peak?: number;
  /** Live heap after a full GC: growth here would be a leak; RSS also holds V8's spare heap. */
  heap200?: number;
  heapEnd?: number;
  note?: string;
}

const mb = (b: number) => Math.round(b / 1024 / 1024);

async function runVariant(variant: string, url: string, total: number, storageDir: string): Promise<RunResult> {
  let pages = 0;
  let rss200: number | undefined;
  let heap200: number | undefined;
  /** RSS at the last page (before the crawl shuts down its worker threads). */
  let rssLast = 0;
  const liveHeap = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed;
  };
  const onPage = () => {
    pages++;
    rssLast = process.memoryUsage.rss();
    if (pages === RSS_FIRST_PAGES) {
      rss200 = process.memoryUsage().rss;
      heap200 = liveHeap();
    }
  };
  // Load every module before the clock starts: this measures crawling, not start-up.
  const { CheerioCrawler, Configuration, MemoryStorage } = await import('crawlee');
  const { runSpider } = await import('../src/crawler/crawl.js');
  const { silentLogger } = await import('../src/core/middleware.js');
  const skipped: string[] = [];
  // As `gleaner crawl` does (src/crawler/memory.ts): V8's defaults unless GLEANER_HEAP=small.
  if (variant === 'gleaner') (await import('../src/crawler/memory.js')).applyHeapPolicy();
  const cpu0 = process.cpuUsage();
  const start = Date.now();
  if (variant === 'gleaner') {
    const log = { ...silentLogger, warning: (m: string) => void (/middleware "([^"]+)" skipped/.exec(m)?.[1] && skipped.push(/middleware "([^"]+)" skipped/.exec(m)![1]!)) };
    const summary = await runSpider(
      {
        name: 'bench',
        startUrls: [`${url}/`],
        allowPrivateAddresses: true,
        maxPages: total,
        // The spider defaults (BENCH_CONCURRENCY overrides maxConcurrency for experiments).
        crawler: { robotsTxt: false, ...(process.env.BENCH_CONCURRENCY ? { maxConcurrency: Number(process.env.BENCH_CONCURRENCY) } : {}) },
      },
      // Every page of this site gives one item: the RSS readings are taken at items.
      { storageDir, log, fresh: true, onItem: onPage },
    );
    pages = summary.pages;
  } else {
    process.env.CRAWLEE_STORAGE_DIR = storageDir;
    if (variant === 'cheerio-defaults') {
      const crawler = new CheerioCrawler({
        maxRequestsPerCrawl: total,
        async requestHandler({ request, $, enqueueLinks, pushData }) {
          onPage();
          await pushData({ url: request.loadedUrl, title: $('title').text() });
          await enqueueLinks();
        },
      });
      // Defaults crawl at a few pages/s on a busy box: stop after the time cap (pages/s stays
      // meaningful; the RSS column then reads at the pages it reached).
      const cap = setTimeout(() => void crawler.autoscaledPool?.abort(), MAX_SECS * 1000);
      await crawler.run([`${url}/`]);
      clearTimeout(cap);
    } else {
      const seen = new Set<string>();
      const crawler = new CheerioCrawler(
        {
          maxRequestsPerCrawl: total,
          maxConcurrency: 20,
          autoscaledPoolOptions: { desiredConcurrency: 20 },
          async requestHandler({ request, $, enqueueLinks, pushData }) {
            onPage();
            await pushData({ url: request.loadedUrl, title: $('title').text() });
            await enqueueLinks({
              transformRequestFunction: (r) => {
                if (seen.has(r.url)) return false;
                seen.add(r.url);
                return r;
              },
            });
          },
        },
        new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
      );
      seen.add(`${url}/`);
      await crawler.run([`${url}/`]);
    }
  }
  const secs = (Date.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rssEnd = variant === 'gleaner' ? rssLast : process.memoryUsage().rss;
  return { variant, pages, secs, cpuSecs: (cpu.user + cpu.system) / 1e6, rss200, rssEnd, heap200, heapEnd: liveHeap(), skipped: skipped.length ? skipped : undefined };
}

function child(argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', here, ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

// ---------------------------------------------------------------- realistic site: whole processes
/** Descendant pids of a process (through /proc/<pid>/task/<tid>/children). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      let kids = '';
      try {
        kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const k of kids.split(' ').filter(Boolean)) {
        out.push(Number(k));
        stack.push(Number(k));
      }
    }
  }
  return out;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/** VmRSS / VmHWM of a process in bytes. */
function memOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body || 'null') as T);
          } catch (e) {
            reject(e);
          }
        });
      })
      .on('error', reject);
  });
}

interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallSecs: number;
  cpuSecs: number;
  rss200?: number;
  rssEnd?: number;
  /** Peak RSS (VmHWM) of the measured process. */
  peak?: number;
  /** Pid of the measured process (the crawler itself, under npm/tsx/shell wrappers). */
  pid?: number;
}

/**
 * Run a command in a shell that prints the CPU times of its children (`times`), sample the RSS of
 * the descendant process whose command line contains `marker`, and read the server's page count
 * to take the RSS at RSS_FIRST_PAGES pages.
 */
async function runMeasured(cmd: string[], env: NodeJS.ProcessEnv, marker: string, statsUrl: string, cwd = ROOT): Promise<ProcessRun> {
  const tdir = mkdtempSync(path.join(tmpdir(), 'bench-times-'));
  const timesFile = path.join(tdir, 'times');
  const script = '"$@"; rc=$?; times > "$BENCH_TIMES_FILE"; exit $rc';
  const t0 = Date.now();
  const p = spawn('bash', ['-c', script, 'bash', ...cmd], { cwd, env: { ...env, BENCH_TIMES_FILE: timesFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d));
  p.stderr.on('data', (d: Buffer) => (stderr += d));
  let target: number | undefined;
  let rss200: number | undefined;
  /** RSS when the server had answered its last page so far (the crawl's end, before shutdown). */
  let rssEnd: number | undefined;
  let lastPages = -1;
  let peak: number | undefined;
  let sampling = false;
  const sample = async () => {
    if (sampling) return;
    sampling = true;
    try {
      // The innermost matching process: `npm run` starts a shell, which starts tsx, which starts
      // the node process that crawls (all four command lines name the entry point). Looked up
      // at every sample: the innermost one appears last.
      const matching = descendants(p.pid!).filter((d) => cmdline(d).includes(marker));
      target = matching.find((d) => !descendants(d).some((k) => matching.includes(k))) ?? target;
      if (target === undefined) return;
      const st = await getJson<{ html: number }>(statsUrl).catch(() => undefined);
      const m = memOf(target);
      if (!m || !st) return;
      peak = Math.max(peak ?? 0, m.hwm);
      if (rss200 === undefined && st.html >= RSS_FIRST_PAGES) rss200 = m.rss;
      if (st.html > lastPages) {
        lastPages = st.html;
        rssEnd = m.rss;
      }
    } finally {
      sampling = false;
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => p.on('exit', (c) => resolve(c)));
  clearInterval(timer);
  const wallSecs = (Date.now() - t0) / 1000;
  // `times`: line 1 the shell's own user/sys, line 2 its children's (the whole process tree).
  let cpuSecs = NaN;
  if (existsSync(timesFile)) {
    const lines = readFileSync(timesFile, 'utf8').trim().split('\n');
    const secs = (s: string) => {
      const m = /(\d+)m([\d.]+)s/.exec(s);
      return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
    };
    const kids = (lines[1] ?? '').trim().split(/\s+/);
    cpuSecs = secs(kids[0] ?? '') + secs(kids[1] ?? '');
  }
  rmSync(tdir, { recursive: true, force: true });
  return { code, stdout, stderr, wallSecs, cpuSecs, rss200, rssEnd, peak, pid: target };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Top functions by self time over every `.cpuprofile` of one process (main thread + workers). */
function profileSummary(dir: string, pid: number | undefined, top = 10): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && (pid === undefined || f.includes(`.${pid}.`)));
  const self = new Map<string, number>();
  let total = 0;
  for (const f of files) {
    const prof = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile;
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    prof.samples.forEach((id, i) => {
      const n = byId.get(id);
      const dt = prof.timeDeltas[i] ?? 0;
      if (!n) return;
      const cf = n.callFrame;
      if (cf.functionName === '(idle)' || cf.functionName === '(program)') return;
      const file = cf.url ? cf.url.replace(/^file:\/\//, '').replace(ROOT + '/', '').replace(/.*node_modules\//, '~/') : '';
      // tsx compiles each file to one line: a line number is only shown where it means something
      const at = file && cf.lineNumber > 0 ? `${file}:${cf.lineNumber + 1}` : file;
      const key = `${cf.functionName || '(anonymous)'} ${at}`.trim();
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    });
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  const areas = [...profileAreas(dir, files)].sort((a, b) => b[1] - a[1]).slice(0, 2 * top);
  return [
    `CPU profile of the gleaner crawl process (${files.length} thread profiles, ${(total / 1e6).toFixed(1)} s sampled, idle excluded): top ${top} by self time`,
    ...rows.map(([k, v], i) => `${String(i + 1).padStart(2)}. ${(v / 1e3).toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`),
    `time by area, callees included (a sample counts once for each area on its stack; GC and native frames count for their callers' areas): top ${2 * top}`,
    ...areas.map(([k, v], i) => `${String(i + 1).padStart(2)}. ${(v / 1e3).toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`),
  ];
}

/** The area of a source file: `middleware/<dir>`, `src/<dir>`, `~/<package>` or `node:<module>`. */
function areaOf(url: string): string | undefined {
  if (!url) return undefined;
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return `~/${pkg[1]}`;
  if (file.startsWith('node:')) return file.split('/')[0];
  const rel = file.replace(ROOT + '/', '').replace(/^dist\//, '');
  const parts = rel.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Sampled time per area, callees included, over the given profiles (idle and program excluded). */
function profileAreas(dir: string, files: string[]): Map<string, number> {
  const byArea = new Map<string, number>();
  for (const f of files) {
    const prof = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile;
    const parent = new Map<number, number>();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    /** Areas on each node's stack, memoised per node. */
    const stackAreas = new Map<number, Set<string>>();
    const areasOf = (id: number): Set<string> => {
      const seen = stackAreas.get(id);
      if (seen) return seen;
      const up = parent.get(id);
      const set = new Set(up === undefined ? [] : areasOf(up));
      const a = areaOf(byId.get(id)?.callFrame.url ?? '');
      if (a) set.add(a);
      stackAreas.set(id, set);
      return set;
    };
    prof.samples.forEach((id, i) => {
      const name = byId.get(id)?.callFrame.functionName;
      if (name === '(idle)' || name === '(program)') return;
      for (const a of areasOf(id)) byArea.set(a, (byArea.get(a) ?? 0) + (prof.timeDeltas[i] ?? 0));
    });
  }
  return byArea;
}

interface SiteServer {
  url: string;
  close(): void;
}

async function serveCrawlsite(): Promise<SiteServer> {
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(CRAWLSITE, 'serve.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ port: number }>((resolve, reject) => {
    let buf = '';
    p.stdout.on('data', (d: Buffer) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { port: number });
    });
    p.on('exit', (c) => reject(new Error(`crawlsite server exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${info.port}`, close: () => p.kill() };
}

const hasScrapy = () =>
  new Promise<boolean>((resolve) => {
    if (!existsSync(PYTHON) || !existsSync(path.join(CRAWLSITE, 'fixture_spider.py'))) return resolve(false);
    const p = spawn(PYTHON, ['-c', 'import scrapy'], { stdio: 'ignore' });
    p.on('exit', (c) => resolve(c === 0));
    p.on('error', () => resolve(false));
  });

interface RealisticRow extends RunResult {
  itemsText?: string;
}

async function runRealistic(variant: string, site: SiteServer, work: string, profileDir?: string): Promise<{ row: RealisticRow; profile?: string[] }> {
  await getJson(`${site.url}/__reset`).catch(() => undefined);
  const statsUrl = `${site.url}/__stats`;
  if (variant === 'scrapy') {
    const r = await runMeasured([PYTHON, path.join(CRAWLSITE, 'fixture_spider.py')], { ...process.env, FIXTURE_URL: site.url, CONC: String(SCRAPY_CONCURRENCY), LOG_LEVEL: 'WARNING' }, 'fixture_spider.py', statsUrl);
    const res = /RESULT (\{.*\})/.exec(r.stdout);
    if (r.code !== 0 || !res) throw new Error(`scrapy exited ${r.code}: ${r.stderr.slice(-500)}`);
    const j = JSON.parse(res[1]!) as { pages: number; items: number; pagesPerSec: number };
    return { row: { variant, pages: j.pages, secs: r.wallSecs, cpuSecs: r.cpuSecs, rss200: r.rss200, rssEnd: r.rssEnd ?? 0, peak: r.peak, note: `own clock ${j.pagesPerSec} pages/s (crawl only)`, itemsText: `${j.items} items` } };
  }
  // gleaner: a spider file for the site, run as a user would: npm run crawl -- <spider>.
  const spiderFile = path.join(work, 'crawlsite.mjs');
  writeFileSync(spiderFile, `export default ${JSON.stringify({ name: 'crawlsite', startUrls: [`${site.url}/`], allowPrivateAddresses: true, maxPages: 5000 }, null, 2)};\n`);
  const storage = path.join(work, `storage-${variant}`);
  const extra = GLEANER_VARIANTS[variant] ?? [];
  const env: NodeJS.ProcessEnv = { ...process.env, CRAWLEE_STORAGE_DIR: storage };
  // Node refuses --cpu-prof in NODE_OPTIONS: the profiled run starts the package's command
  // (bin/gleaner.js, what `npm run crawl` runs once dist/ is current) with node directly. It is an
  // extra run, not a row.
  const cmd = profileDir
    ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'bin/gleaner.js', 'crawl', spiderFile, '--fresh', ...extra]
    : ['npm', 'run', '--silent', 'crawl', '--', spiderFile, '--fresh', ...extra];
  const r = await runMeasured(cmd, env, profileDir ? 'bin/gleaner.js' : 'bin/dev.mjs', statsUrl);
  if (r.code !== 0) throw new Error(`${variant} exited ${r.code}: ${r.stderr.slice(-800)}`);
  // GLEANER_STAGE_TIMES=1 (src/chain/chain.ts): the crawl's stage times, shown as they come
  for (const line of r.stderr.split('\n')) if (line.startsWith('gleaner stage times')) process.stderr.write(`${variant}: ${line}\n`);
  const pages = Number(/pages:\s+(\d+)/.exec(r.stdout)?.[1] ?? NaN);
  const items = /items:\s+(.*)/.exec(r.stdout)?.[1];
  const failures = /failures:\s+(\d+)/.exec(r.stdout)?.[1];
  rmSync(storage, { recursive: true, force: true });
  return {
    row: { variant, pages, secs: r.wallSecs, cpuSecs: r.cpuSecs, rss200: r.rss200, rssEnd: r.rssEnd ?? 0, peak: r.peak, itemsText: items, note: failures && failures !== '0' ? `${failures} failures` : undefined },
    profile: profileDir ? profileSummary(profileDir, r.pid) : undefined,
  };
}

// ---------------------------------------------------------------- output -----------------------
function printTable(title: string, header: string[], table: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(`\n${title}`);
  console.log(line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table) console.log(line(row));
}

const ratio = (a?: number, b?: number) => (a && b ? (a / b).toFixed(2) : '-');
const loadLine = () => `load ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores`;

/** One table for both sites (issue 13: one run, one table). */
const HEADER = ['site', 'crawler', 'pages', 'seconds', 'pages/s', 'median p/s', '× scrapy', '× 1 thread', 'CPU ms/page', 'RSS@200 MB', 'RSS@end MB', 'end/200', 'peak MB', 'items / note'];

/** Realistic-site variants: the row name, the extra `gleaner crawl` arguments. `gleaner-1t` is the
 * whole crawl on one JS thread (the issue's single-thread figure); `gleaner-2t` the chain in two
 * worker threads (one per core here); `gleaner-1w` (with --only) one worker thread. */
const GLEANER_VARIANTS: Record<string, string[]> = { 'gleaner-2t': ['--threads', '2'], 'gleaner-1t': ['--threads', '0'], 'gleaner-1w': ['--threads', '1'] };
const DEFAULT_REALISTIC = ['scrapy', 'gleaner-2t', 'gleaner-1t'];

interface Section {
  rows: string[][];
  notes: string[];
  load: string;
}

/** One row of the table: `r` the best round of its crawler (highest pages/s), `median` the median
 * pages/s over its rounds; ratios compare best rounds (issue 26: same-run ratios, best of the rounds). */
function rowCells(site: string, r: RealisticRow, scrapyRate: number, oneThread: number, median?: number, rounds = 1): string[] {
  const rate = r.pages / r.secs;
  return [
    site,
    rounds > 1 ? `${r.variant} (best of ${rounds})` : r.variant,
    String(r.pages),
    r.secs.toFixed(1),
    rate.toFixed(1),
    median !== undefined && rounds > 1 ? median.toFixed(1) : '-',
    r.variant.startsWith('gleaner') && scrapyRate ? (rate / scrapyRate).toFixed(2) : '-',
    r.variant.startsWith('gleaner') && r.variant !== 'gleaner-1t' && oneThread ? (rate / oneThread).toFixed(2) : '-',
    r.cpuSecs !== undefined && Number.isFinite(r.cpuSecs) ? ((1000 * r.cpuSecs) / r.pages).toFixed(1) : '-',
    r.rss200 ? String(mb(r.rss200)) : '-',
    String(mb(r.rssEnd)),
    ratio(r.rssEnd, r.rss200),
    r.peak ? String(mb(r.peak)) : '-',
    [r.itemsText, r.note].filter(Boolean).join('; '),
  ];
}

async function benchRealistic(only: string[] | undefined, rounds: number, profile: boolean): Promise<Section | undefined> {
  if (!existsSync(path.join(CRAWLSITE, 'serve.ts'))) {
    console.log(`\nbench:crawl realistic site: ${CRAWLSITE} not found (set GLEANER_CRAWLSITE): skipped`);
    return undefined;
  }
  const scrapy = await hasScrapy();
  // dist/ current before the first round: no row pays for a build (npm run crawl would rebuild)
  ensureBuilt();
  const variants = (only ?? DEFAULT_REALISTIC).filter((v) => (v === 'scrapy' && scrapy) || v in GLEANER_VARIANTS);
  if (!variants.length) return undefined;
  const site = await serveCrawlsite();
  const work = mkdtempSync(path.join(tmpdir(), 'bench-crawlsite-'));
  const rows: RealisticRow[] = [];
  let profileLines: string[] | undefined;
  const loadBefore = loadLine();
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate the order between rounds so neither side always runs on a warmer machine.
      const order = round % 2 ? [...variants].reverse() : variants;
      for (const v of order) {
        process.stderr.write(`bench:crawl: realistic site, ${v}${rounds > 1 ? ` (round ${round + 1})` : ''} …\n`);
        rows.push((await runRealistic(v, site, work)).row);
      }
    }
    if (profile) {
      process.stderr.write('bench:crawl: realistic site, gleaner-2t under the CPU profiler …\n');
      const profileDir = mkdtempSync(path.join(tmpdir(), 'bench-prof-'));
      profileLines = (await runRealistic('gleaner-2t', site, work, profileDir)).profile;
      rmSync(profileDir, { recursive: true, force: true });
    }
  } finally {
    site.close();
    rmSync(work, { recursive: true, force: true });
  }
  const rate = (r: RealisticRow) => r.pages / r.secs;
  const byVariant = variants.map((v) => rows.filter((r) => r.variant === v).sort((a, b) => rate(b) - rate(a)));
  const best = (v: string) => byVariant[variants.indexOf(v)]?.[0];
  const scrapyRate = best('scrapy') ? rate(best('scrapy')!) : 0;
  const oneThread = best('gleaner-1t') ? rate(best('gleaner-1t')!) : 0;
  const median = (rs: RealisticRow[]) => {
    const xs = rs.map(rate).sort((a, b) => a - b);
    return xs.length % 2 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
  };
  const notes = [
    `realistic = ${path.relative(ROOT, CRAWLSITE)} (2,000 pages of 30–60 KB, ~150 links each), whole processes, start-up included: gleaner = npm run crawl -- <spider> with every middleware on (-2t: --threads 2, the chain in two worker threads; -1t: --threads 0, one JS thread; -1w: --threads 1); scrapy = fixture_spider.py, ${SCRAPY_CONCURRENCY} concurrent`,
    'CPU ms/page = user + system CPU of the whole process tree (npm wrapper included) per page; targets (issue 26): gleaner-2t ≥ 2 × scrapy and ≥ 1.6 × gleaner-1t, RSS end/200 ≤ 1.5',
  ];
  if (!scrapy) notes.push(`Scrapy not run (${PYTHON} cannot import scrapy: apt-get install python3-scrapy)`);
  if (profileLines) notes.push('\n' + profileLines.join('\n'));
  notes.push(`${rounds} round(s), the crawlers alternating in order round by round; each row is a crawler's best round (pages/s), 'median p/s' its median over the rounds; RSS and CPU of the best round, peak the highest of all rounds`);
  const table = byVariant.filter((rs) => rs.length).map((rs) => rowCells('realistic', { ...rs[0]!, peak: Math.max(...rs.map((r) => r.peak ?? 0)) || undefined }, scrapyRate, oneThread, median(rs), rs.length));
  return { rows: table, notes, load: `realistic: ${loadBefore} → ${loadLine()}` };
}

async function benchLight(only: string[] | undefined, total: number): Promise<Section | undefined> {
  const variants = ['cheerio-defaults', 'cheerio-tuned', 'gleaner'].filter((v) => !only || only.includes(v));
  if (!variants.length) return undefined;
  const server = spawn(process.execPath, ['--import', 'tsx', here, '--serve', '--pages', String(total)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(String(d).trim())));
  const url = `http://127.0.0.1:${port}`;
  const rows: RunResult[] = [];
  const loadBefore = loadLine();
  try {
    for (const v of variants) {
      const dir = mkdtempSync(path.join(tmpdir(), `bench-crawl-${v}-`));
      process.stderr.write(`bench:crawl: light site, ${v} …\n`);
      const out = await child(['--run', v, url, dir, '--pages', String(total), '--max-secs', String(MAX_SECS)]);
      rows.push(JSON.parse(out.trim().split('\n').pop()!) as RunResult);
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    server.kill();
  }
  const cells = rows.map((r) =>
    rowCells('light', { ...r, note: [r.heap200 && r.heapEnd ? `heap ${mb(r.heap200)}→${mb(r.heapEnd)} MB` : '', r.pages < total * 0.99 ? `stopped at the ${MAX_SECS} s cap (--max-secs)` : '', r.skipped ? `ran without ${r.skipped.join(', ')}` : ''].filter(Boolean).join('; ') }, 0, 0),
  );
  const notes = [
    `light = a generated ${total}-page site (${SECTIONS} sections, lists of ${PER_LIST}, ${RELATED} repeated links per page), crawled in-process, start-up excluded: CheerioCrawler with defaults / tuned, gleaner with every middleware on (the chain in worker threads, one per core); heap = live JS heap of the main thread after a full GC; target: gleaner ≥ 140 pages/s`,
  ];
  return { rows: cells, notes, load: `light: ${loadBefore} → ${loadLine()}` };
}

async function main(): Promise<void> {
  const total = Number(argValue('--pages') ?? 2000);
  if (args[0] === '--serve') return serveSite(total);
  if (args[0] === '--run') {
    const r = await runVariant(args[1]!, args[2]!, total, args[3]!);
    process.stdout.write(JSON.stringify(r) + '\n');
    process.exit(0);
  }
  // The shared-crawl (Redis) mode is its own bench, wired as a flag.
  if (args.includes('--redis')) return (await import('./crawl-redis.js')).main(args);
  const site = argValue('--site') ?? 'both';
  const only = argValue('--only')?.split(',');
  const rounds = Math.max(1, Number(argValue('--rounds') ?? 2));
  const sections: Section[] = [];
  if (site === 'realistic' || site === 'both') {
    const s = await benchRealistic(only, rounds, args.includes('--profile'));
    if (s) sections.push(s);
  }
  if (site === 'light' || site === 'both') {
    const s = await benchLight(only, total);
    if (s) sections.push(s);
  }
  if (!sections.length) return;
  printTable(`bench:crawl — on 127.0.0.1 (${sections.map((s) => s.load).join('; ')})`, HEADER, sections.flatMap((s) => s.rows));
  for (const n of sections.flatMap((s) => s.notes)) console.log(n);
}

await main();
