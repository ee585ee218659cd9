/**
 * Which element of each floor holds what the post says (issue 29), as a scored choice. The rules
 * (fields.ts `contentNodes`) vote by sentence punctuation; where a floor's body has none ("大四路過")
 * and a badge has a full stop ("LV. 15"), or a signature outweighs a one-line reply, they pick the
 * wrong node. Here every structural slot the floors share (a tag.class path from the floor's root,
 * present in most floors) is a candidate beside the rules' choice, described by facts that hold
 * across boards: its share of the floor's text and punctuation, whether its text varies from floor
 * to floor (a body does; a badge, a level, a signature line repeat — digits aside), where it sits
 * against the floor's date, its links, lines, tag and class words. The floor model's body scorer
 * (trained in `npm run train:floors`) picks one; the rules' choice stands unless another beats it
 * by the scorer's margin.
 */
import type { Element } from 'domhandler';
import { BLOCK_TAGS } from '../../src/core/page.js';
import type { DateAnchor } from './dates.js';
import { type PostRecord, type ThreadIndex, lowerBound, rangeOf, segSpan, linesPunct, maskedHash, solidAtMost } from './dom.js';
import { PathSpace, contentLines, inReplies } from './fields.js';
import { classWords } from './set-features.js';
import type { Features } from './model.js';

export interface BodyCandidate {
  /** Per floor: the content elements this candidate reads (undefined: none). */
  nodes: Array<Element[] | undefined>;
  f: Features;
}

/** A slot must hold text in at least this share of the floors that have text. */
const BODY_PATH_SUPPORT = 0.5;
/** Candidates at most (the slots present in most floors first): bounds the cost per floor. */
const MAX_BODY_CANDIDATES = 24;
/** A first line recurring (digits aside) in this share of the floors, and in three, is template. */
const TEMPLATE_SHARE = 0.3;
const TEMPLATE_FLOORS = 3;
const TAGS = new Set(['div', 'td', 'article', 'section', 'p', 'span', 'blockquote', 'li', 'dd', 'table', 'font', 'a', 'tr', 'pre']);

const mask = (t: string) => t.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
const log = (x: number, scale: number) => Math.log1p(Math.max(0, x)) / scale;

interface FloorText {
  text: string;
  /** Segment indices of its lines. */
  ks: number[];
  /** Its lines (a part of the segment's text where `text` is set). */
  parts: Array<{ k: number; text?: string }>;
  first: string;
  lines: number;
  link: number;
  start: number;
  end: number;
  /** Computed on first use (a floor's text is read by many candidates). */
  punct?: number;
  masked?: string;
  maskedHash?: number;
  tiny?: boolean;
}

/** Per call of bodyCandidates: the texts read so far, by floor, way of reading and elements. */
type ReadMemo = Map<string, FloorText | undefined>;

const punctOf = (ix: ThreadIndex, t: FloorText): number => (t.punct ??= linesPunct(ix, t.parts, () => t.text));
const maskedOf = (t: FloorText): string => (t.masked ??= mask(t.text));
const maskedHashOf = (t: FloorText): number => (t.maskedHash ??= maskedHash(t.text));
const tinyOf = (t: FloorText): boolean => (t.tiny ??= solidAtMost(t.text, 6));

/** How many distinct masked texts the reads show: grouped by the hash of their masked text, the
 * masked texts themselves compared only within a group. */
function distinctMasked(reads: ReadonlyArray<FloorText | undefined>): number {
  const groups = new Map<number, FloorText[]>();
  for (const r of reads) {
    if (!r) continue;
    const h = maskedHashOf(r);
    const g = groups.get(h);
    if (g) g.push(r);
    else groups.set(h, [r]);
  }
  let n = 0;
  for (const g of groups.values()) n += g.length === 1 ? 1 : new Set(g.map(maskedOf)).size;
  return n;
}

/** The text of a floor's elements: the lines the rules would read there (fields.ts
 * `contentLines`) — or, given the floor's readable lines (sorted segment indices), those inside
 * the elements' spans (one binary search per element instead of a walk per candidate). */
function readNodes(ix: ThreadIndex, els: Element[] | undefined, rec: PostRecord, readableLines?: readonly number[]): FloorText | undefined {
  if (!els?.length) return undefined;
  // (An inline element is read for its own text inside its line: as the rules read it.)
  const fast = !!readableLines && els.every((e) => BLOCK_TAGS.has(e.name));
  const lines: Array<{ k: number; text?: string }> = fast ? [] : contentLines(ix, els, rec);
  if (fast) {
    for (const e of els) {
      const [a, b] = segSpan(ix, rangeOf(ix, e));
      for (let j = lowerBound(readableLines!, a); j < readableLines!.length && readableLines![j]! < b; j++) lines.push({ k: readableLines![j]! });
    }
  }
  if (!lines.length) return undefined;
  let link = 0;
  const texts = lines.map((l) => {
    const seg = ix.segments[l.k]!;
    if (!l.text) link += seg.linkChars;
    return l.text ?? seg.text;
  });
  const ranges = els.map((e) => rangeOf(ix, e));
  return {
    text: texts.join('\n'),
    first: mask(texts[0]!),
    lines: lines.length,
    ks: lines.map((l) => l.k),
    parts: lines,
    link,
    start: Math.min(...ranges.map((r) => r.start)),
    end: Math.max(...ranges.map((r) => r.end)),
  };
}

/** Slots (paths from the floor's root) that hold text in most floors, the most common first. */
function slotPaths(ix: ThreadIndex, records: PostRecord[], space: PathSpace): string[] {
  const floorsOf = new Map<string, number>();
  let withText = 0;
  records.forEach((rec) => {
    const [a, b] = segSpan(ix, rec.range);
    const seen = new Set<string>();
    for (let k = a; k < b; k++) {
      const seg = ix.segments[k]!;
      if (ix.noise[k] || inReplies(rec, seg.index)) continue;
      const p = space.pathIn(rec, seg.element);
      if (p === undefined || seen.has(p)) continue;
      // The element's path and its ancestors' (prefixes at '/').
      const colon = p.indexOf(':');
      for (let q = p; ; ) {
        if (seen.has(q)) break;
        seen.add(q);
        const cut = q.lastIndexOf('/');
        if (cut > colon) q = q.slice(0, cut);
        else if (q.length > colon + 1) q = q.slice(0, colon + 1);
        else break;
      }
    }
    if (seen.size) withText++;
    for (const q of seen) floorsOf.set(q, (floorsOf.get(q) ?? 0) + 1);
  });
  const need = Math.max(2, BODY_PATH_SUPPORT * withText);
  return [...floorsOf]
    .filter(([, n]) => n >= need)
    .sort((x, y) => y[1] - x[1] || x[0].length - y[0].length)
    .slice(0, MAX_BODY_CANDIDATES)
    .map(([p]) => p);
}

function describe(ix: ThreadIndex, records: PostRecord[], nodes: Array<Element[] | undefined>, whole: Array<FloorText | undefined>, dates: Array<DateAnchor | undefined>, rule: Array<Element[] | undefined>, memo: ReadMemo, path?: string): Features {
  const f: Features = new Map();
  const put = (k: string, v = 1) => {
    if (v) f.set(k, (f.get(k) ?? 0) + v);
  };
  // (The rules' own content is read as the rules read it; a slot, from the floor's readable lines.)
  const reads = records.map((rec, i) => {
    const els = nodes[i];
    if (!els?.length) return undefined;
    const slow = els === rule[i] || !whole[i];
    const key = `${i}${slow ? 's' : 'f'}${els.map((e) => rangeOf(ix, e).start).join(',')}`;
    if (memo.has(key)) return memo.get(key);
    const r = slow ? readNodes(ix, els, rec) : readNodes(ix, els, rec, whole[i]!.ks);
    memo.set(key, r);
    return r;
  });
  const floors = whole.filter(Boolean).length || 1;
  const present = reads.filter(Boolean).length;
  put('present', present / floors);
  if (!present) {
    put('empty');
    return f;
  }
  const firsts = new Map<string, number>();
  for (const r of reads) if (r) firsts.set(r.first, (firsts.get(r.first) ?? 0) + 1);
  const distinct = distinctMasked(reads);
  const templ = Math.max(TEMPLATE_FLOORS, TEMPLATE_SHARE * present);
  let share = 0, punct = 0, noPunct = 0, link = 0, lines = 0, len = 0, templFirst = 0, after = 0, before = 0, holdsDate = 0, above = 0, below = 0, same = 0, tiny = 0;
  reads.forEach((r, i) => {
    if (!r) return;
    const w = whole[i]!;
    share += Math.min(1, r.text.length / Math.max(1, w.text.length));
    const pw = punctOf(ix, w);
    if (pw) punct += punctOf(ix, r) / pw;
    else noPunct++;
    link += r.link / Math.max(1, r.text.length);
    lines += r.lines;
    len += r.text.length;
    if (tinyOf(r)) tiny++;
    if (records.length >= TEMPLATE_FLOORS && firsts.get(r.first)! >= templ) templFirst++;
    const d = dates[i];
    if (d) {
      if (d.index < r.start) after++;
      else if (d.index > r.end) before++;
      else holdsDate++;
    }
    const ru = rule[i]?.length ? { start: Math.min(...rule[i]!.map((e) => rangeOf(ix, e).start)), end: Math.max(...rule[i]!.map((e) => rangeOf(ix, e).end)) } : undefined;
    if (ru) {
      if (ru.start === r.start && ru.end === r.end) same++;
      else if (r.start <= ru.start && ru.end <= r.end) above++;
      else if (ru.start <= r.start && r.end <= ru.end) below++;
    }
  });
  put('share', share / present);
  put('punctShare', punct / present);
  put('noPunct', noPunct / present);
  put('link', link / present);
  put('lines:log', log(lines / present, 3));
  put('len:log', log(len / present, 6));
  put('tiny', tiny / present);
  put('distinct', distinct / present);
  if (distinct === 1 && present > 1) put('oneText');
  put('templateFirst', templFirst / present);
  put('afterDate', after / present);
  put('beforeDate', before / present);
  put('holdsDate', holdsDate / present);
  put('sameAsRule', same / present);
  put('aboveRule', above / present);
  put('belowRule', below / present);
  if (path !== undefined) {
    const steps = path.slice(path.indexOf(':') + 1).split('/').filter(Boolean);
    put('depth', steps.length / 8);
    if (!steps.length) put('floorRoot');
  }
  // The slot's own element: tag and class words (a word counts only when many sites use it).
  const el = nodes.find((n) => n?.length)?.[0];
  if (el) {
    put(`tag:${TAGS.has(el.name) ? el.name : 'other'}`);
    for (const w of classWords(el)) put(`cls:${w}`);
  }
  return f;
}

/**
 * The rules' content (candidate 0, feature `rule`) and every shared slot whose elements differ
 * from it, each with its features. Floors where a slot is missing keep the rules' element.
 */
export function bodyCandidates(ix: ThreadIndex, records: PostRecord[], rule: Array<Element[] | undefined>, dates: Array<DateAnchor | undefined>): BodyCandidate[] {
  const whole = records.map((rec) => readNodes(ix, rec.roots.length ? rec.roots : undefined, rec));
  const memo: ReadMemo = new Map();
  const first = describe(ix, records, rule, whole, dates, rule, memo);
  first.set('rule', 1);
  const out: BodyCandidate[] = [{ nodes: rule, f: first }];
  if (records.length < 2 || records.some((r) => !r.roots.length)) return out;
  const space = new PathSpace();
  const seen = new Set<string>([sig(ix, rule)]);
  for (const p of slotPaths(ix, records, space)) {
    const nodes = records.map((rec, i) => {
      const found = space.resolve(rec, p);
      return found.length ? found : rule[i];
    });
    const s = sig(ix, nodes);
    if (seen.has(s)) continue;
    seen.add(s);
    const f = describe(ix, records, nodes, whole, dates, rule, memo, p);
    // A slot that reads text in few floors (one template's element, empty elsewhere) is no body.
    if ((f.get('present') ?? 0) < BODY_PATH_SUPPORT) continue;
    out.push({ nodes, f });
  }
  return out;
}

function sig(ix: ThreadIndex, nodes: Array<Element[] | undefined>): string {
  return nodes.map((els) => (els ?? []).map((e) => rangeOf(ix, e).start).join('+')).join(',');
}
