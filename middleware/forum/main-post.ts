/**
 * The thread's main post (issue 29 item 2): on Q&A pages the question, on comment pages the
 * submission or the article, on boards the first post rendered by a template of its own — an
 * element before the floors that the floors' own structure does not reach. Candidates are the
 * blocks that precede the floors at each level of their ancestry (and the blocks inside those),
 * plus the rules' own pick (records.ts `mainPostBefore`); "none" is a candidate too (a later page
 * of a thread, or floors whose first record already is the main post). The floor model's `main`
 * scorer chooses among them over generic features: the block's text and punctuation, its dates
 * and member links, whether it holds the thread's title, how far it sits from the floors, its tag
 * and class words, its likeness to the floors' template.
 */
import { Element, type AnyNode } from 'domhandler';
import { type PostRecord, type ThreadIndex, type Range, LOGIN_HREF, chars, elementChildren, lowerBound, nonLinkChars, punctMarks, rangeOf, stepKey } from './dom.js';
import { POST_TEXT_REF, datedCount, hasMemberLink, headingChars, holdsThreadTitle, showsAuthor } from './records.js';
import { classWords, wordsOfClass, type PageFacts } from './set-features.js';
import type { Features } from './model.js';
import { threadTitle } from './title.js';
import { collapse, textOf } from '../../src/core/page.js';
import { cachedByString } from '../../src/core/string-cache.js';

/** Ancestor levels above the first floor searched for blocks before it. */
const MAIN_LEVELS = 10;
/** Preceding siblings taken per level (nearest first), counting those with some text: a tab bar
 * or a box of "most liked replies" may sit between the main post and the floors. */
const MAIN_SIBLINGS = 4;
/** Characters a preceding sibling needs to count towards MAIN_SIBLINGS (shorter ones are taken
 * too: a link-only story's main post is its title). */
const MAIN_SIBLING_CHARS = 20;
/** Candidates kept (the cost of the features is linear in each one's size). */
const MAIN_MAX = 40;
/** Own dates a main post shows at most (its time, an edit time, a quoted post's). */
const MAIN_MAX_DATES = 3;
/** Regions that never hold a post. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'select', 'button', 'script', 'style', 'noscript']);

export interface MainCandidate {
  record: PostRecord;
  /** Ancestor level of the first floor at which it was found (0: a sibling of the floor). */
  level: number;
  /** From the rules (`mainPostBefore`). */
  rule: boolean;
  /** Inside a sibling block (one level down). */
  inner: boolean;
}

function chrome(el: AnyNode | null): boolean {
  for (let n = el; n instanceof Element; n = n.parent) if (CHROME_TAGS.has(n.name)) return true;
  return false;
}

/** Blocks before the floors: candidates for their main post. */
export function mainCandidates(ix: ThreadIndex, records: PostRecord[], dateStarts: Int32Array, ruleMain?: PostRecord): MainCandidate[] {
  const out: MainCandidate[] = [];
  if (ruleMain) out.push({ record: ruleMain, level: -1, rule: true, inner: false });
  const first = records[0];
  if (!first) return out;
  const start = first.range.start;
  // (A floor cut by position has no element of its own: the search starts at the element that
  // holds its first node.)
  let el: AnyNode | null = first.roots[0] ?? ix.page.nodes[start] ?? null;
  while (el && !(el instanceof Element)) el = el.parent;
  const seen = new Set<Element>(ruleMain?.roots ?? []);
  // A block rendered with the floors' own template (a box of most liked or pinned replies above
  // them) is a floor shown twice, not the main post: a main post in that template is a floor of
  // the list, or the rules' pick.
  const floorKeys = new Set(records.flatMap((x) => (x.roots[0] ? [stepKey(x.roots[0])] : [])));
  const take = (e: Element, level: number, inner: boolean) => {
    if (seen.has(e) || out.length >= MAIN_MAX) return;
    seen.add(e);
    if (floorKeys.has(stepKey(e))) return;
    const r = rangeOf(ix, e);
    if (r.end >= start || !chars(ix, r)) return;
    // One post shows a date or two (written, edited); a block with more is a list of its own.
    if (datedCount(dateStarts, r) > MAIN_MAX_DATES) return;
    out.push({ record: { roots: [e], range: r, via: 'single' }, level, rule: false, inner });
  };
  for (let level = 0; level < MAIN_LEVELS && el instanceof Element && el.name !== 'body' && el.name !== 'html'; level++, el = el.parent) {
    // The nearest preceding siblings, and the blocks inside them.
    let k = 0;
    for (let s = el.prev; s && k < MAIN_SIBLINGS; s = s.prev) {
      if (!(s instanceof Element) || CHROME_TAGS.has(s.name)) continue;
      const n = chars(ix, rangeOf(ix, s));
      if (!n) continue;
      if (n >= MAIN_SIBLING_CHARS) k++;
      take(s, level, false);
      for (const c of elementChildren(s)) take(c, level, true);
    }
  }
  return out;
}

const log = (x: number, scale: number) => Math.log1p(Math.max(0, x)) / scale;

/** Share of the page's text above a block for it to count as the top of the page. */
const TOP_SHARE = 0.05;

function hasLoginLink(ix: ThreadIndex, r: Range): boolean {
  for (let k = lowerBound(ix.anchors, r.start); k < ix.anchors.length && ix.anchors[k]! <= r.end; k++) {
    const a = ix.page.nodes[ix.anchors[k]!];
    if (a instanceof Element && LOGIN_HREF.test(a.attribs.href ?? '')) return true;
  }
  return false;
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Records sampled to learn the floors' body template (evenly spread over the list). */
const BODY_SAMPLE = 24;
/** An element inside a floor holding at least this share of the floor's text is a body element. */
const BODY_MIN_SHARE = 0.3;
/** A body template is one that this share of the sampled floors shows. */
const BODY_MIN_RECORDS = 0.5;

/** Tag and class words of an element: the template it is rendered with ('' without classes). */
function signature(e: Element): string {
  const c = e.attribs.class;
  if (!c) return '';
  // (The sorted class words once per class attribute: asked for every element of the sampled floors.)
  const w = sortedWords(c);
  return w ? `${e.name}.${w}` : '';
}

const sortedWords = cachedByString((c: string): string => [...wordsOfClass(c)].sort().join('.'));

/**
 * The templates of the floors' bodies: tag and class words of the elements inside a floor (below
 * its root) that hold a good part of its text, shown by most floors. On Q&A and comment pages the
 * question, the submission or the article body is rendered with the same template as the answers'
 * and comments' bodies (the site's rich-text block), while a board's notices and headers are not.
 */
export function bodyTemplates(ix: ThreadIndex, records: PostRecord[]): Set<string> {
  const counts = new Map<string, number>();
  const step = Math.max(1, records.length / BODY_SAMPLE);
  let n = 0;
  for (let x = 0; x < records.length; x += step) {
    const r = records[Math.floor(x)]!;
    const total = nonLinkChars(ix, r.range);
    if (!total) continue;
    n++;
    const seen = new Set<string>();
    for (let i = r.range.start; i <= r.range.end; i++) {
      const e = ix.page.nodes[i];
      if (!(e instanceof Element) || r.roots.includes(e)) continue;
      const sig = signature(e);
      if (!sig || seen.has(sig)) continue;
      if (nonLinkChars(ix, rangeOf(ix, e)) >= BODY_MIN_SHARE * total) seen.add(sig);
    }
    for (const sig of seen) counts.set(sig, (counts.get(sig) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, c]) => n >= 2 && c >= BODY_MIN_RECORDS * n).map(([sig]) => sig));
}

/** Share of a block's text inside elements rendered with one of the floors' body templates. */
function bodyShare(ix: ThreadIndex, r: Range, templates: ReadonlySet<string>): number {
  const total = nonLinkChars(ix, r);
  if (!total || !templates.size) return 0;
  let inside = 0;
  for (let i = r.start; i <= r.end; i++) {
    const e = ix.page.nodes[i];
    if (!(e instanceof Element) || !templates.has(signature(e))) continue;
    const er = rangeOf(ix, e);
    inside += nonLinkChars(ix, er);
    i = er.end;
  }
  return Math.min(1, inside / total);
}

/** The heading that shows the thread's title before the floors (title.ts), if any: its range. */
function titleHeading(ix: ThreadIndex, start: number): Range | undefined {
  const title = threadTitle(ix.page, start);
  if (!title) return undefined;
  let found: Range | undefined;
  for (let i = 0; i < start; i++) {
    const e = ix.page.nodes[i];
    if (!(e instanceof Element) || !/^h[1-3]$/.test(e.name)) continue;
    const r = rangeOf(ix, e);
    if (r.end < start && collapse(textOf(e)) === title) found = r;
    i = r.end;
  }
  return found;
}

export interface MainContext {
  /** The pager or the URL says this is a later page of the thread. */
  laterPage: boolean;
}

/** Features of "no main post" (index 0) and of each candidate (index i + 1). */
export function mainFeatures(ix: ThreadIndex, records: PostRecord[], cands: MainCandidate[], facts: PageFacts, ctx: MainContext): Features[] {
  const first = records[0]!;
  const start = first.range.start;
  const recChars = median(records.map((r) => nonLinkChars(ix, r.range)));
  const rootKeys = new Map<string, number>();
  for (const r of records) if (r.roots[0]) rootKeys.set(stepKey(r.roots[0]), (rootKeys.get(stepKey(r.roots[0])) ?? 0) + 1);
  let majorKey = '';
  let majorN = 0;
  for (const [k, n] of rootKeys) if (n > majorN) [majorKey, majorN] = [k, n];
  const firstRoot = first.roots[0];
  const recWords = new Set(firstRoot ? classWords(firstRoot) : []);
  const none: Features = new Map([['none', 1]]);
  if (ctx.laterPage) none.set('none:laterPage', 1);
  if (holdsThreadTitle(ix, first.range, true)) none.set('none:firstHoldsTitle', 1);
  if (firstRoot && majorN > 1 && stepKey(firstRoot) !== majorKey) none.set('none:firstDiffers', 1);
  if (records.length === 1) none.set('none:oneRecord', 1);
  if (cands.some((c) => c.rule)) none.set('none:ruleMain', 1);
  const templates = bodyTemplates(ix, records);
  // Between the thread's title and the floors: on a board the first floor follows the title (a
  // pager, buttons between); on Q&A and comment pages the question or submission sits there.
  const heading = titleHeading(ix, start);
  let gapPunct = 0;
  if (!heading) none.set('none:noTitle', 1);
  else {
    const between: Range = { start: heading.end + 1, end: start - 1 };
    const gapText = between.end >= between.start ? nonLinkChars(ix, between) : 0;
    gapPunct = between.end >= between.start ? punctMarks(ix, between) : 0;
    none.set('none:titleGap', Math.max(-3, Math.min(3, Math.log((gapText + 1) / (recChars + 1)))) / 3);
    none.set('none:titleGapPunct', log(gapPunct, 4));
    if (!gapPunct) none.set('none:titleGapSilent', 1);
  }
  const out: Features[] = [none];
  // A block between the title and the floors that talks and is rendered as the floors' bodies
  // (what "none" leaves out: a question, a submission).
  let bodyTalk = false;
  // The first floor's own date (a main post is not newer than the replies).
  const firstDate = (r: Range): number => {
    const k = lowerBound(facts.dateStarts, r.start);
    const a = facts.anchors[k];
    return a && a.index <= r.end && a.iso ? Date.parse(a.iso) : NaN;
  };
  const t0 = firstDate(first.range);
  // Nearness among the blocks that talk: the nearest such block before the floors is the likeliest.
  const talking = cands.map((c) => punctMarks(ix, c.record.range) > 0 && nonLinkChars(ix, c.record.range) >= MAIN_SIBLING_CHARS);
  const gaps = cands.map((c) => nonLinkChars(ix, { start: c.record.range.end + 1, end: start - 1 }));
  const order = cands.map((_, i) => i).filter((i) => talking[i]).sort((a, b) => gaps[a]! - gaps[b]!);
  for (const c of cands) {
    const f: Features = new Map();
    const put = (k: string, v = 1) => {
      if (v) f.set(k, v);
    };
    const r: Range = c.record.range;
    const e = c.record.roots[0];
    const text = nonLinkChars(ix, r);
    const all = chars(ix, r);
    put('cand');
    if (c.rule) put('rule');
    if (c.inner) put('inner');
    put(`level:${c.level < 0 ? 'rule' : Math.min(c.level, 5)}`);
    put('size:log', log(text, 8));
    put('size:vsRecords', Math.max(-3, Math.min(3, Math.log((text + 1) / (recChars + 1)))) / 3);
    put('linkShare', all ? 1 - text / all : 0);
    const p = punctMarks(ix, r);
    put('punct', p > 0 ? 1 : 0);
    put('punct:log', log(p, 4));
    const dates = datedCount(facts.dateStarts, r);
    put(dates === 0 ? 'dates:0' : dates === 1 ? 'dates:1' : dates <= 3 ? 'dates:2-3' : 'dates:4+');
    if (hasMemberLink(ix, r)) put('memberLink');
    if (showsAuthor(ix, c.record)) put('author');
    if (holdsThreadTitle(ix, r, true)) put('title');
    put('headingShare', text ? Math.min(1, headingChars(ix, r) / text) : 0);
    // Rendered as the floors' bodies are (the question above its answers, the submission above
    // its comments).
    // (A block rendered as a floor itself — a box of most liked replies — is not such a block.)
    const body = e && stepKey(e) === majorKey ? 0 : bodyShare(ix, r, templates);
    if (body > 0) {
      put('bodyLike');
      put('bodyShare', body);
    }
    const gap = gaps[out.length - 1]!;
    const rank = order.indexOf(out.length - 1);
    if (rank >= 0) put(rank === 0 ? 'talk:nearest' : rank === 1 ? 'talk:second' : 'talk:far');
    const t = firstDate(r);
    if (!Number.isNaN(t) && !Number.isNaN(t0)) put(t <= t0 ? 'date:older' : 'date:newer');
    put('gap:log', log(gap, 8));
    if (heading) put(r.start > heading.end ? 'afterTitle' : 'beforeTitle');
    // How much of what is said between the thread's title and the floors the block holds: the
    // question or the submission holds all of it; a notice or a sort bar there holds little.
    if (heading && r.start > heading.end && gapPunct > 0) put('gapFill', Math.min(1, p / gapPunct));
    // The nearest block that talks, rendered as the floors' bodies are.
    if (body > 0 && rank === 0) put('bodyLike:nearest');
    if (heading && r.start > heading.end && body > 0 && rank >= 0) bodyTalk = true;
    put('gap:share', gap / facts.chars);
    put('before:share', nonLinkChars(ix, { start: 0, end: Math.max(0, r.start - 1) }) / facts.chars);
    if (chrome(e ?? null)) put('chrome');
    // A site's header: at the very top, greeting the visitor with a login link (and a clock).
    if (hasLoginLink(ix, r)) put('login');
    if (nonLinkChars(ix, { start: 0, end: Math.max(0, r.start - 1) }) < TOP_SHARE * facts.chars) put('top');
    if (!hasMemberLink(ix, r) && !showsAuthor(ix, c.record)) put('nobody');
    // What the rules ask of a main post (records.ts mainPostBefore): a person's link or the
    // thread's title, POST_TEXT_REF characters besides headings, a sentence.
    if ((hasMemberLink(ix, r) || holdsThreadTitle(ix, r, true)) && text - headingChars(ix, r) >= POST_TEXT_REF && p > 0) put('eligible');
    // A submission's header: the thread's title with who posted it and when (a link story's
    // whole post, with no sentence of its own).
    if (dates > 0 && dates <= MAIN_MAX_DATES && (hasMemberLink(ix, r) || showsAuthor(ix, c.record)) && holdsThreadTitle(ix, r, true)) put(p > 0 ? 'byline' : 'byline:silent');
    if (e) {
      put(`tag:${['div', 'table', 'article', 'section', 'li', 'tr', 'td', 'p', 'h1', 'h2', 'h3', 'span', 'ul', 'dl', 'tbody'].includes(e.name) ? e.name : 'other'}`);
      if (firstRoot && e.name === firstRoot.name) put('sameTag');
      if (stepKey(e) === majorKey) put('sameKey');
      const words = classWords(e);
      if (words.length && recWords.size) put('wordsShared', words.filter((w) => recWords.has(w)).length / new Set([...words, ...recWords]).size);
      for (const w of words) put(`cls:${w}`);
      if (!words.length) put('cls:none');
    }
    out.push(f);
  }
  if (bodyTalk) none.set('none:bodyTalkAfterTitle', 1);
  return out;
}
