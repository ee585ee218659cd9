/**
 * The floor model (issue 29): small logistic scorers, learned from every labelled thread page
 * (`npm run train:floors`, bench/train-floors.ts), that make the splitter's choices where rules
 * fitted to a few boards did not carry over to others — which candidate list of records is the
 * thread's floors, which element before them is its main post. Features are generic facts of the
 * page (shares, counts, tags, the class *words* many sites use) and the rules' own verdicts, so
 * that a rule still decides where the model agrees with it.
 *
 * A scorer is a linear function of named features (`Features`: name → value, absent = 0); its
 * choice among candidates is the highest score (a softmax over the candidates in training).
 * Shipped as `floor-model.json` beside this file; `GLEANER_FLOOR_MODEL` names another file (a
 * model trained on your own pages, or the benchmark's leave-site-out folds).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadJsonResource, loadShippedJson } from '../../src/core/resources.js';

/** Feature name → value (binary features are 1; shares in [0, 1]; counts log-scaled). */
export type Features = Map<string, number>;

export interface Scorer {
  weights: Record<string, number>;
  bias?: number;
  /** The rules' option stands unless another scores at least this much higher (trained models
   * depart from the rules only on clear evidence). */
  margin?: number;
}

export interface FloorModel {
  format: 'gleaner-floors-1';
  /** Which candidate list of records is the floors (records.ts `recordSets`). */
  sets?: Scorer;
  /** Which element before the floors is the main post, or none (choose.ts). */
  main?: Scorer;
  /** Which element of each floor is its body (body-features.ts): the rules' or a shared slot. */
  bodies?: Scorer;
  /** Which lines of a floor are its text (line-features.ts): a line the rules read is dropped
   * below probability `drop`, one they did not read is added above `add`. */
  lines?: Scorer & { drop?: number; add?: number };
  /** Provenance: pages, sites and the held-out figures the model was trained with. */
  trainedOn?: string;
}

export function score(s: Scorer, f: Features): number {
  let z = s.bias ?? 0;
  for (const [k, v] of f) z += (s.weights[k] ?? 0) * v;
  return z;
}

/** Index of the highest-scoring candidate (the first on ties; `undefined` entries are not
 * offered); -1 for none. */
export function argmax(s: Scorer, fs: ReadonlyArray<Features | undefined>): number {
  let best = -1;
  let bz = -Infinity;
  fs.forEach((f, i) => {
    if (!f) return;
    const z = score(s, f);
    if (z > bz) [best, bz] = [i, z];
  });
  return best;
}

/** The scorer's choice where the rules chose `rule` (an index into `fs`, -1 for no choice): the
 * best candidate if it beats the rules' by the scorer's margin, else the rules' own. */
export function decide(s: Scorer, fs: ReadonlyArray<Features | undefined>, rule: number): number {
  const k = argmax(s, fs);
  const r = rule >= 0 ? fs[rule] : undefined;
  if (k < 0 || k === rule || !r || !s.margin) return k;
  return score(s, fs[k]!) - score(s, r) >= s.margin ? k : rule;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The shipped model's name beside this file (in the build: an entry of dist/data.json). */
const MODEL_NAME = 'floor-model.json';
/** Environment variable naming another floor model file. */
export const FLOOR_MODEL_ENV = 'GLEANER_FLOOR_MODEL';

export function checkFloorModel(m: FloorModel, file: string): void {
  if (m?.format !== 'gleaner-floors-1') throw new Error(`${file}: not a gleaner floor model (format ${String(m?.format)}); retrain it with npm run train:floors`);
}

/** The floor model in use: the file GLEANER_FLOOR_MODEL names, else the one shipped beside this
 * file; undefined when neither exists (the rules alone then decide). */
export function floorModel(): FloorModel | undefined {
  const file = process.env[FLOOR_MODEL_ENV];
  if (file) return loadJsonResource<FloorModel>(file, checkFloorModel, `floor model ${file} not found (${FLOOR_MODEL_ENV})`);
  const missing = `floor model ${path.join(here, MODEL_NAME)} not found`;
  try {
    return loadShippedJson<FloorModel>(here, MODEL_NAME, checkFloorModel, missing);
  } catch (e) {
    // (before the first `npm run train:floors`: the rules alone decide)
    if ((e as Error).message === missing) return undefined;
    throw e;
  }
}
