/**
 * `npm run bench:layout [-- --only NAME,… --sample N]`: the visual-layout stage (issue 28) measured
 * on rendered real sites.
 *
 * Each site of `../shared/data/sites-crawl` (generated blogs with their CSS and themes, per-URL
 * truth) is served from its `public/` folder on 127.0.0.1 and crawled twice in render mode
 * (Playwright + chromium) by a zero-config spider — the user's path, `gleaner crawl <spider file>
 * --out items.jsonl --fresh` as its own process: once with `middleware: { layout: false }` (no box
 * script, no regions) and once with `{ layout: true }` (the box script in every page, regions read
 * by the article pre-clean and the list extractor). The arms alternate site by site. Per site and
 * arm:
 *
 * - detail content F1: bag-of-tokens F1 of the item's `content` against the truth's `text`, on
 *   every post of the truth (whatever kind it was stored as; a page not stored scores 0);
 * - list item F1: the item paths against the truth's `items`, every list page of the truth;
 * - type accuracy: every page of the truth (detail → article, list → list, other → other);
 * - border share: on list and other pages, the share of `content` characters in lines that are
 *   text outside the page's main column and not inside it. The main column is the truth's own
 *   (the data README names, per theme, the column its list items were taken from: `MAIN_COLUMN`
 *   below), read from the served file; the bench only uses it to score;
 * - crawl seconds (wall, the whole process) and the slowdown of the layout arm.
 *
 * A second table isolates the box script's own cost: `--sample N` pages per site (default 12),
 * rendered as the crawler renders them (load, network idle ≤ 5 s, serialise), with the in-page
 * script timed between (its share of the page's render time).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Element } from 'domhandler';
import { dataPath, printTable } from './lib/data.js';
import { canon, fileFor, keyOf, prf, serve } from './lib/static-site.js';
import { bagF1 } from './lib/metrics.js';
import { createPage } from '../src/core/page.js';
import { BOX_SCRIPT } from '../src/core/layout.js';
import { CHROMIUM_ARGS, chromiumPath } from '../src/crawler/run/crawlee-crawler.js';
import { applyLayout } from '../middleware/layout/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = argValue('--only')?.split(',');
const SAMPLE = Number(argValue('--sample') ?? 12);
/** Only the second table (the box script's and the stage's own cost): no crawls. */
const COST_ONLY = args.includes('--cost-only');
const MAX_PAGES = 2000;

/** The main column of each site's theme, as the data README gives it (the column the truth's list
 * items were taken from). Scoring only: text outside it is the page's border text. */
const MAIN_COLUMN: Record<string, string> = {
  'hexo-arthurwang': '.main-inner', // NexT
  'hexo-ash': '#content-inner', // Melody
  'jekyll-bigsk1': '#main-wrapper', // Chirpy
  'hexo-bdffzi': '#board', // Fluid
  'hexo-adamyuanyuan': '.content_container', // Maupassant
  'hexo-2882889': '.mid-col', // Smackdown
  'hexo-007xiaoxingxing': '.content', // Cactus
  'hugo-137782866': 'main.container', // FixIt
  'jekyll-dcreager': '.body', // the site's own layout
};

interface TruthPage {
  type: 'detail' | 'list' | 'other';
  text?: string;
  items?: string[];
}
interface Truth {
  name: string;
  pages: Record<string, TruthPage>;
}
interface Item {
  url: string;
  kind: string;
  content?: string;
  items?: Array<{ url: string }>;
}

// ------------------------------------------------------------------ crawl ----------------------
interface CrawlRun {
  items: Item[];
  secs: number;
}

async function crawlSite(name: string, origin: string, work: string, layout: boolean): Promise<CrawlRun> {
  const spiderName = `bench-layout-${name}-${layout ? 'on' : 'off'}`;
  const spiderFile = path.join(work, `${spiderName}.mjs`);
  const spider = { name: spiderName, startUrls: [`${origin}/`], allowPrivateAddresses: true, maxPages: MAX_PAGES, crawler: { render: true }, middleware: { layout } };
  writeFileSync(spiderFile, `export default ${JSON.stringify(spider)};\n`);
  const out = path.join(work, `${spiderName}.jsonl`);
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'crawl', spiderFile, '--out', out, '--fresh', '--log-level', 'warning'], {
    cwd: ROOT,
    env: { ...process.env, CRAWLEE_STORAGE_DIR: path.join(work, 'storage') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-5000)));
  child.stdout.resume();
  const code: number = await new Promise((r) => child.on('close', (c) => r(c ?? 1)));
  const secs = (Date.now() - t0) / 1000;
  if (code !== 0 || !existsSync(out)) throw new Error(`crawl of ${name} failed (exit ${code}):\n${stderr}`);
  return { items: readFileSync(out, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Item), secs };
}

// ------------------------------------------------------------------ scoring -------------------
const KIND: Record<TruthPage['type'], string> = { detail: 'article', list: 'list', other: 'other' };
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const norm = (t: string) => t.replace(/\s+/g, ' ').trim();

/** Texts of the served page inside and outside its main column (the truth's). */
function columnTexts(file: string, url: string, selector: string): { inside: Set<string>; outside: Set<string> } {
  const page = createPage({ url, body: readFileSync(file) });
  const mains = new Set<Element>(page.$()(selector).toArray() as Element[]);
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const s of page.segments) {
    let n: Element | null = s.element;
    while (n && !mains.has(n)) n = n.parent instanceof Element ? n.parent : null;
    (n ? inside : outside).add(norm(s.text));
  }
  return { inside, outside };
}

interface ArmScore {
  content: number[];
  itemF1: number[];
  typeOk: number;
  pages: number;
  borderChars: number;
  contentChars: number;
  secs: number;
}

function score(name: string, truth: Truth, run: CrawlRun, origin: string): ArmScore {
  const byKey = new Map<string, Item>();
  for (const it of run.items) {
    const k = keyOf(it.url, origin);
    if (k !== undefined && !byKey.has(canon(k))) byKey.set(canon(k), it);
  }
  const s: ArmScore = { content: [], itemF1: [], typeOk: 0, pages: 0, borderChars: 0, contentChars: 0, secs: run.secs };
  const publicDir = path.join(dataPath('sites-crawl'), name, 'public');
  for (const [key, t] of Object.entries(truth.pages)) {
    const it = byKey.get(canon(key));
    s.pages++;
    if (it?.kind === KIND[t.type]) s.typeOk++;
    if (t.type === 'detail') s.content.push(bagF1(it?.content ?? '', t.text ?? '').f1);
    if (t.type === 'list') {
      const pred = new Set((it?.items ?? []).map((e) => keyOf(e.url, origin)).filter((x): x is string => x !== undefined).map(canon));
      s.itemF1.push(prf(pred, new Set((t.items ?? []).map(canon))));
    }
    if ((t.type === 'list' || t.type === 'other') && it?.content) {
      const f = fileFor(publicDir, key).file;
      if (!f || !/\.html?$/.test(f)) continue;
      const { inside, outside } = columnTexts(f, origin + key, MAIN_COLUMN[name]!);
      for (const line of it.content.split('\n')) {
        const l = norm(line);
        s.contentChars += l.length;
        if (outside.has(l) && !inside.has(l)) s.borderChars += l.length;
      }
    }
  }
  return s;
}

// ------------------------------------------------------------------ box script cost ----------
interface Cost {
  renderMs: number;
  scriptMs: number;
  /** The layout stage on the serialised page: boxes read, regions computed. */
  stageMs: number;
  /** Serialised size with the boxes / without. */
  bytesWith: number;
  bytesWithout: number;
  pages: number;
}

async function scriptCost(origin: string, keys: string[]): Promise<Cost> {
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  let renderMs = 0;
  let scriptMs = 0;
  let stageMs = 0;
  let bytesWith = 0;
  let bytesWithout = 0;
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const k of keys) {
      const t0 = performance.now();
      await page.goto(origin + k, { waitUntil: 'load', timeout: 30_000 });
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
      const before = await page.content();
      const t1 = performance.now();
      await page.evaluate(BOX_SCRIPT);
      const t2 = performance.now();
      const html = await page.content();
      renderMs += t1 - t0 + (performance.now() - t2);
      scriptMs += t2 - t1;
      bytesWithout += before.length;
      bytesWith += html.length;
      const p = createPage({ url: origin + k, body: html });
      const t3 = performance.now();
      applyLayout(p);
      stageMs += performance.now() - t3;
    }
  } finally {
    await browser.close();
  }
  return { renderMs, scriptMs, stageMs, bytesWith, bytesWithout, pages: keys.length };
}

// ------------------------------------------------------------------ main ----------------------
const base = dataPath('sites-crawl');
if (!existsSync(base)) {
  console.error(`data set not found: ${base}\nSet GLEANER_DATA to the folder that holds sites-crawl/.`);
  process.exit(2);
}
if (!existsSync(chromiumPath())) {
  console.error(`chromium not found at ${chromiumPath()} (apt-get install -y chromium, or set GLEANER_CHROMIUM)`);
  process.exit(2);
}
const sites = readdirSync(base).filter((d) => existsSync(path.join(base, d, 'truth.json')) && MAIN_COLUMN[d] && (!only || only.includes(d))).sort();
const work = mkdtempSync(path.join(tmpdir(), 'gleaner-bench-layout-'));
const results: Array<{ name: string; off?: ArmScore; on?: ArmScore; cost: Cost }> = [];
try {
  for (const [i, name] of sites.entries()) {
    const truth = JSON.parse(readFileSync(path.join(base, name, 'truth.json'), 'utf8')) as Truth;
    const server = await serve(path.join(base, name, 'public'));
    try {
      const arms: Partial<Record<'on' | 'off', ArmScore>> = {};
      // alternate which arm goes first: the machine's load drifts
      for (const layout of COST_ONLY ? [] : i % 2 ? [true, false] : [false, true]) {
        const run = await crawlSite(name, server.origin, work, layout);
        arms[layout ? 'on' : 'off'] = score(name, truth, run, server.origin);
        process.stderr.write(`${name} layout ${layout ? 'on' : 'off'}: ${run.items.length} items in ${run.secs.toFixed(1)} s\n`);
      }
      const keys = Object.keys(truth.pages).filter((k) => !k.endsWith('.xml'));
      const step = Math.max(1, Math.floor(keys.length / SAMPLE));
      const cost = await scriptCost(server.origin, keys.filter((_, j) => j % step === 0).slice(0, SAMPLE));
      results.push({ name, off: arms.off, on: arms.on, cost });
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const pair = (a: number, b: number) => `${f3(a)} → ${f3(b)}`;
const border = (s: ArmScore) => (s.contentChars ? s.borderChars / s.contentChars : NaN);
const pooled = (arm: 'on' | 'off', f: (s: ArmScore) => number[]) => mean(results.flatMap((r) => f(r[arm]!)));
const sum = (arm: 'on' | 'off', f: (s: ArmScore) => number) => results.reduce((a, r) => a + f(r[arm]!), 0);
const rows: (string | number)[][] = results.filter((r) => r.on && r.off).map(({ name, off: offArm, on: onArm }) => {
  const off = offArm!;
  const on = onArm!;
  return [
    name,
    pair(mean(off.content), mean(on.content)),
    pair(mean(off.itemF1), mean(on.itemF1)),
    pair(off.typeOk / off.pages, on.typeOk / on.pages),
    pair(border(off), border(on)),
    `${off.secs.toFixed(0)} → ${on.secs.toFixed(0)} (${((on.secs / off.secs - 1) * 100).toFixed(0)} %)`,
  ];
});
if (!COST_ONLY) {
  rows.push([
    'all pages',
    pair(pooled('off', (s) => s.content), pooled('on', (s) => s.content)),
    pair(pooled('off', (s) => s.itemF1), pooled('on', (s) => s.itemF1)),
    pair(sum('off', (s) => s.typeOk) / sum('off', (s) => s.pages), sum('on', (s) => s.typeOk) / sum('on', (s) => s.pages)),
    pair(sum('off', (s) => s.borderChars) / sum('off', (s) => s.contentChars), sum('on', (s) => s.borderChars) / sum('on', (s) => s.contentChars)),
    `${sum('off', (s) => s.secs).toFixed(0)} → ${sum('on', (s) => s.secs).toFixed(0)} (${((sum('on', (s) => s.secs) / sum('off', (s) => s.secs) - 1) * 100).toFixed(0)} %)`,
  ]);
  console.log('\n### Render crawls of sites-crawl, layout regions off → on (`gleaner crawl`, crawler.render, middleware.layout false / true)\n');
  printTable(['site', 'detail content F1', 'list item F1', 'type accuracy', 'border share (list+other content)', 'crawl s (wall)'], rows);
  console.log('\ncontent F1: every post of the truth; list item F1: every list page; type accuracy: every page; border share: characters of list/other `content` in lines found only outside the truth\'s main column. Crawl seconds: whole processes on a shared machine (see uptime).');
}
const costRow = (name: string, c: Cost) => [
  name,
  c.pages,
  (c.renderMs / c.pages).toFixed(0),
  (c.scriptMs / c.pages).toFixed(1),
  (c.stageMs / c.pages).toFixed(1),
  `${(((c.scriptMs + c.stageMs) / c.renderMs) * 100).toFixed(1)} %`,
  `+${(((c.bytesWith - c.bytesWithout) / c.bytesWithout) * 100).toFixed(1)} %`,
];
const total = results.reduce<Cost>((a, r) => ({ renderMs: a.renderMs + r.cost.renderMs, scriptMs: a.scriptMs + r.cost.scriptMs, stageMs: a.stageMs + r.cost.stageMs, bytesWith: a.bytesWith + r.cost.bytesWith, bytesWithout: a.bytesWithout + r.cost.bytesWithout, pages: a.pages + r.cost.pages }), { renderMs: 0, scriptMs: 0, stageMs: 0, bytesWith: 0, bytesWithout: 0, pages: 0 });
console.log('\n### The layout\'s own cost (pages rendered as the crawler renders them: load, network idle ≤ 5 s, serialise; the box script and the layout stage timed alone)\n');
printTable(['site', 'pages', 'render ms/page', 'box script ms/page', 'layout stage ms/page', '(script + stage) / render', 'serialised DOM'], [...results.map((r) => costRow(r.name, r.cost)), costRow('all', total)]);
