/**
 * `npm run bench:crawl [-- --pages 2000 --max-secs 120 --only gleaner,...]`: crawl speed and memory, side by side in one run, on a
 * generated site served from a separate process on 127.0.0.1:
 *
 *   1. Crawlee CheerioCrawler with its defaults (on-disk storage, autoscaled concurrency),
 *   2. the same tuned as in issue 2 (in-memory storage, desiredConcurrency 20, a seen-set before
 *      enqueueLinks so repeated links never become requests),
 *   3. gleaner with the full middleware chain (every built-in on, dataset written to disk).
 *
 * Each crawler runs in its own child process so RSS is its own. Prints pages/s and RSS after 200
 * and after all pages. Target (issue 2): gleaner ≥ 80 pages/s, RSS(2000) ≤ 1.5 × RSS(200).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { enPost, zhArticle, rng, pick } from '../src/demo/text.js';

const here = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

// ---------------------------------------------------------------- the site -------------------
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

// ---------------------------------------------------------------- the crawlers ---------------
interface RunResult {
  variant: string;
  /** Built-in middleware that could not run (e.g. a missing model): the chain was not complete. */
  skipped?: string[];
  pages: number;
  secs: number;
  rss200?: number;
  rssEnd: number;
  /** Live heap after a full GC: growth here would be a leak; RSS also holds V8's spare heap. */
  heap200?: number;
  heapEnd?: number;
}

const mb = (b: number) => Math.round(b / 1024 / 1024);

async function runVariant(variant: string, url: string, total: number, storageDir: string): Promise<RunResult> {
  let pages = 0;
  let rss200: number | undefined;
  let heap200: number | undefined;
  const liveHeap = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed;
  };
  const onPage = () => {
    pages++;
    if (pages === 200) {
      rss200 = process.memoryUsage().rss;
      heap200 = liveHeap();
    }
  };
  // Load every module before the clock starts: this measures crawling, not start-up.
  const { CheerioCrawler, Configuration, MemoryStorage } = await import('crawlee');
  const { runSpider } = await import('../src/crawler/crawl.js');
  const { silentLogger } = await import('../src/core/middleware.js');
  const skipped: string[] = [];
  // As `gleaner crawl` does (src/crawler/memory.ts); GLEANER_HEAP=speed compares without it.
  if (variant === 'gleaner') (await import('../src/crawler/memory.js')).preferSmallHeap();
  const start = Date.now();
  if (variant === 'gleaner') {
    const log = { ...silentLogger, warning: (m: string) => void (/middleware "([^"]+)" skipped/.exec(m)?.[1] && skipped.push(/middleware "([^"]+)" skipped/.exec(m)![1]!)) };
    await runSpider(
      {
        name: 'bench',
        startUrls: [`${url}/`],
        allowPrivateAddresses: true,
        maxPages: total,
        extraMiddleware: [{ name: 'bench-probe', priority: 10_000, process: onPage }],
        // The spider defaults (BENCH_CONCURRENCY overrides maxConcurrency for experiments).
        crawler: { robotsTxt: false, ...(process.env.BENCH_CONCURRENCY ? { maxConcurrency: Number(process.env.BENCH_CONCURRENCY) } : {}) },
      },
      { storageDir, log, fresh: true },
    );
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
  const rssEnd = process.memoryUsage().rss;
  return { variant, pages, secs, rss200, rssEnd, heap200, heapEnd: liveHeap(), skipped: skipped.length ? skipped : undefined };
}

function child(argv: string[], onLine?: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', here, ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d;
      onLine?.(String(d));
    });
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
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
  // Orchestrator: one server process, one process per crawler, in turn.
  const server = spawn(process.execPath, ['--import', 'tsx', here, '--serve', '--pages', String(total)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(String(d).trim())));
  const url = `http://127.0.0.1:${port}`;
  const only = argValue('--only')?.split(',');
  const variants = ['cheerio-defaults', 'cheerio-tuned', 'gleaner'].filter((v) => !only || only.includes(v));
  const rows: RunResult[] = [];
  try {
    for (const v of variants) {
      const dir = mkdtempSync(path.join(tmpdir(), `bench-crawl-${v}-`));
      process.stderr.write(`bench:crawl: ${v} …\n`);
      const out = await child(['--run', v, url, dir, '--pages', String(total), '--max-secs', String(MAX_SECS)]);
      rows.push(JSON.parse(out.trim().split('\n').pop()!) as RunResult);
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    server.kill();
  }
  const header = ['crawler', 'pages', 'seconds', 'pages/s', 'RSS@200 MB', 'RSS@end MB', 'ratio', 'heap@200 MB', 'heap@end MB'];
  const table = rows.map((r) => [
    r.variant,
    String(r.pages),
    r.secs.toFixed(1),
    (r.pages / r.secs).toFixed(1),
    r.rss200 ? String(mb(r.rss200)) : '-',
    String(mb(r.rssEnd)),
    r.rss200 ? (r.rssEnd / r.rss200).toFixed(2) : '-',
    r.heap200 ? String(mb(r.heap200)) : '-',
    r.heapEnd ? String(mb(r.heapEnd)) : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(`\nbench:crawl — ${total}-page generated site on 127.0.0.1 (${SECTIONS} sections, lists of ${PER_LIST}, ${RELATED} repeated links per page)`);
  console.log(line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table) console.log(line(row));
  for (const r of rows) if (r.pages < total * 0.99) console.log(`note: ${r.variant} stopped at ${r.pages} pages (time cap ${MAX_SECS} s, --max-secs)`);
  for (const r of rows) if (r.skipped) console.log(`note: ${r.variant} ran without ${r.skipped.join(', ')} (the middleware could not load; see its warning)`);
  console.log('heap = live JS heap after a full GC (taken after the RSS reading); target: gleaner ≥ 80 pages/s with every middleware on; RSS(all) ≤ 1.5 × RSS(200)');
}

await main();
