/**
 * Gold labels for the floor model (bench/train-floors.ts) and its diagnostics: which records of a
 * candidate list hold which gold posts of a labelled thread page.
 *
 * A record *holds* a gold post when the post's tokens (the data README's bag tokens: each CJK
 * character one token, other words lower-cased) are nearly all in the record's own text (its DFS
 * range outside its replies): a record carries the post plus its header, user panel and buttons,
 * so only the post's side is measured. A post without text (an image-only floor, a deleted one) is
 * held by a record that shows its author or its date. A record that merges two posts holds the
 * first, and the positional alignment then fails on the next one.
 */
import type { PostRecord, ThreadIndex } from '../../middleware/forum/dom.js';
import { segSpan } from '../../middleware/forum/dom.js';
import { bagTokens } from './metrics.js';

export interface GoldPost {
  text: string;
  author?: string | null;
  authorUrl?: string | null;
  datetime?: string | null;
  isMain?: boolean;
}

/** Share of a gold post's tokens a record must show to hold it. */
export const HOLD_RECALL = 0.8;

export type Bag = Map<string, number>;

export function bagOf(text: string): Bag {
  const m: Bag = new Map();
  for (const t of bagTokens(text)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export function bagSize(b: Bag): number {
  let n = 0;
  for (const v of b.values()) n += v;
  return n;
}

/** Share of `part`'s tokens found in `whole` (multiset). 1 for an empty part. */
export function recall(part: Bag, whole: Bag): number {
  let n = 0;
  let hit = 0;
  for (const [k, v] of part) {
    n += v;
    hit += Math.min(v, whole.get(k) ?? 0);
  }
  return n ? hit / n : 1;
}

/** A record's own text (segments of its range outside its replies), one line per segment. */
export function recordText(ix: ThreadIndex, rec: PostRecord): string {
  const [a, b] = segSpan(ix, rec.range);
  const areas = rec.replyArea ?? rec.replies?.map((r) => r.range) ?? [];
  const lines: string[] = [];
  for (let k = a; k < b; k++) {
    const seg = ix.segments[k]!;
    if (areas.some((r) => r.start <= seg.index && seg.index <= r.end)) continue;
    lines.push(seg.text);
  }
  return lines.join('\n');
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

export class GoldThread {
  readonly bags: Bag[];
  readonly sizes: number[];
  constructor(readonly posts: GoldPost[]) {
    this.bags = posts.map((p) => bagOf(p.text ?? ''));
    this.sizes = this.bags.map(bagSize);
  }

  /** Whether a record (its text and bag) holds gold post j. */
  holds(text: string, bag: Bag, j: number): boolean {
    const g = this.posts[j];
    if (!g) return false;
    if (this.sizes[j] === 0) {
      const flat = norm(text);
      const a = norm(g.author);
      const d = norm(g.datetime);
      if (!a && !d) return true;
      return (!!a && flat.includes(a)) || (!!d && flat.includes(d));
    }
    return recall(this.bags[j]!, bag) >= HOLD_RECALL;
  }

  /**
   * Positional quality of a list of records (the bench's alignment: record i against gold post i),
   * as the share of aligned pairs where the record holds its post over max(records, posts). With
   * `shift`, the better of no shift and the list aligned from the second post (the main post
   * missing: the main-post stage's business, not the list's).
   */
  quality(texts: string[], bags: Bag[], shift = false): { q: number; offset: [number, number]; held: boolean[] } {
    // (A list may lack the main post — gold shifted by one — but a record before the posts that
    // does not hold the main post is a record too many.)
    const offsets: Array<[number, number]> = shift ? [[0, 0], [0, 1]] : [[0, 0]];
    let best = { q: -1, offset: [0, 0] as [number, number], held: [] as boolean[] };
    for (const [a, b] of offsets) {
      const n = texts.length - a;
      const m = this.posts.length - b;
      if (n <= 0 || m <= 0) continue;
      const held: boolean[] = [];
      let hit = 0;
      for (let i = 0; i < Math.min(n, m); i++) {
        const h = this.holds(texts[a + i]!, bags[a + i]!, b + i);
        held.push(h);
        if (h) hit++;
      }
      const q = hit / Math.max(n, m);
      if (q > best.q) best = { q, offset: [a, b], held };
    }
    if (best.q < 0) best.q = 0;
    return best;
  }
}
