/**
 * Date anchors of a thread page (seed 003 §2.1): the main post and every reply carry a time, most
 * outer noise (navigation, sidebars, footer) does not. An anchor is a place in the DFS order that
 * shows a date: a text segment `findDates` recognises, a `<time>` element, or an element whose
 * `title`/`datetime` attribute holds a machine date while its text shows a display form.
 *
 * The core `findDates` covers the common forms. A few display forms typical of boards are added
 * here (a local helper, see the report: they would belong in `src/core/dates.ts`):
 *   - `16-Jun-20 16:12:14` (day-Mon-yy with dashes),
 *   - `11:43pm On Apr 23[, 2019]` (time before the date),
 *   - German elapsed-time labels `10 Monate 3 Wochen`, `1 Jahr 2 Tage her`.
 * The last two are "weak": accepted only in short segments, where they are a label and not prose.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { DateTime } from 'luxon';
import { Element, Text, type AnyNode } from 'domhandler';
import { findDates, normaliseDateValue, type DateOptions } from '../../src/core/dates.js';
import type { Page, Segment } from '../../src/core/page.js';
import { BLOCK_TAGS, SKIP_TAGS, collapse } from '../../src/core/page.js';
import { layoutOf, regionAt } from '../layout/index.js';

export interface DateAnchor {
  /** DFS index of the anchor (segment start or element). */
  index: number;
  /** The element that shows the date (segment block or `<time>`). */
  element: Element;
  /** As displayed. */
  text: string;
  /** ISO 8601 with offset, when the date could be resolved. */
  iso?: string;
  /** From a `<time>`/attribute: a deliberate date label, stronger than a date in prose. */
  marked: boolean;
  /** Found inside a long run of text (prose), not a label. */
  prose?: boolean;
  /** A relative form ("3 hours ago"). */
  relative?: boolean;
  /** The text just before the date (same segment), for label checks ("Joined: …"). */
  before?: string;
  /** Labelled as a member's join / last-visit / birthday date: never a post time. */
  joined?: boolean;
  /** Labelled as an edit time ("edited 3 hours ago", "最后编辑于"): the post's own time is
   * elsewhere; used only when a floor shows no other date. */
  edited?: boolean;
  /** Length of the text line (segment) that shows the date. */
  line?: number;
  /** Inside a quoted post (the quoted post's date, not this floor's). */
  quoted?: boolean;
}

/** A weak (label-like) date form is accepted only in segments up to this length: longer runs are
 * prose, where "3 Monate" is not a timestamp. 60 = a typical "Posted by X · 1 Jahr 2 Tage her" line. */
export const WEAK_DATE_MAX_SEGMENT = 60;
/** Segments longer than this are post text; a date found there is in prose (quoted dates, "I was
 * born on …"). They still count as anchors for region finding, but never as a post's own date. */
export const PROSE_SEGMENT_LENGTH = 200;

/** Footer clocks and session lines carry the current time, not a post time (seed 003 §2.1: drop
 * the footer "system time" first). Phrases from phpBB/vBulletin/Discuz!/XenForo templates. */
const SYSTEM_TIME = /(it is currently|current time|the time now is|all times are|last visit was|server time|system time|heure actuelle|aktuelle zeit|es ist jetzt|zeitzone|现在时间|当前时间|系统时间|服务器时间|上次访问|copyright|©|powered by)/i;

/** A date after one of these labels is an edit time, not the time the post was written. */
export const EDIT_LABEL = /(edited|last edited|modified|updated|bearbeitet|geändert|modifié|editado|modificato|编辑|編輯|修改|更新)\s*(by\s+\S+(\s+\S+)?\s*)?(on|at|am|le|于|於|:|：)?\s*$/i;

/** …or before one of these (Chinese boards put the verb last: "于 2018-10-4 19:28 编辑"). */
const EDIT_AFTER = /^\s*(编辑|編輯|修改|edited)/i;

/** A date after one of these labels is a member's join date, last visit or birthday, not a post
 * time. */
export const JOIN_LABEL = /(joined|registered|member since|registriert|mitglied seit|dabei seit|inscrit|inscription|membre depuis|registrado|miembro desde|iscritto|注册|註冊|加入|最后登录|上次登录|last (visit|seen|active)|zuletzt|birthday|geburtstag)[^\d]{0,20}$/i;

const MON_EN: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

interface ExtraMatch {
  text: string;
  index: number;
  iso?: string;
  weak: boolean;
  relative?: boolean;
}

const DAY_MON_YY = /(?<![\p{L}\d])(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*\.?,?\s+)?(\d{1,2})-(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*-(\d{2}|\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/giu;
const TIME_ON_DATE = /(?<![\d:])(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:,?\s+((?:19|20)\d{2}))?/giu;
/** A bare time after a posting label ("发布于 21:28", "编辑于 09:05", "posted at 9:05"): a post of
 * today, as boards write the day only for older posts. (Only in a short label: a time in a sentence
 * is not a post's.) */
const LABELLED_TIME = /(?:发布于|發佈於|发表于|發表於|编辑于|編輯於|回复于|回覆於|posted at|edited at|replied at)\s*(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])/giu;
const DE_ELAPSED = /(?<![\p{L}\d])(?:vor\s+)?(\d+)\s+(jahren?|jahre|monaten?|monate|wochen?|tagen?|tage|stunden?|minuten?)(?:\s+(\d+)\s+(jahren?|jahre|monaten?|monate|wochen?|tagen?|tage|stunden?|minuten?))?(?:\s+her)?(?![\p{L}])/giu;

function unitOf(u: string): string {
  const s = u.toLowerCase();
  if (s.startsWith('jahr')) return 'years';
  if (s.startsWith('monat')) return 'months';
  if (s.startsWith('woche')) return 'weeks';
  if (s.startsWith('tag')) return 'days';
  if (s.startsWith('stunde')) return 'hours';
  return 'minutes';
}

function extraDates(text: string, options: DateOptions): ExtraMatch[] {
  const out: ExtraMatch[] = [];
  // (Every form below has a number.)
  if (!/\d/.test(text)) return out;
  const zone = options.timezone ?? 'UTC';
  // The reference time only where a form needs it (most segments hold no date: building it for
  // each of them cost a third of the splitter's time on a long thread).
  let nowDt: DateTime | undefined;
  const nowOf = (): DateTime => (nowDt ??= DateTime.fromJSDate(options.now ?? new Date(), { zone }));
  let m: RegExpExecArray | null;
  DAY_MON_YY.lastIndex = 0;
  while ((m = DAY_MON_YY.exec(text))) {
    const y = Number(m[3]);
    const dt = DateTime.fromObject(
      { year: y < 100 ? 2000 + y : y, month: MON_EN[m[2]!.toLowerCase()]!, day: Number(m[1]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) },
      { zone },
    );
    if (dt.isValid) out.push({ text: m[0], index: m.index, iso: dt.toISO({ suppressMilliseconds: true }) ?? undefined, weak: false });
  }
  TIME_ON_DATE.lastIndex = 0;
  while ((m = TIME_ON_DATE.exec(text))) {
    let h = Number(m[1]);
    if (m[3]!.toLowerCase() === 'p' && h < 12) h += 12;
    if (m[3]!.toLowerCase() === 'a' && h === 12) h = 0;
    let dt = DateTime.fromObject({ year: m[6] ? Number(m[6]) : nowOf().year, month: MON_EN[m[4]!.toLowerCase().slice(0, 3)]!, day: Number(m[5]), hour: h, minute: Number(m[2]) }, { zone });
    if (!m[6] && dt > nowOf().plus({ days: 2 })) dt = dt.minus({ years: 1 });
    if (dt.isValid) out.push({ text: m[0], index: m.index, iso: dt.toISO({ suppressMilliseconds: true }) ?? undefined, weak: false });
  }
  if (text.length <= WEAK_DATE_MAX_SEGMENT) {
    LABELLED_TIME.lastIndex = 0;
    while ((m = LABELLED_TIME.exec(text))) {
      const h = Number(m[1]);
      const min = Number(m[2]);
      if (h > 23 || min > 59) continue;
      const dt = nowOf().set({ hour: h, minute: min, second: 0, millisecond: 0 });
      const at = m.index + m[0].length - m[1]!.length - m[2]!.length - 1;
      out.push({ text: `${m[1]}:${m[2]}`, index: at, iso: dt.toISO({ suppressMilliseconds: true }) ?? undefined, weak: false, relative: true });
    }
    DE_ELAPSED.lastIndex = 0;
    while ((m = DE_ELAPSED.exec(text))) {
      // "24 Jahren" alone is an age; an elapsed-time label has "vor"/"her" or two units.
      if (!/^vor\s|\sher$/i.test(m[0].trim()) && !m[3]) continue;
      const dur: Record<string, number> = { [unitOf(m[2]!)]: Number(m[1]) };
      if (m[3]) dur[unitOf(m[4]!)] = (dur[unitOf(m[4]!)] ?? 0) + Number(m[3]);
      const dt = nowOf().minus(dur);
      out.push({ text: m[0].trim(), index: m.index, iso: dt.toISO({ suppressMilliseconds: true }) ?? undefined, weak: true, relative: true });
    }
  }
  return out;
}

/** A match that starts or ends inside a word ("ayer" in "mayerei") is not a date. */
function insideWord(text: string, index: number, length: number): boolean {
  const L = /\p{L}/u;
  const before = text[index - 1];
  const after = text[index + length];
  return (!!before && L.test(before) && L.test(text[index]!)) || (!!after && L.test(after) && L.test(text[index + length - 1]!));
}

/** Dates in one text: the core's, plus the board forms above where the core found none overlapping. */
export function datesIn(text: string, options: DateOptions): ExtraMatch[] {
  const core: ExtraMatch[] = findDates(text, options)
    .filter((d) => !insideWord(text, d.index, d.text.length))
    // A bare word ("hier" is French for yesterday and German for here; "today") is a date only as
    // a short label, never in a sentence.
    .filter((d) => /\d/.test(d.text) || text.length <= WEAK_DATE_MAX_SEGMENT)
    .map((d) => ({ text: d.text, index: d.index, iso: d.iso, weak: false, relative: d.relative }));
  const extra = extraDates(text, options);
  if (!extra.length) return core;
  const all = [...core];
  for (const e of extra) {
    const end = e.index + e.text.length;
    const overlapping = all.filter((c) => !(end <= c.index || e.index >= c.index + c.text.length));
    // A longer board form replaces a shorter core match inside it ("Apr 23" inside "11:43pm On Apr 23").
    if (overlapping.every((c) => c.text.length < e.text.length)) {
      for (const c of overlapping) all.splice(all.indexOf(c), 1);
      all.push(e);
    }
  }
  return all.sort((a, b) => a.index - b.index);
}

/** A `title` that carries a full date ("05 Jun 2019 02:24" behind "10 Monate 3 Wochen her"). */
const DATE_IN_TITLE = /\d{4}.*\d{1,2}:\d{2}|\d{1,2}:\d{2}.*\d{4}|\d{4}-\d{2}-\d{2}/;

/** A title that is only an ISO 8601 date-time (what script-rendered "3 hours ago" labels carry). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const MACHINE_DATE_ATTRS = ['datetime', 'data-time', 'data-datetime', 'data-timestamp', 'title', 'data-date'];

/** Machine-readable date on an element (`<time datetime>`, `<abbr title>`, `data-time` epoch). */
export function machineDate(el: Element, options: DateOptions): string | undefined {
  for (const a of MACHINE_DATE_ATTRS) {
    const v = el.attribs[a];
    if (!v) continue;
    if (a === 'title' && !/\d{4}|\d{1,2}:\d{2}/.test(v)) continue;
    const d = normaliseDateValue(v, options);
    if (d) return d.iso;
  }
  return undefined;
}

function insideSystemTime(seg: Segment): boolean {
  return SYSTEM_TIME.test(seg.text) && seg.text.length < PROSE_SEGMENT_LENGTH;
}

/** Class/id of a page footer (not `post-footer`, `message-footer`: posts have footers too). */
const PAGE_FOOTER = /(^|\s)(page[-_]?|site[-_]?|global[-_]?|main[-_]?)?footer([-_]?(wrapper|container|inner))?(\s|$)|(^|\s)ft(\s|$)/i;
/** Containers of posts: a `<footer>` inside one belongs to a post. */
const POST_CONTAINERS = new Set(['article', 'li', 'td', 'section', 'blockquote']);

/** Whether an element sits in the page footer: its dates are clocks and copyright years. */
function inFooter(el: AnyNode): boolean {
  let footer = false;
  for (let n: AnyNode | null = el; n; n = n.parent) {
    if (!(n instanceof Element)) continue;
    if (POST_CONTAINERS.has(n.name)) return false;
    if (n.name === 'footer' || PAGE_FOOTER.test(`${n.attribs.id ?? ''} ${n.attribs.class ?? ''}`)) footer = true;
  }
  return footer;
}

/**
 * All date anchors of the page in DFS order. Segments with a system clock and footers are dropped
 * first (seed 003). `<time>` elements and elements with a machine date attribute are anchors even
 * when their text is relative or not recognised ("10 Monate 3 Wochen").
 */
export function findAnchors(page: Page, options: DateOptions): DateAnchor[] {
  const anchors: DateAnchor[] = [];
  // a rendered page (the layout stage): floors are in the centre column, not in a side column,
  // the page footer or a hidden element (a header row above the column may hold the first post)
  const layout = layoutOf(page);
  const aside = (i: number) => {
    const r = regionAt(layout, i);
    return r === 'left' || r === 'right' || r === 'footer' || r === 'hidden';
  };
  const marked = new Set<Element>();
  // 1. <time> and attribute-dated elements.
  for (const node of page.nodes) {
    if (!(node instanceof Element)) continue;
    const isTime = node.name === 'time';
    // (A link's or an image's title is its caption — a thread title with a year and a time in it —
    // unless the title is nothing but a machine timestamp: `<a class="timeago" title="2024-…Z">`.)
    const title = node.attribs.title;
    const titled = !!title && DATE_IN_TITLE.test(title) && ((node.name !== 'a' && node.name !== 'img') || ISO_TIMESTAMP.test(title.trim()));
    if (!isTime && !titled && !node.attribs['data-time'] && !node.attribs['data-datetime'] && !node.attribs['data-timestamp']) continue;
    const iso = machineDate(node, options);
    if (!iso && !isTime) continue;
    const text = collapse(shortText(node, WEAK_DATE_MAX_SEGMENT * 2));
    // An empty <time datetime> is filled in by script: still an anchor (the ISO time is known),
    // but it has no displayed text.
    if ((!text && !iso) || text.length > WEAK_DATE_MAX_SEGMENT) continue;
    if (inFooter(node) || hidden(page, node) || aside(page.indexOf(node))) continue;
    marked.add(node);
    const shown = datesIn(text, options)[0];
    anchors.push({ index: page.indexOf(node), element: node, text, iso: iso ?? shown?.iso, marked: true, relative: shown ? shown.relative : !/\d{4}/.test(text) });
  }
  const markedBlocks = new Set<AnyNode>();
  for (const el of marked) {
    const b = blockOf(el);
    if (b) markedBlocks.add(b);
  }
  // 2. Text segments.
  for (const seg of page.segments) {
    if (insideSystemTime(seg)) continue;
    const found = datesIn(seg.text, options);
    if (!found.length) continue;
    // A segment whose date is shown by a <time> element already has its anchor.
    if (markedBlocks.has(seg.element)) continue;
    if (inFooter(seg.element) || hidden(page, seg.element) || aside(seg.index)) continue;
    const d = found[0]!;
    anchors.push({
      index: seg.index,
      element: seg.element,
      text: d.text,
      iso: d.iso,
      marked: false,
      relative: d.relative,
      before: seg.text.slice(Math.max(0, d.index - 40), d.index),
      line: seg.text.length,
      // "本帖最后由 X 于 <date> 编辑": the edit label after the date.
      ...(EDIT_AFTER.test(seg.text.slice(d.index + d.text.length, d.index + d.text.length + 12)) ? { edited: true } : {}),
      ...(seg.text.length > PROSE_SEGMENT_LENGTH ? { prose: true } : {}),
    });
  }
  anchors.sort((a, b) => a.index - b.index);
  // Join dates of user panels ("Registriert seit: 2. Juli 2007"): the label is in the same line
  // or in the line before (dt/dd pairs).
  const segIdx = page.segments.map((x) => x.index);
  for (const a of anchors) {
    let before = a.before ?? '';
    if (!before.trim()) {
      let lo = 0;
      let hi = segIdx.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (segIdx[mid]! < a.index) lo = mid + 1;
        else hi = mid;
      }
      // The segment that starts at the anchor is the date itself; the one before holds the label.
      const k = (segIdx[lo] === a.index || a.marked ? lo : lo + 1) - 1;
      if (k >= 0) before = page.segments[k]!.text.slice(-40);
    }
    if (JOIN_LABEL.test(before)) a.joined = true;
    // The label right before the date, in its own line ("edited <time>") or the one before.
    const at = before.lastIndexOf(a.text);
    if (EDIT_LABEL.test(at > 0 ? before.slice(0, at) : before)) a.edited = true;
    if (inQuote(a.element)) a.quoted = true;
  }
  return anchors;
}

/** Inline styles that hide an element (attachment tooltips and menus shown on hover): their
 * dates are shown to nobody reading the thread. The property opens a declaration: a style written
 * in quotes of its own (`style=&#39;display:none&#39;`, the value `'display:none'`) is not valid
 * CSS, and browsers show the element. */
const HIDDEN_STYLE = /(?:^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** Whether an element or an ancestor is hidden by an inline style (memoised per element in the
 * page's memo: one walk up per distinct block). */
export function hidden(page: Page, el: AnyNode): boolean {
  const memo = page.memo('forum:hidden', () => new Map<AnyNode, boolean>());
  const chain: AnyNode[] = [];
  let v = false;
  for (let n: AnyNode | null = el; n; n = n.parent) {
    const known = memo.get(n);
    if (known !== undefined) {
      v = known;
      break;
    }
    chain.push(n);
    if (n instanceof Element && n.attribs.style && HIDDEN_STYLE.test(n.attribs.style)) {
      v = true;
      break;
    }
  }
  for (const c of chain) memo.set(c, v);
  return v;
}

/** Quote containers of board templates (`<blockquote>`, `div.quote`, `bbcode_quote` …). */
const QUOTE_CONTAINER = /(^|[\s_-])(quote|bbcode_?quote|bbcodequote|quotecontainer|citation|zitat)([\s_-]|$)/i;

function inQuote(el: AnyNode): boolean {
  for (let n: AnyNode | null = el; n; n = n.parent) {
    if (!(n instanceof Element)) continue;
    if (n.name === 'blockquote' || QUOTE_CONTAINER.test(`${n.attribs.class ?? ''} ${n.attribs.id ?? ''}`)) return true;
  }
  return false;
}

/** Text of a subtree, but stop once it exceeds `max` characters (a `title`-dated wrapper around a
 * whole post must not cost its size for every such element). Iterative. */
function shortText(root: Element, max: number): string {
  let out = '';
  const stack: AnyNode[] = [root];
  while (stack.length && out.length <= max) {
    const n = stack.pop()!;
    if (n instanceof Text) out += n.data;
    else if (n instanceof Element) {
      if (n !== root && SKIP_TAGS.has(n.name)) continue;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out;
}

/** The block element that holds an inline node (where its text lands as a segment). */
function blockOf(el: AnyNode): AnyNode | null {
  for (let n: AnyNode | null = el; n; n = n.parent) {
    if (n instanceof Element && BLOCK_TAGS.has(n.name)) return n;
  }
  return null;
}
