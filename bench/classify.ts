/**
 * `npm run bench:classify`: page-type classification on `pagetype-labels.json`.
 *
 * Balanced accuracy over detail/list/forum (mean per-class recall), from NESTED cross-validation
 * grouped by site: outer folds hold out whole sites; C/γ/kernel are grid-searched on the outer
 * training part only (inner grouped CV). Two feature sets with the same procedure: ours, and
 * Gerapy's recipe (its page features + SVM) as the baseline. Also: the confusion matrix, accuracy
 * per data set, and classification time per page after parsing on the AEB pages.
 *
 * Usage: npx tsx bench/classify.ts [--quick] [--errors] [--splits N]
 *   --quick: plain grouped-CV grid search, no nesting (optimistic);
 *   --errors (or --verbose): list the misclassified pages;
 *   --splits N: the nested CV also over N−1 other (seeded) site splits of the outer folds, and the spread.
 */
import { readFileSync } from 'node:fs';
import { createPage } from '../src/core/page.js';
import { classifyPage, loadModel } from '../middleware/classifier/index.js';
import {
  loadLabelledPages, nestedCv, gridSearch, groupFolds, cvPredict, balancedAccuracy, trainMask, CLASS_NAMES, CV_FOLDS, type LabelledPage,
} from '../middleware/classifier/train.js';
import { readManifest, printTable, median, dataDir } from './lib/data.js';

const quick = process.argv.includes('--quick');
const splitsArg = process.argv.indexOf('--splits');
const splits = splitsArg >= 0 ? Math.max(1, Number(process.argv[splitsArg + 1]) || 1) : 1;

const t0 = Date.now();
const { pages, missing } = loadLabelledPages({ data: dataDir(), onPage: (d, n) => d % 200 === 0 && process.stderr.write(`features ${d}/${n}\n`) });
console.log(`\n${pages.length} labelled pages (${missing.length} ids without a page), ${new Set(pages.map((p) => p.site)).size} sites; features in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const y = pages.map((p) => CLASS_NAMES.indexOf(p.label as (typeof CLASS_NAMES)[number]));
const sites = pages.map((p) => p.site);
const gold = pages.map((p) => p.label);
// Low-confidence labels are scored but not trained on (as `gleaner train-classifier` does).
const train = trainMask(pages);

function evaluate(name: string, X: number[][], seed = 0): string[] {
  const t = Date.now();
  let pred: number[];
  if (quick) {
    const gs = gridSearch(X, y, sites, CV_FOLDS, train);
    pred = cvPredict(X, y, groupFolds(sites, CV_FOLDS), gs.best, train);
    console.log(`${name}: best ${JSON.stringify(gs.best)} (grid-selected on the same folds: optimistic)`);
  } else {
    pred = nestedCv(X, y, sites, CV_FOLDS, (f, p) => process.stderr.write(`${name} fold ${f}: ${JSON.stringify(p)}\n`), train, seed);
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

const ours = evaluate('gleaner features', pages.map((p) => p.x));
const gerapy = evaluate('gerapy features', pages.map((p) => p.g));

console.log(`\n### Page type, ${quick ? 'grouped' : 'nested grouped'} ${CV_FOLDS}-fold CV by site (balanced accuracy over detail/list/forum)\n`);
printTable(
  ['features', 'balanced acc.', 'detail recall', 'list recall', 'forum recall', 'other recall', 'accuracy (all)'],
  [
    ['Gleaner (ours)', balancedAccuracy(gold, ours), recall(ours, 'detail'), recall(ours, 'list'), recall(ours, 'forum'), recall(ours, 'other'), ours.filter((v, i) => v === gold[i]).length / gold.length],
    ['Gerapy recipe, retrained', balancedAccuracy(gold, gerapy), recall(gerapy, 'detail'), recall(gerapy, 'list'), recall(gerapy, 'forum'), recall(gerapy, 'other'), gerapy.filter((v, i) => v === gold[i]).length / gold.length],
  ],
);
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
console.log('\nConfusion matrix, Gleaner features:\n');
confusion(ours);
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
