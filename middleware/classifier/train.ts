/**
 * Training the page-type SVM (`gleaner train-classifier`, whose command-line glue is
 * `src/cli/train.ts`): features of labelled pages, a grid
 * search over C and γ (RBF) and C (linear) scored by balanced accuracy under k-fold
 * cross-validation grouped by site (pages of one site never sit on both sides of a fold: a
 * classifier that learned a site's template would otherwise look better than it is), then a
 * final model with probability estimates trained on all pages and exported to JSON.
 *
 * Labels file: `{ "<manifest id>": { "label": "detail" | "list" | "forum" | "other" } }` (a bare
 * label string works too). Ids refer to pages listed in `<data>/<group>/<set>/manifest.jsonl`;
 * an entry may instead carry `file` (relative to the labels file) and `url`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createPage } from '../../src/core/page.js';
import { pageFeatures, FEATURES, GERAPY_FEATURES, FEATURE_SPEC, contentless, MIN_CONTENT_CHARS } from './features.js';
import { parseLibsvmModel, predict, balancePriors, standardise, type SvmModelJson } from './svm.js';
import type { LabelSet } from './training-sets.js';

/** Classes, in the numeric order used with libsvm. */
import { CLASS_NAMES } from './training-sets.js';
export { CLASS_NAMES };
/** Classes the benchmark's balanced accuracy averages over (too few `other` pages to measure). */
export const SCORED_CLASSES = ['detail', 'list', 'forum'] as const;

/** Folds of the grouped cross-validation (Gerapy uses 5-fold, ungrouped). */
export const CV_FOLDS = 5;
/** Grid (Gerapy's recipe: RBF and linear kernels, C and γ on a log scale). */
export const GRID_C = [0.3, 1, 3, 10, 30, 100, 300, 1000];
export const GRID_GAMMA = [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1];
export const GRID_C_LINEAR = [0.003, 0.01, 0.03, 0.1, 0.3, 1, 3];

export interface LabelledPage {
  id: string;
  label: string;
  /** Labeller's confidence when the labels file gives one (high / medium / low). */
  confidence?: string;
  site: string;
  file: string;
  url: string;
  /** Where the label comes from: the labels file, or the manifest of a training set (and the
   * manifest's own `type` there). */
  source: string;
  type?: string;
  /** Full feature vector (FEATURES order). */
  x: number[];
  /** Gerapy's feature vector (GERAPY_FEATURES order). */
  g: number[];
}

interface ManifestLine {
  id: string;
  path: string;
  url?: string;
  site?: string;
  type?: string;
}

/** The lines of one manifest, each with its page's absolute path. */
export function readManifestLines(mf: string): Array<ManifestLine & { file: string }> {
  const out: Array<ManifestLine & { file: string }> = [];
  for (const line of readFileSync(mf, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as ManifestLine;
    out.push({ ...e, file: path.join(path.dirname(mf), e.path) });
  }
  return out;
}

/** Index every manifest under `<data>/*\/manifest.jsonl` and `<data>/*\/*\/manifest.jsonl` by id. */
export function indexManifests(dataDir: string): Map<string, ManifestLine & { file: string }> {
  const out = new Map<string, ManifestLine & { file: string }>();
  if (!existsSync(dataDir)) return out;
  const add = (mf: string) => {
    if (existsSync(mf)) for (const e of readManifestLines(mf)) out.set(e.id, e);
  };
  for (const group of readdirSync(dataDir, { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    add(path.join(dataDir, group.name, 'manifest.jsonl'));
    for (const set of readdirSync(path.join(dataDir, group.name), { withFileTypes: true })) {
      if (set.isDirectory()) add(path.join(dataDir, group.name, set.name, 'manifest.jsonl'));
    }
  }
  return out;
}

/** The bytes of a saved page (`.gz` files are gunzipped: the WCXB pages are stored so). */
export function readPageFile(file: string): Buffer {
  const raw = readFileSync(file);
  return file.endsWith('.gz') ? gunzipSync(raw) : raw;
}

/** Second-level labels under which a country code's registrable domains sit (`example.co.uk`). */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go']);

/**
 * The registrable domain of a host name (`bbs.example.com.cn` → `example.com.cn`,
 * `math.example.com` → `example.com`): sites of one owner share templates across subdomains, so
 * cross-validation keeps them on one side of a fold. An approximation of the public-suffix list
 * that is right for generic TLDs and the usual `co.uk` / `com.cn` second levels.
 */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels.length <= 2 || /^\d+$/.test(labels[labels.length - 1]!)) return labels.join('.');
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const keep = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/**
 * The site of a page for grouping: the registrable domain of the manifest's site or of the URL
 * host when it is a public one, else the manifest id's folder plus its name prefix
 * (`gne-zh/163_2` → `gne-zh/163`), else the folder alone (ids that are hashes or numbers say
 * nothing about the site: keep them together).
 */
export function siteOf(id: string, url: string | undefined, site?: string): string {
  if (site) return site.includes('.') && !site.includes('/') ? registrableDomain(site) : site;
  if (url) {
    try {
      const h = new URL(url).hostname;
      if (h.includes('.')) return registrableDomain(h);
    } catch {
      /* not a URL */
    }
  }
  const [folder, name = ''] = id.split('/');
  const m = /^([a-z0-9]+)[_.]/i.exec(name);
  return m ? `${folder}/${m[1]!.toLowerCase()}` : folder!;
}

/** URL given to pages without one: no host, so the URL features read "unknown". */
function placeholderUrl(id: string): string {
  return `http://localhost/${encodeURI(id)}`;
}

export interface LoadOptions {
  /** Labels file (default: `<data>/pagetype-labels.json`). */
  labels?: string;
  /** Folder holding the manifests the labels' ids refer to. */
  data: string;
  /** Whole manifests labelled by rule (see training-sets.ts); ids of the labels file win. */
  sets?: LabelSet[];
  /** Progress callback. */
  onPage?: (done: number, total: number) => void;
  /** Called before each page's features are computed (a benchmark sets the floor model that never
   * saw the page's site: the floor signals are features). */
  beforePage?: (page: { id: string; url: string; site: string }) => void;
}

export function loadLabelledPages(opts: LoadOptions): { pages: LabelledPage[]; missing: string[] } {
  const dataDir = opts.data;
  const labelsFile = opts.labels ?? path.join(dataDir, 'pagetype-labels.json');
  if (!existsSync(labelsFile)) throw new Error(`labels file not found: ${labelsFile} (pass --labels <file> and --data <dir>)`);
  const raw = JSON.parse(readFileSync(labelsFile, 'utf8')) as Record<string, string | { label: string; file?: string; url?: string; confidence?: string }>;
  const manifests = indexManifests(dataDir);
  const missing: string[] = [];
  interface Todo { id: string; label: string; confidence?: string; file?: string; url?: string; site?: string; set?: string; type?: string }
  const todo: Todo[] = [];
  for (const [id, v] of Object.entries(raw)) {
    const label = typeof v === 'string' ? v : v.label;
    if (!(CLASS_NAMES as readonly string[]).includes(label)) {
      missing.push(`${id} (unknown label ${label})`);
      continue;
    }
    const confidence = typeof v === 'object' ? v.confidence : undefined;
    if (typeof v === 'object' && v.file) todo.push({ id, label, confidence, file: path.resolve(path.dirname(labelsFile), v.file), url: v.url });
    else {
      const m = manifests.get(id);
      todo.push({ id, label, confidence, file: m?.file, url: m?.url, site: m?.site });
    }
  }
  const labelled = new Set(todo.map((t) => t.id));
  for (const set of opts.sets ?? []) {
    const mf = path.join(dataDir, set.manifest);
    if (!existsSync(mf)) {
      missing.push(`${set.manifest} (no such manifest)`);
      continue;
    }
    for (const e of readManifestLines(mf)) {
      const label = set.label ?? (e.type !== undefined ? set.types?.[e.type] : undefined);
      if (!label || labelled.has(e.id)) continue;
      todo.push({ id: e.id, label, file: e.file, url: e.url, site: e.site, set: set.manifest, type: e.type });
    }
  }
  // One page saved in two data sets (the same bytes) is one page: the later entry's label wins —
  // a training set labels the whole page by reading it (real-threads), where the labels file
  // took a set's origin (CWCE's threads sit in an article benchmark) — so it is never on both
  // sides of a fold with two labels.
  const bodies = new Map<string, Buffer>();
  const byHash = new Map<string, number>();
  const keep: boolean[] = todo.map(() => false);
  todo.forEach((t, i) => {
    if (!t.file || !existsSync(t.file)) return;
    const body = readPageFile(t.file);
    const h = createHash('sha1').update(body).digest('hex');
    const prev = byHash.get(h);
    if (prev !== undefined) keep[prev] = false;
    byHash.set(h, i);
    bodies.set(t.id, body);
    keep[i] = true;
  });
  const pages: LabelledPage[] = [];
  let done = 0;
  for (const [i, t] of todo.entries()) {
    if (!t.file || !existsSync(t.file)) {
      missing.push(t.id);
      continue;
    }
    if (!keep[i]) continue;
    const grouping = siteOf(t.id, t.url, t.site);
    const pageUrl = t.url && /^https?:\/\/[^/]*\./.test(t.url) ? t.url : placeholderUrl(t.id);
    opts.beforePage?.({ id: t.id, url: pageUrl, site: t.site ?? grouping });
    const page = createPage({ url: pageUrl, body: bodies.get(t.id)! });
    const f = pageFeatures(page);
    pages.push({ id: t.id, label: t.label, confidence: t.confidence, site: grouping, file: t.file, url: pageUrl, source: t.set ?? path.basename(labelsFile), type: t.type, x: f.values, g: f.gerapy });
    opts.onPage?.(++done, todo.length);
  }
  return { pages, missing };
}

/** Fold of each sample: whole sites assigned greedily (largest first) to the smallest fold. */
export function groupFolds(sites: string[], k: number, seed = 0): number[] {
  const sizes = new Map<string, number>();
  for (const s of sites) sizes.set(s, (sizes.get(s) ?? 0) + 1);
  let order = [...sizes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (seed) {
    // another split of the same sites: a seeded shuffle, still filled greedily (balanced loads)
    let r = seed >>> 0 || 1;
    const rand = () => ((r = (Math.imul(r, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    order = order.map((e) => [e, rand()] as const).sort((a, b) => a[1] - b[1]).map(([e]) => e);
  }
  const load = new Array<number>(k).fill(0);
  const foldOf = new Map<string, number>();
  for (const [s, n] of order) {
    let f = 0;
    for (let i = 1; i < k; i++) if (load[i]! < load[f]!) f = i;
    foldOf.set(s, f);
    load[f]! += n;
  }
  return sites.map((s) => foldOf.get(s)!);
}

/** Mean and standard deviation per feature over the finite values (a missing feature, NaN, is
 * left out; `standardise` maps it to the mean). */
export function meanStd(X: number[][]): { mean: number[]; std: number[] } {
  const d = X[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  const n = new Array<number>(d).fill(0);
  for (const x of X) {
    for (let i = 0; i < d; i++) {
      if (!Number.isFinite(x[i])) continue;
      mean[i]! += x[i]!;
      n[i]!++;
    }
  }
  for (let i = 0; i < d; i++) mean[i] = n[i] ? mean[i]! / n[i]! : 0;
  for (const x of X) for (let i = 0; i < d; i++) if (Number.isFinite(x[i])) std[i]! += (x[i]! - mean[i]!) ** 2;
  for (let i = 0; i < d; i++) std[i] = Math.sqrt(n[i] ? std[i]! / n[i]! : 0) || 1;
  return { mean, std };
}

/** Balanced accuracy: mean recall over the scored classes present in the gold. */
export function balancedAccuracy(gold: string[], pred: string[], classes: readonly string[] = SCORED_CLASSES): number {
  let sum = 0;
  let n = 0;
  for (const c of classes) {
    let tot = 0;
    let ok = 0;
    for (let i = 0; i < gold.length; i++) {
      if (gold[i] !== c) continue;
      tot++;
      if (pred[i] === c) ok++;
    }
    if (tot) {
      sum += ok / tot;
      n++;
    }
  }
  return n ? sum / n : 0;
}

// ---- libsvm-js

interface SvmInstance {
  train(X: number[][], y: number[]): void;
  predictOne(x: number[]): number;
  predictOneProbability(x: number[]): { prediction: number; estimates: { label: number; probability: number }[] };
  serializeModel(): string;
  free(): void;
}
type SvmCtor = (new (opts: Record<string, unknown>) => SvmInstance) & { KERNEL_TYPES: Record<string, number>; SVM_TYPES: Record<string, number> };

let svmCtor: SvmCtor | undefined;
const requireHere = createRequire(import.meta.url);
/** The asm.js build: synchronous to load (the WASM entry point is a promise). */
export function loadLibsvm(): SvmCtor {
  if (!svmCtor) svmCtor = requireHere('libsvm-js/asm') as SvmCtor;
  return svmCtor;
}

/**
 * A libsvm instance of its own, its C library's `rand()` at its initial state. libsvm fits the
 * probability estimates (Platt's sigmoids) on an internal 5-fold split it shuffles with `rand()`,
 * whose state lives in the module instance and is never reseeded (libsvm-js exposes no `srand`):
 * on a shared instance a model depended on every probability model trained before it in the
 * process — the nested CV read 0.913 after `--write-model`'s training and 0.915 without it, on the
 * same features. On a fresh instance (~30 ms to load) a model is a function of its data and
 * parameters, and equals the one a fresh process trains first (`gleaner train-classifier`).
 */
export function freshLibsvm(): SvmCtor {
  const entry = requireHere.resolve('libsvm-js/asm');
  const core = path.join(path.dirname(entry), 'out', 'asm', 'libsvm.js');
  delete requireHere.cache[entry];
  delete requireHere.cache[core];
  // (each load of the Emscripten module adds an unhandledRejection handler that exits the process:
  // keep the first load's, as before, and not one more per model)
  const before = new Set(process.listeners('unhandledRejection'));
  const ctor = requireHere(entry) as SvmCtor;
  if (svmCtor) for (const l of process.listeners('unhandledRejection')) if (!before.has(l)) process.off('unhandledRejection', l);
  svmCtor ??= ctor;
  return ctor;
}

export interface SvmParams {
  kernel: 'rbf' | 'linear';
  C: number;
  gamma: number;
}

/** Share of each class (numeric label) among training labels. */
export function classPriors(y: number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const v of y) m.set(v, (m.get(v) ?? 0) + 1 / y.length);
  return m;
}

/** Class weights inversely proportional to class frequency ("balanced"): 54 forum threads
 * must not be outvoted by 464 articles. */
function classWeights(y: number[]): Record<number, number> {
  const counts = new Map<number, number>();
  for (const v of y) counts.set(v, (counts.get(v) ?? 0) + 1);
  const w: Record<number, number> = {};
  for (const [c, n] of counts) w[c] = y.length / (counts.size * n);
  return w;
}

/** Trains libsvm's C-SVC; with `probability`, on a fresh instance (see freshLibsvm: the same data
 * and parameters give the same model wherever in a process it is trained). */
export function trainLibsvm(X: number[][], y: number[], p: SvmParams, probability = false): SvmInstance {
  const SVM = probability ? freshLibsvm() : loadLibsvm();
  const svm = new SVM({
    type: SVM.SVM_TYPES.C_SVC,
    kernel: p.kernel === 'linear' ? SVM.KERNEL_TYPES.LINEAR : SVM.KERNEL_TYPES.RBF,
    gamma: p.gamma,
    cost: p.C,
    weight: classWeights(y),
    probabilityEstimates: probability,
    quiet: true,
  });
  svm.train(X, y);
  return svm;
}

/** The hyper-parameter grid searched (RBF C × γ, then linear C). */
export function grid(): SvmParams[] {
  const out: SvmParams[] = [];
  for (const C of GRID_C) for (const gamma of GRID_GAMMA) out.push({ kernel: 'rbf', C, gamma });
  for (const C of GRID_C_LINEAR) out.push({ kernel: 'linear', C, gamma: 0 });
  return out;
}

/** Pages trained on: all but those whose label the labeller marked "low" confidence (they are
 * still scored in cross-validation). Measured: +0.005 balanced accuracy on the shipped labels. */
export function trainMask(pages: LabelledPage[]): boolean[] {
  return pages.map((p) => p.confidence !== 'low');
}

/** Classes with fewer labelled pages than this are not trained (a class seen on a handful of
 * sites cannot be learned, and its huge balanced weight drags the others: 9 "other" pages of the
 * shipped labels cost ~3 points of detail recall). Contentless pages are "other" by rule. */
export const MIN_CLASS_PAGES = 30;
/** For small label sets: a class with at least this share of the pages (and MIN_CLASS_FLOOR pages)
 * is trained even below MIN_CLASS_PAGES. */
export const MIN_CLASS_SHARE = 0.1;
export const MIN_CLASS_FLOOR = 5;
const OTHER = CLASS_NAMES.indexOf('other');
const FORUM = CLASS_NAMES.indexOf('forum');

/** Class indices with enough pages to train on. */
export function trainableClasses(y: number[]): Set<number> {
  const counts = new Map<number, number>();
  for (const v of y) counts.set(v, (counts.get(v) ?? 0) + 1);
  // Small label sets (a user's own 40 pages) scale the floor down, never below MIN_CLASS_FLOOR.
  const floor = Math.min(MIN_CLASS_PAGES, Math.max(MIN_CLASS_FLOOR, Math.ceil(MIN_CLASS_SHARE * y.length)));
  return new Set([...counts].filter(([, n]) => n >= floor).map(([c]) => c));
}

/** Cross-validated predictions for given folds and parameters (standardised per training fold).
 * Trains on pages of trainable classes with content; predicts every held-out page. */
export function cvPredict(X: number[][], y: number[], folds: number[], p: SvmParams, train?: boolean[]): number[] {
  const pred = new Array<number>(y.length).fill(-1);
  const k = Math.max(...folds) + 1;
  const classes = trainableClasses(y);
  for (let f = 0; f < k; f++) {
    const tr = y.map((_, i) => i).filter((i) => folds[i] !== f && classes.has(y[i]!) && !contentless(X[i]!) && train?.[i] !== false);
    const te = y.map((_, i) => i).filter((i) => folds[i] === f);
    if (!te.length || !tr.length) continue;
    const { mean, std } = meanStd(tr.map((i) => X[i]!));
    const z = (x: number[]) => standardise(x, mean, std);
    const svm = trainLibsvm(tr.map((i) => z(X[i]!)), tr.map((i) => y[i]!), p);
    for (const i of te) pred[i] = contentless(X[i]!) ? OTHER : svm.predictOne(z(X[i]!));
    svm.free();
  }
  return pred;
}

export interface GridResult {
  best: SvmParams;
  score: number;
  table: Array<SvmParams & { score: number }>;
}

/** Grid search scored by grouped-CV balanced accuracy. */
export function gridSearch(X: number[][], y: number[], sites: string[], folds = CV_FOLDS, train?: boolean[]): GridResult {
  const f = groupFolds(sites, folds);
  const names = y.map((v) => CLASS_NAMES[v]!);
  const table: Array<SvmParams & { score: number }> = [];
  let best: (SvmParams & { score: number }) | undefined;
  for (const p of grid()) {
    const pred = cvPredict(X, y, f, p, train).map((v) => CLASS_NAMES[v] ?? 'none');
    const score = balancedAccuracy(names, pred);
    const row = { ...p, score };
    table.push(row);
    if (!best || score > best.score + 1e-9) best = row;
  }
  return { best: best!, score: best!.score, table };
}

/**
 * Nested grouped cross-validation: the outer folds hold out whole sites; on each outer training
 * part a grouped grid search picks C/γ; the held-out predictions give an honest score (the grid
 * never saw the pages it is scored on).
 */
/** The classifier's cascade (index.ts predictCascade) replayed in the nested CV: each held-out page
 * typed from its values without the floor signals (`without`), and from all its values where forum
 * keeps `minForum` without them; the fold model's labels are written to `pred`. */
export interface CascadeReplay {
  without: (x: number[]) => number[];
  minForum: number;
  pred: number[];
  /** Held-out pages whose floor signals the cascade computed. */
  computed?: number;
}

export function nestedCv(X: number[][], y: number[], sites: string[], folds = CV_FOLDS, onFold?: (f: number, p: SvmParams) => void, train?: boolean[], seed = 0, cascade?: CascadeReplay): number[] {
  const outer = groupFolds(sites, folds, seed);
  const pred = new Array<number>(y.length).fill(-1);
  for (let f = 0; f < folds; f++) {
    const all = y.map((_, i) => i).filter((i) => outer[i] !== f);
    const te = y.map((_, i) => i).filter((i) => outer[i] === f);
    if (!te.length) continue;
    const gs = gridSearch(all.map((i) => X[i]!), all.map((i) => y[i]!), all.map((i) => sites[i]!), folds - 1, train && all.map((i) => train[i]!));
    onFold?.(f, gs.best);
    const classes = trainableClasses(all.map((i) => y[i]!));
    const tr = all.filter((i) => classes.has(y[i]!) && !contentless(X[i]!) && train?.[i] !== false);
    const { mean, std } = meanStd(tr.map((i) => X[i]!));
    const z = (x: number[]) => standardise(x, mean, std);
    // As shipped: probability estimates, label = most probable class (not the pairwise vote).
    const svm = trainLibsvm(tr.map((i) => z(X[i]!)), tr.map((i) => y[i]!), gs.best, true);
    const priors = classPriors(tr.map((i) => y[i]!));
    for (const i of te) {
      if (contentless(X[i]!)) {
        pred[i] = OTHER;
        if (cascade) cascade.pred[i] = OTHER;
        continue;
      }
      const label = (x: number[]) => {
        const est = svm.predictOneProbability(z(x)).estimates;
        const probs = balancePriors(est.map((e) => e.probability), est.map((e) => priors.get(e.label) ?? 0));
        const forum = est.findIndex((e) => e.label === FORUM);
        return { label: est[probs.indexOf(Math.max(...probs))]!.label, forum: forum >= 0 ? probs[forum]! : 0 };
      };
      pred[i] = label(X[i]!).label;
      if (cascade) {
        const first = label(cascade.without(X[i]!));
        const full = first.forum >= cascade.minForum;
        if (full) cascade.computed = (cascade.computed ?? 0) + 1;
        cascade.pred[i] = full ? pred[i]! : first.label;
      }
    }
    svm.free();
  }
  return pred;
}

/** Largest difference between our probabilities and libsvm-js's accepted as agreement (libsvm
 * writes support vectors with 8 significant digits). */
const PROB_TOLERANCE = 1e-4;

/** Train on all pages with probability estimates and export to JSON. */
export function trainModel(
  Xall: number[][],
  yall: number[],
  p: SvmParams,
  featureNames: readonly string[],
  training?: Record<string, unknown>,
  train?: boolean[],
  spec?: SvmModelJson['spec'],
): { model: SvmModelJson; agreement: number } {
  const classes = trainableClasses(yall);
  const keep = yall.map((_, i) => i).filter((i) => classes.has(yall[i]!) && !contentless(Xall[i]!) && train?.[i] !== false);
  const X = keep.map((i) => Xall[i]!);
  const y = keep.map((i) => yall[i]!);
  const { mean, std } = meanStd(X);
  const Z = X.map((x) => standardise(x, mean, std));
  const svm = trainLibsvm(Z, y, p, true);
  const parsed = parseLibsvmModel(svm.serializeModel(), (n) => CLASS_NAMES[n] ?? String(n));
  const priorOf = classPriors(y);
  const model: SvmModelJson = {
    format: 'gleaner-svm/1',
    ...parsed,
    gamma: p.kernel === 'rbf' ? p.gamma : 0,
    mean,
    std,
    features: [...featureNames],
    ...(spec ? { spec: { ...spec } } : {}),
    priors: parsed.labels.map((l) => priorOf.get(CLASS_NAMES.indexOf(l as (typeof CLASS_NAMES)[number])) ?? 0),
    training,
  };
  // Our TypeScript prediction must agree with libsvm's probabilities (after the same prior
  // correction) on every training page.
  let agree = 0;
  for (let i = 0; i < X.length; i++) {
    const est = svm.predictOneProbability(Z[i]!).estimates;
    const probs = balancePriors(est.map((e) => e.probability), est.map((e) => priorOf.get(e.label) ?? 0));
    const ref = CLASS_NAMES[est[probs.indexOf(Math.max(...probs))]!.label];
    const ours = predict(model, X[i]!);
    const close = est.every((e, j) => Math.abs((ours.probabilities[CLASS_NAMES[e.label]!] ?? 0) - probs[j]!) < PROB_TOLERANCE);
    if (ours.label === ref && close) agree++;
  }
  svm.free();
  return { model, agreement: X.length ? agree / X.length : 1 };
}

export interface TrainResult {
  model: SvmModelJson;
  /** Share of training pages on which our prediction agrees with libsvm-js's. */
  agreement: number;
  /** The grid search (grouped CV by site) that chose the parameters. */
  search: GridResult;
  folds: number;
  /** Labelled pages per class, and the classes left untrained (too few pages). */
  counts: Record<string, number>;
  untrained: string[];
}

/**
 * The page-type model from labelled pages: a grouped grid search, then the final model on all
 * trainable pages, recording the feature spec it was computed with (see loadModel). Throws when
 * the pages cannot train a model (too few pages or classes).
 */
export function trainPageTypeModel(pages: LabelledPage[], labelsName = 'pagetype-labels.json'): TrainResult {
  const classes = new Set(pages.map((p) => p.label));
  if (pages.length < 10 || classes.size < 2) throw new Error(`need at least 10 labelled pages of 2 classes (got ${pages.length} of ${classes.size})`);
  const X = pages.map((p) => p.x);
  const y = pages.map((p) => CLASS_NAMES.indexOf(p.label as (typeof CLASS_NAMES)[number]));
  const sites = pages.map((p) => p.site);
  const folds = Math.min(CV_FOLDS, new Set(sites).size);
  const train = trainMask(pages);
  const counts: Record<string, number> = {};
  for (const p of pages) counts[p.label] = (counts[p.label] ?? 0) + 1;
  const trainable = trainableClasses(y);
  const untrained = Object.keys(counts).filter((c) => !trainable.has(CLASS_NAMES.indexOf(c as (typeof CLASS_NAMES)[number])));
  if (trainable.size < 2) throw new Error(`need at least 2 classes with enough labelled pages to train (have ${JSON.stringify(counts)})`);
  const search = gridSearch(X, y, sites, folds, train);
  const { kernel, C, gamma } = search.best;
  const { model, agreement } = trainModel(X, y, search.best, FEATURES, {
    trainedOn: 'labels with confidence other than "low"',
    params: { kernel, C, gamma },
    minContentChars: MIN_CONTENT_CHARS,
    untrainedClasses: untrained,
    cvBalancedAccuracy: Number(search.score.toFixed(4)),
    cvFolds: folds,
    cvGroupedBy: 'site',
    pages: pages.length,
    classes: counts,
    labels: labelsName,
    trainedAt: new Date().toISOString(),
  }, train, FEATURE_SPEC);
  return { model, agreement, search, folds, counts, untrained };
}

export { GERAPY_FEATURES, FEATURES, contentless, MIN_CONTENT_CHARS };
