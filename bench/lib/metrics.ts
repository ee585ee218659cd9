/**
 * The metrics of the data README, so our numbers compare with published ones.
 */

/** AEB tokens: `[\p{L}\p{N}_]+` runs. */
export function aebTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

function shingles(tokens: string[], n = 4): Map<string, number> {
  const m = new Map<string, number>();
  if (tokens.length < n) {
    if (tokens.length) m.set(tokens.join(' '), 1);
    return m;
  }
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join(' ');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
}

/** AEB per page: 4-token shingles with counts; tp/fp/fn as shares of the union. */
export function aebPageScore(predicted: string, gold: string): PageScore {
  const p = shingles(aebTokens(predicted));
  const g = shingles(aebTokens(gold));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const keys = new Set([...p.keys(), ...g.keys()]);
  for (const k of keys) {
    const a = p.get(k) ?? 0;
    const b = g.get(k) ?? 0;
    tp += Math.min(a, b);
    fp += Math.max(0, a - b);
    fn += Math.max(0, b - a);
  }
  const total = tp + fp + fn;
  return total ? { tp: tp / total, fp: fp / total, fn: fn / total } : { tp: 0, fp: 0, fn: 0 };
}

/** AEB aggregate: precision = mean over pages with tp+fp > 0, recall = mean over pages with tp+fn > 0. */
export function aebAggregate(scores: PageScore[]): { precision: number; recall: number; f1: number } {
  const ps = scores.filter((s) => s.tp + s.fp > 0).map((s) => s.tp / (s.tp + s.fp));
  const rs = scores.filter((s) => s.tp + s.fn > 0).map((s) => s.tp / (s.tp + s.fn));
  const precision = ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : 0;
  const recall = rs.length ? rs.reduce((a, b) => a + b, 0) / rs.length : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Bag of tokens: each CJK character one token, other text lower-cased `[\p{L}\p{N}]+` words. */
export function bagTokens(text: string): string[] {
  const out: string[] = [];
  const re = /(\p{Script=Han}|[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])|([\p{L}\p{N}]+)/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m[1]) out.push(m[1]);
    else {
      // a word run may contain CJK after Latin letters ("abc中文"): split those out
      const w = m[2]!;
      if (/[\p{Script=Han}]/u.test(w)) {
        for (const part of w.match(/\p{Script=Han}|[^\p{Script=Han}]+/gu) ?? []) out.push(part.toLowerCase());
      } else out.push(w.toLowerCase());
    }
  }
  return out;
}

/** Content P/R/F1 of one page, bag of tokens with counts. */
export function bagF1(predicted: string, gold: string): { precision: number; recall: number; f1: number } {
  const p = new Map<string, number>();
  for (const t of bagTokens(predicted)) p.set(t, (p.get(t) ?? 0) + 1);
  const gTokens = bagTokens(gold);
  const g = new Map<string, number>();
  for (const t of gTokens) g.set(t, (g.get(t) ?? 0) + 1);
  let common = 0;
  for (const [k, v] of p) common += Math.min(v, g.get(k) ?? 0);
  const np = [...p.values()].reduce((a, b) => a + b, 0);
  const ng = gTokens.length;
  if (np === 0 && ng === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = np ? common / np : 0;
  const recall = ng ? common / ng : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Whitespace-normalised exact match (titles, authors). */
export function sameText(a: string | undefined | null, b: string | undefined | null): boolean {
  const n = (s: string | undefined | null) => (s ?? '').replace(/\s+/g, ' ').trim();
  return n(a) === n(b);
}
