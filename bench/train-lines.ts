/**
 * `npm run train:lines`: trains the main-text line model (middleware/article/lines.ts) on WCXB
 * dev and writes `middleware/article/line-model.json`.
 *
 * A line's label: its tokens (WCXB's `\w+`, lower-cased) occur in that order in the page's gold
 * main text; a line of one or two tokens ("Home", "Sign in") only when a short gold line holds
 * them, since two common words occur somewhere in most golds. Each line weighs its share of the
 * page's tokens, so every page counts alike, as in WCXB's mean of per-page F1.
 *
 * The model is a logistic regression over sparse binary features, fitted with AdaGrad and an L2
 * penalty (a few dozen lines; the SVM library the page-type classifier uses is dense). A feature
 * is kept only when pages of at least MIN_FEATURE_SITES domains carry it.
 *
 * The figure to report is held out: five folds by registrable domain (bench/lib/wcxb.ts
 * wcxbFold), each scored with a model — weights and threshold — fitted on the other four only.
 * Those five models are written to bench/line-folds/fold-<k>.json (`--folds DIR`: elsewhere) for
 * bench:content's leave-site-out rows (every page extracted through the user's path with the
 * model that never saw its domain). The shipped model is then fitted on all pages with the
 * mean of the folds' thresholds.
 *
 *   npm run train:lines [-- --out FILE] [--no-write] [--folds DIR] [--dump held-out.jsonl] [--held-out-only] [--cache FILE (the pages' features, for reruns)]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createPage } from '../src/core/page.js';
import { buildTree } from '../middleware/article/tree.js';
import { extractContent } from '../middleware/article/content.js';
import { extractTitle } from '../middleware/article/title.js';
import { bodyRange, lineFeatures, type LineModel } from '../middleware/article/lines.js';
import { readManifest, type ManifestEntry } from './lib/data.js';
import { WCXB_FOLDS, wcxbFold, wcxbF1, wcxbTokens } from './lib/wcxb.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const OUT = opt('out') ?? new URL('../middleware/article/line-model.json', import.meta.url).pathname;
/** Where the fold models go (bench:content's leave-site-out rows read them). */
const FOLDS = new URL('./line-folds', import.meta.url).pathname;

/** A feature must occur on pages of this many domains (no single site's class names). */
const MIN_FEATURE_SITES = Number(process.env.MFS ?? 25);
/** AdaGrad step and L2 penalty; epochs over the shuffled lines. Chosen on half A (held-out F1 on
 * half B moved by < 0.003 between 0.05 and 0.2 and between 1e-6 and 1e-4). */
const STEP = Number(process.env.STEP ?? 0.1);
const L2 = Number(process.env.L2 ?? 1e-5);
const EPOCHS = Number(process.env.EPOCHS ?? 4);
/** Short lines (tokens) labelled by whole gold lines only, and the longest such gold line. */
const SHORT_LINE_TOKENS = 2;
const SHORT_GOLD_LINE_MAX = 8;
/** Thresholds tried. */
const THRESHOLDS = Array.from({ length: 17 }, (_, k) => 0.1 + 0.05 * k);

interface Gold extends ManifestEntry {
  type: string;
  gold?: string;
}

interface PageData {
  id: string;
  site: string;
  type: string;
  gold: string;
  texts: string[];
  feats: Int32Array[];
  y: Uint8Array;
  w: Float32Array;
}

const vocab = new Map<string, number>();
const names: string[] = [];
const sitesOf: Set<string>[] = [];
const intern = (n: string, site: string) => {
  let id = vocab.get(n);
  if (id === undefined) {
    id = names.length;
    vocab.set(n, id);
    names.push(n);
    sitesOf.push(new Set());
  }
  sitesOf[id]!.add(site);
  return id;
};

function labels(texts: string[], gold: string): Uint8Array {
  const g = ' ' + wcxbTokens(gold).join(' ') + ' ';
  const shortGold = new Set<string>();
  for (const line of gold.split('\n')) {
    const t = wcxbTokens(line);
    if (t.length && t.length <= SHORT_GOLD_LINE_MAX) shortGold.add(' ' + t.join(' ') + ' ');
  }
  const y = new Uint8Array(texts.length);
  texts.forEach((text, i) => {
    const t = wcxbTokens(text);
    if (!t.length) return;
    const key = ' ' + t.join(' ') + ' ';
    if (t.length > SHORT_LINE_TOKENS) y[i] = g.includes(key) ? 1 : 0;
    else y[i] = [...shortGold].some((s) => s.includes(key)) ? 1 : 0;
  });
  return y;
}

function load(): PageData[] {
  const golds = readManifest('wcxb-dev/manifest.jsonl') as Gold[];
  const out: PageData[] = [];
  for (const g of golds) {
    const raw = readFileSync(g.file);
    const page = createPage({ url: g.url || `http://localhost/${g.id}`, body: raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw });
    const tree = buildTree(page);
    const title = extractTitle(page, { tree })?.title;
    const body = extractContent(page, { title }, tree);
    const { lines, names: fs } = lineFeatures(tree, body ? bodyRange(tree, body.root, body.paragraphs) : undefined, title);
    const site = g.site ?? g.id;
    const texts = lines.map((l) => l.text);
    const ntok = texts.map((t) => wcxbTokens(t).length);
    const total = ntok.reduce((a, b) => a + b, 0) || 1;
    out.push({
      id: g.id,
      site,
      type: g.type,
      gold: g.gold ?? '',
      texts,
      feats: fs.map((f) => Int32Array.from(f.map((n) => intern(n, site)))),
      y: labels(texts, g.gold ?? ''),
      w: Float32Array.from(ntok.map((n) => n / total)),
    });
  }
  return out;
}

/** Seeded shuffle (mulberry32), so a training run is repeatable. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fit(pages: PageData[]): { w: Float64Array; b: number; keep: Uint8Array } {
  const sites = new Set(pages.map((p) => p.site));
  // features carried by enough of these pages' domains
  const keep = new Uint8Array(names.length);
  const count = new Map<number, Set<string>>();
  for (const p of pages) for (const f of p.feats) for (const id of f) {
    let s = count.get(id);
    if (!s) count.set(id, (s = new Set()));
    s.add(p.site);
  }
  for (const [id, s] of count) if (s.size >= Math.min(MIN_FEATURE_SITES, sites.size)) keep[id] = 1;
  const w = new Float64Array(names.length);
  const g2 = new Float64Array(names.length).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  const idx: [number, number][] = [];
  pages.forEach((p, pi) => p.w.forEach((wt, li) => wt > 0 && idx.push([pi, li])));
  const rand = rng(1);
  // line weights are page shares (sum 1 per page): scale so a page's lines sum to its line count
  // on average, which keeps the AdaGrad step in its usual range
  const scale = idx.length / pages.length;
  for (let e = 0; e < EPOCHS; e++) {
    for (let k = idx.length - 1; k > 0; k--) {
      const j = Math.floor(rand() * (k + 1));
      [idx[k], idx[j]] = [idx[j]!, idx[k]!];
    }
    for (const [pi, li] of idx) {
      const p = pages[pi]!;
      const f = p.feats[li]!;
      let z = b;
      for (const id of f) if (keep[id]) z += w[id]!;
      const pr = 1 / (1 + Math.exp(-z));
      const g = (pr - p.y[li]!) * p.w[li]! * scale;
      for (const id of f) {
        if (!keep[id]) continue;
        const gi = g + L2 * w[id]!;
        g2[id] = g2[id]! + gi * gi;
        w[id] = w[id]! - (STEP * gi) / Math.sqrt(g2[id]!);
      }
      gb += g * g;
      b -= (STEP * g) / Math.sqrt(gb);
    }
  }
  return { w, b, keep };
}

function probs(m: { w: Float64Array; b: number; keep: Uint8Array }, p: PageData): Float64Array {
  return Float64Array.from(p.feats.map((f) => {
    let z = m.b;
    for (const id of f) if (m.keep[id]) z += m.w[id]!;
    return 1 / (1 + Math.exp(-z));
  }));
}

function pageF1(p: PageData, pr: Float64Array, t: number): number {
  return wcxbF1(p.texts.filter((_, i) => pr[i]! >= t).join('\n'), p.gold).f1;
}

const TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'];
function report(label: string, pages: PageData[], f1s: number[]) {
  const m = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const row = [label, m(f1s).toFixed(3), ...TYPES.map((t) => m(f1s.filter((_, i) => pages[i]!.type === t)).toFixed(3))];
  console.log('| ' + row.join(' | ') + ' |');
}

async function main() {
  const t0 = performance.now();
  const cache = opt('cache');
  let pages: PageData[];
  if (cache && existsSync(cache)) {
    const c = JSON.parse(readFileSync(cache, 'utf8')) as { names: string[]; sites: string[][]; pages: (Omit<PageData, 'feats' | 'y' | 'w'> & { feats: number[][]; y: number[]; w: number[] })[] };
    c.names.forEach((n, i) => {
      vocab.set(n, i);
      names.push(n);
      sitesOf.push(new Set(c.sites[i]));
    });
    pages = c.pages.map((p) => ({ ...p, feats: p.feats.map((f) => Int32Array.from(f)), y: Uint8Array.from(p.y), w: Float32Array.from(p.w) }));
  } else {
    pages = load();
    if (cache) writeFileSync(cache, JSON.stringify({ names, sites: sitesOf.map((s) => [...s]), pages: pages.map((p) => ({ ...p, feats: p.feats.map((f) => [...f]), y: [...p.y], w: [...p.w] })) }));
  }
  process.stderr.write(`loaded ${pages.length} pages, ${names.length} features in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  console.log('| lines model, WCXB dev | all | ' + TYPES.join(' | ') + ' |');
  console.log('|---|' + '---|'.repeat(TYPES.length + 1));
  const chosen: number[] = [];
  const foldDir = opt('folds') ?? (args.includes('--no-write') ? undefined : FOLDS);
  if (foldDir) mkdirSync(foldDir, { recursive: true });
  const heldF1 = new Map<PageData, number>();
  const dumped: string[] = [];
  for (let k = 0; k < WCXB_FOLDS; k++) {
    const train = pages.filter((p) => wcxbFold(p.site) !== k);
    const test = pages.filter((p) => wcxbFold(p.site) === k);
    const m = fit(train);
    const trainProbs = train.map((p) => probs(m, p));
    let bestT = 0.5;
    let best = -1;
    for (const t of THRESHOLDS) {
      const f = train.reduce((a, p, i) => a + pageF1(p, trainProbs[i]!, t), 0) / train.length;
      if (f > best) [best, bestT] = [f, t];
    }
    chosen.push(bestT);
    for (const p of test) heldF1.set(p, pageF1(p, probs(m, p), bestT));
    if (opt('dump')) for (const p of test) dumped.push(JSON.stringify({ id: p.id, type: p.type, f1: heldF1.get(p), probs: [...probs(m, p)].map((x) => Math.round(x * 1000) / 1000), y: [...p.y], texts: p.texts }));
    if (foldDir) writeFileSync(path.join(foldDir, `fold-${k}.json`), modelJson(m, bestT, `WCXB dev without fold ${k} of ${WCXB_FOLDS} (${train.length} pages); features on >= ${MIN_FEATURE_SITES} domains`));
    process.stderr.write(`fold ${k}: ${train.length} training pages, threshold ${bestT.toFixed(2)}\n`);
  }
  report(`${WCXB_FOLDS}-fold by domain, each fold scored with the model of the others (the lines alone)`, [...heldF1.keys()], [...heldF1.values()]);
  if (opt('dump')) writeFileSync(opt('dump')!, dumped.join('\n') + '\n');
  if (args.includes('--held-out-only')) return;
  const m = fit(pages);
  const threshold = chosen.reduce((x, y) => x + y, 0) / chosen.length;
  report(`fitted on all (threshold ${threshold.toFixed(2)}), in-sample`, pages, pages.map((p) => pageF1(p, probs(m, p), threshold)));
  if (!args.includes('--no-write')) {
    const json = modelJson(m, threshold, `WCXB dev (${pages.length} pages, ${new Set(pages.map((p) => p.site)).size} domains); features on >= ${MIN_FEATURE_SITES} domains`);
    writeFileSync(OUT, json);
    process.stderr.write(`wrote ${OUT}: ${json.split('\n').length - 6} weights\n`);
  }
}

/** The model file: weights of the kept features (|w| >= 1e-3, four decimals), one per line. */
function modelJson(m: { w: Float64Array; b: number; keep: Uint8Array }, threshold: number, trainedOn: string): string {
  const weights: Record<string, number> = {};
  m.w.forEach((v, id) => {
    if (m.keep[id] && Math.abs(v) >= 1e-3) weights[names[id]!] = Math.round(v * 1e4) / 1e4;
  });
  const model: LineModel = {
    format: 'gleaner-lines-1',
    bias: Math.round(m.b * 1e4) / 1e4,
    threshold: Math.round(threshold * 1e4) / 1e4,
    trainedOn,
    weights: Object.fromEntries(Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  return JSON.stringify(model, null, 0).replace(/,"/g, ',\n"') + '\n';
}

await main();
