/**
 * WCXB's metric (its evaluate.py, data README) and the domain split, shared by bench:content and
 * the line-model trainer (bench/train-lines.ts).
 */
import { createHash } from 'node:crypto';
import { registrableDomain } from '../../middleware/classifier/train.js';

/** WCXB tokens: Python's `\w+` on the lower-cased text (Unicode letters, digits, underscore). */
export function wcxbTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** WCXB per-page F1 (evaluate.py): multiset overlap of tokens; an empty gold scores 1 only for an
 * empty prediction. */
export function wcxbF1(predicted: string, gold: string): { p: number; r: number; f1: number } {
  const g = wcxbTokens(gold);
  const pr = wcxbTokens(predicted);
  if (!g.length) return pr.length ? { p: 0, r: 0, f1: 0 } : { p: 1, r: 1, f1: 1 };
  if (!pr.length) return { p: 0, r: 0, f1: 0 };
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of pr) {
    const c = counts.get(t);
    if (c) {
      common++;
      counts.set(t, c - 1);
    }
  }
  const p = common / pr.length;
  const r = common / g.length;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

/** Deterministic half of the domains: a site is in half A when its seeded hash is even. */
export function siteHalf(site: string): 'A' | 'B' {
  return createHash('sha1').update(`wcxb-split-1:${site}`).digest()[0]! % 2 === 0 ? 'A' : 'B';
}

/** Folds of the leave-site-out cross-validation of what is learned on WCXB dev (the line model,
 * bench/train-lines.ts; bench:content --folds): a page's fold is a seeded hash of its registrable
 * domain, so subdomains of one owner (shared templates) never straddle a fold. */
export const WCXB_FOLDS = 5;

export function wcxbFold(site: string, k = WCXB_FOLDS): number {
  return createHash('sha1').update(`wcxb-fold-1:${registrableDomain(site)}`).digest().readUInt32BE(0) % k;
}
