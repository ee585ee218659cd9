/**
 * `npm run train:floors`: trains the floor model (middleware/forum/model.ts) on every labelled
 * thread page — forums/real-threads and forums/webforum52 (per-post gold) — and writes
 * `middleware/forum/floor-model.json`.
 *
 * The candidate lists of each page (records.ts `recordSets`) are labelled by how well they match
 * the gold posts (bench/lib/forum-gold.ts: the bench's positional alignment, where a record holds
 * a post when it shows nearly all of the post's tokens; a list is not blamed for a main post it
 * lacks or adds, which the main-post stage decides). The list scorer is a linear model over the
 * lists' features (set-features.ts), fitted as a softmax over each page's candidates (targets
 * weighted towards the best-matching lists) with AdaGrad and an L2 penalty. A feature is kept only
 * when pages of at least MIN_FEATURE_SITES sites carry it (no single board's class names).
 *
 * The figure to report is held out: every site (registrable domain) is scored with a model fitted
 * on the other sites only (`--folds`: the mean chosen-list quality per set; the bench's own
 * leave-site-out run, bench/forums.ts, trains the same per-site models through `foldModel`).
 *
 *   npm run train:floors [-- --out FILE] [--no-write] [--only SUBSTRING] [--verbose]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPage } from '../src/core/page.js';
import { analysePage } from '../middleware/forum/index.js';
import { assembleSet, recordSets } from '../middleware/forum/records.js';
import { pageFacts, setFeatures } from '../middleware/forum/set-features.js';
import type { Features, FloorModel, Scorer } from '../middleware/forum/model.js';
import { GoldThread, bagOf, recordText } from './lib/forum-gold.js';
import { loadCases, type Case, type SetName } from './forums.js';

/** A feature must occur on pages of this many sites. */
export const MIN_FEATURE_SITES = Number(process.env.MFS ?? 3);
const STEP = Number(process.env.STEP ?? 0.05);
const L2 = Number(process.env.L2 ?? 1e-3);
const EPOCHS = Number(process.env.EPOCHS ?? 300);
/** Soft targets: a list's target weight is exp(SHARPNESS × (its quality − the best quality)). */
const SHARPNESS = 30;
/** Pages whose best list matches less than this teach the list scorer nothing. */
const MIN_BEST_QUALITY = 0.5;
/** The rules' choice is a feature fitted without penalty, starting from this weight: the model
 * departs from the rules where the other features agree against them. */
const UNPENALISED = 'rule';
const RULE_PRIOR = Number(process.env.RULE_PRIOR ?? 2);

export const TRAINING_SETS: SetName[] = ['real-threads', 'webforum52'];

/** Registrable domain of a site name (`math.stackexchange.com` → `stackexchange.com`): the unit a
 * held-out figure leaves out. */
export function siteGroup(site: string): string {
  const host = site.replace(/^www\./, '').toLowerCase();
  const parts = host.split('.');
  if (parts.length <= 2) return host;
  const second = parts[parts.length - 2]!;
  const n = parts[parts.length - 1]!.length === 2 && ['co', 'com', 'org', 'net', 'gov', 'edu', 'ac'].includes(second) ? 3 : 2;
  return parts.slice(-n).join('.');
}

export interface Candidate {
  f: Features;
  q: number;
}
export interface PageData {
  id: string;
  set: SetName;
  group: string;
  /** The list stage: every candidate list with its quality. */
  lists: Candidate[];
  /** Index of the rules' list. */
  rule: number;
}

/** Features and labels of every labelled page (the expensive part: run once, fit many times). */
export function collect(cases: Case[], log = false): PageData[] {
  const out: PageData[] = [];
  for (const c of cases) {
    if (!c.posts) continue;
    const page = createPage({ url: c.input.url, body: c.input.body as Buffer });
    const { ix, anchors } = analysePage(page);
    const pool = recordSets(ix, anchors);
    const gold = new GoldThread(c.posts);
    const feats = setFeatures(ix, pool, pageFacts(ix, anchors));
    const lists = pool.sets.map((s, i) => {
      const texts = assembleSet(ix, pool, s, undefined).map((r) => recordText(ix, r));
      return { f: feats[i]!, q: gold.quality(texts, texts.map(bagOf), true).q };
    });
    out.push({ id: c.id, set: c.set, group: siteGroup(c.site), lists, rule: pool.sets.findIndex((s) => s.rule) });
    if (log) process.stderr.write('.');
  }
  if (log) process.stderr.write('\n');
  return out;
}

/** Softmax ranker over each page's candidates. */
export function fitRanker(pages: Candidate[][], groups: string[], rules: number[] = []): Scorer {
  // Vocabulary: features seen on pages of enough sites.
  const sitesOf = new Map<string, Set<string>>();
  pages.forEach((cs, p) => {
    for (const c of cs) for (const k of c.f.keys()) {
      let s = sitesOf.get(k);
      if (!s) sitesOf.set(k, (s = new Set()));
      s.add(groups[p]!);
    }
  });
  const vocab = [...sitesOf].filter(([k, s]) => !k.startsWith('cls:') || s.size >= MIN_FEATURE_SITES).map(([k]) => k).sort();
  const idx = new Map(vocab.map((k, i) => [k, i]));
  const w = new Float64Array(vocab.length);
  const g2 = new Float64Array(vocab.length).fill(1e-8);
  const data = pages
    .map((cs, p) => {
      const best = Math.max(...cs.map((c) => c.q));
      if (cs.length < 2 || best < MIN_BEST_QUALITY || cs.every((c) => c.q === best)) return undefined;
      // Where the rules' list is among the best, it is the target: ties are the rules' to break.
      const r = rules[p] ?? -1;
      const t = r >= 0 && cs[r]!.q >= best - 1e-9 ? cs.map((_, i) => (i === r ? 1 : 0)) : cs.map((c) => Math.exp(SHARPNESS * (c.q - best)));
      const z = t.reduce((a, b) => a + b, 0);
      return { xs: cs.map((c) => [...c.f].filter(([k]) => idx.has(k)).map(([k, v]) => [idx.get(k)!, v] as [number, number])), t: t.map((x) => x / z) };
    })
    .filter((x): x is NonNullable<typeof x> => !!x);
  // Flat arrays: one fold fits in a few hundred milliseconds.
  const grad = new Float64Array(vocab.length);
  const free = idx.get(UNPENALISED) ?? -1;
  if (free >= 0) w[free] = RULE_PRIOR;
  const flat = data.map((d) => ({
    off: Int32Array.from([0, ...d.xs.map((x) => x.length)].map((_, i, a) => a.slice(0, i + 1).reduce((x, y) => x + y, 0))),
    ix: Int32Array.from(d.xs.flatMap((x) => x.map(([i]) => i))),
    v: Float64Array.from(d.xs.flatMap((x) => x.map(([, v]) => v))),
    t: Float64Array.from(d.t),
  }));
  const touched = new Int32Array(vocab.length);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const d of flat) {
      const n = d.t.length;
      const zs = new Float64Array(n);
      let m = -Infinity;
      for (let c = 0; c < n; c++) {
        let z = 0;
        for (let k = d.off[c]!; k < d.off[c + 1]!; k++) z += w[d.ix[k]!]! * d.v[k]!;
        zs[c] = z;
        if (z > m) m = z;
      }
      let sum = 0;
      for (let c = 0; c < n; c++) sum += (zs[c] = Math.exp(zs[c]! - m));
      let nt = 0;
      for (let c = 0; c < n; c++) {
        const diff = zs[c]! / sum - d.t[c]!;
        for (let k = d.off[c]!; k < d.off[c + 1]!; k++) {
          const i = d.ix[k]!;
          if (!grad[i]) touched[nt++] = i;
          grad[i] = grad[i]! + diff * d.v[k]! + (grad[i] ? 0 : 1e-300);
        }
      }
      for (let t = 0; t < nt; t++) {
        const i = touched[t]!;
        const gi = grad[i]! + (i === free ? 0 : L2 * w[i]!);
        grad[i] = 0;
        g2[i] = g2[i]! + gi * gi;
        w[i] = w[i]! - (STEP * gi) / Math.sqrt(g2[i]!);
      }
    }
  }
  const weights: Record<string, number> = {};
  vocab.forEach((k, i) => {
    if (Math.abs(w[i]!) > 1e-6) weights[k] = Number(w[i]!.toFixed(5));
  });
  return { weights };
}

function pick(s: Scorer, cs: Candidate[]): number {
  let best = -1;
  let bz = -Infinity;
  cs.forEach((c, i) => {
    let z = s.bias ?? 0;
    for (const [k, v] of c.f) z += (s.weights[k] ?? 0) * v;
    if (z > bz) [best, bz] = [i, z];
  });
  return best;
}

export function fitModel(data: PageData[], trainedOn: string): FloorModel {
  return { format: 'gleaner-floors-1', sets: fitRanker(data.map((d) => d.lists), data.map((d) => d.group), data.map((d) => d.rule)), trainedOn };
}

/** The model fitted without one site group (for the bench's leave-site-out runs). */
export function foldModel(data: PageData[], group: string): FloorModel {
  return fitModel(data.filter((d) => d.group !== group), `held out: ${group}`);
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
  const out = opt('--out') ?? fileURLToPath(new URL('../middleware/forum/floor-model.json', import.meta.url));
  const verbose = args.includes('--verbose');
  const cases = loadCases(TRAINING_SETS, opt('--only'));
  process.stderr.write(`train:floors: ${cases.length} pages …\n`);
  const cache = opt('--cache');
  let data: PageData[];
  if (cache && existsSync(cache)) {
    data = (JSON.parse(readFileSync(cache, 'utf8')) as Array<PageData & { lists: Array<{ f: Array<[string, number]>; q: number }> }>).map((d) => ({ ...d, lists: d.lists.map((c) => ({ f: new Map(c.f), q: c.q })) }));
  } else {
    data = collect(cases, true);
    if (cache) writeFileSync(cache, JSON.stringify(data.map((d) => ({ ...d, lists: d.lists.map((c) => ({ f: [...c.f], q: c.q })) }))));
  }
  const groups = [...new Set(data.map((d) => d.group))];
  // Held out: each site group scored by the model fitted on the others.
  const held = new Map<string, number>();
  for (const g of groups) {
    const m = foldModel(data, g);
    for (const d of data.filter((x) => x.group === g)) held.set(d.id, d.lists[pick(m.sets!, d.lists)]?.q ?? 0);
  }
  const rows: string[] = [];
  for (const set of [...TRAINING_SETS, 'all'] as const) {
    const ds = data.filter((d) => set === 'all' || d.set === set);
    const rule = mean(ds.map((d) => d.lists[d.rule]?.q ?? 0));
    const oracle = mean(ds.map((d) => Math.max(0, ...d.lists.map((c) => c.q))));
    const lso = mean(ds.map((d) => held.get(d.id)!));
    rows.push(`${set.padEnd(13)} pages ${String(ds.length).padStart(3)}  list quality: rules ${rule.toFixed(3)}  model (leave-site-out) ${lso.toFixed(3)}  best candidate ${oracle.toFixed(3)}`);
  }
  console.log(rows.join('\n'));
  if (verbose) for (const d of data) {
    const h = held.get(d.id)!;
    const r = d.lists[d.rule]?.q ?? 0;
    if (Math.abs(h - r) > 1e-9) console.log(`  ${d.id}: rules ${r.toFixed(2)} -> model ${h.toFixed(2)} (best ${Math.max(0, ...d.lists.map((c) => c.q)).toFixed(2)})`);
  }
  const model = fitModel(data, `${data.length} pages of ${groups.length} sites (${TRAINING_SETS.join(', ')}); list quality leave-site-out: ${rows.at(-1)!.replace(/\s+/g, ' ')}`);
  if (!args.includes('--no-write')) {
    writeFileSync(out, JSON.stringify(model, null, 1) + '\n');
    console.log(`wrote ${out} (${Object.keys(model.sets!.weights).length} list weights)`);
  }
  if (verbose) {
    const w = Object.entries(model.sets!.weights).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
    console.log(`rule ${model.sets!.weights.rule}`);
    console.log(w.slice(0, 40).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main();
