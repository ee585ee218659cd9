/**
 * Publish time (sources §5 "Publish time"): meta fields, JSON-LD, `<time>`/itemprop elements,
 * then dates in the text (Chinese, numeric, month names, relative forms resolved against the fetch
 * time). Text dates near the headline and with a publishing cue win over the first date on the
 * page; modification dates are skipped. Impossible dates are rejected by the date finder.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import { DateTime, FixedOffsetZone } from 'luxon';
import { langTag, type Page, type Segment } from '../../src/core/page.js';
import { dayFirstForLang, findDates, normaliseDateValue, numericDayFirst, type DateMatch, type DateOptions } from '../../src/core/dates.js';
import { jsonLdArticles } from './title.js';

/** Meta keys of the publish time, most specific first (GNE's and trafilatura's lists, lower-case). */
const META_KEYS = [
  'article:published_time', 'og:article:published_time', 'article:published', 'og:published_time', 'published_time',
  'datepublished', 'article.published', 'publishdate', 'publish_date', 'publish-date', 'publishdatetime', 'publication_date',
  'pubdate', 'pubtime', 'ptime', 'sailthru.date', 'parsely-pub-date', 'dc.date.issued', 'dc.date', 'dcterms.created', 'dcterms.date',
  'dc.date.created', 'og:release_date', 'release_date', 'date', 'originalpublicationdate', 'article_date_original', 'cxenseparse:recs:publishtime',
  'bytedance:published_time', 'weibo:article:create_at', 'og:time', 'firstpublishedtime', 'displaydate', 'created', 'article:created',
  'dateCreated'.toLowerCase(), 'citation_publication_date', 'citation_date', 'prism.publicationdate', 'nv:date',
];
/** Meta keys of the last modification: a publish time only as the last resort (sites that expose
 * one machine date often name it "updated" — and a page edited later still dates close to its
 * publication, which beats no date; htmldate's default also takes the latest date). */
const MODIFIED_KEYS = ['article:modified_time', 'og:updated_time', 'datemodified', 'dateupdate', 'dateupdated', 'dc.date.modified', 'dcterms.modified', 'last-modified', 'lastmod'];
/** Publish-time fields in inline script data (`window.DATA = {"pubtime": "2019-09-07 19:02:26"}`,
 * `var publish_time = "…"`): the page state that script-rendered news pages display from. Key
 * names follow the meta keys above; the value is an ISO-like date or a Unix epoch (s or ms). */
const SCRIPT_DATE_KEYS = [
  'pub_?time', 'pub_?date', 'publish_?time', 'publish_?date', 'published_?time', 'published_?at', 'publishdatetime',
  'date_?published', 'release_?time', 'release_?date', 'first_?publish(?:ed)?_?(?:time|date)',
];
/** The value: an ISO-like date and time with an optional offset, or a Unix epoch in s or ms. */
const SCRIPT_DATE_VALUE = String.raw`(\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{10}(?:\d{3})?)`;
const SCRIPT_DATE = new RegExp(String.raw`["']?\b(?:${SCRIPT_DATE_KEYS.join('|')})["']?\s*[:=]\s*["']?` + SCRIPT_DATE_VALUE + String.raw`\b`, 'i');
/** Inline scripts longer than this are libraries, not page state (page state of a news page is a few KB). */
const MAX_SCRIPT_STATE = 200_000;
/** Text cues before a publish time (zh, en, de, fr, es). */
const PUBLISH_CUE = /(?:发布|发表|发稿|刊发|出版|更新)?(?:时间|日期|于)\s*[:：]?\s*$|(?:published|posted|posted on|published on|updated|date|on|am|le|el|veröffentlicht|publié|publicado)\s*[:：]?\s*$/i;
/** Cues that the date is not the publish time (modification, comment, copyright, events). */
const OTHER_CUE = /(?:modified|last updated|edited|修改|更新于|copyright|©|评论|回复|reply)\s*[:：]?\s*$/i;
/** A text date more than this many DFS nodes from the headline is unlikely to be its byline date. */
const NEAR_HEADLINE_NODES = 400;
/** Relative words ("today", 昨天, hier) are dates only in a short dateline, not in prose. */
const RELATIVE_LINE_MAX = 40;
/** Text-date score from which a displayed date with a time beats the machine value: the date sits
 * right after the headline or after a publishing cue (sites often put a stale or rounded value in
 * meta, while the page shows the publishing minute). */
const STRONG_TEXT_SCORE = 1.5;

/** Between the two ends of a range ("2003年11月1日至2003年11月30日", "1月17日至今", "12/01/2004 - 01/01/2005"):
 * a period (registration, broadcast, archive month) and not the time a page was published. */
const RANGE_AFTER = /^\s*(?:(?:至|到)\s*(?:今|\d)|(?:~|～|–|—|－|-|to|until|till|bis|au|al)\s*\d{1,4}\s*[-/.年月日])/i;
const RANGE_GAP = /^\s*(?:至|到|~|～|–|—|－|-|to|until|till|bis|au|al)\s*$/i;
/** A line that links the previous or next article ("此分類上一篇：… 2011/12/18", "Next post: …"):
 * its date is the other article's. */
const NEIGHBOUR_LINK = /^[\s\p{P}\p{S}]*(?:\S{0,4}(?:上一篇|下一篇|上一页|下一页|上篇|下篇|上一条|下一条|前一篇|后一篇|後一篇)|(?:previous|next|older|newer)\s+(?:post|article|story|entry)\b)/iu;
/** Class/id of a comment or reply container: its dates are the comments' own. */
const COMMENT_BOX = /(?:^|[^a-z])(?:comment|repl(?:y|ies)|respon(?:d|ses?)(?![a-z]))|评论|留言/i;
/** Ancestors searched for a comment container. */
const COMMENT_BOX_DEPTH = 8;
/** A body paragraph that is this much date (by characters, spaces aside) is a dateline the body took in. */
const DATE_ONLY_SHARE = 0.6;

/** Cheap pre-test before the date patterns (no Unicode flag, so fast): digits around a date
 * separator, a month stem, or a relative word. A superset of what the date finder reads. */
const DATE_HINT_WORDS = [
  // digits around a date separator
  String.raw`\d\s*[-/.年月:：]\s*\d`, String.raw`\d\s*日`,
  // month stems: en, de, fr, es, it, nl, ru
  'jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec', 'mär', 'mai', 'okt', 'dez',
  'févr', 'avr', 'juil', 'août', 'déc', 'ene', 'abr', 'ago', 'dic', 'gen', 'mag', 'giu', 'lug', 'ott', 'set', 'mei', 'maa',
  'янв', 'фев', 'мар', 'апр', 'мая', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек',
  // relative words
  '前', '昨天', '今天', '刚刚', '剛剛', 'today', 'yesterday', 'hier', 'heute', 'gestern', 'ayer', 'hoy', 'just now', String.raw`vor \d`,
  'il y a', 'hace', 'há',
];
const DATE_HINT = new RegExp(DATE_HINT_WORDS.join('|'), 'i');

export interface PublishedResult {
  iso: string;
  /** As displayed on the page (text dates), else the machine value. */
  text?: string;
  source: 'meta' | 'json-ld' | 'time' | 'text';
  precision: DateMatch['precision'];
}

/** The first of `keys` in the page's meta that holds a valid date. */
function fromMeta(page: Page, o: DateOptions, keys: readonly string[] = META_KEYS): DateMatch | undefined {
  for (const k of keys) {
    const v = page.meta.get(k);
    const d = v ? normaliseDateValue(v, o) : undefined;
    if (d) return d;
  }
  return undefined;
}

function fromJsonLd(page: Page, o: DateOptions): DateMatch | undefined {
  for (const obj of jsonLdArticles(page)) {
    for (const k of ['datePublished', 'dateCreated', 'uploadDate']) {
      const v = obj[k];
      const d = typeof v === 'string' || typeof v === 'number' ? normaliseDateValue(v, o) : undefined;
      if (d) return d;
    }
  }
  return undefined;
}

/** The first publish-time field of inline script data (see SCRIPT_DATE). */
function fromScripts(page: Page, o: DateOptions): DateMatch | undefined {
  for (const n of page.nodes) {
    if (!(n instanceof Element) || n.name !== 'script' || n.attribs.src !== undefined) continue;
    if ((n.attribs.type ?? '').toLowerCase().includes('ld+json')) continue;
    const raw = n.children.map((c) => ('data' in c ? (c as { data: string }).data : '')).join('');
    if (!raw || raw.length > MAX_SCRIPT_STATE) continue;
    const m = SCRIPT_DATE.exec(raw);
    const d = m ? normaliseDateValue(m[1]!.replace(/^(\d{4})-(\d)(?=-)/, '$1-0$2').replace(/^(\d{4}-\d{2})-(\d)(?!\d)/, '$1-0$2'), o) : undefined;
    if (d) return d;
  }
  return undefined;
}

/** `<time datetime>` / `[itemprop=datePublished]` / `[pubdate]` elements, closest to the headline first. */
function fromElements(page: Page, o: DateOptions, anchor: number): { d: DateMatch; shown: string } | undefined {
  // collect first, parse in order of preference (parsing costs ~30 µs; teaser lists hold dozens)
  const cands: { el: Element; value: string; rank: number }[] = [];
  for (let i = 0; i < page.nodes.length; i++) {
    const el = page.nodes[i]!;
    if (!(el instanceof Element)) continue;
    const a = el.attribs;
    if (el.name !== 'time' && a.itemprop === undefined && a.pubdate === undefined && a.property === undefined) continue;
    const itemprop = (a.itemprop ?? '').toLowerCase();
    const isPub = itemprop === 'datepublished' || a.pubdate !== undefined || a.property === 'article:published_time';
    if (el.name !== 'time' && !isPub) continue;
    if (itemprop === 'datemodified') continue;
    const value = a.datetime ?? a.content ?? a['data-datetime'];
    if (value) cands.push({ el, value, rank: Math.abs(i - anchor) - (isPub ? 1e6 : 0) });
  }
  cands.sort((x, y) => x.rank - y.rank);
  for (const c of cands) {
    const d = normaliseDateValue(c.value, o);
    if (d) return { d, shown: textOfShallow(c.el) };
  }
  return undefined;
}

function textOfShallow(el: Element): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [el];
  while (stack.length && parts.length < 50) {
    const n = stack.pop()!;
    if ('data' in n && n.type === 'text') parts.push((n as { data: string }).data);
    else if (n instanceof Element) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Dates in the page text: scored by nearness to the headline/body start, cue words and precision. */
/** Where the body is: dates between the headline and the body's first paragraph are datelines,
 * dates inside the body are events, dates after it belong to related links and comments. */
interface Frame {
  anchor: number;
  bodyStart: number;
  bodyEnd: number;
  /** The headline element, when the body took it in (a forum archive whose body starts at the breadcrumb). */
  headline?: number;
}

/** A date within this many DFS nodes of a headline that sits inside the body is its dateline (the
 * post header just above or below the title), not an event in the text. */
const HEADLINE_DATELINE_NODES = 12;

/** A dateline is short or mostly date ("2019-09-07 13:43 来源：新华社"); prose is long. */
const DATELINE_MAX = 80;
const PROSE_MIN = 120;

function fromText(page: Page, o: DateOptions, f: Frame): { d: DateMatch; score: number } | undefined {
  let best: { d: DateMatch; score: number } | undefined;
  const segs = page.segments;
  const { anchor, bodyStart, bodyEnd } = f;
  const datesOf = cachedDates(o);
  // near the headline first (the score caps distance there); the whole page only when that fails
  for (const near of [true, false]) {
    if (best) break;
    for (let si = 0; si < segs.length; si++) {
      const s = segs[si]!;
      if (near !== Math.abs(s.index - anchor) <= NEAR_HEADLINE_NODES * 4) continue;
      if (s.text.length > 400) continue; // dates of articles sit in short meta lines
      if (!DATE_HINT.test(s.text)) continue;
      const ds = datesOf(s);
      if (!ds.length) continue;
      const dateline = s.index >= anchor && s.index < bodyStart;
      // a list of links to other pages, each with its date ("少年时代(1)(2004/10/10 17:06)"):
      // the dates are the linked pages' own
      if (!dateline && isTeaser(s, ds) && ((si > 0 && isTeaser(segs[si - 1]!, datesOf(segs[si - 1]!))) || (si + 1 < segs.length && isTeaser(segs[si + 1]!, datesOf(segs[si + 1]!))))) continue;
      if (NEIGHBOUR_LINK.test(s.text)) continue;
      // the dates of comments below the body
      if (s.index > bodyEnd && inCommentBox(s.element)) continue;
      const ranged = rangeEnds(s.text, ds);
      for (let di = 0; di < ds.length; di++) {
        const d = ds[di]!;
        if (ranged.has(di)) continue;
        const before = s.text.slice(Math.max(0, d.index - 16), d.index);
        if (OTHER_CUE.test(before)) continue;
        if (d.relative && s.text.length > RELATIVE_LINE_MAX) continue;
        const cue = PUBLISH_CUE.test(before) || (si > 0 && PUBLISH_CUE.test(segs[si - 1]!.text.slice(-12)));
        // "today" in a menu or a weather box is not the article's date: relative words count only
        // in the dateline between headline and body, or after a publishing cue
        if (d.relative && !cue && !dateline) continue;
        // …and only as a dateline of their own ("昨天 20:48", "Posted 3 hours ago"), never as a word
        // in a sentence ("Today I fixed it.", a short first paragraph) nor inside the body (issue 12)
        if (d.relative && (inSentence(s.text, d) || (s.index >= bodyStart && s.index <= bodyEnd && s.index !== bodyStart))) continue;
        let score: number;
        if (dateline) score = 1.5; // between headline and body
        else if (f.headline !== undefined && f.headline >= bodyStart && Math.abs(s.index - f.headline) <= HEADLINE_DATELINE_NODES) score = 1.5;
        else if (s.index === bodyStart && dateShare(s.text, d) >= DATE_ONLY_SHARE) score = 1.5; // a dateline the body begins with
        else if (s.index >= bodyStart && s.index <= bodyEnd) score = -0.5; // an event in the text
        else if (s.index > bodyEnd) score = -1 - Math.min(s.index - bodyEnd, NEAR_HEADLINE_NODES * 4) / NEAR_HEADLINE_NODES;
        else score = -Math.min(anchor - s.index, NEAR_HEADLINE_NODES * 4) / NEAR_HEADLINE_NODES;
        if (s.text.length <= DATELINE_MAX) score += 0.5;
        else if (s.text.length >= PROSE_MIN) score -= 0.5;
        if (cue) score += 1;
        if (d.precision !== 'day') score += 0.5;
        if (d.yearInferred) score -= 1.5;
        if (s.linkChars > s.text.length / 2) score -= 1;
        if (!best || score > best.score) best = { d, score };
      }
    }
  }
  return best;
}

/** findDates per segment, computed once (the teaser test looks at neighbours). */
function cachedDates(o: DateOptions): (s: Segment) => DateMatch[] {
  const cache = new Map<Segment, DateMatch[]>();
  return (s) => {
    let ds = cache.get(s);
    if (!ds) {
      ds = s.text.length <= 400 && DATE_HINT.test(s.text) ? findDates(s.text, o) : [];
      cache.set(s, ds);
    }
    return ds;
  };
}

/** A link and its date, nothing else ("· Title of another page (2004-12-30 07:31)"): every letter
 * outside the dates sits in the link. */
function isTeaser(s: Segment, ds: DateMatch[]): boolean {
  if (!ds.length || s.linkChars < 2) return false;
  let rest = s.text;
  for (let i = ds.length - 1; i >= 0; i--) rest = rest.slice(0, ds[i]!.index) + rest.slice(ds[i]!.index + ds[i]!.text.length);
  return rest.replace(/[\s\p{P}\p{S}]/gu, '').length <= s.linkChars;
}

function inCommentBox(el: Element): boolean {
  let n: Element | null = el;
  // the page wrapper's classes describe the page ("single comments-open"), not this block
  for (let k = 0; n && k < COMMENT_BOX_DEPTH && n.name !== 'body' && n.name !== 'html'; k++) {
    if (COMMENT_BOX.test(n.attribs.class ?? '') || COMMENT_BOX.test(n.attribs.id ?? '')) return true;
    n = n.parent instanceof Element ? n.parent : null;
  }
  return false;
}

/** Indexes (into `ds`) of dates that open or close a range. */
function rangeEnds(text: string, ds: DateMatch[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < ds.length; i++) {
    const end = ds[i]!.index + ds[i]!.text.length;
    const next = ds[i + 1];
    if (next && RANGE_GAP.test(text.slice(end, next.index))) {
      out.add(i);
      out.add(i + 1);
    } else if (RANGE_AFTER.test(text.slice(end, end + 12))) out.add(i);
  }
  return out;
}

/** Latin words in a row (no label mark between them) from which the rest of a line is a sentence. */
const SENTENCE_WORDS = 4;

/**
 * Whether a date is a word in a sentence rather than a dateline: the rest of the line (without the
 * date) ends like a sentence ("Today I fixed it.") or runs SENTENCE_WORDS words without a label mark
 * between them; a dateline's rest is labels ("3小时前 来源：本地新闻", "Posted yesterday · 4 min read").
 */
function inSentence(text: string, d: DateMatch): boolean {
  if (dateShare(text, d) >= DATE_ONLY_SHARE) return false;
  const rest = (text.slice(0, d.index) + ' ' + text.slice(d.index + d.text.length)).trim();
  if (/[.!?。！？]["'”’)]?$/.test(rest)) return true;
  return rest.split(/[·|•:：/\-–—]/).some((part) => (part.match(/\p{Script=Latin}+/gu) ?? []).length >= SENTENCE_WORDS);
}

/** Share of the text (spaces aside) that the date covers. */
function dateShare(text: string, d: DateMatch): number {
  const all = text.replace(/\s+/g, '').length;
  return all ? d.text.replace(/\s+/g, '').length / all : 0;
}

export interface PublishedOptions {
  timezone?: string;
  /** DFS index of the headline (or the body start): dates near it are preferred. */
  anchor?: number;
  /** DFS index of the body's first paragraph (default: the anchor). */
  bodyStart?: number;
  /** DFS index of the body's last paragraph (default: the end of the page). */
  bodyEnd?: number;
  /** DFS index of the headline element, also when it lies inside the body. */
  headline?: number;
}

export function extractPublished(page: Page, options: PublishedOptions = {}): PublishedResult | undefined {
  // numeric dates are read in the order the page's unambiguous ones show (13/02/2022 → day first)
  // (else the language's convention: 06/02/2022 on a French page is 6 February)
  const pageOrder = numericDayFirst(shortTexts(page));
  const dayFirst = pageOrder ?? dayFirstForLang(langTag(page));
  // dates shown without an offset (a day alone: "March 3, 2024") are in the site's zone: the
  // spider's or the language's, else the offset the page's own machine dates carry (issue 12: a day
  // stamped at UTC midnight is the previous day west of Greenwich)
  const timezone = options.timezone ?? pageOffsetZone(page);
  const o: DateOptions = { now: page.fetchedAt, timezone, ...(dayFirst !== undefined ? { dayFirst } : {}) };
  const anchor = options.anchor ?? 0;
  const found = fromText(page, o, { anchor, bodyStart: options.bodyStart ?? anchor, bodyEnd: options.bodyEnd ?? Number.MAX_SAFE_INTEGER, headline: options.headline });
  let text = found?.d;
  const machine = fromJsonLd(page, o) ?? fromMeta(page, o) ?? fromScripts(page, o);
  // 06/02/2022 on a page without an unambiguous numeric date: the reading the machine value
  // confirms (it outweighs the language's convention)
  if (text?.orderAmbiguous && machine && pageOrder === undefined && !sameDay(text, machine)) {
    const other = findDates(text.text, { ...o, dayFirst: !(o.dayFirst ?? false) })[0];
    if (other && sameDay(other, machine)) text = other;
  }
  const strong = text && found!.score >= STRONG_TEXT_SCORE && text.precision !== 'day' && !text.relative;
  // the displayed time is the page's local time of the machine instant (a UTC meta value on a page
  // that shows 13:48 Paris time): keep the displayed time with the offset the two imply
  const local = strong && machine ? localOffsetIso(text!, machine) : undefined;
  if (local) return { iso: local, text: text!.text, source: 'text', precision: text!.precision };
  // a displayed time with its zone ("10:31 pm CST") is explicit: it beats a machine value up to a
  // day away (sites often label a local wall time with a wrong offset in meta or JSON-LD)
  if (text && strong && (!machine || sameDay(text, machine) || (text.hasOffset && Math.abs(Date.parse(text.iso) - Date.parse(machine.iso)) < DAY_MS))) {
    return { iso: text.iso, text: text.text, source: 'text', precision: text.precision };
  }
  const el = fromElements(page, o, anchor);
  const m = machine ?? el?.d;
  if (m) {
    // the displayed form of the same day, when the page shows it
    const shown = text && sameDay(text, m) ? text : undefined;
    // a machine value with only a day gains the displayed time
    if (shown && m.precision === 'day' && shown.precision !== 'day') return { iso: shown.iso, text: shown.text, source: 'text', precision: shown.precision };
    return { iso: m.iso, text: shown?.text ?? (el && el.d === m ? el.shown || undefined : undefined), source: machine ? 'meta' : 'time', precision: m.precision };
  }
  // a displayed date without a year (09-30, 9月30日), or none at all: the modification time the
  // page declares, when it falls on the displayed month and day (or nothing is displayed)
  const modified = (!text || text.yearInferred) ? fromMeta(page, o, MODIFIED_KEYS) : undefined;
  if (modified && (!text || (modified.month === text.month && modified.day === text.day))) {
    return { iso: modified.iso, text: text?.text, source: 'meta', precision: modified.precision };
  }
  if (text) return { iso: text.iso, text: text.text, source: 'text', precision: text.precision };
  return undefined;
}

/** An ISO date-time with a non-zero offset (`…T18:20:00-05:00`): evidence of the site's zone. A
 * `Z` or `+00:00` value is as often an instant written in UTC as a zone, so it says nothing. */
const OFFSET_VALUE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([+-])(\d{2}):?(\d{2})$/;

/** The fixed zone (`UTC-5`) of the first machine date on the page with a non-zero offset: meta
 * publish/modify keys, JSON-LD dates, `<time datetime>`. Undefined when the page carries none. */
function pageOffsetZone(page: Page): string | undefined {
  const values: string[] = [];
  for (const k of [...META_KEYS, ...MODIFIED_KEYS]) {
    const v = page.meta.get(k);
    if (v) values.push(v);
  }
  for (const obj of jsonLdArticles(page)) for (const k of ['datePublished', 'dateModified', 'dateCreated']) if (typeof obj[k] === 'string') values.push(obj[k] as string);
  for (const n of page.nodes) if (n instanceof Element && n.name === 'time' && n.attribs.datetime) values.push(n.attribs.datetime);
  for (const v of values) {
    const m = OFFSET_VALUE.exec(v.trim());
    if (!m || (m[2] === '00' && m[3] === '00')) continue;
    const h = Number(m[2]);
    const mi = Number(m[3]);
    if (h > 14) continue;
    return `UTC${m[1]}${h}${mi ? `:${m[3]}` : ''}`;
  }
  return undefined;
}

/** Short texts of the page that hold a numeric d/m/y or m/d/y form (for the page's numeric order). */
const NUMERIC_DMY = /\d[/-]\d{1,2}[/-]\d/;
function* shortTexts(page: Page): Iterable<string> {
  for (const s of page.segments) if (s.text.length <= 400 && NUMERIC_DMY.test(s.text)) yield s.text;
}

function offsetMinutes(iso: string): number {
  const m = iso.match(/(Z|([+-])(\d{2}):?(\d{2}))$/);
  if (!m || m[1] === 'Z') return 0;
  return (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
}

/** Offsets people live in: −11:00 … +14:00, in quarter hours. */
const MIN_OFFSET = -11 * 60; // −12:00 is only kept by uninhabited islands
const DAY_MS = 24 * 3600 * 1000;
const MAX_OFFSET = 14 * 60;

/**
 * The displayed wall time (no offset shown) with the offset that makes it the machine instant, when
 * it is not the assumed zone's and the two agree to the minute modulo a real offset (13:48 shown,
 * 12:48:06Z in meta → 13:48+01:00). Undefined when the assumed zone already agrees, when the
 * difference is no offset, and for a zero difference (a local time mislabelled as UTC in meta is a
 * common site bug, so the page's zone stays).
 */
function localOffsetIso(text: DateMatch, machine: DateMatch): string | undefined {
  if (text.hasOffset || !machine.hasOffset || machine.precision === 'day' || text.hour === undefined || text.minute === undefined) return undefined;
  // T00:00:00 is a day dressed as a time, not an instant to align with
  if (!machine.hour && !machine.minute && !machine.second) return undefined;
  const instant = Math.floor(Date.parse(machine.iso) / 60000) * 60000;
  if (Math.floor(Date.parse(text.iso) / 60000) * 60000 === instant) return undefined;
  const wall = Date.UTC(text.year, text.month - 1, text.day, text.hour, text.minute);
  const off = (wall - instant) / 60000;
  if (off === 0 || off % 15 !== 0 || off < MIN_OFFSET || off > MAX_OFFSET) return undefined;
  // the machine value is already in that offset: it keeps its seconds
  if (offsetMinutes(machine.iso) === off) return machine.iso;
  const dt = DateTime.fromObject(
    { year: text.year, month: text.month, day: text.day, hour: text.hour, minute: text.minute, second: text.second ?? 0 },
    { zone: FixedOffsetZone.instance(off) },
  );
  return dt.isValid ? dt.toISO({ suppressMilliseconds: true })! : undefined;
}

function sameDay(a: DateMatch, b: DateMatch): boolean {
  // compare in a's offset: the displayed date is in the page's zone
  const off = a.iso.match(/(Z|[+-]\d{2}:\d{2})$/)?.[1] ?? 'Z';
  const t = new Date(b.iso).getTime();
  const offMin = off === 'Z' ? 0 : (off[0] === '-' ? -1 : 1) * (Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6)));
  const local = new Date(t + offMin * 60000);
  return local.getUTCFullYear() === a.year && local.getUTCMonth() + 1 === a.month && local.getUTCDate() === a.day;
}
