/**
 * Floor splitting: find the elements that are the posts of a thread page.
 *
 * Signals, combined (seeds 000 and 003, sources §3–4):
 *  1. Date anchors: every post carries a time, most noise does not (dates.ts).
 *  2. Alignment of repeated sibling structures: posts are siblings with the same tag/class
 *     signature, each holding a date. A post may also be a run of k sibling rows (a header row with
 *     author and date, then a body row — old table layouts): we detect the period k.
 *  3. Id-attribute clustering (seed 003 §2.2): post containers carry ids in a linear pattern
 *     (post_101, post_102 …). Ids become numbers, single-linkage clustering over those numbers
 *     groups the replies; this also finds a main post that sits outside the replies' parent.
 *  4. Repeated date headers delimiting DFS ranges: for markup a tolerant parser nests post inside
 *     post (unclosed tags), each floor runs from its header to the next.
 *  5. Differential peak clustering over DFS indices (seed 000): the fallback when the markup has no
 *     repeated structure (text floors in one flat cell): split the text at peaks of the position
 *     differences, keep blocks holding a date.
 * Candidates are scored by dated records (damped for widget-short or teaser records) and must
 * "talk": own text besides the date and, for a fair share, sentence punctuation. The main post
 * may use a template of its own: it is looked for before the first reply. A single dated post
 * with a member link is a one-post thread.
 * Everything is linear or n·log n in the page size; each element's children are grouped once.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import { cachedByString } from '../../src/core/string-cache.js';
import { collapse, textOf, type Page, type Segment } from '../../src/core/page.js';
import { splitAtPeaks } from '../blocks/index.js';
import type { DateAnchor } from './dates.js';
import { layoutKey, sameLayout, type FloorLayout } from './layout.js';
import { threadTitle, titleCore } from './title.js';
import {
  tokensOfClass,
  type PostRecord,
  CLASS_SIMILARITY,
  type ThreadIndex,
  type Range,
  classTokens,
  contains,
  elementChildren,
  nextElementSibling,
  idPattern,
  jaccard,
  stepKey,
  lowerBound,
  nonLinkChars,
  punctMarks,
  rangeOf,
  chars,
  segSpan,
  segmentsIn,
  hasAncestor,
  LOGIN_HREF,
} from './dom.js';

export { CLASS_SIMILARITY, type PostRecord } from './dom.js';

/** A structure needs at least this many dated members to be a list of posts (two posts make a
 * thread; a single post is handled by the single-post path). */
export const MIN_RECORDS = 2;
/** Typical length of a post's own text (non-link characters). Records whose median text is shorter
 * are more likely a "latest posts" widget (titles are links; dates and names are short). 40 =
 * a one-sentence reply. */
export const POST_TEXT_REF = 40;
/** Single-linkage id clustering: a gap larger than this many times the median gap between
 * consecutive id numbers splits a cluster (seed 003: "differences that are small join one class,
 * large ones stand alone"). */
export const ID_GAP_FACTOR = 20;
/** Characters a record must show besides its date to count as saying something (half of the
 * records must): "lol" plus a name passes, a bare date under a link does not. */
export const MIN_OWN_TEXT = 10;
/** Header search: levels above a date element that may still be a post header. */
const HEADER_MAX_LEVELS = 6;
/** Header-delimited floors are a fallback for broken nesting: structure-aligned candidates win a
 * tie (their floors have roots, so position consistency applies). */
const HEADER_PENALTY = 0.9;
/** …and they replace a structural list only when they find at least this many times as many
 * floors (a broken page shows a few posts whose tags happened to close). */
const HEADER_MIN_GAIN = 2;
/** Share of records that must contain sentence punctuation (seed 003: punctuation marks post
 * text). Rows of a thread list (title link, "by alice » date", "12 Replies") have none; in a
 * thread, even with many one-word replies, far more than this share writes a sentence. */
export const MIN_PUNCT_SHARE = 0.3;
/** Weight of a candidate whose records show no author at all (the weight rises linearly to 1 with
 * the share of records that do). 0.5: authorless boards (FluxBB prints a bare name) still win
 * when nothing else competes. */
const AUTHOR_FLOOR = 0.5;
/** Candidates weighed for authors (the strongest by score; bounds the cost). */
const AUTHOR_CHECKED_CANDIDATES = 8;
/** Share of the header floors outside the structural list that must hold sentence punctuation
 * for the header floors to replace the list (posts do; widget rows do not). */
const HEADER_MISSED_TALK = 0.5;
/** Dated rows needed before floors of k > 1 rows are assumed. */
const MIN_PERIODIC_RECORDS = 3;
/** Typical (lower median) number of dates per record above which the records are not posts. */
const MAX_DATES_PER_POST = 3;
/** Siblings compared per parent (clusters kept): bounds the grouping cost on flat pages. */
const MAX_CLUSTERS = 64;

interface Candidate {
  records: PostRecord[];
  score: number;
  key: string;
  /** Candidates whose records sit inside this one's records (see `nests`). */
  inner?: Candidate[];
}

/** Candidates related by nesting (the strongest by score; bounds the pairwise cost). */
const NESTING_CHECKED_CANDIDATES = 24;
/** An outer list dominates the lists nested in it when at least this share of its records show a
 * date of their own (outside the inner records): a post's header date. Page sections or columns
 * that only group posts show none; 0.75 lets a few posts whose only date is an edit line pass. */
const OUTER_OWN_DATE_SHARE = 0.75;


/**
 * Whether `inner`'s records nest in `outer`'s: at least one inner record lies strictly inside an
 * outer record, every inner record within the outer list's span does, and the nesting is not one
 * to one (the same posts seen at two depths): some outer record holds two inner records, one
 * outer record holds them all, (with `minority`, for replies) they sit in at most half of the
 * outer records, or (with `part`, for a small part of each outer record) one to one. Inner records outside the span (comments under a question that
 * precedes its answers) do not count against it. Records of a candidate are disjoint and sorted,
 * so each inner record finds its outer one by binary search.
 */
function nests(outer: PostRecord[], inner: PostRecord[], minority = false, part = false): boolean {
  const starts = outer.map((r) => r.range.start);
  const spanStart = outer[0]!.range.start;
  const spanEnd = outer[outer.length - 1]!.range.end;
  let inside = 0;
  let maxPer = 0;
  let last = -1;
  let run = 0;
  const hosts = new Set<number>();
  for (const r of inner) {
    if (r.range.end < spanStart || r.range.start > spanEnd) continue;
    const k = lowerBound(starts, r.range.start + 1) - 1;
    const o = k >= 0 ? outer[k]!.range : undefined;
    if (!o || r.range.end > o.end || (o.start === r.range.start && o.end === r.range.end)) return false;
    inside++;
    hosts.add(k);
    run = k === last ? run + 1 : 1;
    last = k;
    if (run > maxPer) maxPer = run;
  }
  // …or one each in a minority of the outer records (a comment under two posts of ten).
  return inside > 0 && (maxPer >= 2 || (hosts.size === 1 && inside === inner.length && inner.length >= MIN_RECORDS) || (minority && hosts.size * 2 <= outer.length) || (part && inside >= MIN_RECORDS));
}

/** Dates of a record that sit inside the records of its inner lists: the inner records merged
 * into disjoint spans once per candidate list (kept in `innerSpans`, the caller's cache for one
 * page), with prefix counts of dates, then two binary searches per record. */
type InnerSpans = Map<Candidate[], { starts: number[]; ends: number[]; pre: number[] }>;
function innerDates(starts: Int32Array, rec: PostRecord, inner: Candidate[] | undefined, innerSpans: InnerSpans): number {
  if (!inner) return 0;
  let spans = innerSpans.get(inner);
  if (!spans) {
    const rs = inner.flatMap((c) => c.records.map((r) => r.range)).sort((x, y) => x.start - y.start);
    const ss: number[] = [];
    const es: number[] = [];
    for (const r of rs) {
      if (es.length && r.start <= es[es.length - 1]!) es[es.length - 1] = Math.max(es[es.length - 1]!, r.end);
      else (ss.push(r.start), es.push(r.end));
    }
    const pre = [0];
    for (let i = 0; i < ss.length; i++) pre.push(pre[i]! + lowerBound(starts, es[i]! + 1) - lowerBound(starts, ss[i]!));
    innerSpans.set(inner, (spans = { starts: ss, ends: es, pre }));
  }
  // Spans inside the record: the nesting makes them either inside or disjoint.
  const a = lowerBound(spans.starts, rec.range.start);
  const b = lowerBound(spans.starts, rec.range.end + 1);
  return spans.pre[b]! - spans.pre[a]!;
}

/** Share of the outer records' text that lies in one inner candidate's records. */
function innerShare(ix: ThreadIndex, outer: PostRecord[], inner: Candidate): number {
  const total = outer.reduce((a, r) => a + nonLinkChars(ix, r.range), 0);
  if (!total) return 0;
  const starts = outer.map((r) => r.range.start);
  let n = 0;
  for (const r of inner.records) {
    const k = lowerBound(starts, r.range.start + 1) - 1;
    if (k >= 0 && r.range.end <= outer[k]!.range.end) n += nonLinkChars(ix, r.range);
  }
  return n / total;
}
/** An inner list holding at least this share of the outer records' text is their content (posts
 * grouped by page sections), whatever it says. */
const INNER_BULK_SHARE = 0.5;

export function datedCount(anchorStarts: Int32Array, r: Range): number {
  return lowerBound(anchorStarts, r.end + 1) - lowerBound(anchorStarts, r.start);
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Teasers of other threads: a "read more" link, or the record's longest line cut with an ellipsis. */
const READ_MORE = /(read more|weiterlesen|lire la suite|leer más|leggi tutto|阅读全文|查看全文|more)\s*[>»›]?$/i;
const ELLIPSIS_END = /(\.\.\.|…)$/;
/** A list whose records mostly look like teasers is a "related threads" box: its score is scaled
 * by this factor. */
const TEASER_PENALTY = 0.2;

/** Score of a candidate list of posts: dated records, damped when their text is widget-short, and
 * penalised when the records are teasers. */
function scoreRecords(ix: ThreadIndex, records: PostRecord[]): number {
  const texts = records.map((r) => nonLinkChars(ix, r.range));
  const med = median(texts);
  const damp = Math.min(1, Math.max(0.1, med / POST_TEXT_REF));
  let teasers = 0;
  for (const r of records) {
    const [a, b] = segSpan(ix, r.range);
    let longest = '';
    let more = false;
    for (let k = a; k < b; k++) {
      const t = ix.segments[k]!.text;
      if (t.length > longest.length) longest = t;
      if (t.length < 200 && READ_MORE.test(t)) more = true;
    }
    if (more || ELLIPSIS_END.test(longest)) teasers++;
  }
  const teaserFactor = teasers * 2 > records.length ? TEASER_PENALTY : 1;
  return records.length * damp * teaserFactor;
}

/** Attributes that say nothing about an element's role in a template (per-element values). */
const PLAIN_ATTRS = new Set(['class', 'style', 'id', 'title', 'lang', 'dir']);
/** Attributes whose value names the element's role (schema.org, ARIA, a framework's component). */
const ROLE_ATTRS = ['itemprop', 'itemtype', 'role', 'component', 'data-role', 'data-type'];
/** Two siblings whose classes differ are still one structure when they carry the same set of at
 * least this many other attributes (with the same role values): a template's data attributes
 * (`data-pid data-uid data-username itemprop=comment`) are the same on every post, while a state
 * class marks some of them (`topic-owner-post` on the original poster's replies only). */
export const MIN_SHARED_ATTRS = 3;

function attrSignature(el: Element): string | undefined {
  const names = Object.keys(el.attribs).filter((n) => !PLAIN_ATTRS.has(n));
  if (names.length < MIN_SHARED_ATTRS) return undefined;
  return [...names.sort(), ...ROLE_ATTRS.map((r) => el.attribs[r] ?? '')].join(' ');
}

function similar(a: Element, b: Element, ca: readonly string[], cb: readonly string[]): boolean {
  if (a.name !== b.name) return false;
  const pa = idPattern(a);
  const pb = idPattern(b);
  if (pa && pb && pa === pb && pa.includes('#')) return true;
  // Distinct names (`#upper_section`, `#content_section`) are distinct regions of the page, not
  // members of one list (whose ids, when they have them, differ by a number).
  if (pa && pb && pa !== pb) return false;
  if (!ca.length && !cb.length) return true;
  if (jaccard(ca, cb) >= CLASS_SIMILARITY) return true;
  const sa = attrSignature(a);
  return sa !== undefined && sa === attrSignature(b);
}

/** Cluster an element's children by signature; returns cluster id per child. */
function clusterChildren(children: Element[]): number[] {
  const reps: Array<{ el: Element; cls: readonly string[] }> = [];
  const out: number[] = [];
  for (const c of children) {
    const cls = classTokens(c);
    let k = -1;
    for (let i = 0; i < reps.length; i++) {
      if (similar(reps[i]!.el, c, reps[i]!.cls, cls)) {
        k = i;
        break;
      }
    }
    if (k < 0 && reps.length < MAX_CLUSTERS) {
      reps.push({ el: c, cls });
      k = reps.length - 1;
    }
    out.push(k);
  }
  return out;
}

function spanRange(ix: ThreadIndex, els: Element[]): Range {
  const a = rangeOf(ix, els[0]!);
  const b = rangeOf(ix, els[els.length - 1]!);
  return { start: a.start, end: b.end };
}

/** Candidates from one parent's children: same-signature dated siblings (k = 1), or periodic
 * runs of k rows where every k-th row is dated. */
function siblingCandidates(ix: ThreadIndex, anchorStarts: Int32Array, parent: Element, out: Candidate[]): void {
  const children = elementChildren(parent);
  if (children.length < MIN_RECORDS) return;
  const cl = clusterChildren(children);
  const dated = children.map((c) => datedCount(anchorStarts, rangeOf(ix, c)) > 0);
  const byCluster = new Map<number, number[]>();
  const undatedOf = new Map<number, number>();
  for (let i = 0; i < children.length; i++) {
    if (cl[i]! < 0) continue;
    if (!dated[i]) {
      undatedOf.set(cl[i]!, (undatedOf.get(cl[i]!) ?? 0) + 1);
      continue;
    }
    let arr = byCluster.get(cl[i]!);
    if (!arr) byCluster.set(cl[i]!, (arr = []));
    arr.push(i);
  }
  for (const [cid, pos] of byCluster) {
    if (pos.length < MIN_RECORDS) continue;
    // The same template's undated members too (an answer without a date, a deleted comment's
    // placeholder, a post whose date only script fills in): a variant for the floor model, whose
    // features say how many are dated. Only where the dated members are most of them.
    const undated = undatedOf.get(cid) ?? 0;
    if (undated > 0 && undated <= pos.length) {
      const all = children.filter((_, i) => cl[i] === cid);
      const records = all.map((c) => ({ roots: [c], range: rangeOf(ix, c), via: 'siblings' as const }));
      out.push({ records, score: scoreRecords(ix, records), key: `sib:${ix.page.indexOf(parent)}:${cid}:all` });
    }
    const gaps = pos.slice(1).map((p, i) => p - pos[i]!);
    const k = gaps[0]!;
    let records: PostRecord[] | undefined;
    // A period needs two gaps to be seen: two dated rows alone are not evidence of k-row floors.
    if (k > 1 && pos.length >= MIN_PERIODIC_RECORDS && gaps.every((g) => g === k) && periodic(children, cl, dated, pos, k)) {
      const s = rowOffset(cl, pos, k);
      records = pos.map((p) => {
        const els = children.slice(p - s, p - s + k);
        return { roots: els, range: spanRange(ix, els), via: 'rows' as const };
      });
    } else {
      records = pos.map((p) => ({ roots: [children[p]!], range: rangeOf(ix, children[p]!), via: 'siblings' as const }));
    }
    out.push({ records, score: scoreRecords(ix, records), key: `sib:${ix.page.indexOf(parent)}:${cid}` });
  }
}

/** Rows between dated rows repeat the same signatures (and carry no date themselves). */
function periodic(children: Element[], cl: number[], dated: boolean[], pos: number[], k: number): boolean {
  for (let j = 1; j < k; j++) {
    const c0 = cl[pos[0]! + j];
    for (let i = 0; i + 1 < pos.length; i++) {
      const q = pos[i]! + j;
      if (cl[q] !== c0 || dated[q]) return false;
    }
  }
  return children.length > 0;
}

/** Where a k-row post starts relative to its dated row: the largest shift s such that the row s
 * before every dated row exists and has the same signature (the header rows come first). */
function rowOffset(cl: number[], pos: number[], k: number): number {
  for (let s = k - 1; s >= 1; s--) {
    const c0 = cl[pos[0]! - s];
    if (c0 === undefined) continue;
    if (pos.every((p) => p - s >= 0 && cl[p - s] === c0)) return s;
  }
  return 0;
}

interface IdNum {
  el: Element;
  key: string;
  num: number;
}

/**
 * Seed 003 §2.2: ids → numbers, single-linkage hierarchical clustering. Ids are split into a
 * letter pattern (the key: `post_#`) and their digits; within one key, sorted numbers are linked
 * while the gap stays within ID_GAP_FACTOR × the median gap (single linkage cut at that height).
 */
export function clusterIds(elements: Element[]): Element[][] {
  const byKey = new Map<string, IdNum[]>();
  for (const el of elements) {
    const id = el.attribs.id;
    if (!id) continue;
    const m = id.match(/^(\D*)(\d+)(\D*)$/);
    if (!m) continue;
    const key = `${el.name}:${m[1]}#${m[3]}`;
    let arr = byKey.get(key);
    if (!arr) byKey.set(key, (arr = []));
    arr.push({ el, key, num: Number(m[2]) });
  }
  const clusters: Element[][] = [];
  for (const arr of byKey.values()) {
    if (arr.length < 2) continue;
    const sorted = [...arr].sort((a, b) => a.num - b.num);
    const gaps = sorted.slice(1).map((x, i) => x.num - sorted[i]!.num);
    const cut = Math.max(1, median(gaps)) * ID_GAP_FACTOR;
    let cur: IdNum[] = [sorted[0]!];
    for (let i = 1; i < sorted.length; i++) {
      if (gaps[i - 1]! > cut) {
        clusters.push(cur.map((x) => x.el));
        cur = [];
      }
      cur.push(sorted[i]!);
    }
    clusters.push(cur.map((x) => x.el));
  }
  return clusters;
}

/**
 * Floors from repeated post headers, for markup whose posts are not siblings. Unclosed `<p>` and
 * `<td>` tags make a tolerant parser nest every following post inside the previous one; the
 * headers (the element around each post's date, holding that date only) still repeat with one
 * signature. Each floor then runs in DFS order from its header to the next header (seed 000's
 * view of a page as positions); the last one up to the end of the headers' common ancestor,
 * bounded by the longest floor seen.
 */
function headerCandidates(ix: ThreadIndex, anchors: DateAnchor[], anchorStarts: Int32Array, out: Candidate[]): void {
  const groups = new Map<string, Element[]>();
  for (const a of anchors) {
    if (a.prose) continue;
    let el: AnyNode | null = a.element;
    for (let depth = 0; el instanceof Element && depth < HEADER_MAX_LEVELS; depth++, el = el.parent) {
      if (el.name === 'body' || el.name === 'html') break;
      if (datedCount(anchorStarts, rangeOf(ix, el)) !== 1) break;
      const key = `${el.name}.${classTokens(el).join('.')}`;
      let arr = groups.get(key);
      if (!arr) groups.set(key, (arr = []));
      if (arr[arr.length - 1] !== el) arr.push(el);
    }
  }
  const anchorOf = new Map<number, DateAnchor>();
  for (const a of anchors) if (!a.prose) anchorOf.set(a.index, a);
  for (const [key, els] of groups) {
    if (els.length < MIN_RECORDS) continue;
    let heads = outermost(ix, els);
    // Position consistency: the date sits at the same path in every header; a page clock that
    // happens to share the header's tag does not.
    const pathOf = (h: Element): string => {
      const r = rangeOf(ix, h);
      const i = lowerBound(anchorStarts, r.start);
      const a = anchorOf.get(anchorStarts[i]!);
      return a ? (relPathOf(h, a.element) ?? '') : '';
    };
    const paths = heads.map(pathOf);
    const counts = new Map<string, number>();
    for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
    let major = '';
    let majorN = 0;
    for (const [p, n] of counts) if (n > majorN) [major, majorN] = [p, n];
    heads = heads.filter((_, i) => paths[i] === major);
    if (heads.length < MIN_RECORDS) continue;
    const starts = heads.map((h) => rangeOf(ix, h).start);
    let maxGap = 0;
    for (let i = 1; i < starts.length; i++) maxGap = Math.max(maxGap, starts[i]! - starts[i - 1]!);
    const lcaEnd = commonAncestorEnd(ix, heads);
    const records: PostRecord[] = heads.map((_h, i) => {
      const start = starts[i]!;
      const end = i + 1 < heads.length ? starts[i + 1]! - 1 : Math.min(lcaEnd, start + maxGap);
      return { roots: [], range: { start, end }, via: 'headers' as const };
    });
    out.push({ records, score: scoreRecords(ix, records) * HEADER_PENALTY, key: `hdr:${key}` });
  }
}

function relPathOf(root: Element, el: AnyNode): string | undefined {
  const steps: string[] = [];
  let n: AnyNode | null = el;
  while (n && n !== root) {
    if (n instanceof Element) steps.push(`${n.name}.${classTokens(n).join('.')}`);
    n = n.parent;
  }
  return n === root ? steps.reverse().join('/') : undefined;
}

function commonAncestorEnd(ix: ThreadIndex, els: Element[]): number {
  const first = els[0]!;
  const lastStart = rangeOf(ix, els[els.length - 1]!).start;
  for (let p: AnyNode | null = first.parent; p; p = p.parent) {
    const r = rangeOf(ix, p);
    if (r.end >= lastStart && r.start <= rangeOf(ix, first).start) return r.end;
  }
  return ix.page.nodes.length - 1;
}

/** Keep the outermost of nested elements, in document order. */
function outermost(ix: ThreadIndex, els: Element[]): Element[] {
  const sorted = [...els].sort((a, b) => ix.page.indexOf(a) - ix.page.indexOf(b));
  const out: Element[] = [];
  let lastEnd = -1;
  for (const e of sorted) {
    const r = rangeOf(ix, e);
    if (r.start <= lastEnd) continue;
    out.push(e);
    lastEnd = r.end;
  }
  return out;
}

/** Same-class containers found anywhere are weighed a little below sibling lists and id
 * clusters (the structures that align posts by themselves) so that those win a tie. */
const CLASS_PENALTY = 0.9;

/** An element's class tokens joined by '.' ('' without any), once per class attribute. */
function joinedTokens(el: Element): string {
  const c = el.attribs.class;
  return c ? cachedJoined(c) : '';
}
const cachedJoined = cachedByString((c: string): string => tokensOfClass(c).join('.'));

/**
 * Posts that are not siblings: the elements of one tag and class set anywhere in the page (a
 * question and its only answer, each a `div.post-layout` under different parents; a main post
 * rendered apart from the replies), outermost members only, each holding a date. Grouping is one
 * pass over the elements.
 */
function classCandidates(ix: ThreadIndex, anchorStarts: Int32Array, allElements: Element[], out: Candidate[]): void {
  // Grouped by tag and class tokens (joined once per class attribute), in the order each group
  // first occurs.
  const groups = new Map<string, Map<string, Element[]>>();
  const order: Array<[string, Element[]]> = [];
  for (const el of allElements) {
    const joined = joinedTokens(el);
    if (!joined) continue;
    let byTag = groups.get(joined);
    if (!byTag) groups.set(joined, (byTag = new Map()));
    let arr = byTag.get(el.name);
    if (!arr) {
      byTag.set(el.name, (arr = []));
      order.push([joined, arr]);
    }
    arr.push(el);
  }
  for (const [joined, els] of order) {
    if (els.length < MIN_RECORDS) continue;
    const key = `${els[0]!.name}.${joined}`;
    // Siblings of one parent are the sibling candidates' business.
    const parent = els[0]!.parent;
    if (els.every((e) => e.parent === parent)) continue;
    const kept = outermost(ix, els).filter((e) => datedCount(anchorStarts, rangeOf(ix, e)) > 0);
    if (kept.length < MIN_RECORDS) continue;
    const records = kept.map((e) => ({ roots: [e], range: rangeOf(ix, e), via: 'class' as const }));
    out.push({ records, score: scoreRecords(ix, records) * CLASS_PENALTY, key: `cls:${key}` });
  }
}

/** Weight of the floors a site's learned layout finds on a page, against the page's own
 * candidates (see layout.ts). Measured with `npm run bench:forums -- --leave-site-out` (layout
 * from the other pages of the site): see the README's forum section. */
export const LAYOUT_BONUS = 2;

/** Floors of the site's learned layouts: the outermost dated elements with the layout's key (one
 * is enough: a thread page of only its main post). */
function layoutCandidates(ix: ThreadIndex, anchorStarts: Int32Array, allElements: Element[], layouts: readonly FloorLayout[], out: Candidate[]): void {
  for (const layout of layouts) {
    const els = allElements.filter((e) => {
      const k = layoutKey(e);
      return k !== undefined && sameLayout(k, layout.key);
    });
    const kept = outermost(ix, els).filter((e) => datedCount(anchorStarts, rangeOf(ix, e)) > 0);
    if (!kept.length) continue;
    const records = kept.map((e) => ({ roots: [e], range: rangeOf(ix, e), via: 'layout' as const }));
    out.push({ records, score: scoreRecords(ix, records) * LAYOUT_BONUS, key: `layout:${layout.key}` });
  }
}

function idCandidates(ix: ThreadIndex, anchorStarts: Int32Array, withIds: Element[], out: Candidate[]): void {
  for (const cluster of clusterIds(withIds)) {
    const els = outermost(ix, cluster).filter((e) => datedCount(anchorStarts, rangeOf(ix, e)) > 0);
    if (els.length < MIN_RECORDS) continue;
    const records = els.map((e) => ({ roots: [e], range: rangeOf(ix, e), via: 'ids' as const }));
    out.push({ records, score: scoreRecords(ix, records), key: `ids:${idPattern(els[0]!)}` });
  }
}

/**
 * Posts outside the chosen structure's parent: the main post is often rendered by another
 * template branch (a "first post" container before the replies' list). Elements elsewhere with
 * the same tag and a similar class set (or the same id pattern), holding a date, not nested in or
 * around a chosen record, join the list.
 */
function extendRecords(ix: ThreadIndex, anchorStarts: Int32Array, records: PostRecord[], byTag: ReadonlyMap<string, Element[]>): PostRecord[] {
  if (records.some((r) => r.roots.length !== 1)) return records;
  const proto = records.map((r) => r.roots[0]!);
  const tag = proto[0]!.name;
  const protoCls = classTokens(proto[0]!);
  const protoId = idPattern(proto[0]!);
  if (!protoCls.length && !(protoId && protoId.includes('#'))) return records;
  const ranges = records.map((r) => r.range);
  const protoSet = new Set(proto);
  const extra: PostRecord[] = [];
  // (The page's elements of the records' tag, in page order; the class test once per class
  // attribute.)
  const sameTag = byTag.get(tag) ?? [];
  const idRule = !!protoId && protoId.includes('#');
  const similarClass = new Map<string, boolean>();
  for (const el of sameTag) {
    if (protoSet.has(el)) continue;
    let ok = idRule && idPattern(el) === protoId;
    if (!ok && protoCls.length) {
      const c = el.attribs.class ?? '';
      let v = similarClass.get(c);
      if (v === undefined) similarClass.set(c, (v = jaccard(protoCls, classTokens(el)) >= CLASS_SIMILARITY));
      ok = v;
    }
    if (!ok) continue;
    const r = rangeOf(ix, el);
    if (overlapsAny(ranges, r)) continue;
    if (extra.some((x) => contains(x.range, r) || contains(r, x.range))) continue;
    if (datedCount(anchorStarts, r) === 0) continue;
    extra.push({ roots: [el], range: r, via: records[0]!.via });
  }
  // The main post: the nearest dated element before the first record with the same tag and a
  // class in common ("posting frage" before the replies' "posting antwort").
  const first = records[0]!.range.start;
  if (protoCls.length && !extra.some((x) => x.range.start < first)) {
    let main: Element | undefined;
    const sharesClass = new Map<string, boolean>();
    for (const el of sameTag) {
      const r = rangeOf(ix, el);
      if (r.start >= first) break;
      if (r.end >= first) continue;
      const c = el.attribs.class ?? '';
      let shared = sharesClass.get(c);
      if (shared === undefined) sharesClass.set(c, (shared = classTokens(el).some((t) => protoCls.includes(t))));
      if (!shared) continue;
      if (datedCount(anchorStarts, r) === 0) continue;
      if (main && contains(rangeOf(ix, main), r)) continue;
      main = el;
    }
    if (main) extra.push({ roots: [main], range: rangeOf(ix, main), via: records[0]!.via });
  }
  if (!extra.length) return records;
  // A post is shown once: an element of the template elsewhere whose text is a record's own is a
  // copy (a "most liked replies" box above the replies), not another floor.
  const texts = new Set(records.map((r) => recordKey(ix, r.range)));
  const fresh = extra.filter((x) => !texts.has(recordKey(ix, x.range)));
  if (!fresh.length) return records;
  return [...records, ...fresh].sort((a, b) => a.range.start - b.range.start);
}

/** A record this long (characters of its text key) is told apart from another by its text. */
const COPY_MIN_CHARS = 16;

/**
 * A post is shown once: of records with the very same text (name, time and words), a box of
 * "most liked replies" repeats some of the floors. The copies outside the parent that holds most
 * of the records go when one of them is in it (two copies in the stream are a post sent twice).
 */
function dropCopies(ix: ThreadIndex, records: PostRecord[]): PostRecord[] {
  if (records.length < 3) return records;
  const keys = records.map((r) => recordKey(ix, r.range));
  const byKey = new Map<string, number[]>();
  keys.forEach((k, i) => {
    if (k.length < COPY_MIN_CHARS) return;
    let arr = byKey.get(k);
    if (!arr) byKey.set(k, (arr = []));
    arr.push(i);
  });
  const parents = new Map<AnyNode | null, number>();
  for (const r of records) {
    const p = r.roots[0]?.parent ?? null;
    parents.set(p, (parents.get(p) ?? 0) + 1);
  }
  let major: AnyNode | null = null;
  let n = 0;
  for (const [p, c] of parents) if (c > n) [major, n] = [p, c];
  const drop = new Set<number>();
  for (const idx of byKey.values()) {
    if (idx.length < 2) continue;
    // Copies side by side in the stream are a post sent twice (both are floors of the thread).
    const inStream = idx.filter((i) => records[i]!.roots[0]?.parent === major);
    if (!inStream.length || inStream.length === idx.length) continue;
    for (const i of idx) if (!inStream.includes(i)) drop.add(i);
  }
  return drop.size ? records.filter((_, i) => !drop.has(i)) : records;
}

/** A record's text as a key for finding copies (whitespace-free; once per range and page). */
function recordKey(ix: ThreadIndex, r: Range): string {
  const keys = ix.page.memo('forum:record-keys', () => new Map<string, string>());
  const id = `${r.start}:${r.end}`;
  let k = keys.get(id);
  if (k === undefined) keys.set(id, (k = segmentsIn(ix, r).map((s) => s.text.replace(/\s+/g, '')).join('|')));
  return k;
}

/** Whether a range nests in or around one of the sorted, disjoint ranges (binary search). */
function overlapsAny(sorted: Range[], r: Range): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = sorted[mid]!;
    if (x.end < r.start) lo = mid + 1;
    else if (x.start > r.end) hi = mid - 1;
    else return true;
  }
  return false;
}

/** Seed 000 fallback: differential peak clustering of the text between the first and last date. */
function peakRecords(ix: ThreadIndex, anchors: DateAnchor[]): PostRecord[] {
  const own = anchors.filter((a) => !a.prose);
  if (own.length < MIN_RECORDS) return [];
  const [a] = segSpan(ix, { start: own[0]!.index, end: Infinity });
  const segs = ix.segments.slice(a);
  // Two passes (seed 000: forums need 1–2) over the region's segments.
  let blocks = splitAtPeaks(segs);
  blocks = blocks.flatMap((b) => splitAtPeaks(b));
  const anchorIdx = new Set(own.map((x) => x.index));
  const records: PostRecord[] = [];
  for (const b of blocks) {
    if (!b.some((s) => anchorIdx.has(s.index))) continue;
    const start = b[0]!.index;
    const end = b[b.length - 1]!.end;
    records.push({ roots: [], range: { start, end }, via: 'peaks' });
  }
  return records;
}

/** A thread with a single post: the lowest ancestor of the first own date that also holds
 * punctuated text of at least POST_TEXT_REF characters outside the date's own block. */
function singleRecord(ix: ThreadIndex, anchors: DateAnchor[]): PostRecord[] {
  // The first dates may be the thread header's ("Thread starter X · Start date …" under the
  // title): a few are tried in order, the first that heads a post wins.
  const tried = anchors.filter((a) => !a.prose && !a.joined).slice(0, SINGLE_POST_ANCHORS);
  for (const first of tried) {
    let el: AnyNode | null = first.element;
    const own = rangeOf(ix, first.element);
    const ownText = nonLinkChars(ix, own);
    while (el && el instanceof Element && el.name !== 'body' && el.name !== 'html') {
      const r = rangeOf(ix, el);
      // (The thread title in a heading is not the post's text.)
      if (nonLinkChars(ix, r) - ownText - headingChars(ix, r) >= POST_TEXT_REF) {
        // One dated text is also what an article looks like: a post names its author by a link
        // to a member profile (blogs link /author/ pages, which do not count).
        // …and sits in a board's post container (class/id words of post templates).
        const forumish = hasAncestor(el, null, (e) => FORUM_CONTAINER.test(`${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`));
        if (forumish && hasMemberLink(ix, r) && punctMarks(ix, r) > 0) return [{ roots: [el], range: r, via: 'single' }];
        break;
      }
      el = el.parent;
    }
  }
  return [];
}
/** Dates tried as the one post's date (the thread header's, the post's own, an edit line). */
const SINGLE_POST_ANCHORS = 3;

/**
 * The main post rendered by a template of its own (a question above its answers), found when
 * neither the replies' signature nor a shared class reaches it: from the last own date before the
 * first floor, the largest ancestor that stays clear of the floors. It must read like a post: a
 * member link, POST_TEXT_REF characters of its own and sentence punctuation (a thread header
 * "Started by X, Dec 2, 2019" has none of the last two).
 */
function mainPostBefore(ix: ThreadIndex, anchors: DateAnchor[], records: PostRecord[], ownText: (r: Range) => number, replies: PostRecord[] = []): PostRecord | undefined {
  const first = records[0]!.range.start;
  const replyStarts = replies.map((r) => r.range.start);
  const inReply = (i: number): boolean => {
    const k = lowerBound(replyStarts, i + 1) - 1;
    return k >= 0 && i <= replies[k]!.range.end;
  };
  let anchor: DateAnchor | undefined;
  for (const a of anchors) {
    if (a.index >= first) break;
    if (!a.prose && !a.edited && !inReply(a.index)) anchor = a;
  }
  if (!anchor) return undefined;
  // The first floor that shows the thread's title is the thread's opening post (a submission in
  // the comments' own template): what sits before it is a sidebar or a header.
  if (holdsThreadTitle(ix, records[0]!.range, true)) return undefined;
  // Already inside a floor (a record that starts later cannot contain it, but be safe).
  if (records.some((r) => r.range.start <= anchor!.index && anchor!.index <= r.range.end)) return undefined;
  let el: Element = anchor.element;
  for (let p = el.parent; p instanceof Element && p.name !== 'body'; p = p.parent) {
    const r = rangeOf(ix, p);
    if (r.end >= first) break;
    el = p;
  }
  // The post may be a run of siblings (its header, then its body) in the element that goes on to
  // hold the replies: the siblings after the header up to the first floor's are the post's.
  const roots = [el];
  const siblings = el.parent ? elementChildren(el.parent) : [];
  for (let k = siblings.indexOf(el) + 1; k > 0 && k < siblings.length; k++) {
    const sr = rangeOf(ix, siblings[k]!);
    if (sr.end >= first) break;
    roots.push(siblings[k]!);
  }
  const r = { start: rangeOf(ix, el).start, end: rangeOf(ix, roots[roots.length - 1]!).end };
  // A member link says a person wrote it; without one (a blog post above its comments) the
  // thread's own title in a heading of it does (issue 18: the main post carries the title).
  const firstDate = anchors.find((a) => !a.prose && !a.edited && !inReply(a.index) && a.index >= first && a.index <= records[0]!.range.end)?.iso;
  // A submission says little of its own (a link post: its title, its poster, its time): it holds
  // the thread's title (a heading, or a link to what was submitted), a member link, and a time
  // before the first reply's — a thread's header describes the first floor, at its time. (A
  // relative time is coarse: "6 years ago" above replies "6 yr. ago" is not the same moment.)
  const before = !!anchor.iso && !!firstDate && (Date.parse(anchor.iso) < Date.parse(firstDate) || (!!anchor.relative && Date.parse(anchor.iso) === Date.parse(firstDate)));
  const submission = before && hasMemberLink(ix, r) && holdsThreadTitle(ix, r, true);
  if (!submission && (ownText(r) - headingChars(ix, r) < POST_TEXT_REF || punctMarks(ix, r) === 0 || (!hasMemberLink(ix, r) && !holdsThreadTitle(ix, r)))) return undefined;
  // Posts come in time order: a "main post" dated after the first floor is a page clock or a
  // "last visit" line.
  if (anchor.iso && firstDate && Date.parse(anchor.iso) > Date.parse(firstDate)) return undefined;
  // …and one stamped with the first floor's very time ("Thread starter X · Start date <time>" above
  // the posts) is the thread's header describing that floor. (Day-only dates prove nothing: a
  // question and its first answer often share a day.)
  const firstAnchor = anchors.find((a) => !a.prose && !a.edited && !inReply(a.index) && a.index >= first && a.index <= records[0]!.range.end);
  if (anchor.iso && firstDate && !anchor.relative && !firstAnchor?.relative && Date.parse(anchor.iso) === Date.parse(firstDate) && !/T00:00(:00)?(\.0+)?(Z|[+-])/.test(anchor.iso)) return undefined;
  // It must hold a single post: one own date only (several would make it another list); the
  // dates of its replies (comments under a question) are theirs.
  // (A date in the thread's title — "Development update 2024-10-04" — is the title's.)
  if (datedCount(Int32Array.from(anchors.filter((a) => !a.prose && !inReply(a.index) && !inTitleHeading(ix, a)).map((a) => a.index)), r) > 2) return undefined;
  return { roots, range: r, via: 'single' };
}

/** An element's template shape: its layout key (tag and digit-free classes) and the tags of its
 * children and grandchildren. Two floors of one template share it; a header row and its body row
 * (a name and a date; a text) do not. */
function shapeOf(el: Element): string {
  const kids = elementChildren(el);
  return `${layoutKey(el) ?? el.name}>${kids.map((c) => c.name).join(',')}>${kids.map((c) => elementChildren(c).map((g) => g.name).join(',')).join('|')}`;
}
const sameShape = (a: Element, b: Element): boolean => shapeOf(a) === shapeOf(b);

/**
 * A floor that says nothing (a header row: a date and a name, no sentence) followed by a sibling
 * floor that names nobody (its body row) is one floor of two rows (old table layouts whose rows
 * happen to share a class: `altbg1` / `altbg2`). A sibling of the silent floor's own shape
 * that shows a post date of its own is the next floor, not a body row (a body row may quote a date,
 * but is shaped otherwise): the silent one is a short reply ("同去同去", "+1") whose member link the
 * profile-link shapes do not know.
 */
function mergeHeaderRows(ix: ThreadIndex, records: PostRecord[], ownText: (r: Range) => number, dated?: (r: Range) => number): PostRecord[] {
  const silent = (r: PostRecord): boolean => ownText(r.range) < MIN_OWN_TEXT && punctMarks(ix, r.range) === 0;
  const out: PostRecord[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const next = records[i + 1];
    const a = r.roots[r.roots.length - 1];
    const b = next?.roots[0];
    if (next && a && b && a.parent === b.parent && nextElementSibling(a) === b && silent(r) && !silent(next) && !showsAuthor(ix, next) && !(dated && dated(next.range) > 0 && sameShape(a, b))) {
      out.push({ ...next, roots: [...r.roots, ...next.roots], range: { start: r.range.start, end: next.range.end } });
      i++;
      continue;
    }
    out.push(r);
  }
  return out;
}

/** Whether a heading in the range shows the page's title (or a part of it cut at a separator);
 * with `links`, a line that is mostly a link showing it counts too (a submission's title link,
 * in a table row or a paragraph rather than a heading). */
export function holdsThreadTitle(ix: ThreadIndex, r: Range, links = false): boolean {
  const title = ix.page.title.replace(/\s+/g, ' ').trim();
  const titleLink = (seg: Segment): boolean => links && !!title && seg.text.length >= MIN_TITLE_CORE_CHARS && seg.linkChars >= TITLE_LINK_SHARE * seg.text.length;
  // (The segments that may count, listed once per page: a binary search per range.)
  const { heads } = headingIndex(ix);
  const [a, b] = segSpan(ix, r);
  const headings: Segment[] = [];
  for (let j = lowerBound(heads, a); j < heads.length && heads[j]! < b; j++) {
    const seg = ix.segments[heads[j]!]!;
    if ((HEADING_TAG.test(seg.element.name) || titleLink(seg)) && seg.text.length >= MIN_TITLE_CHARS) headings.push(seg);
  }
  if (!headings.length) return false;
  if (title) {
    if (headings.some((seg) => title.includes(seg.text))) return true;
    // …or a heading that starts with the title's own part and adds a note ("… (example.com) 139":
    // the linked story's source and its comment count).
    const core = titleCore(title);
    return core !== undefined && core.length >= MIN_TITLE_CORE_CHARS && headings.some((seg) => seg.text.startsWith(core));
  }
  // No <title> (a page saved without its head): the thread title as title.ts reads it from the
  // headings before the floors.
  const thread = threadTitle(ix.page, r.end);
  return thread !== undefined && headings.some((seg) => seg.text === thread);
}
/** Whether a date anchor sits in a heading that shows the page's title (a dated thread title). */
function inTitleHeading(ix: ThreadIndex, a: DateAnchor): boolean {
  if (!/^h[1-6]$/.test(a.element.name)) return false;
  const title = ix.page.title.replace(/\s+/g, ' ').trim();
  const text = a.element.children.length ? collapse(textOf(a.element)) : '';
  return text.length >= MIN_TITLE_CHARS && title.includes(text);
}
/** A line at least this much link is a title link (the rest: the linked site's name, a flair). */
const TITLE_LINK_SHARE = 0.6;
/** A title part this long is the thread's own title, distinctive enough to begin a heading. */
const MIN_TITLE_CORE_CHARS = 12;
/** A heading this short ("Re", "#") matches any title. */
const MIN_TITLE_CHARS = 4;

/** Non-link characters in headings (a thread title above the posts is not a post's text). */
export function headingChars(ix: ThreadIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  const { pre } = headingIndex(ix);
  return pre[b]! - pre[a]!;
}

const HEADING_TAG = /^h[1-6]$/;

/** Per page (its segments are the page index's): the segments that are headings or may be title links (at least MIN_TITLE_CHARS long,
 * in order), and the prefix sums of the headings' non-link characters. */
interface HeadingIndex {
  heads: number[];
  pre: Float64Array;
}
function headingIndex(ix: ThreadIndex): HeadingIndex {
  return ix.page.memo('forum:headings', () => buildHeadingIndex(ix));
}

function buildHeadingIndex(ix: ThreadIndex): HeadingIndex {
  const heads: number[] = [];
  const pre = new Float64Array(ix.segments.length + 1);
  ix.segments.forEach((seg, k) => {
    const heading = HEADING_TAG.test(seg.element.name);
    pre[k + 1] = pre[k]! + (heading ? seg.text.length - seg.linkChars : 0);
    if (seg.text.length >= MIN_TITLE_CHARS && (heading || (seg.text.length >= MIN_TITLE_CORE_CHARS && seg.linkChars >= TITLE_LINK_SHARE * seg.text.length))) heads.push(k);
  });
  return { heads, pre };
}

const AUTHOR_CLASS = /(author|username|user-name|poster|nickname|\buser\b|userinfo|postprofile)/i;

/** An inner list is a list of replies (comments, 楼中楼) when at least this share of its records
 * name an author: the pieces of one long post (attachment boxes, dated paragraphs) name nobody. */
const REPLY_AUTHOR_SHARE = 0.5;
/** …and when at least this share of them holds sentence punctuation (seed 003: punctuation marks
 * text): half, because one-line replies ("thanks") often have none. */
const REPLY_PUNCT_SHARE = 0.5;

/** Reply records of the chosen list: the records of its inner lists that name authors, outermost
 * first, in page order. */
function replyRecords(ix: ThreadIndex, best: Candidate, candidates: Candidate[]): PostRecord[] {
  const out: PostRecord[] = [];
  // All candidates, not only the strongest: a 楼中楼 list of two short replies scores low.
  for (const c of candidates) {
    if (c === best || c.key.startsWith('hdr:')) continue;
    if (!best.inner?.includes(c) && !nests(best.records, c.records, true)) continue;
    if (c.records.filter((r) => showsAuthor(ix, r)).length < REPLY_AUTHOR_SHARE * c.records.length) continue;
    // Replies say something: most hold sentence punctuation (a user panel with a name, a date and
    // "1,234 posts" beside every post holds none).
    if (c.records.filter((r) => punctMarks(ix, r.range) > 0).length < REPLY_PUNCT_SHARE * c.records.length) continue;
    // A reply is a small part of its floor: a list as large as the floors is the floors' own body.
    if (!c.records.every((r) => chars(ix, r.range) * 2 <= chars(ix, hostOf(best.records, r)?.range ?? r.range))) continue;
    out.push(...c.records);
  }
  // The same replies outside the list's span (comments under a question that precedes its
  // answers): lists whose records have the signature of accepted replies.
  const keys = new Set(out.map((r) => (r.roots[0] ? stepKey(r.roots[0]) : '')));
  keys.delete('');
  if (keys.size) {
    const spanStart = best.records[0]!.range.start;
    for (const c of candidates) {
      if (c === best || c.key.startsWith('hdr:')) continue;
      if (!c.records.every((r) => r.range.end < spanStart && r.roots[0] && keys.has(stepKey(r.roots[0])))) continue;
      out.push(...c.records);
    }
  }
  out.sort((a, b) => a.range.start - b.range.start || b.range.end - a.range.end);
  const kept: PostRecord[] = [];
  let end = -1;
  for (const r of out) {
    if (r.range.start <= end) continue;
    kept.push(r);
    end = r.range.end;
  }
  return kept;
}

/** Text a reply area may hold besides its replies: one line, the list's own label ("点评",
 * "Replies"). Eight characters is a label; a one-line post ("我 尽力 了") is longer. */
const REPLY_AREA_EXTRA = 8;

/**
 * The area of a floor that its replies occupy: from each reply up through the ancestors that hold
 * nothing else but the list's label, so that the label goes with the replies.
 */
function replyAreas(ix: ThreadIndex, host: PostRecord): Range[] {
  const reps = host.replies ?? [];
  const areas: Range[] = [];
  const repChars = (r: Range): number => {
    let n = 0;
    for (const x of reps) if (x.range.start >= r.start && x.range.end <= r.end) n += chars(ix, x.range);
    return n;
  };
  const repRanges = reps.map((x) => x.range);
  const extraLines = (r: Range): number => {
    let n = 0;
    for (const seg of segmentsIn(ix, r)) if (!repRanges.some((x) => x.start <= seg.index && seg.index <= x.end)) n++;
    return n;
  };
  const roots = new Set(host.roots);
  for (const rep of reps) {
    let area = rep.range;
    let el: AnyNode | null = rep.roots[0] ?? null;
    for (let p = el?.parent ?? null; p instanceof Element && !roots.has(p); p = p.parent) {
      const r = rangeOf(ix, p);
      if (r.start < host.range.start || r.end > host.range.end) break;
      if (chars(ix, r) - repChars(r) > REPLY_AREA_EXTRA || extraLines(r) > 1) break;
      area = r;
      el = p;
    }
    areas.push(area);
  }
  return areas;
}

function hostOf(records: PostRecord[], r: PostRecord): PostRecord | undefined {
  let lo = 0;
  let hi = records.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = records[mid]!.range;
    if (x.end < r.range.start) lo = mid + 1;
    else if (x.start > r.range.start) hi = mid - 1;
    else return x.end >= r.range.end ? records[mid] : undefined;
  }
  return undefined;
}

/** Each reply goes to the floor that holds it (floors are disjoint and sorted). */
function attachReplies(records: PostRecord[], replies: PostRecord[]): void {
  if (!replies.length) return;
  const starts = records.map((r) => r.range.start);
  for (const rep of replies) {
    const k = lowerBound(starts, rep.range.start + 1) - 1;
    const host = records[k];
    if (!host || rep.range.end > host.range.end) continue;
    (host.replies ??= []).push(rep);
  }
}

/** Whether a record shows who wrote it: a member link, an author class, or a data-author. */
export function showsAuthor(ix: ThreadIndex, rec: PostRecord): boolean {
  const r = rec.range;
  for (let i = r.start; i <= r.end && i < ix.page.nodes.length; i++) {
    const n = ix.page.nodes[i];
    if (!(n instanceof Element)) continue;
    if (n.attribs['data-author'] || n.attribs['data-username']) return true;
    if (n.name === 'a' && n.attribs.href && isMemberHref(n.attribs.href)) return true;
    const c = n.attribs.class;
    if (c && AUTHOR_CLASS.test(c)) return true;
  }
  return false;
}

/** Member profile links of boards (the author links of blogs and news, `/author/…`, excluded);
 * relative ones too (`user?id=alice`). */
const MEMBER_HREF = /((?:^|\/)members?\/|member\.php|viewprofile|(?:^|\/)users?(\/|\?|\.php)|\/u\/|\/profile|showuser|space-uid|mod=space|[?&]uid=|\/home\/main|\/mitglied|\/membre|user-dashboard|action=profile)/i;
/** A member profile link; a login or sign-up link under `/user/` is nobody's. */
function isMemberHref(href: string): boolean {
  return MEMBER_HREF.test(href) && !LOGIN_HREF.test(href.split('?')[0]!);
}
/** Class/id words of board post containers (a one-post thread must sit in one). */
const FORUM_CONTAINER = /(post|reply|message|thread|topic|floor|comment|bbs|forum|kmsg|l_post|帖|楼)/i;

export function hasMemberLink(ix: ThreadIndex, r: Range): boolean {
  for (let i = r.start; i <= r.end && i < ix.page.nodes.length; i++) {
    const n = ix.page.nodes[i];
    if (n instanceof Element && n.name === 'a' && n.attribs.href && isMemberHref(n.attribs.href)) return true;
  }
  return false;
}

/**
 * A candidate list of floors, finished as the splitter returns floors (the main post and the
 * records of the same template elsewhere added, header rows merged, replies attached), with what
 * the rules saw in it. The floor model (choose.ts) reads these as features and picks one list.
 */
export interface RecordSet {
  /** Generator and its group (`sib:<parent>:<cluster>`, `ids:…`, `cls:…`, `hdr:…`, `layout:…`,
   * `peaks`, `single`, `undated`). */
  key: string;
  records: PostRecord[];
  /** The list the rules alone choose (the splitter before the floor model). */
  rule: boolean;
  /** The rules' score: dated records, damped when widget-short or teasers, weighed by authors. */
  score: number;
  /** Own text besides dates in half the records, punctuation in MIN_PUNCT_SHARE of them. */
  speaks: boolean;
  /** Nested in the records of a stronger list whose records show their own dates. */
  dominated: boolean;
  /** Typical number of own dates per record at most MAX_DATES_PER_POST. */
  singleDated: boolean;
  /** Holds lists nested in its records (replies, comments) / nests in another candidate. */
  outer: boolean;
  nested: boolean;
  /** Records added outside the generator's own (the same template elsewhere). */
  extended: number;
  /** The main post the rules find before the records (a template of its own), not in `records`. */
  main?: PostRecord;
  /** Replies inside the records (comments, 楼中楼), attached by `assembleSet`. */
  replies: PostRecord[];
  /** Share of records that show an author (member link, author class, data-author). */
  authorShare: number;
}

/** Structural candidates finished and offered to the floor model (the strongest by rule score):
 * bounds the cost (each is finished in time linear in the page). */
export const POOL_STRUCTURAL = 12;
/** Header-delimited candidates offered. */
const POOL_HEADERS = 3;

/** The candidate lists of a page and what assembling one needs. */
export interface SetPool {
  sets: RecordSet[];
  /** Non-link characters of a range besides its dates. */
  ownText: (r: Range) => number;
  /** Post dates (non-prose anchors) in a range; absent on an undated page. */
  dated?: (r: Range) => number;
}

/** Find the floors of a thread page, in page order, as the rules choose them; empty when the page
 * has no posts. (The floor model's choice: choose.ts `chooseRecords`.) */
export function findRecords(ix: ThreadIndex, anchors: DateAnchor[], layouts: readonly FloorLayout[] = []): PostRecord[] {
  const pool = recordSets(ix, anchors, layouts);
  const rule = pool.sets.find((s) => s.rule);
  return rule ? assembleSet(ix, pool, rule) : [];
}

/**
 * The floors of a candidate list as the splitter returns them: the main post (by default the one
 * the rules found; `null` for none) before the records, header rows merged into their floors, replies attached to
 * the floors that hold them. Fresh record objects: a set can be assembled more than once.
 */
export function assembleSet(ix: ThreadIndex, pool: SetPool, set: RecordSet, main: PostRecord | null = set.main ?? null): PostRecord[] {
  const fresh = (r: PostRecord): PostRecord => ({ roots: r.roots, range: r.range, via: r.via });
  const all = mergeHeaderRows(ix, dropCopies(ix, (main ? [main, ...set.records] : set.records).map(fresh)), pool.ownText, pool.dated);
  attachReplies(all, set.replies);
  for (const r of all) if (r.replies) r.replyArea = replyAreas(ix, r);
  return all;
}

/** Lists nested in other lists among the strongest candidates (see `recordSets`): the nested ones,
 * and those an outer list dominates (its records show dates of their own). Sets `inner`. */
function relateNested(ix: ThreadIndex, top: Candidate[], postStarts: Int32Array, spans: InnerSpans): { nestedSet: Set<Candidate>; dominated: Set<Candidate> } {
  const nestedSet = new Set<Candidate>();
  const parts = new Map<Candidate, Candidate[]>();
  for (const outer of top) {
    // Header-delimited floors are DFS spans, not elements: one that holds whole elements of a
    // structural list (a dated ad box every twenty posts) is cut at the wrong dates, not a post
    // holding its comments.
    const headerSpans = outer.key.startsWith('hdr:');
    for (const inner of top) {
      if (inner === outer || (headerSpans && inner.records[0]!.roots.length)) continue;
      if (nests(outer.records, inner.records)) {
        (outer.inner ??= []).push(inner);
        nestedSet.add(inner);
      } else if (nests(outer.records, inner.records, false, true) && innerShare(ix, outer.records, inner) < INNER_BULK_SHARE) {
        // One to one, a small part of each outer record (each answer's comment box): not the same
        // posts seen at two depths, but no list of replies either (a floor's own panels nest so).
        // It does not compete with the outer list.
        let ps = parts.get(outer);
        if (!ps) parts.set(outer, (ps = []));
        ps.push(inner);
        nestedSet.add(inner);
      }
    }
  }
  const dominated = new Set<Candidate>();
  for (const outer of top) {
    const ps = parts.get(outer) ?? [];
    if (!outer.inner && !ps.length) continue;
    // The outer records must show their own dates (not only their inner lists'): page sections
    // or columns that merely group posts have none.
    // An inner "list" that neither talks nor holds the bulk of the records is a part of their
    // own template (a post's signature block, `div.mt*` like its comments block): the dates it
    // holds are the records' own. Comments talk; posts grouped by page columns are the bulk.
    // (A part's dates may be the records' own: an answer's signature sits in its body cell.)
    const lists = (outer.inner ?? []).filter((c) => c.records.filter((r) => punctMarks(ix, r.range) > 0).length >= REPLY_PUNCT_SHARE * c.records.length || innerShare(ix, outer.records, c) >= INNER_BULK_SHARE);
    const own = outer.records.filter((r) => datedCount(postStarts, r.range) - innerDates(postStarts, r, lists, spans) > 0).length;
    if (own < OUTER_OWN_DATE_SHARE * outer.records.length || outer.records.length < MIN_RECORDS) {
      outer.inner = undefined;
      continue;
    }
    for (const inner of [...(outer.inner ?? []), ...ps]) dominated.add(inner);
  }
  return { nestedSet, dominated };
}

/** Every candidate list of floors of a page, the rules' choice marked (`rule`); no set when the
 * page has no candidate at all. */
export function recordSets(ix: ThreadIndex, anchors: DateAnchor[], layouts: readonly FloorLayout[] = []): SetPool {
  const page: Page = ix.page;
  const anchorStarts = Int32Array.from(anchors.filter((a) => !a.prose).map((a) => a.index));
  const simple = (key: string, records: PostRecord[], rule: boolean): RecordSet => ({
    key, records, rule, score: records.length, speaks: true, dominated: false, singleDated: true, outer: false, nested: false, extended: 0, replies: [],
    authorShare: records.length ? records.filter((r) => showsAuthor(ix, r)).length / records.length : 0,
  });
  const noText = (r: Range): number => nonLinkChars(ix, r);
  if (!anchorStarts.length) {
    const undated = undatedRecords(ix);
    return { sets: undated.length ? [simple('undated', undated, true)] : [], ownText: noText };
  }
  const candidates: Candidate[] = [];
  const withIds: Element[] = [];
  const allElements: Element[] = [];
  const byTag = new Map<string, Element[]>();
  for (let i = 0; i < page.nodes.length; i++) {
    const node = page.nodes[i]!;
    if (!(node instanceof Element)) continue;
    allElements.push(node);
    let tagged = byTag.get(node.name);
    if (!tagged) byTag.set(node.name, (tagged = []));
    tagged.push(node);
    if (node.attribs.id && /\d/.test(node.attribs.id)) withIds.push(node);
    // Only parents whose subtree holds ≥ 2 dates can hold a list of posts.
    const r = { start: i, end: ix.end[i]! };
    if (datedCount(anchorStarts, r) < MIN_RECORDS) continue;
    siblingCandidates(ix, anchorStarts, node, candidates);
  }
  idCandidates(ix, anchorStarts, withIds, candidates);
  headerCandidates(ix, anchors, anchorStarts, candidates);
  classCandidates(ix, anchorStarts, allElements, candidates);
  layoutCandidates(ix, anchorStarts, allElements, layouts, candidates);
  // Own text: a record must say something besides its date (posts do; "title link + date" items of
  // a news sidebar do not).
  const own = anchors.filter((a) => !a.prose);
  const preLen = new Float64Array(own.length + 1);
  own.forEach((a, i) => (preLen[i + 1] = preLen[i]! + a.text.length));
  const ownText = (r: Range): number => {
    const a = lowerBound(anchorStarts, r.start);
    const b = lowerBound(anchorStarts, r.end + 1);
    return nonLinkChars(ix, r) - (preLen[b]! - preLen[a]!);
  };
  // A post shows one date, perhaps an edit date and a join date; page columns and article lists
  // cut into "records" show many.
  // Quoted posts' dates do not count, nor those of lists nested inside the records (comments
  // under an answer, replies inside a floor: see `innerLists`).
  const postStarts = Int32Array.from(anchors.filter((a) => !a.prose && !a.quoted).map((a) => a.index));
  const spans: InnerSpans = new Map();
  const singleDated = (c: Candidate): boolean => {
    const counts = c.records.map((r) => datedCount(postStarts, r.range) - innerDates(postStarts, r, c.inner, spans)).sort((x, y) => x - y);
    return counts[Math.floor((counts.length - 1) / 2)]! <= MAX_DATES_PER_POST;
  };
  const speaks = (records: PostRecord[]): boolean =>
    records.filter((r) => ownText(r.range) >= MIN_OWN_TEXT).length * 2 >= records.length &&
    records.filter((r) => punctMarks(ix, r.range) > 0).length >= MIN_PUNCT_SHARE * records.length;
  const speakingSet = new Set(candidates.filter((c) => speaks(c.records)));
  const speaking = [...speakingSet].sort((a, b) => b.score - a.score || b.records.length - a.records.length);
  // Lists inside lists (seed 000: "floor within a floor"): the strongest candidates are related by
  // nesting. A list whose records sit inside the records of another — several in one record, or
  // all of them in one — is structure within posts: comments, 楼中楼 replies, or the pieces of one
  // long post (its attachment boxes, its dated paragraphs). It does not compete with the outer
  // list when the outer list's records have dates of their own.
  const top = speaking.slice(0, NESTING_CHECKED_CANDIDATES);
  const { nestedSet, dominated } = relateNested(ix, top, postStarts, spans);
  const singleDatedSet = new Set(speaking.filter((c) => singleDated(c)));
  const live = speaking.filter((c) => !dominated.has(c) && singleDatedSet.has(c));
  // Posts name their author: the strongest candidates are weighed by the share of records that
  // show an author (member link, author class, data-author). A dated table inside one post, or
  // a changelog, names nobody.
  const authorShares = new Map<Candidate, number>();
  const authorShare = (c: Candidate): number => {
    let v = authorShares.get(c);
    if (v === undefined) authorShares.set(c, (v = c.records.filter((r) => showsAuthor(ix, r)).length / c.records.length));
    return v;
  };
  for (const c of live.slice(0, AUTHOR_CHECKED_CANDIDATES)) c.score *= AUTHOR_FLOOR + (1 - AUTHOR_FLOOR) * authorShare(c);
  let best: Candidate | undefined;
  let bestHeader: Candidate | undefined;
  for (const c of live) {
    // (Variants offered to the floor model only: the rules keep to dated members.)
    if (c.key.endsWith(':all')) continue;
    const isHeader = c.key.startsWith('hdr:');
    const cur = isHeader ? bestHeader : best;
    if (!cur || c.score > cur.score || (c.score === cur.score && c.records.length > cur.records.length)) {
      if (isHeader) bestHeader = c;
      else best = c;
    }
  }
  // Header-delimited floors only where structure failed: no structural list, or one with fewer
  // than half as many floors in which most headers are not in a regular floor — outside every
  // floor (posts whose tags never closed) or piled into one "floor" (everything nested in one
  // element). A regular floor holds at most twice the typical (lower median) number of headers:
  // posts with a date, an edit date and a quote date are regular.
  const failed = (c: Candidate, heads: number[]): boolean => {
    const counts = c.records.map((r) => lowerBound(heads, r.range.end + 1) - lowerBound(heads, r.range.start));
    const sorted = [...counts].sort((x, y) => x - y);
    const typical = Math.max(1, sorted[Math.floor((sorted.length - 1) / 2)]!);
    const regular = counts.filter((n) => n <= 2 * typical).reduce((x, y) => x + y, 0);
    return regular * 2 < heads.length;
  };
  // Header floors carry no structure of their own to vouch for them: most must name an author.
  if (bestHeader && authorShare(bestHeader) * 2 < 1) bestHeader = undefined;
  // A header floor with nothing to say and nobody saying it is a dated line beside the posts
  // (a thread header, a "similar threads" date), not a floor.
  const headerFloors = (c: Candidate): PostRecord[] => c.records.filter((r) => ownText(r.range) >= MIN_OWN_TEXT || showsAuthor(ix, r));
  // A structural list finished: the same template elsewhere, its replies (comments under a
  // question and its answers, 楼中楼), the main post before it, header rows merged.
  const finished = new Map<Candidate, { records: PostRecord[]; replies: PostRecord[]; main?: PostRecord; own?: { records: PostRecord[]; main?: PostRecord } }>();
  const finish = (c: Candidate) => {
    let f = finished.get(c);
    if (f) return f;
    const replies = replyRecords(ix, c, speaking);
    const records = dropAuthorless(ix, extendRecords(ix, anchorStarts, c.records, byTag));
    const main = mainPostBefore(ix, anchors, records, ownText, replies);
    // The list without the same template's records elsewhere, for the floor model (a "most
    // liked replies" box repeats some of the replies above them).
    const own = records === c.records ? undefined : { records: c.records, main: mainPostBefore(ix, anchors, c.records, ownText, replies) };
    finished.set(c, (f = { records, replies, main, own }));
    return f;
  };
  let ruleKey: string | undefined;
  let ruleRecords: PostRecord[] | undefined;
  const bestReplies = best ? finish(best).replies : [];
  if (bestHeader) {
    // (Inner "replies" in the floors' own markup are floors nested by tags that never closed.)
    const floorKey = best?.records[0]!.roots[0] ? stepKey(best.records[0]!.roots[0]) : undefined;
    const otherReplies = bestReplies.filter((r) => !r.roots[0] || stepKey(r.roots[0]) !== floorKey);
    const replyStarts = otherReplies.map((r) => r.range.start);
    const inReply = (i: number): boolean => {
      const k = lowerBound(replyStarts, i + 1) - 1;
      return k >= 0 && i <= otherReplies[k]!.range.end;
    };
    const floorHeads = bestHeader.records.filter((r) => !inReply(r.range.start));
    const heads = floorHeads.map((r) => r.range.start);
    // The floors the structure missed must read like posts: dated rows of a "similar threads"
    // box after the posts (titles, counters) are not floors whose tags never closed.
    const inBest = best ? coveredBy(best.records.map((b) => b.range)) : undefined;
    const missed = inBest ? floorHeads.filter((r) => !inBest(r.range.start)) : [];
    const missedTalk = missed.filter((r) => punctMarks(ix, r.range) > 0).length >= HEADER_MISSED_TALK * missed.length;
    if (!best || (floorHeads.length >= HEADER_MIN_GAIN * best.records.length && failed(best, heads) && missedTalk)) {
      ruleKey = bestHeader.key;
      ruleRecords = headerFloors(bestHeader);
    }
  }
  if (!ruleRecords && best) ruleKey = best.key;
  const sets: RecordSet[] = [];
  const add = (c: Candidate, key: string, records: PostRecord[], replies: PostRecord[] = [], main?: PostRecord): void => {
    if (!records.length) return;
    sets.push({
      key, records, rule: key === ruleKey, score: c.score, speaks: speakingSet.has(c), dominated: dominated.has(c),
      singleDated: singleDatedSet.has(c) || (!speakingSet.has(c) && singleDated(c)), outer: !!c.inner?.length, nested: nestedSet.has(c),
      extended: Math.max(0, records.length - c.records.length), main, replies, authorShare: authorShare(c),
    });
  };
  const byScore = [...candidates].sort((a, b) => b.score - a.score || b.records.length - a.records.length);
  const structural = byScore.filter((c) => !c.key.startsWith('hdr:')).slice(0, POOL_STRUCTURAL);
  if (best && !structural.includes(best)) structural.push(best);
  for (const c of structural) {
    const f = finish(c);
    add(c, c.key, f.records, f.replies, f.main);
    if (f.own) add(c, `${c.key}/own`, f.own.records, f.replies, f.own.main);
  }
  const headers = byScore.filter((c) => c.key.startsWith('hdr:')).slice(0, POOL_HEADERS);
  if (bestHeader && !headers.includes(bestHeader)) headers.push(bestHeader);
  for (const c of headers) add(c, c.key, ruleKey === c.key && ruleRecords ? ruleRecords : headerFloors(c));
  // The rules' fallbacks, in their order: peak clustering, a single post, undated floors.
  const peaks = peakRecords(ix, anchors).filter((r) => ownText(r.range) >= POST_TEXT_REF && punctMarks(ix, r.range) > 0);
  const single = singleRecord(ix, anchors);
  const undated = undatedRecords(ix);
  const fallback = ruleKey ? undefined : peaks.length >= MIN_RECORDS ? 'peaks' : single.length ? 'single' : undated.length ? 'undated' : undefined;
  if (peaks.length >= MIN_RECORDS) sets.push(simple('peaks', peaks, fallback === 'peaks'));
  if (single.length) sets.push(simple('single', single, fallback === 'single'));
  if (undated.length) sets.push(simple('undated', undated, fallback === 'undated'));
  return { sets, ownText, dated: (r: Range) => datedCount(anchorStarts, r) };
}

/** Whether a position lies in one of the ranges (sorted once; a binary search per question). */
function coveredBy(ranges: Range[]): (i: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const starts = sorted.map((r) => r.start);
  // The farthest end among the ranges starting at or before each one.
  const reach: number[] = [];
  sorted.forEach((r, k) => reach.push(Math.max(r.end, k ? reach[k - 1]! : -Infinity)));
  return (i) => {
    const k = lowerBound(starts, i + 1) - 1;
    return k >= 0 && reach[k]! >= i;
  };
}

/** A list of at least this many records in which all but AUTHORLESS_MAX_SHARE of them name their
 * author loses the ones that do not: posts of one template all show who wrote them, so a record
 * of the same markup that names nobody is an ad or a tag box slotted into the stream. */
const AUTHORLESS_MIN_RECORDS = 10;
const AUTHORLESS_MAX_SHARE = 0.1;

function dropAuthorless(ix: ThreadIndex, records: PostRecord[]): PostRecord[] {
  if (records.length < AUTHORLESS_MIN_RECORDS) return records;
  const kept = records.filter((r) => showsAuthor(ix, r));
  return kept.length < records.length && records.length - kept.length <= AUTHORLESS_MAX_SHARE * records.length ? kept : records;
}

/** Undated floors must hold at least this share of the page's text: the thread is what the page
 * is about (a grid of product cards or a member list beside it is not). */
export const UNDATED_PAGE_SHARE = 0.5;
/** …and this share of them must show an author (a name heading or class, a member link). */
const UNDATED_AUTHOR_SHARE = 0.8;

/**
 * Floors without dates: the server-rendered copy of a script-rendered board (`<noscript>` views
 * print each post as an author and a body, without times) or a board that shows none. Without
 * date anchors the evidence must come from elsewhere: siblings of one template, nearly all naming
 * an author, most talking (sentence punctuation), and together the bulk of the page's text.
 */
function undatedRecords(ix: ThreadIndex): PostRecord[] {
  const page = ix.page;
  const total = nonLinkChars(ix, { start: 0, end: page.nodes.length - 1 });
  if (!total) return [];
  let best: PostRecord[] = [];
  let bestChars = UNDATED_PAGE_SHARE * total;
  for (let i = 0; i < page.nodes.length; i++) {
    const node = page.nodes[i]!;
    if (!(node instanceof Element)) continue;
    const r = { start: i, end: ix.end[i]! };
    if (nonLinkChars(ix, r) < bestChars) continue;
    const children = elementChildren(node);
    if (children.length < MIN_RECORDS) continue;
    const cl = clusterChildren(children);
    const byCluster = new Map<number, Element[]>();
    children.forEach((c, i) => {
      if (cl[i]! < 0) return;
      let arr = byCluster.get(cl[i]!);
      if (!arr) byCluster.set(cl[i]!, (arr = []));
      arr.push(c);
    });
    for (const els of byCluster.values()) {
      if (els.length < MIN_RECORDS) continue;
      const records: PostRecord[] = els.map((e) => ({ roots: [e], range: rangeOf(ix, e), via: 'siblings' as const }));
      const chars = records.reduce((a, x) => a + nonLinkChars(ix, x.range), 0);
      if (chars < bestChars) continue;
      const named = records.filter((x) => showsAuthor(ix, x));
      if (named.length < UNDATED_AUTHOR_SHARE * records.length) continue;
      if (records.filter((x) => punctMarks(ix, x.range) > 0).length < MIN_PUNCT_SHARE * records.length) continue;
      if (records.filter((x) => nonLinkChars(ix, x.range) >= MIN_OWN_TEXT).length * 2 < records.length) continue;
      // The author is what anchors an undated floor: a member of the template naming nobody
      // (a "related questions" box between the answers) is not one.
      best = named;
      bestChars = chars;
    }
  }
  return best;
}
