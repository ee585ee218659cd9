/**
 * Features of a candidate list of floors (records.ts `RecordSet`) for the floor model: what holds
 * across platforms — how many records and how regular they are, how much of the page's text they
 * hold and where it sits, whether they talk (sentence punctuation), carry one date each in page
 * order and name an author, which generator found them and what the rules thought of them, their
 * element tag, and the *words* of their class names (`comment-item` → `comment`, `item`). A word
 * is worth a weight only when labelled pages of several sites use it (the trainer drops the
 * others), so one board's names are never learned.
 */
import { Element } from 'domhandler';
import type { DateAnchor } from './dates.js';
import { type ThreadIndex, lowerBound, nonLinkChars, punctMarks, chars, frozenByString } from './dom.js';
import { datedCount, holdsThreadTitle, type RecordSet, type SetPool } from './records.js';
import type { Features } from './model.js';

/** Class words: split at `-`, `_`, camel case and digits; lower-cased; 2–20 letters. */
export function classWords(el: Element): readonly string[] {
  const c = el.attribs.class;
  return c ? wordsOfClass(c) : NO_WORDS;
}

const NO_WORDS: readonly string[] = Object.freeze([]);
/** classWords of a class attribute. */
export const wordsOfClass = frozenByString((c) => splitClassWords(c));

function splitClassWords(c: string): string[] {
  const out = new Set<string>();
  for (const w of c.replace(/([a-z])([A-Z])/g, '$1 $2').split(/[\s\-_\d]+/)) {
    const x = w.toLowerCase();
    if (x.length >= 2 && x.length <= 20 && /^[a-z]+$/.test(x)) out.add(x);
  }
  return [...out];
}

const FALLBACKS = new Set(['peaks', 'single', 'undated']);

const TAGS = new Set(['div', 'li', 'tr', 'table', 'article', 'section', 'td', 'dl', 'p', 'tbody', 'blockquote', 'span', 'a']);

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const log = (x: number, scale: number) => Math.log1p(Math.max(0, x)) / scale;

/** Page facts every set's features are measured against (computed once per page). */
export interface PageFacts {
  /** Non-link characters of the page. */
  chars: number;
  /** Own (not prose) date anchors' DFS indices. */
  dateStarts: Int32Array;
  anchors: DateAnchor[];
}

export function pageFacts(ix: ThreadIndex, anchors: DateAnchor[]): PageFacts {
  const own = anchors.filter((a) => !a.prose);
  return { chars: Math.max(1, nonLinkChars(ix, { start: 0, end: ix.page.nodes.length - 1 })), dateStarts: Int32Array.from(own.map((a) => a.index)), anchors: own };
}

function via(set: RecordSet): string {
  const k = set.key;
  if (k.startsWith('sib:')) return set.records[0]?.via === 'rows' ? 'rows' : k.includes(':all') ? 'sibAll' : 'sib';
  return k.slice(0, k.search(/[:/]|$/));
}

/** Features of each set of a page's pool (one map per set, in pool order). */
export function setFeatures(ix: ThreadIndex, pool: SetPool, facts: PageFacts): Features[] {
  const maxScore = Math.max(1e-9, ...pool.sets.map((s) => s.score));
  const ranked = [...pool.sets].sort((a, b) => b.score - a.score);
  // (Each anchor's time parsed once for all the sets.)
  const times = new Map<string, number>();
  const timeOf = (iso: string): number => {
    let t = times.get(iso);
    if (t === undefined) times.set(iso, (t = Date.parse(iso)));
    return t;
  };
  return pool.sets.map((set) => {
    const f: Features = new Map();
    const put = (k: string, v = 1) => {
      if (v) f.set(k, v);
    };
    const recs = set.records;
    const n = recs.length;
    put('n:log', log(n, 5));
    if (n === 1) put('n:1');
    if (n === 2) put('n:2');
    put(`via:${via(set)}`);
    if (set.key.endsWith('/own')) put('own');
    if (set.extended) put('extended');
    // The rules' fallbacks (peak clustering, one post, undated floors) are right less often than
    // their structural lists: a weight of their own.
    if (set.rule) put(FALLBACKS.has(set.key) ? 'rule:fallback' : 'rule');
    const rank = ranked.indexOf(set);
    put(rank === 0 ? 'rank:0' : rank === 1 ? 'rank:1' : 'rank:2+');
    put('score:rel', set.score / maxScore);
    if (set.speaks) put('speaks');
    if (set.dominated) put('dominated');
    if (set.singleDated) put('singleDated');
    if (set.outer) put('outer');
    if (set.nested) put('nested');
    if (set.main) put('ruleMain');
    put('author', set.authorShare);
    put('replies', log(set.replies.length / Math.max(1, n), 1));
    // Text: own characters, punctuation, dates per record.
    const text = recs.map((r) => nonLinkChars(ix, r.range));
    const all = recs.map((r) => chars(ix, r.range));
    const total = text.reduce((a, b) => a + b, 0);
    put('coverage', Math.min(1, total / facts.chars));
    put('medText:log', log(median(text), 8));
    const mean = total / Math.max(1, n);
    const sd = Math.sqrt(text.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n));
    put('textCv', mean ? Math.min(3, sd / mean) / 3 : 0);
    put('linkShare', 1 - total / Math.max(1, all.reduce((a, b) => a + b, 0)));
    put('punct', recs.filter((r) => punctMarks(ix, r.range) > 0).length / Math.max(1, n));
    const dated = recs.map((r) => datedCount(facts.dateStarts, r.range));
    put('dated', dated.filter((d) => d > 0).length / Math.max(1, n));
    put('dates:many', dated.filter((d) => d > 3).length / Math.max(1, n));
    // Dates in page order, and distinct (posts have times of their own; a widget's rows repeat).
    const firsts: DateAnchor[] = [];
    for (const r of recs) {
      const k = lowerBound(facts.dateStarts, r.range.start);
      const a = facts.anchors[k];
      if (a && a.index <= r.range.end) firsts.push(a);
    }
    let pairs = 0;
    let asc = 0;
    for (let i = 1; i < firsts.length; i++) {
      const x = firsts[i - 1]!.iso;
      const y = firsts[i]!.iso;
      if (!x || !y) continue;
      pairs++;
      if (timeOf(y) >= timeOf(x)) asc++;
    }
    put('ascending', pairs ? asc / pairs : 0.5);
    put('distinctDates', firsts.length ? new Set(firsts.map((a) => a.text)).size / firsts.length : 0);
    // Where the records sit on the page.
    if (n) {
      const first = recs[0]!.range.start;
      const last = recs[n - 1]!.range.end;
      put('before', nonLinkChars(ix, { start: 0, end: Math.max(0, first - 1) }) / facts.chars);
      put('after', nonLinkChars(ix, { start: Math.min(ix.page.nodes.length - 1, last + 1), end: ix.page.nodes.length - 1 }) / facts.chars);
      if (holdsThreadTitle(ix, { start: 0, end: Math.max(0, first - 1) })) put('titleBefore');
      if (holdsThreadTitle(ix, recs[0]!.range)) put('titleInFirst');
    }
    // Element: tag, one parent, class words (share of records whose root carries the word).
    const roots = recs.map((r) => r.roots[0]).filter((e): e is Element => !!e);
    if (roots.length) {
      const tag = roots[0]!.name;
      put(`tag:${TAGS.has(tag) ? tag : 'other'}`);
      if (roots.every((e) => e.parent === roots[0]!.parent)) put('oneParent');
      if (recs.some((r) => r.roots.length > 1)) put('multiRoot');
      const words = new Map<string, number>();
      for (const e of roots) for (const w of classWords(e)) words.set(w, (words.get(w) ?? 0) + 1);
      for (const [w, c] of words) put(`cls:${w}`, c / roots.length);
      if (!words.size) put('cls:none');
      const ids = roots.filter((e) => /\d/.test(e.attribs.id ?? '')).length;
      put('ids', ids / roots.length);
    } else put('noRoots');
    return f;
  });
}

/** Features of "no list is the floors" (the page is not a thread, or none of its lists is). */
export function noListFeatures(pool: SetPool): Features {
  const f: Features = new Map([['none', 1]]);
  if (!pool.sets.some((s) => s.rule)) f.set('none:noRule', 1);
  f.set('none:pool', log(pool.sets.length, 3));
  return f;
}
