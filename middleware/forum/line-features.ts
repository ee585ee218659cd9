/**
 * Which lines of a floor are what the post says (issue 29): every readable line of the floor is a
 * candidate, the lines the rules read (the content element chosen by position votes, without
 * noise, buttons and counters: fields.ts `contentLines`) are marked, and the floor model's line
 * scorer keeps or drops each one over generic features — the line's length, punctuation and
 * links, whether it shows the floor's date or its author's name, whether the same line recurs
 * across the floors (template: a user panel's field, a board's button bar), where it sits against
 * the content element, its tag and the class *words* of the elements around it, whether it shares a
 * small bar with the floor's date (a header or footer: "IP属地:广东 · 2楼 · 2024-08-05"), is a
 * control's text (a button, a link that runs script or stays on the page: "回复(123)") or is led
 * by an icon ("⤢ 点击展开"). A user panel
 * line ("得分：35"), a button bar ("只看此用户 大字体"), the author's name or the date repeated in
 * the body are what the rules' content element holds on boards they were not fitted to.
 */
import { Element, Text, type AnyNode } from 'domhandler';
import type { DateAnchor } from './dates.js';
import { type PostRecord, type Range, type ThreadIndex, chars, rangeOf, segSpan, punctIn, segmentPunct } from './dom.js';
import { ACTION_TEXT, COUNTER_LINE, type AuthorPick, type FloorLine, PathSpace, inQuote, readable } from './fields.js';
import { classWords } from './set-features.js';
import { titleCore } from './title.js';
import type { Features } from './model.js';
import { solidLength } from '../../src/core/page-index.js';

export interface LineCandidate {
  line: FloorLine;
  /** The rules read it. */
  rule: boolean;
  f: Features;
}

/** Levels of ancestors (up to the floor's root) whose class words are features. */
const LINE_ANCESTORS = 4;
/** A line recurring (digits aside) in at least this share of the floors, and in three, is template. */
const TEMPLATE_SHARE = 0.3;
const TEMPLATE_FLOORS = 3;
/** "Label: value" lines of user panels. */
const LABEL_VALUE = /^[^:：\s]{1,12}\s?[:：]\s?\S/;
const TAGS = new Set(['p', 'div', 'td', 'span', 'a', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'blockquote', 'pre', 'font', 'dd', 'dt', 'b', 'strong', 'em', 'th', 'br', 'code']);

/** Levels above a line's element searched for a small block that also shows the floor's date. */
const DATE_NEAR_LEVELS = 3;
/** A block holding at most this share of the floor's text is a bar (a header, a footer), not the body. */
const DATE_BLOCK_SHARE = 0.5;
/** Links that run script or stay on the page (href missing, "#…", "javascript:"): controls. */
const CONTROL_HREF = /^(?:#|javascript:|$)/i;
/** Controls are short labels (and a long element is not walked for them). */
const CONTROL_MAX_CHARS = 40;

const log = (x: number, scale: number) => Math.log1p(Math.max(0, x)) / scale;

/** Levels (0: the line's own element) up to the smallest block around the line that shows the
 * floor's date and lies outside the floor's content elements (where the rules found none: holds
 * under DATE_BLOCK_SHARE of the floor's text) — a post's header or footer bar: "IP属地:广东 ·
 * 来自 Android · 2楼 · 2024-08-05 17:07", however short the post; -1 when none. */
function dateLevel(ix: ThreadIndex, el: Element, date: DateAnchor, floorChars: number, stop: ReadonlySet<AnyNode>, content: readonly Range[]): number {
  let e: AnyNode | null = el;
  for (let lvl = 0; lvl <= DATE_NEAR_LEVELS && e instanceof Element && !stop.has(e); lvl++, e = e.parent) {
    const r = rangeOf(ix, e);
    if (r.start > date.index || date.index > r.end) continue;
    const bar = content.length ? content.every((c) => c.end < r.start || c.start > r.end) : chars(ix, r) <= DATE_BLOCK_SHARE * floorChars;
    return bar ? lvl : -1;
  }
  return -1;
}

const isControl = (e: Element) => e.name === 'button' || (e.name === 'a' && CONTROL_HREF.test((e.attribs.href ?? '').trim()));

/** Non-space characters of segment k's text inside controls below its element. */
function controlChars(ix: ThreadIndex, k: number): number {
  const seg = ix.segments[k]!;
  const top = ix.page.indexOf(seg.element);
  const from = ix.segStart[k]!;
  const to = k + 1 < ix.segments.length ? ix.segStart[k + 1]! : ix.size;
  let n = 0;
  for (let i = from; i < to; i++) {
    if (!ix.textLen[i]) continue;
    for (let a = ix.parent[i]!; a > top; a = ix.parent[a]!) {
      const e = ix.page.nodes[a];
      if (e instanceof Element && isControl(e)) {
        n += ix.textLen[i]!;
        break;
      }
    }
  }
  return n;
}

/** Whether a line is a control's text: inside one, or mostly in the controls it holds
 * ("回复(123) 收起回复", "Show 12 more replies"). */
function inControl(ix: ThreadIndex, k: number, root: AnyNode | null): boolean {
  const seg = ix.segments[k]!;
  for (let e: AnyNode | null = seg.element; e instanceof Element && e !== root; e = e.parent) if (isControl(e)) return true;
  const len = solidLength(seg.text);
  return len > 0 && len <= CONTROL_MAX_CHARS && controlChars(ix, k) * 2 >= len;
}

/** Whether an element shows an icon before its text: an empty <i> or <svg> child (a glyph font's
 * or a drawn icon: "⤢ click to expand", "♥ 12", "💬 reply"). */
function hasIcon(el: Element): boolean {
  const said = (n: AnyNode) => n instanceof Text && n.data.trim() !== '';
  for (const c of el.children) {
    if (said(c)) return false;
    if (c instanceof Element && (c.name === 'svg' || (c.name === 'i' && !c.children.some(said)))) return true;
  }
  return false;
}

/** A line this long that the page's title holds is the title. */
const MIN_TITLE_LINE = 6;
const key = (t: string) => t.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/** The root a segment is read under: the rules' content element holding it, else the floor's root
 * holding it, else the segment's own element (a floor cut by position). */
function rootOf(ix: ThreadIndex, rec: PostRecord, content: Element[] | undefined, index: number): Element | undefined {
  for (const el of content ?? []) {
    const r = rangeOf(ix, el);
    if (r.start <= index && index <= r.end) return el;
  }
  for (const el of rec.roots) {
    const r = rangeOf(ix, el);
    if (r.start <= index && index <= r.end) return el;
  }
  return undefined;
}

export function lineCandidates(
  ix: ThreadIndex,
  records: PostRecord[],
  content: Array<Element[] | undefined>,
  ruleLines: FloorLine[][],
  dates: Array<DateAnchor | undefined>,
  authors: AuthorPick[],
): LineCandidate[][] {
  // Template lines: the same text in many floors — the very same (a button bar), or the same but
  // for its numbers (a user panel's "积分 1467"; also a numbered heading "楼-1", "楼-2").
  const floorsWith = new Map<string, number>();
  const exactWith = new Map<string, number>();
  // (A segment's key, once per segment.)
  const keys: Array<string | undefined> = [];
  const keyOf = (k: number): string => (keys[k] ??= key(ix.segments[k]!.text));
  const perRecord = records.map((rec) => {
    const [a, b] = segSpan(ix, rec.range);
    const ks: number[] = [];
    for (let k = a; k < b; k++) ks.push(k);
    for (const t of new Set(ks.map(keyOf))) floorsWith.set(t, (floorsWith.get(t) ?? 0) + 1);
    for (const t of new Set(ks.map((k) => ix.segments[k]!.text))) exactWith.set(t, (exactWith.get(t) ?? 0) + 1);
    return ks;
  });
  const templ = Math.max(TEMPLATE_FLOORS, TEMPLATE_SHARE * records.length);
  const space = new PathSpace();
  const pathFloors = new Map<string, Set<number>>();
  const paths = perRecord.map((ks, i) =>
    ks.map((k) => {
      const p = space.pathIn(records[i]!, ix.segments[k]!.element);
      if (p !== undefined) {
        let set = pathFloors.get(p);
        if (!set) pathFloors.set(p, (set = new Set()));
        set.add(i);
      }
      return p;
    }),
  );
  const pageTitle = ix.page.title.replace(/\s+/g, ' ').trim();
  const core = pageTitle ? titleCore(pageTitle) : undefined;
  return records.map((rec, i) => {
    const ks = perRecord[i]!;
    const ruleAt = new Map(ruleLines[i]!.map((l) => [l.k, l]));
    const els = content[i];
    const ranges = (els ?? []).map((e) => rangeOf(ix, e));
    const cStart = ranges.length ? Math.min(...ranges.map((r) => r.start)) : -1;
    const cEnd = ranges.length ? Math.max(...ranges.map((r) => r.end)) : -1;
    const date = dates[i];
    const author = authors[i]?.name;
    const out: LineCandidate[] = [];
    const n = ks.length;
    const stop = new Set<AnyNode>(rec.roots.map((r) => r.parent).filter((x): x is NonNullable<typeof x> => !!x));
    const floorChars = Math.max(1, chars(ix, rec.range));
    ks.forEach((k, j) => {
      const seg = ix.segments[k]!;
      const root = rootOf(ix, rec, els, seg.index) ?? seg.element;
      if (!readable(ix, k, root, rec)) return;
      const f: Features = new Map();
      const put = (name: string, v = 1) => {
        if (v) f.set(name, v);
      };
      // (The rules may read a part of the segment: an inline body.)
      const ruled = ruleAt.get(k);
      const text = ruled?.text ?? seg.text;
      const len = text.length;
      if (ruled) put('rule');
      const inContent = ranges.some((r) => r.start <= seg.index && seg.index <= r.end);
      put(inContent ? 'inContent' : cStart < 0 ? 'noContent' : seg.index < cStart ? 'beforeContent' : seg.index > cEnd ? 'afterContent' : 'besideContent');
      put('len:log', log(len, 6));
      if (len <= 4) put('len:tiny');
      const p = ruled?.text !== undefined ? punctIn(text) : segmentPunct(ix, k);
      if (p) put('punct');
      put('punct:log', log(p, 3));
      const link = len ? seg.linkChars / len : 0;
      if (link >= 0.99) put('link:all');
      else if (link > 0.5) put('link:most');
      else if (link > 0) put('link:some');
      if (date && text.includes(date.text)) {
        put('date');
        if (len - date.text.length <= 12) put('date:only');
      }
      if (author && text.includes(author)) {
        put('author');
        if (len - author.length <= 3) put('author:only');
        else if (text.startsWith(author)) put('author:starts');
      }
      const floors = floorsWith.get(ruled?.text !== undefined ? key(text) : keyOf(k)) ?? 0;
      const exact = exactWith.get(text) ?? 0;
      if (records.length >= TEMPLATE_FLOORS && exact >= templ) put('template');
      else if (records.length >= TEMPLATE_FLOORS && floors >= templ) put('template:numbers');
      if (exact > 1) put('repeats', exact / records.length);
      const path = paths[i]![j];
      if (path !== undefined) put('pathShare', (pathFloors.get(path)?.size ?? 0) / records.length);
      else put('noPath');
      if (LABEL_VALUE.test(text)) put('labelValue');
      // The thread's title repeated in the floor (a question's heading) is not what it says.
      const flat = text.replace(/\s+/g, ' ').trim();
      if (flat.length >= MIN_TITLE_LINE && (pageTitle.includes(flat) || (core !== undefined && core.length >= MIN_TITLE_LINE && flat.includes(core)))) put('titleLine');
      if (ix.noise[k] === 1) put('noise');
      if (ix.noise[k] === 2) put('guestPrompt');
      if (ACTION_TEXT.test(text)) put('action');
      if (COUNTER_LINE.test(text)) put('counter');
      if (inQuote(seg.element, root)) put('quote');
      if (date && !f.has('date')) {
        const lvl = dateLevel(ix, seg.element, date, floorChars, stop, ranges);
        if (lvl >= 0) put(lvl <= 1 ? 'dateNear' : 'dateNear:far');
      }
      if (inControl(ix, k, root)) put('control');
      if (hasIcon(seg.element)) put('icon');
      if (j === 0) put('first');
      if (j === n - 1) put('last');
      put('pos', n > 1 ? j / (n - 1) : 0);
      const tag = seg.element.name;
      put(`tag:${TAGS.has(tag) ? tag : 'other'}`);
      // Class words of the line's element and its ancestors up to the floor.
      let lvl = 0;
      for (let e: AnyNode | null = seg.element; e instanceof Element && !stop.has(e) && lvl < LINE_ANCESTORS; e = e.parent, lvl++) {
        for (const w of classWords(e)) put(`anc:${w}`);
        if (e.name === 'blockquote') put('anc:blockquote');
      }
      // Share of the floor's characters this line holds.
      put('share', Math.min(1, len / Math.max(1, chars(ix, rec.range))));
      out.push({ line: ruled ?? { k, root }, rule: !!ruled, f });
    });
    return out;
  });
}
