/**
 * `npm run bench:sites [-- --only NAME,… --errors]`: zero-config crawls of whole real sites (issue 12).
 *
 * Each site of `../shared/data/sites-crawl` (generated blogs with per-URL truth: type, title, date,
 * author, text, list items, next page) is served from its `public/` folder on 127.0.0.1 by this
 * process, and crawled by a spider that has its start URL and nothing else — the user's path:
 * `gleaner crawl <spider file> --out items.jsonl --fresh`, as its own process (start-up included).
 * The items are then scored against the truth, per site:
 *
 * - type accuracy per true type (detail → article, list → list, other → other); a page the crawl
 *   never stored counts as wrong;
 * - on posts stored as articles: title (exact, whitespace-normalised), day (same calendar day in
 *   the truth's own offset), author (exact), content F1 (bag of tokens, data README);
 * - list item F1 (set of item paths vs the truth's, per page, mean) and next-page accuracy (the
 *   path equals the truth's next, or both absent), over all list pages of the truth (a list page
 *   stored as another kind has no items and no next page) and, apart, over those stored as lists;
 * - duplicate items: stored items whose URL is the same page as another's (`…/index.html` and `…/`,
 *   a trailing slash);
 * - pages/s as the crawl's summary prints it (the machine is shared: see `uptime`).
 *
 * Crawl order: a concurrent crawl meets a site's pages in an order its timing decides, and what a
 * page is typed may hang on what the site showed before it. Each site is crawled `--orders N` times
 * (default 3), each time with other seeded per-URL response delays of the static server (0 to
 * `--delay MS`, default 200: seededDelay in lib/static-site.ts), so the answers come back in another
 * order, the same one in every run. The first table holds each figure in the site's worst order (the
 * pooled row sums each site's worst order of that column); the second the mean over the orders and
 * the spread of the type figures (worst–best).
 *
 * A third table checks that the list shapes learned during a crawl (middleware/list/shapes.ts) do
 * not hang on the order the crawl met the pages: each site's list pages, read from disk, go through
 * extractList + observeListPage in `--list-orders N` (default 5) seeded random orders and with the
 * shortest lists first (the worst case: nothing learned yet when they come), item F1 per order.
 *
 * `--errors` writes every miss to `storage/bench-sites/<site>.errors.txt` (`<site>.<order>.errors.txt`
 * with several orders).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath, printTable } from './lib/data.js';
import { canon, keyOf, prf, seededDelay, serve } from './lib/static-site.js';
import { bagF1, sameText } from './lib/metrics.js';
import { createPage } from '../src/core/page.js';
import { extractList, observeListPage, emptyShapes } from '../middleware/list/index.js';
import { SITE_TYPE_MODEL_ENV } from '../middleware/classifier/site-rules.js';
import { foldModel } from './lib/sites-crawl.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = argValue('--only')?.split(',');
const writeErrors = args.includes('--errors');
/** Crawl with the shipped site-type model (trained on every site) instead of each site's fold. */
const inSample = args.includes('--in-sample');
/** Crawl orders per site (seeded response delays 1..N, up to DELAY_MS each). */
const ORDERS = Math.max(1, Number(argValue('--orders') ?? 3));
const DELAY_MS = Number(argValue('--delay') ?? 200);
/** Orders of the list-shape table. */
const LIST_ORDERS = Number(argValue('--list-orders') ?? 5);
/** Page budget of each crawl: well above every site's page count (the sites hold ≤ 120 pages). */
const MAX_PAGES = 2000;

interface TruthPage {
  type: 'detail' | 'list' | 'other';
  title?: string;
  date?: string;
  author?: string;
  text?: string;
  items?: string[];
  next?: string;
}
interface Truth {
  name: string;
  lang: string;
  start: string;
  pages: Record<string, TruthPage>;
}
interface Item {
  url: string;
  kind: string;
  title?: string;
  author?: string;
  publishedAt?: string;
  content?: string;
  items?: Array<{ url: string }>;
  nextPage?: string;
}

// ------------------------------------------------------------------ crawl ----------------------
interface CrawlRun {
  items: Item[];
  pagesPerSec: number;
  pages: number;
  secs: number;
  summary: string;
}

async function crawlSite(name: string, origin: string, work: string, siteModel: string | undefined): Promise<CrawlRun> {
  const spiderFile = path.join(work, `${name}.mjs`);
  // Zero-config: the start URL, and the loopback permission this bench needs. Nothing else.
  writeFileSync(spiderFile, `export default ${JSON.stringify({ name: `bench-${name}`, startUrls: [`${origin}/`], allowPrivateAddresses: true, maxPages: MAX_PAGES })};\n`);
  const out = path.join(work, `${name}.jsonl`);
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'crawl', spiderFile, '--out', out, '--fresh'], {
    cwd: ROOT,
    // leave one site out: the site-type model trained without this site (GLEANER_SITE_TYPE_MODEL)
    env: { ...process.env, CRAWLEE_STORAGE_DIR: path.join(work, 'storage'), ...(siteModel ? { [SITE_TYPE_MODEL_ENV]: siteModel } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code: number = await new Promise((r) => child.on('close', (c) => r(c ?? 1)));
  const secs = (Date.now() - t0) / 1000;
  if (code !== 0 || !existsSync(out)) throw new Error(`crawl of ${name} failed (exit ${code}):\n${stderr.slice(-3000)}\n${stdout}`);
  const items = readFileSync(out, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Item);
  const m = /pages:\s+(\d+) \(([\d.]+) pages\/s\)/.exec(stdout);
  return { items, pages: Number(m?.[1] ?? NaN), pagesPerSec: Number(m?.[2] ?? NaN), secs, summary: stdout.trim() };
}

// ------------------------------------------------------------------ scoring -------------------
/** A truth key for a URL of this origin: root-relative path, percent-encoded as WHATWG URLs do,
 * `index.html` folded into its directory. */
/** Same calendar day: the predicted instant, shown in the truth's own offset, falls on its day. */
function sameDay(pred: string | undefined, gold: string): boolean {
  if (!pred) return false;
  const t = Date.parse(pred);
  if (Number.isNaN(t)) return false;
  const m = /([+-])(\d\d):?(\d\d)$|Z$/.exec(gold);
  const offsetMin = m && m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date(t + offsetMin * 60_000).toISOString().slice(0, 10);
  return local === gold.slice(0, 10);
}

const KIND: Record<TruthPage['type'], string> = { detail: 'article', list: 'list', other: 'other' };
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const frac = (n: number, d: number) => (d ? `${(n / d).toFixed(3)} (${n}/${d})` : '-');

interface SiteScore {
  name: string;
  type: Record<TruthPage['type'], [number, number]>;
  posts: number;
  title: [number, number];
  day: [number, number];
  author: [number, number];
  content: number[];
  itemF1All: number[];
  itemF1Typed: number[];
  nextAll: [number, number];
  nextTyped: [number, number];
  duplicates: number;
  extra: number;
  pagesPerSec: number;
  pages: number;
  secs: number;
  errors: string[];
}

function score(truth: Truth, run: CrawlRun, origin: string): SiteScore {
  const byKey = new Map<string, Item[]>();
  let extra = 0;
  for (const it of run.items) {
    const k = keyOf(it.url, origin);
    if (k === undefined) continue;
    const key = canon(k);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(it);
  }
  const pages = new Map(Object.entries(truth.pages).map(([k, v]) => [canon(k), v]));
  let duplicates = 0;
  for (const [k, xs] of byKey) {
    duplicates += xs.length - 1;
    if (!pages.has(k)) extra++;
  }
  const s: SiteScore = {
    name: truth.name,
    type: { detail: [0, 0], list: [0, 0], other: [0, 0] },
    posts: 0,
    title: [0, 0],
    day: [0, 0],
    author: [0, 0],
    content: [],
    itemF1All: [],
    itemF1Typed: [],
    nextAll: [0, 0],
    nextTyped: [0, 0],
    duplicates,
    extra,
    pagesPerSec: run.pagesPerSec,
    pages: run.pages,
    secs: run.secs,
    errors: [],
  };
  const err = (k: string, what: string) => s.errors.push(`${decodeURI(k)}\t${what}`);
  for (const [k, t] of pages) {
    const it = byKey.get(k)?.[0];
    s.type[t.type][1]++;
    if (it?.kind === KIND[t.type]) s.type[t.type][0]++;
    else err(k, `type: truth ${t.type}, got ${it ? it.kind : 'no item'}`);
    if (t.type === 'detail' && it?.kind === 'article') {
      s.posts++;
      s.title[1]++;
      if (sameText(it.title, t.title)) s.title[0]++;
      else err(k, `title: ${JSON.stringify(t.title)} got ${JSON.stringify(it.title)}`);
      if (t.date) {
        s.day[1]++;
        if (sameDay(it.publishedAt, t.date)) s.day[0]++;
        else err(k, `day: ${t.date} got ${it.publishedAt}`);
      }
      if (t.author) {
        s.author[1]++;
        if (sameText(it.author, t.author)) s.author[0]++;
        else err(k, `author: ${t.author} got ${it.author}`);
      }
      const f = bagF1(it.content ?? '', t.text ?? '').f1;
      s.content.push(f);
      if (f < 0.9) err(k, `content F1 ${f.toFixed(3)}`);
    }
    if (t.type === 'list') {
      const gold = new Set((t.items ?? []).map(canon));
      const pred = new Set((it?.items ?? []).map((e) => keyOf(e.url, origin)).filter((x): x is string => x !== undefined).map(canon));
      const f = prf(pred, gold);
      const nextPred = it?.nextPage ? keyOf(it.nextPage, origin) : undefined;
      const nextOk = t.next ? nextPred !== undefined && canon(nextPred) === canon(t.next) : nextPred === undefined;
      s.itemF1All.push(f);
      s.nextAll[1]++;
      if (nextOk) s.nextAll[0]++;
      if (it?.kind === 'list') {
        s.itemF1Typed.push(f);
        s.nextTyped[1]++;
        if (nextOk) s.nextTyped[0]++;
      }
      if (f < 1) {
        const missed = [...gold].filter((g) => !pred.has(g)).map(decodeURI);
        const wrong = [...pred].filter((p) => !gold.has(p)).map(decodeURI);
        err(k, `items F1 ${f.toFixed(3)} (${it?.kind ?? 'no item'}): missed ${missed.length} [${missed.slice(0, 3).join(' ')}] wrong ${wrong.length} [${wrong.slice(0, 4).join(' ')}]`);
      }
      if (!nextOk) err(k, `next: truth ${t.next ?? '-'} got ${nextPred ? decodeURI(nextPred) : '-'} (${it?.kind ?? 'no item'})`);
    }
  }
  return s;
}

// ------------------------------------------------------------------ main ----------------------
const base = dataPath('sites-crawl');
if (!existsSync(base)) {
  console.error(`data set not found: ${base}\nSet GLEANER_DATA to the folder that holds sites-crawl/.`);
  process.exit(2);
}
const sites = readdirSync(base).filter((d) => existsSync(path.join(base, d, 'truth.json')) && (!only || only.includes(d))).sort();
const work = mkdtempSync(path.join(tmpdir(), 'gleaner-bench-sites-'));
/** Each site's scores, one per crawl order. */
const runs: SiteScore[][] = [];
try {
  for (const name of sites) {
    const truth = JSON.parse(readFileSync(path.join(base, name, 'truth.json'), 'utf8')) as Truth;
    const perOrder: SiteScore[] = [];
    for (let order = 1; order <= ORDERS; order++) {
      const server = await serve(path.join(base, name, 'public'), { delay: seededDelay(order, DELAY_MS) });
      let run: CrawlRun;
      try {
        run = await crawlSite(name, server.origin, work, inSample ? undefined : foldModel(name));
      } finally {
        await server.close();
      }
      const s = score(truth, run, server.origin);
      perOrder.push(s);
      process.stderr.write(`${name} (order ${order}): ${run.pages} pages, ${run.items.length} items in ${run.secs.toFixed(1)} s; other ${s.type.other[0]}/${s.type.other[1]}, lists ${s.type.list[0]}/${s.type.list[1]}, posts ${s.type.detail[0]}/${s.type.detail[1]}\n`);
      if (writeErrors) {
        const dir = path.join(ROOT, 'storage', 'bench-sites');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, ORDERS > 1 ? `${name}.${order}.errors.txt` : `${name}.errors.txt`), s.errors.sort().join('\n') + '\n\n' + run.summary + '\n');
      }
    }
    runs.push(perOrder);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

type Frac = (s: SiteScore) => [number, number];
type Values = (s: SiteScore) => number[];
const ratio = ([a, n]: [number, number]) => (n ? a / n : 1);
/** The site's order with the lowest figure (fraction or mean of values). */
const worstOf = <T>(xs: SiteScore[], figure: (s: SiteScore) => number, pick: (s: SiteScore) => T): T => pick(xs.reduce((w, s) => (figure(s) < figure(w) ? s : w)));
const fracCols: Array<[string, Frac]> = [
  ['posts as articles', (s) => s.type.detail],
  ['list pages as list', (s) => s.type.list],
  ['other as other', (s) => s.type.other],
  ['title', (s) => s.title],
  ['day', (s) => s.day],
  ['author', (s) => s.author],
];
const valueCols: Array<[string, Values]> = [
  ['content F1', (s) => s.content],
  ['list item F1', (s) => s.itemF1All],
  ['item F1 (typed list)', (s) => s.itemF1Typed],
];
const nextCol: Frac = (s) => s.nextAll;
const worstRow = (name: string, xs: SiteScore[][]): (string | number)[] => [
  name,
  ...fracCols.map(([, f]) => frac(...xs.map((o) => worstOf(o, (s) => ratio(f(s)), f)).reduce<[number, number]>((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]))),
  ...valueCols.map(([, f]) => mean(xs.flatMap((o) => worstOf(o, (s) => (f(s).length ? mean(f(s)) : 1), f)))),
  frac(...xs.map((o) => worstOf(o, (s) => ratio(nextCol(s)), nextCol)).reduce<[number, number]>((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0])),
  Math.max(...xs.flatMap((o) => o.map((s) => s.duplicates))),
  Math.max(...xs.flatMap((o) => o.map((s) => s.extra))),
  mean(xs.flatMap((o) => o.map((s) => s.pagesPerSec))),
];
const rows = runs.map((o) => worstRow(o[0]!.name, [o]));
rows.push(worstRow('all pages', runs));
console.log(`\n### Zero-config crawls of sites-crawl (a spider with its start URL only; \`gleaner crawl\` as its own process; ${inSample ? 'IN SAMPLE: the shipped site-type model, trained on every site — for debugging' : 'leave one site out: each site crawled with the site-type model trained on the other sites'}); each figure in the site's worst of ${ORDERS} crawl order${ORDERS > 1 ? 's' : ''}\n`);
printTable(
  ['site', 'posts as articles', 'list pages as list', 'other as other', 'title', 'day', 'author', 'content F1', 'list item F1', 'item F1 (typed list)', 'next page', 'dup items', 'items off truth', 'pages/s'],
  rows,
);
console.log(`\ntitle/day/author/content: on posts stored as articles; list item F1 and next page: on every list page of the truth (a page stored as another kind scores 0 unless its truth is empty); item F1 (typed list): on list pages stored as lists. Crawl orders: seeded response delays of 0–${DELAY_MS} ms per URL (seeds 1–${ORDERS}); the pooled row adds up each site's worst order of each column; dup items and items off truth: the most in any order. pages/s: shared 2-core machine.`);

// the mean over orders, and the spread of the type figures
const pooledFrac = (o: SiteScore[], f: Frac) => ratio(o.reduce<[number, number]>((a, s) => [a[0] + f(s)[0], a[1] + f(s)[1]], [0, 0]));
const spread = (xs: number[]) => (xs.every((x) => Number.isNaN(x)) ? '-' : `${mean(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`);
const meanRows: (string | number)[][] = runs.map((o) => [o[0]!.name, ...fracCols.slice(0, 3).map(([, f]) => spread(o.filter((s) => f(s)[1]).map((s) => ratio(f(s))))), ...valueCols.slice(0, 2).map(([, f]) => mean(o.map((s) => mean(f(s))))), mean(o.map((s) => ratio(nextCol(s))))]);
const byOrder = Array.from({ length: ORDERS }, (_, i) => runs.map((o) => o[i]!));
meanRows.push(['all pages, by order', ...fracCols.slice(0, 3).map(([, f]) => spread(byOrder.map((o) => pooledFrac(o, f)))), ...valueCols.slice(0, 2).map(([, f]) => mean(byOrder.map((o) => mean(o.flatMap(f))))), mean(byOrder.map((o) => pooledFrac(o, nextCol)))]);
console.log(`\n### The same crawls: mean over the ${ORDERS} orders (worst–best)\n`);
printTable(['site', 'posts as articles, mean (range)', 'lists as list, mean (range)', 'other as other, mean (range)', 'content F1, mean', 'list item F1, mean', 'next page, mean'], meanRows);

// ------------------------------------------------------------------ order robustness ----------
/** Deterministic shuffle (LCG, seeded): the same orders every run. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
const orderRows: (string | number)[][] = [];
for (const name of sites) {
  const truth = JSON.parse(readFileSync(path.join(base, name, 'truth.json'), 'utf8')) as Truth;
  const origin = 'http://127.0.0.1:8000';
  const lists = Object.entries(truth.pages)
    .filter(([, t]) => t.type === 'list')
    .map(([k, t]) => ({ k, t, body: readFileSync(path.join(base, name, 'public', decodeURIComponent(k), k.endsWith('/') ? 'index.html' : '')) }));
  const run = (order: typeof lists) => {
    const shapes = emptyShapes();
    const f1s = order.map(({ k, t, body }) => {
      const page = createPage({ url: origin + k, body });
      const r = extractList(page, { shapes });
      observeListPage(page, shapes);
      const pred = new Set(r.items.map((e) => keyOf(e.url, origin)).filter((x): x is string => x !== undefined).map(canon));
      return prf(pred, new Set((t.items ?? []).map(canon)));
    });
    return mean(f1s);
  };
  const random = Array.from({ length: LIST_ORDERS }, (_, i) => run(shuffled(lists, i + 1)));
  const shortFirst = run([...lists].sort((a, b) => (a.t.items?.length ?? 0) - (b.t.items?.length ?? 0)));
  orderRows.push([name, lists.length, mean(random), Math.min(...random), shortFirst]);
}
console.log(`\n### List item F1 by the order list pages arrive (extractList + observeListPage on the saved pages; ${LIST_ORDERS} seeded random orders)\n`);
printTable(['site', 'list pages', `mean of ${LIST_ORDERS} random orders`, 'worst random order', 'shortest lists first'], orderRows);
