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
 *
 * Fitting knobs (environment, read by the bench's leave-site-out folds too): L2, CLS_L2 (the
 * list and main-post scorers' L2 on class words, a multiple of L2; 1), MFS (MIN_FEATURE_SITES),
 * STEP, EPOCHS, LIST_MARGIN, MAIN_MARGIN, LINE_DROP, LINE_ADD.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../src/core/page.js';
import { analysePage, extractForumDebug, floorParts } from '../middleware/forum/index.js';
import { lineCandidates } from '../middleware/forum/line-features.js';
import { bodyCandidates } from '../middleware/forum/body-features.js';
import { contentLines } from '../middleware/forum/fields.js';
import type { DateAnchor } from '../middleware/forum/dates.js';
import type { PostRecord, ThreadIndex } from '../middleware/forum/dom.js';
import type { Page } from '../src/core/page.js';
import { describeLayout, FloorLayoutLearner, type FloorLayout } from '../middleware/forum/layout.js';
import { assembleSet, recordSets } from '../middleware/forum/records.js';
import { noListFeatures, pageFacts, setFeatures } from '../middleware/forum/set-features.js';
import { mainCandidates, mainFeatures } from '../middleware/forum/main-post.js';
import { findPagination, laterPageInUrl } from '../middleware/pagination/index.js';
import { FLOOR_MODEL_ENV, decide, floorModel, score, type Features, type FloorModel, type Scorer } from '../middleware/forum/model.js';
import { GoldThread, bagOf, recordText } from './lib/forum-gold.js';
import { loadCases, textSimilarity, type Case, type SetName } from './forums.js';

/** A feature must occur on pages of this many sites. */
export const MIN_FEATURE_SITES = Number(process.env.MFS ?? 5);
const STEP = Number(process.env.STEP ?? 0.05);
const L2 = Number(process.env.L2 ?? 1e-3);
/** The list and main-post scorers' L2 on class-word features (`cls:*`), as a multiple of L2. */
const CLS_L2 = Number(process.env.CLS_L2 ?? 1);
const EPOCHS = Number(process.env.EPOCHS ?? 300);
/** Soft targets: a list's target weight is exp(SHARPNESS × (its quality − the best quality)). */
const SHARPNESS = 30;
/** The quality credited to "no list": a list matching fewer posts is worse than none. */
const NO_LIST_QUALITY = 0.3;
/** Lists the main-post stage trains on: those matching at least this share of the replies … */
const MAIN_LIST_QUALITY = 0.8;
/** … at most this many per page (the best first). */
const MAIN_LISTS_PER_PAGE = 4;
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
  /** The main-post stage on the lists that match the replies: "none" (0) and the candidates,
   * with the strict positional quality each gives the list; the rules' option. */
  mains: MainExample[];
  /** The line stage: the floors of the page as split (with the model in use), aligned to gold. */
  posts: LinePost[];
  /** The body stage: the rules' content (0) and the shared slots, each with the mean text
   * similarity of the aligned floors' lines to their gold posts. */
  bodies?: Candidate[];
}

/** A floor aligned with its gold post: its candidate lines (features, text, the rules' verdict,
 * whether a quote, and the label: the line is in the post's gold text). */
export interface LinePost {
  gold: string;
  /** The set's gold keeps quoted passages in the post's text (WEB-FORUM-52). */
  quotesKept: boolean;
  lines: Array<{ f: Features; text: string; rule: boolean; quote: boolean; y: boolean }>;
}

export interface MainExample {
  cands: Candidate[];
  rule: number;
  list: string;
}

/** Features and labels of every labelled page (the expensive part: run once, fit many times). */
export function collect(cases: Case[], log = false): PageData[] {
  const out: PageData[] = [];
  // The floor layout each page of a site would meet in a crawl (bench:forums' leave-site-out: the
  // layout learned from the site's other pages): what the rules found on those pages.
  const layoutOf = new Map<string, FloorLayout | undefined>();
  for (const c of cases) {
    if (!c.posts || cases.filter((x) => x.site === c.site).length < 2) continue;
    const r = extractForumDebug(createPage({ url: c.input.url, body: c.input.body as Buffer }), { model: null });
    layoutOf.set(c.id, r ? describeLayout(r.records) : undefined);
  }
  for (const c of cases) {
    if (!c.posts) continue;
    const page = createPage({ url: c.input.url, body: c.input.body as Buffer });
    const { ix, anchors } = analysePage(page);
    const learner = new FloorLayoutLearner();
    for (const o of cases) if (o.site === c.site && o.id !== c.id && layoutOf.has(o.id)) learner.observe(layoutOf.get(o.id));
    const pool = recordSets(ix, anchors, learner.learned());
    const gold = new GoldThread(c.posts);
    const feats = setFeatures(ix, pool, pageFacts(ix, anchors));
    const noRule = !pool.sets.some((s) => s.rule);
    const setQ = pool.sets.map((s) => {
      const texts = assembleSet(ix, pool, s, null).map((r) => recordText(ix, r));
      return gold.quality(texts, texts.map(bagOf), true).q;
    });
    // (As at run time: where the rules found no list, only lists that talk are offered.)
    const lists = pool.sets.flatMap((s, i) => (noRule && !s.speaks ? [] : [{ f: feats[i]!, q: setQ[i]! }]));
    // "None of these" (offered where the rules have no list): right where no list comes near the posts.
    let rule = pool.sets.findIndex((s) => s.rule);
    if (rule < 0) {
      lists.push({ f: noListFeatures(pool), q: NO_LIST_QUALITY });
      rule = lists.length - 1;
    }
    // The main-post stage, on every list that matches the replies well (the one the list scorer
    // picks at run time may be any of them: one that holds the main post already, one without it).
    const ruleSet = pool.sets.findIndex((s) => s.rule);
    const order = pool.sets.map((_, i) => i).filter((i) => setQ[i]! >= MAIN_LIST_QUALITY).sort((x, y) => setQ[y]! - setQ[x]! || Number(y === ruleSet) - Number(x === ruleSet));
    const mains: MainExample[] = [];
    const seen = new Set<string>();
    const facts = pageFacts(ix, anchors);
    const g0 = c.posts[0]!;
    const flat = (t: string) => t.replace(/\s+/g, ' ');
    for (const i of order) {
      if (mains.length >= MAIN_LISTS_PER_PAGE) break;
      const set = pool.sets[i]!;
      const records = assembleSet(ix, pool, set, null);
      const sig = records.map((r) => `${r.range.start}-${r.range.end}`).join(',');
      if (seen.has(sig)) continue;
      seen.add(sig);
      const pagination = findPagination(page, { exclude: records.map((r) => r.range) });
      const laterPage = pagination.current !== undefined ? pagination.current > 1 : laterPageInUrl(page.url) === true;
      const cands = mainCandidates(ix, records, facts.dateStarts, set.main);
      const mf = mainFeatures(ix, records, cands, facts, { laterPage });
      const texts = records.map((r) => recordText(ix, r));
      const bags = texts.map(bagOf);
      const options = mf.map((f, k) => {
        if (k === 0) return { f, q: gold.quality(texts, bags, false).q + 1e-3 };
        // (Assembled as the splitter would: a header-only "main" merges into the first floor.)
        const all = assembleSet(ix, pool, set, cands[k - 1]!.record).map((r) => recordText(ix, r));
        const t = all[0]!;
        const b = bagOf(t);
        let q = gold.quality(all, all.map(bagOf), false).q;
        // A block that is not the main post only shifts the floors into line: it counts for little.
        if (!gold.holds(t, b, 0)) q -= 0.5;
        // Among blocks that hold the main post: the one with its author and date, and none of the
        // replies' text.
        if (g0.author && flat(t).includes(flat(g0.author))) q += 0.01;
        if (g0.datetime && flat(t).includes(flat(g0.datetime))) q += 0.01;
        if (gold.posts.slice(1).some((_, j) => gold.sizes[j + 1]! >= 5 && gold.holds(t, b, j + 1))) q -= 0.05;
        return { f, q };
      });
      mains.push({ cands: options, rule: cands.findIndex((m) => m.rule) + 1, list: set.key });
    }
    const { posts, bodies } = linePosts(page, c, gold);
    out.push({ id: c.id, set: c.set, group: siteGroup(c.site), lists, rule, mains, posts, bodies });
    if (log) process.stderr.write('.');
  }
  if (log) process.stderr.write('\n');
  return out;
}

const squash = (t: string) => t.replace(/\s+/g, '');

/** The line stage's examples of a page: its floors as the splitter finds them (lists, main post
 * and bodies by the model in use, lines left to the rules), aligned by position with the gold
 * posts; and the body stage's candidates on those floors. */
function linePosts(page: Page, c: Case, gold: GoldThread): { posts: LinePost[]; bodies?: Candidate[] } {
  const model = floorModel();
  const r = extractForumDebug(page, { model: model ?? null });
  if (!r) return { posts: [] };
  const { ix, anchors } = analysePage(page);
  // (Floors read from a <noscript> copy are not this page's.)
  if (r.records.some((x) => x.roots[0] && page.indexOf(x.roots[0]) < 0)) return { posts: [] };
  const parts = floorParts(ix, r.records, anchors, model);
  const aligned = r.records.map((rec, i) => {
    const t = recordText(ix, rec);
    return !!gold.posts[i] && gold.holds(t, bagOf(t), i);
  });
  const bodies = bodyExamples(ix, r.records, anchors, gold, aligned);
  const cands = lineCandidates(ix, r.records, parts.content, parts.ruleLines, parts.dates, parts.authors);
  const out: LinePost[] = [];
  r.records.forEach((rec, i) => {
    const g = gold.posts[i];
    if (!g || !parts.content[i]?.length) return;
    const t = recordText(ix, rec);
    if (!gold.holds(t, bagOf(t), i)) return;
    const goldFlat = squash(g.text ?? '');
    out.push({
      gold: g.text ?? '',
      quotesKept: c.quotes === 'kept',
      lines: cands[i]!.map((l) => {
        const text = l.line.text ?? ix.segments[l.line.k]!.text;
        return { f: l.f, text, rule: l.rule, quote: l.f.has('quote'), y: !!squash(text) && goldFlat.includes(squash(text)) };
      }),
    });
  });
  return { posts: out, bodies };
}

/** The body candidates of a page's floors (body-features.ts, on the rules' content), each with
 * the mean similarity of its text to the gold posts over the aligned floors. */
function bodyExamples(ix: ThreadIndex, records: PostRecord[], anchors: DateAnchor[], gold: GoldThread, aligned: boolean[]): Candidate[] | undefined {
  const n = aligned.filter(Boolean).length;
  if (n < 2) return undefined;
  const rules = floorParts(ix, records, anchors);
  const cands = bodyCandidates(ix, records, rules.content, rules.dates);
  if (cands.length < 2) return undefined;
  return cands.map((c) => {
    let q = 0;
    records.forEach((rec, i) => {
      if (!aligned[i]) return;
      const els = c.nodes[i];
      const text = els?.length ? contentLines(ix, els, rec).map((l) => l.text ?? ix.segments[l.k]!.text).join('\n') : '';
      q += textSimilarity(text, gold.posts[i]!.text ?? '');
    });
    return { f: c.f, q: q / n };
  });
}

/** Binary logistic regression (AdaGrad, L2; features of too few sites dropped). */
export function fitLogistic(examples: Array<{ f: Features; y: boolean; w: number; group: string }>): Scorer {
  const sitesOf = new Map<string, Set<string>>();
  for (const e of examples) for (const k of e.f.keys()) {
    let set = sitesOf.get(k);
    if (!set) sitesOf.set(k, (set = new Set()));
    set.add(e.group);
  }
  const vocab = [...sitesOf].filter(([k, set]) => !/^(cls|anc):/.test(k) || set.size >= MIN_FEATURE_SITES).map(([k]) => k).sort();
  const idx = new Map(vocab.map((k, i) => [k, i]));
  const w = new Float64Array(vocab.length);
  const g2 = new Float64Array(vocab.length).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  // The rules' verdict is fitted without penalty (the scorer departs from it on evidence).
  const free = idx.get(UNPENALISED) ?? -1;
  const xs = examples.map((e) => ({ ix: Int32Array.from([...e.f.keys()].filter((k) => idx.has(k)).map((k) => idx.get(k)!)), v: Float64Array.from([...e.f].filter(([k]) => idx.has(k)).map(([, v]) => v)), y: e.y ? 1 : 0, w: e.w }));
  for (let epoch = 0; epoch < LINE_EPOCHS; epoch++) {
    for (const x of xs) {
      let z = b;
      for (let k = 0; k < x.ix.length; k++) z += w[x.ix[k]!]! * x.v[k]!;
      const g = x.w * (1 / (1 + Math.exp(-z)) - x.y);
      gb += g * g;
      b -= (STEP * g) / Math.sqrt(gb);
      for (let k = 0; k < x.ix.length; k++) {
        const i = x.ix[k]!;
        const gi = g * x.v[k]! + (i === free ? 0 : L2 * x.w * w[i]!);
        g2[i] = g2[i]! + gi * gi;
        w[i] = w[i]! - (STEP * gi) / Math.sqrt(g2[i]!);
      }
    }
  }
  const weights: Record<string, number> = {};
  vocab.forEach((k, i) => {
    if (Math.abs(w[i]!) > 1e-6) weights[k] = Number(w[i]!.toFixed(5));
  });
  return { weights, bias: Number(b.toFixed(5)) };
}
const LINE_EPOCHS = Number(process.env.LINE_EPOCHS ?? 8);

/** Line examples of pages: quoted lines left out (the sets' gold disagree on quotes; the rules
 * keep them as they find them), each page weighing alike. */
function lineExamples(data: PageData[]): Array<{ f: Features; y: boolean; w: number; group: string }> {
  return data.flatMap((d) => {
    const ls = d.posts.flatMap((p) => p.lines.filter((l) => !l.quote));
    return ls.map((l) => ({ f: l.f, y: l.y, w: 1 / Math.sqrt(ls.length), group: d.group }));
  });
}

/** Softmax ranker over each page's candidates. */
export function fitRanker(pages: Candidate[][], groups: string[], rules: number[] = [], pageWeights: number[] = []): Scorer {
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
      if (cs.length < 2 || cs.every((c) => c.q === best)) return undefined;
      // Where the rules' list is among the best, it is the target: ties are the rules' to break.
      const r = rules[p] ?? -1;
      const t = r >= 0 && cs[r]!.q >= best - 1e-9 ? cs.map((_, i) => (i === r ? 1 : 0)) : cs.map((c) => Math.exp(SHARPNESS * (c.q - best)));
      const z = t.reduce((a, b) => a + b, 0);
      return { xs: cs.map((c) => [...c.f].filter(([k]) => idx.has(k)).map(([k, v]) => [idx.get(k)!, v] as [number, number])), t: t.map((x) => x / z), w: pageWeights[p] ?? 1 };
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
    w: d.w,
  }));
  const touched = new Int32Array(vocab.length);
  const l2 = Float64Array.from(vocab, (k) => (k.startsWith('cls:') ? CLS_L2 * L2 : L2));
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
        const diff = d.w * (zs[c]! / sum - d.t[c]!);
        for (let k = d.off[c]!; k < d.off[c + 1]!; k++) {
          const i = d.ix[k]!;
          if (!grad[i]) touched[nt++] = i;
          grad[i] = grad[i]! + diff * d.v[k]! + (grad[i] ? 0 : 1e-300);
        }
      }
      for (let t = 0; t < nt; t++) {
        const i = touched[t]!;
        const gi = grad[i]! + (i === free ? 0 : l2[i]! * w[i]!);
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

function scoreOf(s: Scorer, f: Features): number {
  let z = s.bias ?? 0;
  for (const [k, v] of f) z += (s.weights[k] ?? 0) * v;
  return z;
}

function pick(s: Scorer, cs: Candidate[], rule = -1): number {
  return decide(s, cs.map((c) => c.f), rule);
}

/** Margins by which a scorer's pick must beat the rules' option (bench: `--margins`). */
export const LIST_MARGIN = Number(process.env.LIST_MARGIN ?? 0.5);
export const MAIN_MARGIN = Number(process.env.MAIN_MARGIN ?? 0.5);
export const BODY_MARGIN = Number(process.env.BODY_MARGIN ?? 0.5);
/** A line the rules read is dropped below LINE_DROP; one they did not read is added above LINE_ADD. */
export const LINE_DROP = Number(process.env.LINE_DROP ?? 0.4);
export const LINE_ADD = Number(process.env.LINE_ADD ?? 0.6);

export function fitModel(data: PageData[], trainedOn: string): FloorModel {
  const ex = data.flatMap((d) => d.mains.map((m) => ({ m, group: d.group, w: 1 / d.mains.length })));
  return {
    format: 'gleaner-floors-1',
    sets: { ...fitRanker(data.map((d) => d.lists), data.map((d) => d.group), data.map((d) => d.rule)), margin: LIST_MARGIN },
    main: { ...fitRanker(ex.map((x) => x.m.cands), ex.map((x) => x.group), ex.map((x) => x.m.rule), ex.map((x) => x.w)), margin: MAIN_MARGIN },
    lines: { ...fitLogistic(lineExamples(data)), drop: LINE_DROP, add: LINE_ADD },
    ...(process.env.NO_BODIES ? {} : { bodies: { ...fitRanker(data.map((d) => d.bodies ?? []), data.map((d) => d.group), data.map(() => 0)), margin: BODY_MARGIN } }),
    trainedOn,
  };
}

/** The model fitted without one site group (for the bench's leave-site-out runs). */
export function foldModel(data: PageData[], group: string): FloorModel {
  return fitModel(data.filter((d) => d.group !== group), `held out: ${group}`);
}

/**
 * Floor models fitted without one site group each, as files (the page-type stage and the forum
 * extractor read the model GLEANER_FLOOR_MODEL names): in a leave-site-out run every page is split
 * by a model that never saw its site (registrable domain). The labelled pages' features are
 * collected once; each fold is one fit. Sites without labelled pages get the model fitted on all
 * labelled pages, as the shipped one is.
 */
export class FloorFolds {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'gleaner-floor-folds-'));
  private readonly files = new Map<string, string>();
  private data?: PageData[];

  /** The model file for pages of `site`. */
  fileFor(site: string): string {
    if (!this.data) {
      process.stderr.write('leave-site-out: collecting the floor model\'s training pages …\n');
      // (The line stage reads each page's floors with the shipped model, whatever model the
      // environment names at this moment.)
      const env = process.env[FLOOR_MODEL_ENV];
      delete process.env[FLOOR_MODEL_ENV];
      this.data = collect(loadCases(TRAINING_SETS));
      if (env !== undefined) process.env[FLOOR_MODEL_ENV] = env;
    }
    const group = siteGroup(site);
    const key = this.data.some((d) => d.group === group) ? group : '';
    let file = this.files.get(key);
    if (!file) {
      const model = key ? foldModel(this.data, key) : fitModel(this.data, 'all labelled pages');
      file = path.join(this.dir, `${this.files.size}.json`);
      writeFileSync(file, JSON.stringify(model));
      this.files.set(key, file);
    }
    return file;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
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
    type Raw = Array<{ f: Array<[string, number]>; q: number }>;
    const back = (cs: Raw) => cs.map((c) => ({ f: new Map(c.f), q: c.q }));
    type RawPost = Omit<LinePost, 'lines'> & { lines: Array<Omit<LinePost['lines'][number], 'f'> & { f: Array<[string, number]> }> };
    type RawPage = Omit<PageData, 'lists' | 'mains' | 'posts' | 'bodies'> & { bodies?: Raw; lists: Raw; mains: Array<Omit<MainExample, 'cands'> & { cands: Raw }>; posts: RawPost[] };
    data = (JSON.parse(readFileSync(cache, 'utf8')) as RawPage[]).map((d) => ({
      ...d,
      lists: back(d.lists),
      mains: d.mains.map((m) => ({ ...m, cands: back(m.cands) })),
      bodies: d.bodies ? back(d.bodies) : undefined,
      posts: d.posts.map((p) => ({ ...p, lines: p.lines.map((l) => ({ ...l, f: new Map(l.f) })) })),
    }));
  } else {
    data = collect(cases, true);
    const raw = (cs: Candidate[]) => cs.map((c) => ({ f: [...c.f], q: c.q }));
    if (cache) writeFileSync(cache, JSON.stringify(data.map((d) => ({ ...d, bodies: d.bodies ? raw(d.bodies) : undefined, lists: raw(d.lists), mains: d.mains.map((m) => ({ ...m, cands: raw(m.cands) })), posts: d.posts.map((p) => ({ ...p, lines: p.lines.map((l) => ({ ...l, f: [...l.f] })) })) }))));
  }
  const groups = [...new Set(data.map((d) => d.group))];
  // (--no-eval: fit and write the shipped model only.)
  if (args.includes('--no-eval')) groups.length = 0;
  // Held out: each site group scored by the models fitted on the others. The main-post stage is
  // scored on the list the held-out list scorer picks (when that list is one it was labelled on).
  const held = new Map<string, { list: number; main?: number; mainRule?: number; mainBest?: number; body?: number[] }>();
  for (const g of groups) {
    const m = foldModel(data, g);
    for (const d of data.filter((x) => x.group === g)) {
      const k = pick(m.sets!, d.lists, d.rule);
      const ex = d.mains[0] && k === d.rule ? d.mains.find((e) => e.list === d.mains[0]!.list) : undefined;
      const h: { list: number; main?: number; mainRule?: number; mainBest?: number; body?: number[] } = { list: d.lists[k]?.q ?? 0 };
      const mx = d.mains.find((e) => e.cands.length) ;
      const e = ex ?? mx;
      if (e) {
        const j = pick(m.main!, e.cands, e.rule);
        const clip = (x: number) => Math.min(1, Math.max(0, x));
        h.main = clip(e.cands[j]!.q);
        h.mainRule = clip(e.cands[e.rule]!.q);
        h.mainBest = clip(Math.max(...e.cands.map((c) => c.q)));
        if (process.env.MAIN_DEBUG && h.mainBest - h.main > 0.02) {
          const best = e.cands.reduce((a, c, i) => (c.q > e.cands[a]!.q ? i : a), 0);
          const show = (i: number) => `#${i} q=${e.cands[i]!.q.toFixed(2)} z=${scoreOf(m.main!, e.cands[i]!.f).toFixed(2)} ${[...e.cands[i]!.f].map(([a, b]) => `${a}=${+b.toFixed(2)}`).join(' ')}`;
          console.log(`${d.id} [${e.list}]\n  picked ${show(j)}\n  best   ${show(best)}`);
        }
      }
      if (d.bodies && m.bodies) {
        const k2 = pick(m.bodies, d.bodies, 0);
        h.body = [d.bodies[0]!.q, d.bodies[k2]!.q, Math.max(...d.bodies.map((c) => c.q))];
        if (verbose && k2 !== 0) console.log(`  ${d.id}: body rules ${h.body[0]!.toFixed(2)} -> model ${h.body[1]!.toFixed(2)} (best ${h.body[2]!.toFixed(2)})`);
      }
      held.set(d.id, h);
    }
  }
  // The line stage: share of aligned floors whose text matches the gold (similarity ≥ 0.95), with
  // the rules' lines and with the held-out line scorer's.
  const GRID = [[0.5, 0.5], [0.3, 0.7], [0.2, 0.8], [0.1, 0.9], [0.3, 0.9], [0.1, 0.7], [0.4, 0.6]] as const;
  const lineHeld = new Map<string, { rule: number; model: number[]; n: number }>();
  for (const g of groups) {
    const m = foldModel(data, g);
    for (const d of data.filter((x) => x.group === g)) {
      let rule = 0;
      const model = GRID.map(() => 0);
      for (const p of d.posts) {
        const probs = p.lines.map((l) => 1 / (1 + Math.exp(-score(m.lines!, l.f))));
        const text = (keep: (l: LinePost['lines'][number], i: number) => boolean) => p.lines.filter((l, i) => (l.quote ? p.quotesKept && l.rule : keep(l, i))).map((l) => l.text).join('\n');
        if (textSimilarity(text((l) => l.rule), p.gold) >= 0.95) rule++;
        GRID.forEach(([drop, add], gi) => {
          if (textSimilarity(text((l, i) => (l.rule ? probs[i]! >= drop : probs[i]! > add)), p.gold) >= 0.95) model[gi]!++;
        });
      }
      const n = d.posts.length;
      lineHeld.set(d.id, { rule: n ? rule / n : NaN, model: model.map((x) => (n ? x / n : NaN)), n });
      if (verbose && model[model.length - 1] !== rule) console.log(`  ${d.id}: floor text rules ${rule}/${n} -> model ${model[model.length - 1]}/${n}`);
    }
  }
  const rows: string[] = [];
  for (const set of groups.length ? ([...TRAINING_SETS, 'all'] as const) : []) {
    const ds = data.filter((d) => set === 'all' || d.set === set);
    const rule = mean(ds.map((d) => d.lists[d.rule]?.q ?? 0));
    const oracle = mean(ds.map((d) => Math.max(0, ...d.lists.map((c) => c.q))));
    const lso = mean(ds.map((d) => held.get(d.id)!.list));
    rows.push(`${set.padEnd(13)} pages ${String(ds.length).padStart(3)}  list quality: rules ${rule.toFixed(3)}  model (leave-site-out) ${lso.toFixed(3)}  best candidate ${oracle.toFixed(3)}`);
    const dm = ds.map((d) => held.get(d.id)!).filter((h) => h.main !== undefined);
    const lh = ds.map((d) => lineHeld.get(d.id)!).filter((h) => h.n);
    rows.push(`${''.padEnd(13)} pages ${String(lh.length).padStart(3)}  floor text (aligned floors, per page): rules ${mean(lh.map((h) => h.rule)).toFixed(3)}  model (leave-site-out, drop/add thresholds) ${GRID.map(([a, b], gi) => `${a}/${b} ${mean(lh.map((h) => h.model[gi]!)).toFixed(3)}`).join(', ')}`);
    const db = ds.map((d) => held.get(d.id)!.body).filter((b): b is number[] => !!b);
    rows.push(`${''.padEnd(13)} pages ${String(db.length).padStart(3)}  floor body (mean similarity, aligned floors): rules ${mean(db.map((b) => b[0]!)).toFixed(3)}  model (leave-site-out) ${mean(db.map((b) => b[1]!)).toFixed(3)}  best candidate ${mean(db.map((b) => b[2]!)).toFixed(3)}`);
    rows.push(`${''.padEnd(13)} pages ${String(dm.length).padStart(3)}  with main post: rules ${mean(dm.map((h) => h.mainRule!)).toFixed(3)}  model (leave-site-out) ${mean(dm.map((h) => h.main!)).toFixed(3)}  best candidate ${mean(dm.map((h) => h.mainBest!)).toFixed(3)}`);
  }
  console.log(rows.join('\n'));
  if (verbose) for (const d of data) {
    const h = held.get(d.id)!;
    const r = d.lists[d.rule]?.q ?? 0;
    if (Math.abs(h.list - r) > 1e-9) console.log(`  ${d.id}: rules ${r.toFixed(2)} -> model ${h.list.toFixed(2)} (best ${Math.max(0, ...d.lists.map((c) => c.q)).toFixed(2)})`);
    if (h.main !== undefined && (Math.abs(h.main - h.mainRule!) > 0.02 || h.mainBest! - h.main > 0.02)) console.log(`  ${d.id}: main rules ${h.mainRule!.toFixed(2)} -> model ${h.main.toFixed(2)} (best ${h.mainBest!.toFixed(2)})`);
  }
  // (--no-eval: no held-out figures to record.)
  const sites = new Set(data.map((d) => d.group)).size;
  const model = fitModel(data, `${data.length} pages of ${sites} sites (${TRAINING_SETS.join(', ')})${rows.length ? `; list quality leave-site-out: ${rows.at(-1)!.replace(/\s+/g, ' ')}` : ''}`);
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
