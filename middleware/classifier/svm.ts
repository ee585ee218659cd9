/**
 * Synchronous SVM prediction from a model exported to JSON (support vectors, dual coefficients,
 * rho, probA/probB). libsvm-js trains the model (WASM/asm.js, asynchronous to load, manual memory);
 * prediction is a few hundred kernel evaluations, done here in TypeScript so that `classifyPage`
 * stays synchronous and dependency-free at run time. The arithmetic follows libsvm 3.22
 * (`svm_predict_values`, `sigmoid_predict`, `multiclass_probability`); `train.ts` checks that it
 * agrees with libsvm-js on the training pages.
 */

export interface SvmModelJson {
  /** Format marker. */
  format: 'gleaner-svm/1';
  kernel: 'rbf' | 'linear';
  gamma: number;
  /** Class labels in libsvm's order (names, e.g. detail/list/forum/other). */
  labels: string[];
  /** Support vectors per class (libsvm's nr_sv). */
  nSV: number[];
  /** Support vectors (standardised feature space). */
  SV: number[][];
  /** Dual coefficients: (nr_class − 1) rows × total SV. */
  coef: number[][];
  /** One per class pair (i < j, libsvm order). */
  rho: number[];
  /** Platt scaling per class pair; absent when trained without probability estimates. */
  probA?: number[];
  probB?: number[];
  /** Feature standardisation (mean, standard deviation) applied before the kernel. */
  mean: number[];
  std: number[];
  /** Feature names, in order (a model trained on other features must not be used silently). */
  features: string[];
  /** Versions of the feature definitions and of the list/article/forum signals they read (see
   * FEATURE_SPEC in features.ts): a model trained on other values of the same names is refused. */
  spec?: { features: number; listSignals: number; articleSignals: number; forumSignals?: number };
  /** How it was trained: parameters, cross-validation figures, data. */
  training?: Record<string, unknown>;
  /** Share of each class among the training pages (same order as `labels`). When present,
   * probabilities are re-weighted to equal class priors (see `balancePriors`). */
  priors?: number[];
}

/** libsvm's clamp for pairwise probabilities. */
const MIN_PROB = 1e-7;

/** Standardised values are clipped to ±this many standard deviations, in training and prediction
 * alike. Without it a page far outside the training pages on a raw count (a 10,000-link index: 36
 * sd on the anchor count) is far from every support vector of an RBF model, and its type falls to
 * the model's bias terms (such an index was typed forum at 0.76; clipped, list at 0.9997).
 * Measured (bench:classify's nested leave-site-out CV, classify-8): unclipped 0.917 balanced /
 * 0.940 forum recall, ±5 0.914 / 0.922, ±8 0.921 / 0.948 (two values tried). */
export const STANDARD_CLIP = 8;

export function standardise(x: number[], mean: number[], std: number[]): number[] {
  return x.map((v, i) => (Number.isFinite(v) ? Math.max(-STANDARD_CLIP, Math.min(STANDARD_CLIP, (v - mean[i]!) / (std[i]! || 1))) : 0));
}

function kernel(model: SvmModelJson, a: number[], b: number[]): number {
  let s = 0;
  if (model.kernel === 'linear') {
    for (let i = 0; i < a.length; i++) s += a[i]! * (b[i] ?? 0);
    return s;
  }
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - (b[i] ?? 0);
    s += d * d;
  }
  return Math.exp(-model.gamma * s);
}

/** Pairwise decision values (libsvm order: (0,1), (0,2) … (1,2) …) for a standardised sample. */
export function decisionValues(model: SvmModelJson, x: number[]): number[] {
  const k = model.labels.length;
  const kv = model.SV.map((sv) => kernel(model, x, sv));
  const start: number[] = [0];
  for (let i = 1; i < k; i++) start[i] = start[i - 1]! + model.nSV[i - 1]!;
  const out: number[] = [];
  let p = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      let sum = 0;
      const si = start[i]!;
      const sj = start[j]!;
      const ci = model.nSV[i]!;
      const cj = model.nSV[j]!;
      const coef1 = model.coef[j - 1]!;
      const coef2 = model.coef[i]!;
      for (let t = 0; t < ci; t++) sum += coef1[si + t]! * kv[si + t]!;
      for (let t = 0; t < cj; t++) sum += coef2[sj + t]! * kv[sj + t]!;
      out.push(sum - model.rho[p]!);
      p++;
    }
  }
  return out;
}

function sigmoidPredict(dec: number, a: number, b: number): number {
  const f = dec * a + b;
  return f >= 0 ? Math.exp(-f) / (1 + Math.exp(-f)) : 1 / (1 + Math.exp(f));
}

/** Wu, Lin & Weng (2004) pairwise coupling, as libsvm's multiclass_probability. */
function multiclassProbability(k: number, r: number[][]): number[] {
  const p = new Array<number>(k).fill(1 / k);
  const Q = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const Qp = new Array<number>(k).fill(0);
  for (let t = 0; t < k; t++) {
    for (let j = 0; j < t; j++) {
      Q[t]![t]! += r[j]![t]! * r[j]![t]!;
      Q[t]![j] = Q[j]![t]!;
    }
    for (let j = t + 1; j < k; j++) {
      Q[t]![t]! += r[j]![t]! * r[j]![t]!;
      Q[t]![j] = -r[j]![t]! * r[t]![j]!;
    }
  }
  const maxIter = Math.max(100, k);
  const eps = 0.005 / k;
  for (let iter = 0; iter < maxIter; iter++) {
    let pQp = 0;
    for (let t = 0; t < k; t++) {
      Qp[t] = 0;
      for (let j = 0; j < k; j++) Qp[t]! += Q[t]![j]! * p[j]!;
      pQp += p[t]! * Qp[t]!;
    }
    let maxError = 0;
    for (let t = 0; t < k; t++) maxError = Math.max(maxError, Math.abs(Qp[t]! - pQp));
    if (maxError < eps) break;
    for (let t = 0; t < k; t++) {
      const diff = (-Qp[t]! + pQp) / Q[t]![t]!;
      p[t]! += diff;
      pQp = (pQp + diff * (diff * Q[t]![t]! + 2 * Qp[t]!)) / (1 + diff) / (1 + diff);
      for (let j = 0; j < k; j++) {
        Qp[j] = (Qp[j]! + diff * Q[t]![j]!) / (1 + diff);
        p[j]! /= 1 + diff;
      }
    }
  }
  return p;
}

/**
 * Probabilities under equal class priors: p'(c) ∝ p(c) / prior(c). Platt scaling calibrates to the
 * training mix (464 articles, 54 forum threads), which undoes the balanced class weights the SVM
 * was trained and selected with: measured, argmax of raw probabilities costs 2 points of balanced
 * accuracy (forum recall 0.89 → 0.83) against the weighted vote.
 */
export function balancePriors(probs: number[], priors?: number[]): number[] {
  if (!priors || priors.length !== probs.length) return probs;
  const w = probs.map((p, i) => p / (priors[i]! || 1));
  const sum = w.reduce((s, v) => s + v, 0) || 1;
  return w.map((v) => v / sum);
}

export interface SvmPrediction {
  label: string;
  probabilities: Record<string, number>;
}

/** Predict a raw (unstandardised) feature vector. With probA/probB the label is the most probable
 * class (as libsvm's svm_predict_probability); without, the pairwise vote winner. */
export function predict(model: SvmModelJson, raw: number[]): SvmPrediction {
  const x = standardise(raw, model.mean, model.std);
  const dec = decisionValues(model, x);
  const k = model.labels.length;
  const probabilities: Record<string, number> = {};
  if (model.probA && model.probB && k > 1) {
    const r = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    let p = 0;
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const v = Math.min(Math.max(sigmoidPredict(dec[p]!, model.probA[p]!, model.probB[p]!), MIN_PROB), 1 - MIN_PROB);
        r[i]![j] = v;
        r[j]![i] = 1 - v;
        p++;
      }
    }
    const probs = balancePriors(k === 2 ? [r[0]![1]!, r[1]![0]!] : multiclassProbability(k, r), model.priors);
    let best = 0;
    for (let i = 0; i < k; i++) {
      probabilities[model.labels[i]!] = probs[i]!;
      if (probs[i]! > probs[best]!) best = i;
    }
    return { label: model.labels[best]!, probabilities };
  }
  const votes = new Array<number>(k).fill(0);
  let p = 0;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) votes[dec[p++]! > 0 ? i : j]!++;
  let best = 0;
  for (let i = 0; i < k; i++) if (votes[i]! > votes[best]!) best = i;
  const total = votes.reduce((s, v) => s + v, 0) || 1;
  for (let i = 0; i < k; i++) probabilities[model.labels[i]!] = votes[i]! / total;
  return { label: model.labels[best]!, probabilities };
}

/** Parse libsvm's text model (`svm.serializeModel()`), mapping numeric labels to names. */
export function parseLibsvmModel(text: string, labelNames: (n: number) => string): Omit<SvmModelJson, 'mean' | 'std' | 'features' | 'format'> {
  const lines = text.split('\n');
  const header = new Map<string, string[]>();
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === 'SV') {
      i++;
      break;
    }
    const [key, ...rest] = line.split(/\s+/);
    if (key) header.set(key, rest);
  }
  const k = Number(header.get('nr_class')![0]);
  const kernelType = header.get('kernel_type')![0];
  const coef: number[][] = Array.from({ length: k - 1 }, () => []);
  const SV: number[][] = [];
  let dims = 0;
  for (; i < lines.length; i++) {
    const parts = lines[i]!.trim().split(/\s+/).filter(Boolean);
    if (parts.length < k - 1) continue;
    for (let c = 0; c < k - 1; c++) coef[c]!.push(Number(parts[c]));
    const sv: number[] = [];
    for (const p of parts.slice(k - 1)) {
      const [idx, val] = p.split(':');
      const d = Number(idx) - 1;
      sv[d] = Number(val);
      dims = Math.max(dims, d + 1);
    }
    SV.push(sv);
  }
  for (const sv of SV) for (let d = 0; d < dims; d++) sv[d] ??= 0;
  const nums = (key: string) => header.get(key)?.map(Number);
  return {
    kernel: kernelType === 'linear' ? 'linear' : 'rbf',
    gamma: Number(header.get('gamma')?.[0] ?? 0),
    labels: nums('label')!.map(labelNames),
    nSV: nums('nr_sv')!,
    SV,
    coef,
    rho: nums('rho')!,
    probA: nums('probA'),
    probB: nums('probB'),
  };
}
