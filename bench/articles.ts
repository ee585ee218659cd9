/**
 * Article extraction benchmark (issue 4): gleaner beside @mozilla/readability (on linkedom and on
 * jsdom) and @extractus/article-extractor, in one run, one table.
 *
 *   npm run bench:articles [-- --only aeb,cwce,readability,gne,speed] [--tools gleaner,rl,rj,ae] [--passes 3] [--dump out.jsonl]
 *
 * Data sets (read from ../shared/data, see its README): articles/aeb (AEB metric), articles/cwce-zh
 * (content bag-of-tokens F1 / date same day and minute / author exact, gold UNKNOWN = none),
 * articles/readability (title exact over all pages / byline and published day over pages whose gold has one), articles/gne-zh (title exact /
 * time day, and minute when shown / author exact). Speed: pages per second on the AEB pages in one
 * process (median over passes; gleaner decodes the bytes itself, the peers get the decoded string),
 * RSS after the gleaner passes (peers are imported only afterwards).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createPage } from '../src/core/page.js';
import { findDates } from '../src/core/dates.js';
import type { Item } from '../src/core/item.js';
import { extractManifest } from '../src/cli/extract.js';
import { readManifest, readExpected, printTable, median, dataPath, type ManifestEntry } from './lib/data.js';
import { aebPageScore, aebAggregate, bagF1, sameText, type PageScore } from './lib/metrics.js';

interface Extracted {
  title?: string;
  author?: string;
  published?: string;
  text?: string;
  /** Readability variant: line breaks between blocks. */
  textBlocks?: string;
}
/** A page as the tools get it: `html` is decoded lazily (only the peers read it). */
interface PageInput {
  readonly html: string;
  url: string;
  bytes: Uint8Array;
  e: ManifestEntry;
}
type Tool = { key: string; name: string; run(p: PageInput): Promise<Extracted> | Extracted };

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = new Set((opt('only') ?? 'aeb,cwce,readability,gne,speed').split(','));
const toolFilter = opt('tools') ? new Set(opt('tools')!.split(',')) : undefined;
const passes = Number(opt('passes') ?? 3);
const dumpFile = opt('dump');
const dump: unknown[] = [];

/** Fixed reference time for relative dates in the benchmark pages (none of the gold needs "now"). */
const FETCHED_AT = new Date('2026-01-01T00:00:00Z');

/**
 * gleaner as a user runs it: `gleaner extract --batch MANIFEST --kind article` (extractManifest,
 * the same function the command calls: the whole chain, site templates learned per group), once
 * per data set; the tool then reads the items by manifest id.
 */
const batchItems = new Map<string, Item>();
async function runBatch(manifest: string): Promise<number> {
  const t0 = performance.now();
  const { entries, items } = await extractManifest(dataPath(manifest), { kind: 'article', fetchedAt: FETCHED_AT });
  entries.forEach((e, i) => batchItems.set(e.id, items[i]!));
  return (performance.now() - t0) / 1000;
}
const gleaner: Tool = {
  key: 'gleaner',
  name: 'gleaner',
  run({ e }) {
    const a = batchItems.get(e.id);
    if (!a) throw new Error(`no batch item for ${e.id}`);
    return { title: a.title, author: a.kind === 'article' ? a.author : undefined, published: a.kind === 'article' ? a.publishedAt : undefined, text: a.content ?? '' };
  },
};

/** Block-level tags after which the Readability variant inserts a line break. */
const BLOCK_END = /<\/(?:p|div|h[1-6]|li|blockquote|pre|tr|td|th|figure|section|article|ul|ol|dd|dt)>|<br\s*\/?>/gi;
function htmlToText(html: string): string {
  return html
    .replace(BLOCK_END, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(Number.parseInt(h, 16)));
}

async function peers(): Promise<Tool[]> {
  const { Readability } = await import('@mozilla/readability');
  const { parseHTML } = await import('linkedom');
  const { JSDOM, VirtualConsole } = await import('jsdom');
  const { extractFromHtml } = await import('@extractus/article-extractor');
  const fromReadability = (doc: unknown): Extracted => {
    const r = new Readability(doc as Document).parse();
    return { title: r?.title ?? undefined, author: r?.byline ?? undefined, published: r?.publishedTime ?? undefined, text: r?.textContent ?? '', textBlocks: r?.content ? htmlToText(r.content) : '' };
  };
  const vc = new VirtualConsole();
  return [
    {
      key: 'rl',
      name: 'readability+linkedom',
      run({ html }) {
        const { document } = parseHTML(html);
        return fromReadability(document);
      },
    },
    {
      key: 'rj',
      name: 'readability+jsdom',
      run({ html, url }) {
        const dom = new JSDOM(html, { url, virtualConsole: vc });
        try {
          return fromReadability(dom.window.document);
        } finally {
          dom.window.close();
        }
      },
    },
    {
      key: 'ae',
      name: 'article-extractor',
      async run({ html, url }) {
        const a = await extractFromHtml(html, url).catch(() => null);
        return { title: a?.title || undefined, author: a?.author || undefined, published: a?.published || undefined, text: a?.content ? htmlToText(a.content) : '' };
      },
    },
  ];
}

interface Loaded {
  e: ManifestEntry;
  bytes: Uint8Array;
  html: string;
  url: string;
}
function load(manifest: string): Loaded[] {
  return readManifest(manifest).map((e) => {
    const bytes = readFileSync(e.file);
    const url = e.url ?? `http://example.invalid/${e.id}`;
    // the peers get the text as our decoder reads it (they cannot decode bytes themselves);
    // decoded on first use, so gleaner's RSS is measured without the peers' copies
    let html: string | undefined;
    return {
      e,
      bytes,

      url,
      get html() {
        return (html ??= createPage({ url, body: bytes }).html);
      },
    };
  });
}

async function runTool(t: Tool, p: Loaded): Promise<Extracted> {
  try {
    return await t.run(p);
  } catch (err) {
    return { text: '', title: undefined, author: String(err).slice(0, 0) || undefined };
  }
}

// ---- date comparison ------------------------------------------------------------------------
interface WallTime {
  y: number;
  mo: number;
  d: number;
  h?: number;
  mi?: number;
}
/** Wall-clock parts of an ISO value in a given offset (minutes), or in its own offset. */
function wallOf(iso: string, offsetMin?: number): WallTime | undefined {
  const m = iso.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/);
  if (!m) return undefined;
  if (!m[4]) return { y: +m[1]!, mo: +m[2]!, d: +m[3]! };
  if (offsetMin === undefined || !m[6]) return { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: +m[4]!, mi: +m[5]! };
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const local = new Date(t + offsetMin * 60000);
  return { y: local.getUTCFullYear(), mo: local.getUTCMonth() + 1, d: local.getUTCDate(), h: local.getUTCHours(), mi: local.getUTCMinutes() };
}
function offsetOf(iso: string): number | undefined {
  const m = iso.match(/(Z|([+-])(\d{2}):?(\d{2}))$/);
  if (!m) return undefined;
  return m[1] === 'Z' ? 0 : (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
}
/** Same day, and same minute when the gold has a time (`needMinute`). */
function sameDate(pred: string | undefined, gold: string | undefined | null, needMinute: boolean): boolean {
  if (!gold) return !pred;
  if (!pred) return false;
  const gOff = offsetOf(gold);
  const p = wallOf(pred, gOff);
  const g = wallOf(gold);
  if (!p || !g) return false;
  if (p.y !== g.y || p.mo !== g.mo || p.d !== g.d) return false;
  if (!needMinute || g.h === undefined) return true;
  return p.h === g.h && p.mi === g.mi;
}
/** Gold date written as displayed (`2005-5-7 21:23:57`) → ISO without offset. */
function goldDisplayedToIso(s: string): string | undefined {
  const d = findDates(s, { now: FETCHED_AT, timezone: 'UTC' })[0];
  if (!d) return undefined;
  const pad = (x: number) => String(x).padStart(2, '0');
  return d.precision === 'day' ? `${d.year}-${pad(d.month)}-${pad(d.day)}` : `${d.year}-${pad(d.month)}-${pad(d.day)}T${pad(d.hour!)}:${pad(d.minute!)}`;
}
const nullish = (v: unknown) => v === null || v === undefined || v === '' || v === 'UNKNOWN';
const sameOrNone = (pred: string | undefined, gold: unknown) => (nullish(gold) ? !pred : sameText(pred, String(gold)));

// ---- the data sets --------------------------------------------------------------------------
type Row = (string | number)[];
const results = new Map<string, Record<string, number | string>>();
const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${msg}\n`);
const put = (tool: string, col: string, v: number | string) => {
  progress(`${tool}: ${col} = ${v}`);
  const r = results.get(tool) ?? {};
  r[col] = v;
  results.set(tool, r);
};

async function benchAeb(tools: Tool[]) {
  const pages = load('articles/aeb/manifest.jsonl');
  if (tools.includes(gleaner)) await runBatch('articles/aeb/manifest.jsonl');
  for (const t of tools) {
    const scores: PageScore[] = [];
    const blockScores: PageScore[] = [];
    for (const p of pages) {
      const gold = readExpected<{ articleBody: string }>(p.e)?.articleBody ?? '';
      const x = await runTool(t, p);
      const s = aebPageScore(x.text ?? '', gold);
      scores.push(s);
      if (x.textBlocks !== undefined) blockScores.push(aebPageScore(x.textBlocks, gold));
      if (dumpFile && t.key === 'gleaner') dump.push({ set: 'aeb', id: p.e.id, tp: s.tp, fp: s.fp, fn: s.fn });
    }
    const a = aebAggregate(scores);
    put(t.name, 'AEB F1 (P/R)', `${a.f1.toFixed(3)} (${a.precision.toFixed(3)}/${a.recall.toFixed(3)})`);
    if (blockScores.length) put(`${t.name} +line breaks`, 'AEB F1 (P/R)', (() => { const b = aebAggregate(blockScores); return `${b.f1.toFixed(3)} (${b.precision.toFixed(3)}/${b.recall.toFixed(3)})`; })());
  }
}

async function benchCwce(tools: Tool[]) {
  const pages = load('articles/cwce-zh/manifest.jsonl');
  if (tools.includes(gleaner)) await runBatch('articles/cwce-zh/manifest.jsonl');
  for (const t of tools) {
    let f1 = 0;
    let date = 0;
    let author = 0;
    for (const p of pages) {
      const g = readExpected<{ author: string; date: string; content: string }>(p.e)!;
      const x = await runTool(t, p);
      const f = bagF1(x.text ?? '', g.content === 'UNKNOWN' ? '' : g.content).f1;
      f1 += f;
      const gIso = nullish(g.date) ? undefined : goldDisplayedToIso(g.date);
      const okDate = sameDate(x.published, gIso, true);
      date += okDate ? 1 : 0;
      const okAuthor = sameOrNone(x.author, g.author);
      author += okAuthor ? 1 : 0;
      if (dumpFile && t.key === 'gleaner') dump.push({ set: 'cwce', id: p.e.id, f1: f, date: okDate ? 1 : [x.published, g.date], author: okAuthor ? 1 : [x.author, g.author] });
    }
    const n = pages.length;
    put(t.name, 'cwce-zh F1/date/author', `${(f1 / n).toFixed(3)} / ${(date / n).toFixed(3)} / ${(author / n).toFixed(3)}`);
  }
}

async function benchReadability(tools: Tool[]) {
  const pages = load('articles/readability/manifest.jsonl');
  if (tools.includes(gleaner)) await runBatch('articles/readability/manifest.jsonl');
  for (const t of tools) {
    let title = 0;
    let byline = 0;
    let day = 0;
    let nByline = 0;
    let nDay = 0;
    for (const p of pages) {
      const g = readExpected<{ title: string | null; byline: string | null; publishedTime: string | null }>(p.e)!;
      const x = await runTool(t, p);
      // The gold is Readability's own output: a null byline or publishedTime means "Readability
      // found none", not "there is none", so those two are scored on pages where the gold has a
      // value (76 and 33 pages), as the trafilatura figures are.
      const okT = sameOrNone(x.title, g.title);
      const okB = !nullish(g.byline) && sameText(x.author, g.byline);
      const okD = !nullish(g.publishedTime) && sameDate(x.published, g.publishedTime, false);
      if (!nullish(g.byline)) nByline++;
      if (!nullish(g.publishedTime)) nDay++;
      title += +okT;
      byline += +okB;
      day += +okD;
      if (dumpFile && t.key === 'gleaner') dump.push({ set: 'readability', id: p.e.id, title: okT ? 1 : [x.title, g.title], byline: okB ? 1 : [x.author, g.byline], day: okD ? 1 : [x.published, g.publishedTime] });
    }
    const n = pages.length;
    put(t.name, 'readability title/byline/day', `${(title / n).toFixed(3)} / ${(byline / nByline).toFixed(3)} / ${(day / nDay).toFixed(3)}`);
  }
}

async function benchGne(tools: Tool[]) {
  const pages = load('articles/gne-zh/manifest.jsonl');
  if (tools.includes(gleaner)) await runBatch('articles/gne-zh/manifest.jsonl');
  for (const t of tools) {
    let title = 0;
    let time = 0;
    let author = 0;
    for (const p of pages) {
      const g = readExpected<{ title: string; publishedAt: string | null; publishedAtText: string | null; author: string | null }>(p.e)!;
      const x = await runTool(t, p);
      const okT = sameText(x.title, g.title);
      const showsTime = Boolean(g.publishedAtText && /\d[:：时点]\d/.test(g.publishedAtText));
      const okD = sameDate(x.published, g.publishedAt, showsTime);
      const okA = sameOrNone(x.author, g.author);
      title += +okT;
      time += +okD;
      author += +okA;
      if (dumpFile && t.key === 'gleaner') dump.push({ set: 'gne', id: p.e.id, title: okT ? 1 : [x.title, g.title], time: okD ? 1 : [x.published, g.publishedAt, g.publishedAtText], author: okA ? 1 : [x.author, g.author] });
    }
    const n = pages.length;
    put(t.name, 'gne-zh title/time/author', `${(title / n).toFixed(3)} / ${(time / n).toFixed(3)} / ${(author / n).toFixed(3)}`);
  }
}

async function benchSpeed(tools: Tool[]) {
  const pages = load('articles/aeb/manifest.jsonl');
  for (const t of tools) {
    // jsdom is ~30× slower: one pass is enough to rank it
    const n = t.key === 'rj' ? 1 : passes;
    const rates: number[] = [];
    const cpuRates: number[] = [];
    if (t === gleaner) {
      // the whole batch command per pass: read the files, decode, parse, the chain, the items
      for (let k = 0; k < n; k++) {
        const c0 = process.cpuUsage();
        const secs = await runBatch('articles/aeb/manifest.jsonl');
        const c = process.cpuUsage(c0);
        rates.push(pages.length / secs);
        cpuRates.push(pages.length / ((c.user + c.system) / 1e6));
      }
    }
    for (let k = 0; k < n && t !== gleaner; k++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (const p of pages) await runTool(t, p);
      const c = process.cpuUsage(c0);
      rates.push(pages.length / ((performance.now() - t0) / 1000));
      cpuRates.push(pages.length / ((c.user + c.system) / 1e6));
    }
    // wall-clock rate, and the rate per CPU-second of this process (less sensitive to other load
    // on a shared machine; includes GC and any helper threads of the process)
    put(t.name, 'pages/s (AEB)', median(rates).toFixed(1));
    put(t.name, 'pages/CPU-s', median(cpuRates).toFixed(1));
    if (t.key === 'gleaner') put(t.name, 'RSS MB', (process.memoryUsage().rss / 2 ** 20).toFixed(0));
  }
}

async function main() {
  const want = (k: string) => !toolFilter || toolFilter.has(k);
  const t0 = performance.now();
  // gleaner's speed and RSS first, before the peers' libraries are loaded
  if (only.has('speed') && want('gleaner')) await benchSpeed([gleaner]);
  const tools = [gleaner, ...(toolFilter && [...toolFilter].every((k) => k === 'gleaner') ? [] : await peers())].filter((t) => want(t.key));
  if (only.has('aeb')) await benchAeb(tools);
  if (only.has('cwce')) await benchCwce(tools);
  if (only.has('readability')) await benchReadability(tools);
  if (only.has('gne')) await benchGne(tools);
  if (only.has('speed')) await benchSpeed(tools.filter((t) => t.key !== 'gleaner'));
  const cols = [...new Set([...results.values()].flatMap((r) => Object.keys(r)))];
  const rows: Row[] = [...results.entries()].map(([name, r]) => [name, ...cols.map((c) => r[c] ?? '–')]);
  printTable(['tool', ...cols], rows);
  console.log(`(one process, ${((performance.now() - t0) / 1000).toFixed(0)} s; speed = median of ${passes} passes on a shared machine, jsdom 1 pass)`);
  if (dumpFile) writeFileSync(dumpFile, dump.map((d) => JSON.stringify(d)).join('\n') + '\n');
}

await main();
