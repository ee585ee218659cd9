/**
 * `npm run bench:content`: main content on a broad sample of the web (issue 11) — WCXB dev
 * (`wcxb-dev`, 1,358 gzipped pages from 1,181 domains, seven page types), scored with WCXB's own
 * metric (its evaluate.py, data README): tokens `\w+` of the lower-cased text, per-page multiset
 * P/R/F1, an empty gold scores 1 only for an empty prediction; the figure is the mean of per-page
 * F1, overall and per type.
 *
 * Rows, in one run:
 *   gleaner --kind auto     exactly `gleaner extract --batch wcxb-dev/manifest.jsonl` (extractManifest)
 *   gleaner --kind article  the same with `--kind article`
 *   Readability.js          @mozilla/readability over linkedom, on the page as our decoder reads it
 *   rs-trafilatura, Trafilatura: the published figures (not run here), for reference
 * and per row: title / author / date accuracy against WCXB's gold (title exact after whitespace
 * normalisation over all pages; author exact over pages whose gold has one; date = same calendar
 * day over pages whose gold has one), the share of pages whose gold is not empty but whose content
 * is, and the must-include / must-exclude snippet rates (share of the gold's `with` snippets found
 * in the content, of its `without` snippets found in it; case and whitespace normalised).
 *
 *   npm run bench:content [-- --only auto,article,readability] [--dump out.jsonl] [--split] [--folds DIR | --in-sample]
 *
 * The gleaner rows are leave-site-out: the main-text line model (middleware/article/lines.ts) is
 * trained on these pages, so each fold's pages (bench/lib/wcxb.ts wcxbFold, five folds by
 * registrable domain) go through the same extractManifest with GLEANER_LINE_MODEL set to the model
 * trained on the other folds — bench/line-folds/fold-<k>.json, which `npm run train:lines` writes
 * beside the shipped model (`--folds DIR`: another folder). `--in-sample`: the shipped model, which
 * saw every page (debugging only).
 *
 * `--split`: the figures on two halves of the domains (a seeded hash of the site), for thresholds
 * tuned on one half and checked on the other.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { extractManifest } from '../src/cli/extract.js';
import { decodeBody } from '../src/core/decode.js';
import type { Item } from '../src/core/item.js';
import { dataPath, readManifest, printTable, type ManifestEntry } from './lib/data.js';
import { siteHalf, WCXB_FOLDS, wcxbF1, wcxbFold, wcxbTokens } from './lib/wcxb.js';
import { LINE_MODEL_ENV } from '../middleware/article/lines.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = new Set((opt('only') ?? 'auto,article,readability').split(','));
const dumpFile = opt('dump');
const split = args.includes('--split');
/** The leave-site-out fold models `npm run train:lines` writes (committed beside the benches). */
const DEFAULT_FOLDS = fileURLToPath(new URL('./line-folds', import.meta.url));
const foldDir = args.includes('--in-sample') ? undefined : (opt('folds') ?? (existsSync(path.join(DEFAULT_FOLDS, 'fold-0.json')) ? DEFAULT_FOLDS : undefined));

const MANIFEST = 'wcxb-dev/manifest.jsonl';
const TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'] as const;
const TYPE_COL: Record<string, string> = { documentation: 'docs' };
/** Published on the release's dev folder (data README). */
const PUBLISHED: Record<string, Record<string, number>> = {
  'rs-trafilatura (published)': { all: 0.859, article: 0.932, documentation: 0.932, service: 0.844, forum: 0.808, collection: 0.716, listing: 0.707, product: 0.641 },
  'Trafilatura (published)': { all: 0.791, article: 0.926, documentation: 0.888, service: 0.763, forum: 0.585, collection: 0.553, listing: 0.589, product: 0.567 },
};

interface Gold extends ManifestEntry {
  type: string;
  title?: string | null;
  author?: string | null;
  date?: string | null;
  with?: string[];
  without?: string[];
  gold?: string;
}

const tokens = wcxbTokens;

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const snippetNorm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

interface Output {
  text: string;
  title?: string;
  author?: string;
  date?: string;
}

interface PageResult {
  id: string;
  type: string;
  site: string;
  f1: number;
  p: number;
  r: number;
  emptyMiss: boolean;
  title: boolean;
  author?: boolean;
  date?: boolean;
  withHit: number;
  withN: number;
  withoutHit: number;
  withoutN: number;
  kind?: string;
}

function score(g: Gold, out: Output, kind?: string): PageResult {
  const m = wcxbF1(out.text, g.gold ?? '');
  const text = snippetNorm(out.text);
  const withS = (g.with ?? []).filter((s) => norm(s));
  const withoutS = (g.without ?? []).filter((s) => norm(s));
  return {
    id: g.id,
    type: g.type,
    site: g.site ?? '',
    f1: m.f1,
    p: m.p,
    r: m.r,
    emptyMiss: tokens(g.gold ?? '').length > 0 && tokens(out.text).length === 0,
    title: norm(out.title) === norm(g.title),
    author: g.author ? norm(out.author) === norm(g.author) : undefined,
    date: g.date ? (out.date ?? '').slice(0, 10) === g.date.slice(0, 10) : undefined,
    withHit: withS.filter((s) => text.includes(snippetNorm(s))).length,
    withN: withS.length,
    withoutHit: withoutS.filter((s) => text.includes(snippetNorm(s))).length,
    withoutN: withoutS.length,
    kind,
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f3 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(3));

function summary(rs: PageResult[]): Record<string, string> {
  const row: Record<string, string> = { all: f3(mean(rs.map((r) => r.f1))) };
  for (const t of TYPES) row[t] = f3(mean(rs.filter((r) => r.type === t).map((r) => r.f1)));
  const au = rs.filter((r) => r.author !== undefined);
  const da = rs.filter((r) => r.date !== undefined);
  row.meta = `${f3(mean(rs.map((r) => +r.title)))} / ${f3(mean(au.map((r) => +r.author!)))} / ${f3(mean(da.map((r) => +r.date!)))}`;
  row.empty = `${((100 * rs.filter((r) => r.emptyMiss).length) / rs.length).toFixed(1)}%`;
  const sum = (f: (r: PageResult) => number) => rs.reduce((a, r) => a + f(r), 0);
  row.snippets = `${f3(sum((r) => r.withHit) / sum((r) => r.withN))} / ${f3(sum((r) => r.withoutHit) / sum((r) => r.withoutN))}`;
  return row;
}

function itemText(it: Item): string {
  return it.content ?? '';
}

/**
 * extractManifest fold by fold: fold k's pages (a manifest of their absolute paths) extracted with
 * GLEANER_LINE_MODEL = DIR/fold-k.json, the model trained without them; entries and items in the
 * manifest's order.
 */
async function extractFolds(golds: Gold[], kind: 'auto' | 'article', dir: string): Promise<{ entries: Gold[]; items: Item[] }> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'gleaner-wcxb-folds-'));
  const items = new Map<string, Item>();
  const before = process.env[LINE_MODEL_ENV];
  try {
    for (let k = 0; k < WCXB_FOLDS; k++) {
      const part = golds.filter((g) => wcxbFold(g.site ?? g.id) === k);
      const manifest = path.join(tmp, `fold-${k}.jsonl`);
      writeFileSync(manifest, part.map((g) => JSON.stringify({ id: g.id, path: g.file, url: g.url, site: g.site })).join('\n') + '\n');
      process.env[LINE_MODEL_ENV] = path.resolve(dir, `fold-${k}.json`);
      const r = await extractManifest(manifest, { kind });
      r.entries.forEach((e, i) => items.set(e.id, r.items[i]!));
    }
  } finally {
    if (before === undefined) delete process.env[LINE_MODEL_ENV];
    else process.env[LINE_MODEL_ENV] = before;
    rmSync(tmp, { recursive: true, force: true });
  }
  return { entries: golds, items: golds.map((g) => items.get(g.id)!) };
}

async function main() {
  const golds = readManifest(MANIFEST) as Gold[];
  const byId = new Map(golds.map((g) => [g.id, g]));
  const results = new Map<string, PageResult[]>();
  const timings: string[] = [];
  const started = performance.now();
  const progress = (msg: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${msg}\n`);

  for (const kind of ['auto', 'article'] as const) {
    if (!only.has(kind)) continue;
    const t0 = performance.now();
    const { entries, items } = foldDir ? await extractFolds(golds, kind, foldDir) : await extractManifest(dataPath(MANIFEST), { kind });
    const secs = (performance.now() - t0) / 1000;
    timings.push(`--kind ${kind} ${(entries.length / secs).toFixed(0)} pages/s`);
    const rs = entries.map((e, i) => {
      const it = items[i]!;
      return score(byId.get(e.id)!, { text: itemText(it), title: it.title, author: it.kind === 'article' ? it.author : undefined, date: it.kind === 'article' ? it.publishedAt : undefined }, it.kind);
    });
    results.set(`gleaner --kind ${kind}${foldDir ? ', leave-site-out' : ''}`, rs);
    progress(`gleaner --kind ${kind}: ${summary(rs).all}`);
  }

  if (only.has('readability')) {
    const { Readability } = await import('@mozilla/readability');
    const { parseHTML } = await import('linkedom');
    const t0 = performance.now();
    const rs = golds.map((g) => {
      let out: Output = { text: '' };
      try {
        const raw = readFileSync(g.file);
        const html = decodeBody(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).text;
        const { document } = parseHTML(html);
        const r = new Readability(document as unknown as Document).parse();
        out = { text: r?.textContent ?? '', title: r?.title ?? undefined, author: r?.byline ?? undefined, date: r?.publishedTime ?? undefined };
      } catch {
        /* a page Readability cannot parse scores as empty */
      }
      return score(g, out);
    });
    timings.push(`Readability ${(golds.length / ((performance.now() - t0) / 1000)).toFixed(0)} pages/s`);
    results.set('Readability.js + linkedom', rs);
    progress(`readability: ${summary(rs).all}`);
  }

  const cols = ['all', ...TYPES];
  const head = ['WCXB dev, mean per-page F1', ...cols.map((c) => TYPE_COL[c] ?? c), 'title / author / date', 'empty content, gold not', 'with / without snippets'];
  const rows: (string | number)[][] = [];
  for (const [name, rs] of results) {
    const s = summary(rs);
    rows.push([name, ...cols.map((c) => s[c]!), s.meta!, s.empty!, s.snippets!]);
  }
  for (const [name, v] of Object.entries(PUBLISHED)) rows.push([name, ...cols.map((c) => v[c]!.toFixed(3)), '–', '–', '–']);
  console.log(`WCXB dev (${golds.length} pages, ${new Set(golds.map((g) => g.site)).size} domains), WCXB metric; counts per type: ${TYPES.map((t) => `${t} ${golds.filter((g) => g.type === t).length}`).join(', ')}\n`);
  printTable(head, rows);
  console.log(`\n(one process, ${((performance.now() - started) / 1000).toFixed(0)} s; ${timings.join(', ')}; shared machine)`);

  if (split) {
    console.log('\nSplit by domain (seeded hash of the site): the same figures on each half');
    const srows: (string | number)[][] = [];
    for (const [name, rs] of results) {
      for (const h of ['A', 'B'] as const) {
        const part = rs.filter((r) => siteHalf(r.site) === h);
        const s = summary(part);
        srows.push([`${name} [${h}, ${part.length}]`, ...cols.map((c) => s[c]!), s.empty!, s.snippets!]);
      }
    }
    printTable(['half', ...cols.map((c) => TYPE_COL[c] ?? c), 'empty', 'with / without'], srows);
  }

  const auto = results.get('gleaner --kind auto') ?? results.get('gleaner --kind auto, leave-site-out');
  if (auto) {
    console.log('\nItem kind by WCXB type (--kind auto):');
    const kinds = ['article', 'list', 'forum', 'other'];
    printTable(['type', ...kinds], TYPES.map((t) => [t, ...kinds.map((k) => auto.filter((r) => r.type === t && r.kind === k).length)]));
  }

  if (dumpFile) {
    const lines: string[] = [];
    for (const [name, rs] of results) for (const r of rs) lines.push(JSON.stringify({ tool: name, ...r }));
    writeFileSync(dumpFile, lines.join('\n') + '\n');
  }
}

await main();
