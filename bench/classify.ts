/**
 * `npm run bench:classify`: page-type classification on `pagetype-labels.json` plus the labelled
 * manifests of `middleware/classifier/training-sets.ts` (real-threads: forum), as `gleaner
 * train-classifier` trains (`--no-sets`: the labels file only); then the shipped model on the
 * held-out sets (WCXB dev by its type mapping: sites never trained on).
 *
 * Leave-site-out: balanced accuracy over detail/list/forum (mean per-class recall), from NESTED
 * cross-validation grouped by site (registrable domain): outer folds hold out whole sites, so
 * every page is scored by a model that never saw a page of its site; C/γ/kernel are
 * grid-searched on the outer training part only (inner grouped CV). Two feature sets with the same procedure: ours, and
 * Gerapy's recipe (its page features + SVM) as the baseline. Also: the confusion matrix, accuracy
 * per data set, and classification time per page after parsing on the AEB pages.
 *
 * The floor splitter's verdict (floor signals) is a feature: each labelled page's comes from the
 * floor model fitted without its site (`--shipped-floor-model`: the shipped one, in-sample for the
 * forum pages it was trained on).
 *
 * `--write-model FILE`: also train the shipped model by `gleaner train-classifier`'s procedure
 * (`trainPageTypeModel`) on these pages — their floor signals cross-fitted as above, so the forum
 * threads the floor model learned from carry the signals an unseen board's thread gets — write it
 * to FILE, and score the held-out sets with it (copy it to middleware/classifier/model.json to ship
 * it). Without it the held-out sets are scored with the shipped model.
 *
 * Usage: npx tsx bench/classify.ts [--quick] [--errors] [--splits N] [--no-sets] [--shipped-floor-model] [--write-model FILE]
 *   --quick: plain grouped-CV grid search, no nesting (optimistic);
 *   --errors (or --verbose): list the misclassified pages;
 *   --splits N: the nested CV also over N−1 other (seeded) site splits of the outer folds, and the spread.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPage } from '../src/core/page.js';
import { classifyPage, loadModel, predictCascade, FLOOR_SIGNALS_MIN_FORUM } from '../middleware/classifier/index.js';
import { withoutFloors } from '../middleware/classifier/features.js';
import { TRAINING_SETS, HELD_OUT_SETS } from '../middleware/classifier/training-sets.js';
import { predict } from '../middleware/classifier/svm.js';
import {
  loadLabelledPages, trainPageTypeModel, nestedCv, gridSearch, groupFolds, cvPredict, balancedAccuracy, trainMask, contentless, CLASS_NAMES, CV_FOLDS, type LabelledPage, type CascadeReplay,
} from '../middleware/classifier/train.js';
import { readManifest, printTable, median, dataDir } from './lib/data.js';
import { FloorFolds } from './train-floors.js';
import { FLOOR_MODEL_ENV } from '../middleware/forum/model.js';

const quick = process.argv.includes('--quick');
const splitsArg = process.argv.indexOf('--splits');
const splits = splitsArg >= 0 ? Math.max(1, Number(process.argv[splitsArg + 1]) || 1) : 1;

/** An empty labels file (the held-out sets bring their own labels). */
function emptyLabels(): string {
  const f = path.join(mkdtempSync(path.join(tmpdir(), 'gleaner-classify-')), 'labels.json');
  writeFileSync(f, '{}');
  return f;
}

const t0 = Date.now();
const noSets = process.argv.includes('--no-sets');
// The floor splitter's verdict is a feature, and the floor model learned from the forum pages
// labelled here: each page's floor signals come from the floor model fitted without its site
// (bench/train-floors.ts), so a held-out site is held out of both models.
const floorFolds = process.argv.includes('--shipped-floor-model') ? undefined : new FloorFolds();
const { pages, missing } = loadLabelledPages({
  data: dataDir(),
  sets: noSets ? [] : TRAINING_SETS,
  onPage: (d, n) => d % 200 === 0 && process.stderr.write(`features ${d}/${n}\n`),
  beforePage: (p) => {
    if (floorFolds) process.env[FLOOR_MODEL_ENV] = floorFolds.fileFor(p.site);
  },
});
delete process.env[FLOOR_MODEL_ENV];
floorFolds?.dispose();
console.log(`\n${pages.length} labelled pages (${missing.length} ids without a page), ${new Set(pages.map((p) => p.site)).size} sites; features in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const writeArg = process.argv.indexOf('--write-model');
const writeModel = writeArg >= 0 ? process.argv[writeArg + 1] : undefined;
if (writeModel) {
  const t = Date.now();
  const r = trainPageTypeModel(pages);
  writeFileSync(writeModel, JSON.stringify(r.model) + '\n');
  console.log(`model written to ${writeModel}: ${JSON.stringify(r.search.best)} (grouped CV ${r.search.score.toFixed(4)}), ${r.model.SV.length} support vectors, agreement with libsvm ${r.agreement.toFixed(3)}, ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

const y = pages.map((p) => CLASS_NAMES.indexOf(p.label as (typeof CLASS_NAMES)[number]));
const sites = pages.map((p) => p.site);
const gold = pages.map((p) => p.label);
// Low-confidence labels are scored but not trained on (as `gleaner train-classifier` does).
const train = trainMask(pages);

function evaluate(name: string, X: number[][], seed = 0, cascade?: CascadeReplay): string[] {
  const t = Date.now();
  let pred: number[];
  if (quick) {
    const gs = gridSearch(X, y, sites, CV_FOLDS, train);
    pred = cvPredict(X, y, groupFolds(sites, CV_FOLDS), gs.best, train);
    console.log(`${name}: best ${JSON.stringify(gs.best)} (grid-selected on the same folds: optimistic)`);
  } else {
    pred = nestedCv(X, y, sites, CV_FOLDS, (f, p) => process.stderr.write(`${name} fold ${f}: ${JSON.stringify(p)}\n`), train, seed, cascade);
  }
  process.stderr.write(`${name}: ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  return pred.map((v) => CLASS_NAMES[v] ?? 'none');
}

function confusion(pred: string[]): void {
  const rows = CLASS_NAMES.map((g) => [`gold ${g}`, ...CLASS_NAMES.map((p) => pred.filter((v, i) => gold[i] === g && v === p).length)]);
  printTable(['', ...CLASS_NAMES.map((c) => `→ ${c}`)], rows);
}

function recall(pred: string[], c: string): number {
  const idx = gold.map((g, i) => (g === c ? i : -1)).filter((i) => i >= 0);
  return idx.length ? idx.filter((i) => pred[i] === c).length / idx.length : NaN;
}

// The same folds replayed as classifyPage types a page (the floor signals computed only where forum
// keeps FLOOR_SIGNALS_MIN_FORUM without them: predictCascade): a column of its own.
const replay: CascadeReplay = { without: withoutFloors, minForum: FLOOR_SIGNALS_MIN_FORUM, pred: new Array<number>(pages.length).fill(-1) };
const ours = evaluate('gleaner features', pages.map((p) => p.x), 0, quick ? undefined : replay);
const oursCascade = quick ? undefined : replay.pred.map((v) => CLASS_NAMES[v] ?? 'none');
const gerapy = evaluate('gerapy features', pages.map((p) => p.g));

console.log(`\n### Page type, leave-site-out: ${quick ? 'grouped' : 'nested grouped'} ${CV_FOLDS}-fold CV by site, ${new Set(sites).size} sites (balanced accuracy over detail/list/forum)\n`);
printTable(
  ['features', 'balanced acc.', 'detail recall', 'list recall', 'forum recall', 'other recall', 'accuracy (all)'],
  [
    ['Gleaner (ours)', balancedAccuracy(gold, ours), recall(ours, 'detail'), recall(ours, 'list'), recall(ours, 'forum'), recall(ours, 'other'), ours.filter((v, i) => v === gold[i]).length / gold.length],
    ...(oursCascade ? [['Gleaner (ours), as classifyPage (cascade)', balancedAccuracy(gold, oursCascade), recall(oursCascade, 'detail'), recall(oursCascade, 'list'), recall(oursCascade, 'forum'), recall(oursCascade, 'other'), oursCascade.filter((v, i) => v === gold[i]).length / gold.length]] : []),
    ['Gerapy recipe, retrained', balancedAccuracy(gold, gerapy), recall(gerapy, 'detail'), recall(gerapy, 'list'), recall(gerapy, 'forum'), recall(gerapy, 'other'), gerapy.filter((v, i) => v === gold[i]).length / gold.length],
  ],
);
if (oursCascade) console.log(`\nCascade (classifyPage): floor signals computed on ${replay.computed ?? 0} of ${pages.filter((p) => !contentless(p.x)).length} pages with content (p(forum) ≥ ${FLOOR_SIGNALS_MIN_FORUM} without them); ${oursCascade.filter((v, i) => v !== ours[i]).length} pages typed otherwise than with the floor signals on every page`);
// Pages with a public URL (every page a crawl sees) apart from the URL-less ones (most article
// sets): a model that learned "no URL → article" scores well on the second group only.
const withUrl = pages.map((p) => /^https?:\/\/[^/]*\./.test(p.url));
const sub = (pred: string[], m: boolean) => balancedAccuracy(gold.filter((_, i) => withUrl[i] === m), pred.filter((_, i) => withUrl[i] === m));
console.log(`\nBalanced accuracy, pages with a public URL (${withUrl.filter(Boolean).length}): ours ${sub(ours, true).toFixed(3)}, Gerapy ${sub(gerapy, true).toFixed(3)}; without (${withUrl.filter((v) => !v).length}): ours ${sub(ours, false).toFixed(3)}, Gerapy ${sub(gerapy, false).toFixed(3)}`);
if (splits > 1 && !quick) {
  // The figure depends on which sites share a fold (there are few forum sites): the same nested CV
  // over other seeded site splits, and its spread.
  const spread = (name: string, X: number[][], first: string[]) => {
    const acc = [balancedAccuracy(gold, first)];
    for (let seed = 1; seed < splits; seed++) acc.push(balancedAccuracy(gold, evaluate(`${name} split ${seed}`, X, seed)));
    const mean = acc.reduce((a, b) => a + b, 0) / acc.length;
    const sd = Math.sqrt(acc.reduce((a, b) => a + (b - mean) ** 2, 0) / acc.length);
    return [name, acc.length, mean, sd, Math.min(...acc), Math.max(...acc), acc.map((a) => a.toFixed(3)).join(' ')];
  };
  console.log(`\n### Balanced accuracy over ${splits} site splits of the outer folds\n`);
  printTable(['features', 'splits', 'mean', 'sd', 'min', 'max', 'per split'], [spread('Gleaner (ours)', pages.map((p) => p.x), ours), spread('Gerapy recipe, retrained', pages.map((p) => p.g), gerapy)]);
}
// Forum recall on unseen sites, per source of forum threads (every page is held out with its site).
const subset = (m: (p: LabelledPage) => boolean) => pages.map((p, i) => (m(p) ? i : -1)).filter((i) => i >= 0);
const recallOn = (pred: string[], idx: number[], c: string) => {
  const of = idx.filter((i) => gold[i] === c);
  return of.length ? of.filter((i) => pred[i] === c).length / of.length : NaN;
};
const hasContent = (i: number) => !contentless(pages[i]!.x);
console.log('\nRecall per class and source (held-out sites):\n');
printTable(
  ['source', 'class', 'pages', 'ours', 'ours, pages with content', 'Gerapy recipe'],
  [...new Set(pages.map((p) => `${p.source}|${p.label}`))].sort().map((k) => {
    const [source, label] = k.split('|') as [string, string];
    const idx = subset((p) => p.source === source && p.label === label);
    return [source, label, idx.length, recallOn(ours, idx, label), recallOn(ours, idx.filter(hasContent), label), recallOn(gerapy, idx, label)];
  }),
);
const original = subset((p) => !TRAINING_SETS.some((s) => s.manifest === p.source));
const bal = (pred: string[], idx: number[]) => balancedAccuracy(idx.map((i) => gold[i]!), idx.map((i) => pred[i]!));
console.log('\nBalanced accuracy per page set (the same held-out predictions):\n');
printTable(['page set', 'pages', 'ours', 'ours detail', 'ours list', 'ours forum', 'Gerapy recipe'], [
  ['all labelled sites', pages.length, bal(ours, pages.map((_, i) => i)), recall(ours, 'detail'), recall(ours, 'list'), recall(ours, 'forum'), bal(gerapy, pages.map((_, i) => i))],
  ['labels-file pages', original.length, bal(ours, original), recallOn(ours, original, 'detail'), recallOn(ours, original, 'list'), recallOn(ours, original, 'forum'), bal(gerapy, original)],
]);
const typed = [...new Set(pages.filter((p) => p.type).map((p) => `${p.source}|${p.type}`))].sort();
if (typed.length) {
  console.log('\nPredicted class per manifest type (held-out sites):\n');
  printTable(['source', 'type', 'label', 'pages', ...CLASS_NAMES.map((c) => `→ ${c}`)], typed.map((k) => {
    const [source, type] = k.split('|') as [string, string];
    const idx = subset((p) => p.source === source && p.type === type);
    return [source, type, gold[idx[0]!]!, idx.length, ...CLASS_NAMES.map((c) => idx.filter((i) => ours[i] === c).length)];
  }));
}
// Held-out sites: the shipped model (trained on all the pages above by the same procedure) on
// labelled sets it never trained on, pages of a site that is in training left out.
const trainedSites = new Set(sites);
const heldOut = noSets ? [] : loadLabelledPages({ data: dataDir(), labels: emptyLabels(), sets: HELD_OUT_SETS }).pages.filter((p) => !trainedSites.has(p.site));
let forumUnseen = { ok: ours.filter((v, i) => gold[i] === 'forum' && v === 'forum').length, n: gold.filter((g) => g === 'forum').length };
if (heldOut.length) {
  let model: ReturnType<typeof loadModel> | undefined;
  try {
    model = loadModel(writeModel);
  } catch (e) {
    console.log(`\nno shipped model for the held-out sets: ${(e as Error).message}`);
  }
  if (model) {
    const m = model;
    // as classifyPage types them: the floor signals only where forum stays possible without them
    const predOf = (p: LabelledPage) => (contentless(p.x) ? 'other' : predictCascade(m, withoutFloors(p.x), () => p.x).label);
    const hp = heldOut.map(predOf);
    const allFloors = heldOut.map((p) => (contentless(p.x) ? 'other' : predict(m, p.x).label));
    console.log(`\nHeld-out pages typed otherwise with the floor signals on every page: ${hp.filter((v, i) => v !== allFloors[i]).length} of ${heldOut.length}; balanced accuracy ${balancedAccuracy(heldOut.map((p) => p.label), allFloors).toFixed(3)} that way`);
    const hg = heldOut.map((p) => p.label);
    console.log(`\n### Held-out sites: ${writeModel ? `the model written to ${writeModel}` : 'the shipped model'} on ${heldOut.length} pages of ${new Set(heldOut.map((p) => p.site)).size} sites it never trained on\n`);
    const types = [...new Set(heldOut.map((p) => `${p.source}|${p.type ?? p.label}`))].sort();
    printTable(['source', 'type', 'label', 'pages', 'recall', 'recall, pages with content', ...CLASS_NAMES.map((c) => `→ ${c}`)], types.map((k) => {
      const [source, type] = k.split('|') as [string, string];
      const idx = heldOut.map((p, i) => (p.source === source && (p.type ?? p.label) === type ? i : -1)).filter((i) => i >= 0);
      const label = hg[idx[0]!]!;
      const withContent = idx.filter((i) => !contentless(heldOut[i]!.x));
      const rec = (ix: number[]) => (ix.length ? ix.filter((i) => hp[i] === label).length / ix.length : NaN);
      return [source, type, label, idx.length, rec(idx), rec(withContent), ...CLASS_NAMES.map((c) => idx.filter((i) => hp[i] === c).length)];
    }));
    console.log(`\nHeld-out balanced accuracy: ${balancedAccuracy(hg, hp).toFixed(3)}`);
    forumUnseen = { ok: forumUnseen.ok + hp.filter((v, i) => hg[i] === 'forum' && v === 'forum').length, n: forumUnseen.n + hg.filter((g) => g === 'forum').length };
  }
}
console.log('\n### Forum recall on unseen sites (cross-validated labelled sites + held-out sites)\n');
printTable(['features', 'forum pages', 'forum recall, unseen sites'], [['Gleaner (ours), unseen sites', forumUnseen.n, forumUnseen.ok / (forumUnseen.n || 1)]]);

console.log('\nConfusion matrix, Gleaner features:\n');
confusion(ours);
if (oursCascade) {
  console.log('\nConfusion matrix, Gleaner features as classifyPage types (cascade):\n');
  confusion(oursCascade);
}
console.log('\nConfusion matrix, Gerapy features:\n');
confusion(gerapy);

// Per data set (the id's folder).
const sets = new Map<string, number[]>();
pages.forEach((p, i) => {
  const s = p.id.split('/')[0]!;
  if (!sets.has(s)) sets.set(s, []);
  sets.get(s)!.push(i);
});
console.log('\nAccuracy per data set (held-out predictions):\n');
printTable(
  ['data set', 'pages', 'labels', 'ours', 'Gerapy recipe'],
  [...sets.entries()].map(([s, idx]) => [
    s,
    idx.length,
    [...new Set(idx.map((i) => gold[i]))].join('/'),
    idx.filter((i) => ours[i] === gold[i]).length / idx.length,
    idx.filter((i) => gerapy[i] === gold[i]).length / idx.length,
  ]),
);
const wrong = pages.map((p: LabelledPage, i) => [p.id, p.label, ours[i]!]).filter((r) => r[1] !== r[2]);
if (wrong.length && (process.argv.includes('--errors') || process.argv.includes('--verbose'))) {
  console.log('\nMisclassified (ours):\n');
  printTable(['id', 'gold', 'predicted', 'url'], wrong.map((r) => [...r, pages.find((p) => p.id === r[0])!.url]));
}

// Speed: classifyPage on freshly parsed AEB pages (features + SVM), parsing excluded.
try {
  const model = loadModel();
  const times: number[] = [];
  for (const e of readManifest('articles/aeb/manifest.jsonl')) {
    const page = createPage({ url: e.url ?? 'http://localhost/', body: readFileSync(e.file) });
    const t = performance.now();
    classifyPage(page, { model });
    times.push(performance.now() - t);
  }
  console.log(`\nclassifyPage time on ${times.length} AEB pages (after parsing): median ${median(times).toFixed(2)} ms, p90 ${[...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)]!.toFixed(2)} ms (shared CPU)`);
  const tr = model.training as Record<string, unknown> | undefined;
  if (tr) console.log(`shipped model: ${JSON.stringify(tr.params)}, ${model.SV.length} support vectors, trained on ${String(tr.pages)} pages`);
} catch (e) {
  console.log(`\nno shipped model to time: ${(e as Error).message}`);
}
