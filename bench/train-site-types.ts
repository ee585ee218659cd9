/**
 * `npm run train:site-types`: trains the site-type model (middleware/classifier/site-rules.ts) on
 * the whole generated sites of `../shared/data/sites-crawl` (per-URL truth) and writes
 * `middleware/classifier/site-model.ts` (the shipped model, all sites) and
 * `bench/site-type-folds/<site>.json` (one model per site, trained without it: bench:sites and
 * bench:site-types score each site with the model that never saw it — leave one site out).
 *
 * Examples: each site's pages in the order a crawl meets them (breadth first from `/`, links in
 * page order) and in three more orders (two jittered, one at random), each page's features computed
 * from the site state the earlier pages left. While collecting, the state is updated with each
 * page's TRUE type (teacher forcing; in the extra orders 30% of the classifier's mistakes are
 * recorded instead, as a crawl's state holds its own): the examples depend on no model, so a fold's
 * training data never saw its held-out site through a model's decisions either. Pages the model
 * never decides (feeds and sitemaps, pages typed forum) still add to the state. Every page also
 * counts once without its classifier evidence (blind copies, see fit). The table printed is scored
 * on the breadth-first order with the teacher-forced state; bench:site-types and bench:sites score
 * the models with their own decisions in the loop.
 *
 * The model is a multinomial logistic regression over standardised features, fitted by gradient
 * descent (Adam) with an L2 penalty; every site weighs the same in total (a site of 270 pages does
 * not outvote one of 45), and each type within it by the square root of its rarity (other pages are
 * 2% of the pages, and the one figure users of an about page see).
 *
 * The shipped model leaves the features that read no decision (`shape_looks`, `section_looks`,
 * `linked_from`) out; the order-free model leaves out the two that read the model's own decisions:
 *
 *   npm run train:site-types                                         (shipped: the default SITE_MASK)
 *   GLEANER_SITE_FOLDS=bench/site-type-folds/order-free SITE_MODEL_OUT=middleware/classifier/site-model-order-free.json \
 *     SITE_MASK=shape_share,section_share npm run train:site-types                      (order-free)
 *
 *   npm run train:site-types [-- --no-write] [--verbose]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../src/core/page.js';
import { classifyPage } from '../middleware/classifier/index.js';
import { documentKind } from '../middleware/classifier/documents.js';
import { decideOnSite, emptySiteTypeState, needsListItems, siteKnows, observeTypedPage, siteFeatures, siteProbabilities, SITE_FEATURES, SITE_FEATURES_VERSION, SITE_LABELS, SITE_TYPED_FEATURES, type SiteFeatureVector, type SiteTypeModel } from '../middleware/classifier/site-rules.js';
import { listItemUrls, siteListSignals } from '../middleware/list/signals.js';
import { emptyShapes, observeListPage, SHAPES_KEY } from '../middleware/list/index.js';
import type { PageLabel } from '../src/core/item.js';
import { printTable } from './lib/data.js';
import { crawlOrder, FOLDS_DIR, ORIGIN, sitesOf } from './lib/sites-crawl.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const write = !args.includes('--no-write');
const verbose = args.includes('--verbose');
const MODEL_TS = path.join(here, '..', 'middleware', 'classifier', 'site-model.ts');
/** Write the all-sites model as a JSON file here instead of the shipped site-model.ts (a model to
 * select with GLEANER_SITE_TYPE_MODEL; its folds go where GLEANER_SITE_FOLDS says). */
const MODEL_OUT = process.env.SITE_MODEL_OUT;

/** L2 penalty, Adam step and iterations. The penalty was chosen a priori (small: 20 features, ~1,000
 * pages) and checked not to matter within a factor of 10 on the leave-one-site-out figures. */
const L2 = Number(process.env.SITE_L2 ?? 1e-3);
const STEP = 0.05;
const ITERATIONS = Number(process.env.SITE_ITERATIONS ?? 1500);
/** Crawl orders besides breadth first that each site's examples are collected in (see crawlOrder,
 * `window:seed`): a concurrent crawl meets pages in a jittered order, and the site state a page sees
 * varies with it; one order at random (window 100000) shows pages before any evidence about them. */
const JITTERS = (process.env.SITE_JITTERS ?? '16:1,16:2,100000:3').split(',').filter(Boolean).map((j) => ({ window: Number(j.split(':')[0]), seed: Number(j.split(':')[1]) }));
/** Share of the pages of a jittered order whose site state records the classifier's label where it
 * is wrong (see siteExamples). */
const NOISE = Number(process.env.SITE_NOISE ?? 0.3);
/** Features left out of the fit (their weights stay 0), of SITE_FEATURES or SITE_TYPED_FEATURES:
 * SITE_MASK=name,name (see the header: which the shipped and the order-free models leave out). */
const MASK = new Set((process.env.SITE_MASK ?? 'shape_looks,section_looks,linked_from,entries_linked_elsewhere,offsite_entries').split(',').filter(Boolean));
/** Whether pages met before the site showed evidence are left out (decideOnSite keeps their
 * classifier type; SITE_GATE=0 trains on them too: experiments, the model is then gated all the same). */
const GATE = process.env.SITE_GATE !== '0';
/** Whether the pages met before the site showed evidence are also trained on as the site model meets
 * them: typed again once it does, from what they showed when they came (reviseEarlyPages;
 * SITE_REVISIONS=1, an experiment, off). Measured 2026-12-02 (sites-7), bench:site-types leave one
 * site out, revised detail / list / other, breadth first: 1.000 / 0.998 / 0.684 (without: 0.998 /
 * 0.992 / 1.000): jekyll-dcreager's /archive/ and hugo's collection pages right, its publications
 * section typed list and detail (other 1/7): not shipped. */
const REVISIONS = process.env.SITE_REVISIONS === '1';
/** Weight of the classifier-blind copy of each page (see fit). */
const BLIND_WEIGHT = Number(process.env.SITE_BLIND ?? 0.5);

export interface Example {
  site: string;
  key: string;
  f: SiteFeatureVector;
  y: number;
  /** Whether the model decides this page (not a document, not typed forum). */
  decided: boolean;
  classifier: string;
  /** A copy without the classifier's evidence (see fit). */
  blind?: boolean;
  /** An early page typed again once the site showed evidence (REVISIONS; not scored). */
  revision?: boolean;
}

/** Rounds of examples collected with the model's own decisions in the site state (see siteExamples'
 * `policy`; experiments, off by default). Measured 2026-12-02 with one round (SITE_ROLLOUT=1),
 * bench:site-types leave one site out, revised detail / list / other: breadth first 0.973 / 0.991 /
 * 0.737 (without: 0.981 / 0.992 / 0.947); mean of 3 jittered orders 0.960 / 0.898 / 0.737 (without:
 * 0.958 / 0.857 / 0.667). More robust to order, worse in the order a crawl meets a site: not shipped. */
const ROLLOUT = Number(process.env.SITE_ROLLOUT ?? 0);

/** The classifier's result per page (the same in every order and round). */
const classified = new Map<string, { r: ReturnType<typeof classifyPage>; document: boolean }>();

/**
 * The examples of one site (teacher forcing: the state learns each page's true type). With a
 * `policy` the state learns the type that model decides instead, as a crawl's state holds its own
 * decisions (and mistakes): the examples then show the model the states its own decisions lead to,
 * with the true types as targets.
 */
export function siteExamples(site: string, jitter?: { window: number; seed: number }, policy?: SiteTypeModel): Example[] {
  const state = emptySiteTypeState();
  const shapes = emptyShapes();
  const data: Record<string, unknown> = { [SHAPES_KEY]: shapes };
  const out: Example[] = [];
  let z = (jitter?.seed ?? 0) + 7;
  const noise = () => ((z = (z * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  // (REVISIONS: the pages met before the site showed evidence, with what they showed then)
  const early: Array<{ key: string; url: string; r: ReturnType<typeof classifyPage>; evidence: ReturnType<typeof siteListSignals>; y: number }> = [];
  for (const { key, body, type } of crawlOrder(site, jitter)) {
    const url = ORIGIN + key;
    const page = createPage({ url, body });
    let c = classified.get(`${site} ${key}`);
    if (!c) classified.set(`${site} ${key}`, (c = { r: classifyPage(page), document: documentKind(page) !== undefined }));
    const { r, document } = c;
    const evidence = siteListSignals(page, data, needsListItems(r));
    const f = siteFeatures(state, url, r, evidence);
    // (the model decides nothing before the site shows evidence: decideOnSite keeps the classifier's type)
    const decided = !document && r.label !== 'forum' && (GATE ? siteKnows(state) : true);
    out.push({ site, key, f, y: SITE_LABELS.indexOf(type), decided, classifier: r.label });
    // (in the jittered orders, a share of the pages is recorded with the classifier's own label
    // instead: a crawl's site state holds its own mistakes, and the model must not trust it blindly)
    const label = (policy ? decideOnSite(policy, state, url, r, evidence, document).label : jitter && r.label !== type && r.label !== 'forum' && noise() < NOISE ? r.label : type) as PageLabel;
    // what the chain does on a page of this type: the page-type stage records it (a list page with
    // the items its extractor gives), then the list stage learns the site's list shapes
    const knewBefore = siteKnows(state);
    if (REVISIONS && !knewBefore && !document && r.label !== 'forum') early.push({ key, url, r, evidence, y: SITE_LABELS.indexOf(type) });
    observeTypedPage(state, url, label, label === 'list' ? listItemUrls(page, data) : [], evidence.mainEntries, { classified: document ? undefined : r, mainOpen: evidence.mainOpen });
    if (label === 'list') observeListPage(page, shapes);
    // the early pages typed again once the site shows evidence (reviseEarlyPages): what they showed
    // when they came, against the site's state now — the model decides them too
    if (REVISIONS && !knewBefore && siteKnows(state)) {
      for (const e of early) out.push({ site, key: `${e.key} (revised)`, f: siteFeatures(state, e.url, e.r, e.evidence), y: e.y, decided: true, classifier: e.r.label, revision: true });
      early.length = 0;
    }
  }
  return out;
}

/** Fit the model on examples (each site the same total weight; types by sqrt of rarity). */
export function fit(examples: Example[], info: unknown): SiteTypeModel {
  const d = SITE_FEATURES.length;
  const T = SITE_TYPED_FEATURES.length;
  const K = SITE_LABELS.length;
  // Every page twice: as the classifier saw it, and blind — its classifier evidence removed, as on
  // a page the classifier types `other` by rule for want of content (a tag page with one short
  // entry) — at BLIND_WEIGHT: the site evidence alone must then decide.
  const cIdx = SITE_FEATURES.indexOf('contentless');
  const blind = (e: Example): Example => ({ ...e, f: { x: e.f.x.map((v, j) => (j === cIdx ? 1 : v)), typed: [[0, 0, 0], ...e.f.typed.slice(1)] }, blind: true });
  const xs = [...examples.filter((e) => e.decided), ...(BLIND_WEIGHT > 0 ? examples.filter((e) => e.decided && e.f.x[cIdx] === 0).map(blind) : [])];
  // missing features (NaN: the site root's shape and section) are left out of the standardisation
  // and count as the mean (z = 0), as siteScores reads them
  const present = (j: number) => xs.filter((e) => !Number.isNaN(e.f.x[j]!));
  const mean = Array.from({ length: d }, (_, j) => present(j).reduce((s, e) => s + e.f.x[j]!, 0) / Math.max(1, present(j).length));
  const std = Array.from({ length: d }, (_, j) => Math.sqrt(present(j).reduce((s, e) => s + (e.f.x[j]! - mean[j]!) ** 2, 0) / Math.max(1, present(j).length)) || 1);
  const z = xs.map((e) => e.f.x.map((v, j) => (Number.isNaN(v) || MASK.has(SITE_FEATURES[j]!) ? 0 : (v - mean[j]!) / std[j]!)));
  // (a typed feature left out: its values read as 0, its weight stays 0)
  const typedOf = (e: Example) => e.f.typed.map((t, k) => (MASK.has(SITE_TYPED_FEATURES[k]!) ? [0, 0, 0] : t));
  // weights: 1/(site pages) per page, times sqrt(N / (K N_c)) per type
  const perSite = new Map<string, number>();
  for (const e of xs) if (!e.blind) perSite.set(e.site, (perSite.get(e.site) ?? 0) + 1);
  const perType = Array.from({ length: K }, (_, c) => xs.filter((e) => e.y === c && !e.blind).length);
  const typeW = perType.map((n) => (n ? Math.sqrt(xs.length / (K * n)) : 0));
  const w = xs.map((e) => (typeW[e.y]! / perSite.get(e.site)!) * (e.blind ? BLIND_WEIGHT : 1));
  const wsum = w.reduce((a, b) => a + b, 0);
  for (let i = 0; i < w.length; i++) w[i]! /= wsum;
  // parameters: W (K × d), v (T, shared by the types), b (K), in one vector for Adam
  const P = K * d + T + K;
  const theta = new Float64Array(P);
  const m1 = new Float64Array(P);
  const m2 = new Float64Array(P);
  const b1 = 0.9;
  const b2 = 0.999;
  const Wi = (c: number, j: number) => c * d + j;
  const Vi = (k: number) => K * d + k;
  const Bi = (c: number) => K * d + T + c;
  // (the typed values read once, not at every iteration)
  const typedAll = xs.map(typedOf);
  const logits = new Array<number>(K);
  for (let it = 1; it <= ITERATIONS; it++) {
    const g = new Float64Array(P);
    for (let i = 0; i < z.length; i++) {
      const typed = typedAll[i]!;
      const zi = z[i]!;
      for (let c = 0; c < K; c++) {
        let s = theta[Bi(c)]!;
        for (let j = 0; j < d; j++) s += theta[Wi(c, j)]! * zi[j]!;
        for (let k = 0; k < T; k++) s += theta[Vi(k)]! * typed[k]![c]!;
        logits[c] = s;
      }
      const m = Math.max(...logits);
      const ex = logits.map((v) => Math.exp(v - m));
      const sum = ex.reduce((a, c) => a + c, 0);
      for (let c = 0; c < K; c++) {
        const r = (ex[c]! / sum - (xs[i]!.y === c ? 1 : 0)) * w[i]!;
        g[Bi(c)]! += r;
        for (let j = 0; j < d; j++) g[Wi(c, j)]! += r * z[i]![j]!;
        for (let k = 0; k < T; k++) g[Vi(k)]! += r * typed[k]![c]!;
      }
    }
    for (let q = 0; q < P; q++) {
      const gq = g[q]! + (q < K * d + T ? L2 * theta[q]! : 0);
      m1[q] = b1 * m1[q]! + (1 - b1) * gq;
      m2[q] = b2 * m2[q]! + (1 - b2) * gq * gq;
      theta[q]! -= (STEP * (m1[q]! / (1 - b1 ** it))) / (Math.sqrt(m2[q]! / (1 - b2 ** it)) + 1e-8);
    }
  }
  const r6 = (v: number) => Number(v.toFixed(6));
  return {
    format: 'gleaner-site-types/2',
    featuresVersion: SITE_FEATURES_VERSION,
    features: [...SITE_FEATURES],
    typedFeatures: [...SITE_TYPED_FEATURES],
    labels: [...SITE_LABELS],
    mean: mean.map(r6),
    std: std.map(r6),
    weights: Array.from({ length: K }, (_, c) => Array.from({ length: d }, (_, j) => r6(theta[Wi(c, j)]!))),
    typed: Array.from({ length: T }, (_, k) => r6(theta[Vi(k)]!)),
    bias: Array.from({ length: K }, (_, c) => r6(theta[Bi(c)]!)),
    trainedOn: info,
  };
}

/** The label the model gives an example (the classifier's for pages it does not decide). */
export function predict(model: SiteTypeModel, e: Example): string {
  if (!e.decided) return e.classifier;
  const p = siteProbabilities(model, e.f);
  return SITE_LABELS[p.indexOf(Math.max(...p))]!;
}

/** The model fitted on the examples, then (ROLLOUT rounds) refitted with examples of the same
 * sites collected in breadth-first order with the model's own decisions in the state: only the
 * training sites, so a fold's model never sees its held-out site. */
function withRollouts(examples: Example[], sites: string[], info: Record<string, unknown>): SiteTypeModel {
  let model = fit(examples, info);
  let extra: Example[] = [];
  for (let round = 0; round < ROLLOUT; round++) {
    extra = [...extra, ...sites.flatMap((s) => siteExamples(s, undefined, model))];
    model = fit([...examples, ...extra], info);
  }
  return model;
}

function main(): void {
  const sites = sitesOf();
  const bySite = new Map<string, Example[]>();
  const jittered = new Map<string, Example[]>();
  for (const s of sites) {
    const t0 = Date.now();
    bySite.set(s, siteExamples(s));
    jittered.set(s, JITTERS.flatMap((j) => siteExamples(s, j)));
    process.stderr.write(`${s}: ${bySite.get(s)!.length} pages (and ${JITTERS.length} jittered orders) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  // scored on the breadth-first order (the pages as they came: revision examples are trained on only);
  // trained on it and on the jittered orders
  const trainAll = [...[...bySite.values()].flat(), ...[...jittered.values()].flat()];
  for (const [s, exs] of bySite) bySite.set(s, exs.filter((e) => !e.revision));
  const all = [...bySite.values()].flat();
  const rows: (string | number)[][] = [];
  const tally = (exs: Example[], label: (e: Example) => string) => {
    const t: Record<string, [number, number]> = { detail: [0, 0], list: [0, 0], other: [0, 0] };
    for (const e of exs) {
      const want = SITE_LABELS[e.y]!;
      t[want]![1]++;
      if (label(e) === want) t[want]![0]++;
    }
    return t;
  };
  const cell = ([a, n]: [number, number]) => (n ? `${(a / n).toFixed(3)} (${a}/${n})` : '-');
  const pooled = { loso: { detail: [0, 0], list: [0, 0], other: [0, 0] } as Record<string, [number, number]>, cls: { detail: [0, 0], list: [0, 0], other: [0, 0] } as Record<string, [number, number]> };
  if (write) mkdirSync(FOLDS_DIR, { recursive: true });
  for (const s of sites) {
    const train = trainAll.filter((e) => e.site !== s);
    const model = withRollouts(train, sites.filter((x) => x !== s), { sites: sites.filter((x) => x !== s), pages: train.length, heldOut: s, l2: L2, rollout: ROLLOUT, mask: [...MASK], ...(REVISIONS ? { revisions: true } : {}) });
    if (write) writeFileSync(path.join(FOLDS_DIR, `${s}.json`), JSON.stringify(model) + '\n');
    const test = bySite.get(s)!;
    const loso = tally(test, (e) => predict(model, e));
    const cls = tally(test, (e) => (e.classifier === 'other' || e.classifier === 'list' || e.classifier === 'detail' ? e.classifier : 'forum'));
    for (const t of SITE_LABELS) {
      pooled.loso[t]![0] += loso[t]![0];
      pooled.loso[t]![1] += loso[t]![1];
      pooled.cls[t]![0] += cls[t]![0];
      pooled.cls[t]![1] += cls[t]![1];
    }
    rows.push([s, test.length, ...SITE_LABELS.map((t) => cell(loso[t]!)), ...SITE_LABELS.map((t) => cell(cls[t]!))]);
    if (verbose) for (const e of test) if (predict(model, e) !== SITE_LABELS[e.y]) console.log(`  ${s} ${decodeURIComponent(e.key)}: truth ${SITE_LABELS[e.y]}, model ${predict(model, e)}, classifier ${e.classifier}  x=${e.f.x.map((v) => v.toFixed(2)).join(' ')} typed=${e.f.typed.map((t) => t.map((v) => v.toFixed(2)).join('/')).join(' ')}`);
  }
  rows.push(['all sites', all.length, ...SITE_LABELS.map((t) => cell(pooled.loso[t]!)), ...SITE_LABELS.map((t) => cell(pooled.cls[t]!))]);
  console.log('\n### Site-type model, leave one site out (teacher-forced site state: each page with the true types of the pages before it)\n');
  printTable(['site', 'pages', 'detail', 'list', 'other', 'classifier alone: detail', 'list', 'other'], rows);
  const model = withRollouts(trainAll, sites, { sites, pages: all.length, orders: 1 + JITTERS.length, l2: L2, rollout: ROLLOUT, mask: [...MASK], ...(REVISIONS ? { revisions: true } : {}) });
  const insample = tally(all, (e) => predict(model, e));
  console.log(`\nIn sample (the shipped model on its own training pages): ${SITE_LABELS.map((t) => `${t} ${cell(insample[t]!)}`).join(', ')}`);
  if (verbose) {
    console.log('\nWeights (standardised features; detail / list / other):');
    SITE_FEATURES.forEach((f, j) => console.log(`  ${f.padEnd(18)} ${model.weights.map((w) => w[j]!.toFixed(2).padStart(7)).join(' ')}`));
    SITE_TYPED_FEATURES.forEach((f, k) => console.log(`  ${f.padEnd(18)} ${model.typed[k]!.toFixed(2).padStart(7)} (each type)`));
    console.log(`  ${'bias'.padEnd(18)} ${model.bias.map((v) => v.toFixed(2).padStart(7)).join(' ')}`);
  }
  if (write && MODEL_OUT) {
    writeFileSync(MODEL_OUT, JSON.stringify(model) + '\n');
    console.log(`\nwrote ${path.relative(process.cwd(), MODEL_OUT)} and ${sites.length} fold models in ${path.relative(process.cwd(), FOLDS_DIR)}/`);
  } else if (write) {
    const ts = `/**
 * The shipped site-type model (site-rules.ts): a multinomial logistic regression over SITE_FEATURES,
 * trained on ${sites.length} whole sites (${all.length} pages) of sites-crawl. Generated by
 * \`npm run train:site-types\` (bench/train-site-types.ts): do not edit by hand.
 */
/** The model's format (checked by checkSiteTypeModel in site-rules.ts). */
export interface SiteTypeModel {
  format: 'gleaner-site-types/2';
  featuresVersion: number;
  features: string[];
  typedFeatures: string[];
  labels: string[];
  /** Standardisation of each feature of SITE_FEATURES. */
  mean: number[];
  std: number[];
  /** weights[label][feature] (SITE_FEATURES), typed[feature] (SITE_TYPED_FEATURES, shared by the
   * labels) and bias[label]. */
  weights: number[][];
  typed: number[];
  bias: number[];
  /** How it was trained (sites, pages, options), for the record. */
  trainedOn?: unknown;
}

export const SITE_TYPE_MODEL: SiteTypeModel = {
${Object.entries(model).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`).join('\n')}
};
`;
    writeFileSync(MODEL_TS, ts);
    console.log(`\nwrote ${path.relative(process.cwd(), MODEL_TS)} and ${sites.length} fold models in ${path.relative(process.cwd(), FOLDS_DIR)}/`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
