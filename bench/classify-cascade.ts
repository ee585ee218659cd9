/**
 * `npx tsx bench/classify-cascade.ts` (issue 26, a measurement for the next step): what the page
 * classifier would decide without the forum floor splitter's signals. The floor signals run the
 * whole forum splitter on every page (23% of `gleaner extract --batch --kind auto`'s CPU on AEB,
 * 2026-12-02 profile); a cascade would compute them only where the prediction without them gives
 * forum a probability of at least tau. For each tau: the labelled pages (750, the shipped models:
 * in-sample for the SVM) that would skip them, how many labels change, and the largest change of a
 * probability. The figures decide whether the cascade is worth a leave-site-out evaluation
 * (bench:classify, bench:sites): it changes the stored probabilities, which the site model reads.
 */
import { loadLabelledPages } from '../middleware/classifier/train.js';
import { TRAINING_SETS } from '../middleware/classifier/training-sets.js';
import { loadModel } from '../middleware/classifier/index.js';
import { predict } from '../middleware/classifier/svm.js';
import { dataDir } from './lib/data.js';
const model = loadModel();
const { pages } = loadLabelledPages({ data: dataDir(), sets: TRAINING_SETS });
const fi = model.features.map((f, i) => [f, i] as const).filter(([f]) => f.startsWith('floor')).map(([, i]) => i);
console.log('floor features', fi.map((i) => model.features[i]));
const rows = pages.map((p) => {
  const full = predict(model, p.x);
  const x2 = [...p.x]; for (const i of fi) x2[i] = 0;
  const cheap = predict(model, x2);
  return { label: p.label, full: full.label, cheap: cheap.label, pf: cheap.probabilities.forum ?? 0, diff: Math.max(...Object.keys(full.probabilities).map((k) => Math.abs(full.probabilities[k]! - (cheap.probabilities[k] ?? 0)))) };
});
for (const tau of [0.01, 0.02, 0.05, 0.1, 0.2]) {
  const skip = rows.filter((r) => r.pf < tau);
  const changed = skip.filter((r) => r.full !== r.cheap);
  console.log(`tau ${tau}: skip ${skip.length}/${rows.length} pages (${skip.filter((r) => r.label === 'forum').length} gold forum), label changed on ${changed.length} (${changed.map((r) => `${r.label}:${r.full}->${r.cheap}`).join(' ')}), max prob diff ${Math.max(0, ...skip.map((r) => r.diff)).toFixed(3)}, gold-correct full ${skip.filter((r) => r.full === r.label).length} cheap ${skip.filter((r) => r.cheap === r.label).length}`);
}
