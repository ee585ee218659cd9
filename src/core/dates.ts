/**
 * Dates as pages display them: Chinese (2017年4月15日 15:42, 昨天 20:48, 3小时前), numeric
 * (2017-04-15, 15.04.2017, 4/15/2017), month names in English and the main European languages
 * (April 15, 2017; 15. April 2017; 15 avril 2017; 15 de abril de 2017) and relative forms
 * ("2 days ago", "vor 2 Stunden"), resolved against the fetch time (seed 000 leaves these
 * unresolved; resolving them is better). Timezones and ISO output come from luxon.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { DateTime, IANAZone, Info, Zone } from 'luxon';

export type DatePrecision = 'day' | 'minute' | 'second';

export interface DateMatch {
  /** The text as displayed (the matched substring). */
  text: string;
  /** Offset of `text` in the input. */
  index: number;
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** ISO 8601 with offset. */
  iso: string;
  precision: DatePrecision;
  /** Resolved from a relative form (3小时前, yesterday …). */
  relative: boolean;
  /** The year was not shown and was inferred (9月7日). */
  yearInferred?: boolean;
  /** An explicit offset was part of the text. */
  hasOffset?: boolean;
  /** Numeric day and month that could be either way round (06/02/2022, separator `/` or `-`):
   * read by `dayFirst`; a caller that knows the page's convention can read it again. */
  orderAmbiguous?: boolean;
}

export interface DateOptions {
  /** Reference time for relative dates and missing years (the fetch time). Default: now. */
  now?: Date;
  /** IANA zone for dates without an offset. Default: UTC. */
  timezone?: string;
  /** For ambiguous 03/04/2019: true = 3 April. Default: false (month first) unless separator is `.`. */
  dayFirst?: boolean;
  /** Earliest plausible year. */
  minYear?: number;
}

/** No web page was published before this year. */
export const MIN_YEAR = 1990;
/** Dates more than this far after the reference time are impossible (clock skew allowed). */
const MAX_FUTURE_MS = 2 * 24 * 3600 * 1000;

/** Default zone for a page language (used when neither the spider nor the page says). */
export function timezoneForLang(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  if (l.startsWith('zh-tw') || l.startsWith('zh-hant')) return 'Asia/Taipei';
  if (l.startsWith('zh-hk')) return 'Asia/Hong_Kong';
  if (l.startsWith('zh')) return 'Asia/Shanghai';
  if (l.startsWith('ja')) return 'Asia/Tokyo';
  if (l.startsWith('ko')) return 'Asia/Seoul';
  const [base, region] = l.split(/[-_]/);
  if (region && REGION_ZONE[region]) return REGION_ZONE[region];
  return LANG_ZONE[base!];
}

/** Zones of languages spoken mostly within one zone (Spanish, Portuguese, English, Arabic … span
 * continents: only their region subtag, e.g. `pt-BR`, gives a zone). */
const LANG_ZONE: Record<string, string> = {
  de: 'Europe/Berlin', fr: 'Europe/Paris', it: 'Europe/Rome', nl: 'Europe/Amsterdam', pl: 'Europe/Warsaw',
  cs: 'Europe/Prague', sk: 'Europe/Bratislava', hu: 'Europe/Budapest', ro: 'Europe/Bucharest', bg: 'Europe/Sofia',
  el: 'Europe/Athens', sv: 'Europe/Stockholm', da: 'Europe/Copenhagen', no: 'Europe/Oslo', nb: 'Europe/Oslo',
  nn: 'Europe/Oslo', fi: 'Europe/Helsinki', uk: 'Europe/Kyiv', ru: 'Europe/Moscow', tr: 'Europe/Istanbul',
  he: 'Asia/Jerusalem', fa: 'Asia/Tehran', hi: 'Asia/Kolkata', th: 'Asia/Bangkok', vi: 'Asia/Ho_Chi_Minh',
  id: 'Asia/Jakarta',
};
/** Region subtags of single-zone (or one dominant zone) countries. */
const REGION_ZONE: Record<string, string> = {
  gb: 'Europe/London', ie: 'Europe/Dublin', in: 'Asia/Kolkata', sg: 'Asia/Singapore', nz: 'Pacific/Auckland',
  za: 'Africa/Johannesburg', ng: 'Africa/Lagos', ph: 'Asia/Manila', pk: 'Asia/Karachi', es: 'Europe/Madrid',
  mx: 'America/Mexico_City', ar: 'America/Argentina/Buenos_Aires', co: 'America/Bogota', cl: 'America/Santiago',
  pe: 'America/Lima', ve: 'America/Caracas', br: 'America/Sao_Paulo', pt: 'Europe/Lisbon', be: 'Europe/Brussels',
  ch: 'Europe/Zurich', at: 'Europe/Vienna', ca: 'America/Toronto', eg: 'Africa/Cairo', sa: 'Asia/Riyadh',
  ae: 'Asia/Dubai', tw: 'Asia/Taipei', hk: 'Asia/Hong_Kong', my: 'Asia/Kuala_Lumpur',
};

/**
 * The numeric date order of a page language when the page itself does not show it: day first
 * everywhere but in US English (and Y-M-D languages, whose rare D/M forms stay month first).
 * undefined = no convention known (use the default, month first).
 */
export function dayFirstForLang(lang: string | undefined): boolean | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  if (l === 'en' || l.startsWith('en-us') || /^(?:zh|ja|ko)\b/.test(l)) return undefined;
  if (l.startsWith('en-')) return !/^en-(?:ph|ca)\b/.test(l); // the Philippines and Canada mix both
  return /^(?:fr|de|es|it|pt|nl|ru|uk|pl|cs|sk|hu|ro|bg|hr|sr|sl|el|tr|da|sv|nb|nn|no|fi|et|lv|lt|id|ms|vi|ar|he|fa|hi|th)\b/.test(l) || undefined;
}

const MONTHS: Record<string, number> = {};
function addMonths(names: string[][]) {
  names.forEach((alts, i) => {
    for (const n of alts) MONTHS[n] = i + 1;
  });
}
// en
addMonths([['january', 'jan'], ['february', 'feb'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'], ['july', 'jul'], ['august', 'aug'], ['september', 'sept', 'sep'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec']]);
// de
addMonths([['januar', 'jänner', 'jän'], ['februar'], ['märz', 'maerz', 'mär', 'mrz'], [], ['mai'], ['juni'], ['juli'], [], [], ['oktober', 'okt'], [], ['dezember', 'dez']]);
// fr
addMonths([['janvier', 'janv'], ['février', 'fevrier', 'févr', 'fevr', 'fév'], ['mars'], ['avril', 'avr'], [], ['juin'], ['juillet', 'juil'], ['août', 'aout', 'aoû'], ['septembre'], ['octobre'], ['novembre'], ['décembre', 'decembre', 'déc']]);
// es, pt, it, nl
addMonths([
  ['enero', 'ene', 'janeiro', 'gennaio', 'gen', 'januari'],
  ['febrero', 'fevereiro', 'febbraio', 'februari', 'fev'],
  ['marzo', 'março', 'marco', 'maart', 'mrt'],
  ['abril', 'abr', 'aprile'],
  ['mayo', 'maio', 'maggio', 'mag', 'mei'],
  ['junio', 'junho', 'giugno', 'giu'],
  ['julio', 'julho', 'luglio', 'lug'],
  ['agosto', 'ago', 'augustus'],
  ['septiembre', 'setiembre', 'setembro', 'settembre', 'set'],
  ['octubre', 'outubro', 'ottobre', 'out', 'ott'],
  ['noviembre', 'novembro'],
  ['diciembre', 'dezembro', 'dicembre', 'dic'],
]);
// ru (genitive forms as used in dates)
addMonths([['января', 'янв'], ['февраля', 'фев'], ['марта', 'мар'], ['апреля', 'апр'], ['мая'], ['июня', 'июн'], ['июля', 'июл'], ['августа', 'авг'], ['сентября', 'сен'], ['октября', 'окт'], ['ноября', 'ноя'], ['декабря', 'дек']]);

const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const MON = `(${MONTH_ALT})\\.?`;
const WEEKDAY = `(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|urday|rsday)?|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo)\\.?,?\\s*`;
/** hh:mm[:ss] [am|pm], or Chinese 13时43分 / 13点43分. */
const TIME = `(\\d{1,2})\\s*[:：时点]\\s*(\\d{2})(?:\\s*[:：分]\\s*(\\d{2}))?\\s*(?:秒|分)?(?:\\s*([ap])\\.?\\s?m\\.?)?`;
const TIME_SEP = `(?:\\s*(?:T|at|um|à|a las|alle|,|-|—|\\||@)?\\s*)`;
const OFFSET = `(Z|[+-]\\d{2}:?\\d{2}|\\s?(?:UTC|GMT)(?:\\s?[+-]\\d{1,2}(?::?\\d{2})?)?)?`;

interface Pattern {
  re: RegExp;
  build(m: RegExpExecArray, o: Required<Pick<DateOptions, 'dayFirst'>> & { now: DateTime }): Parts | undefined;
}
interface Parts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  ampm?: string;
  offset?: string;
  relative?: boolean;
  yearInferred?: boolean;
  orderAmbiguous?: boolean;
  exact?: DateTime;
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number.parseInt(s, 10));
function year2(y: number): number {
  return y < 100 ? (y < 70 ? 2000 + y : 1900 + y) : y;
}

function timeParts(m: RegExpExecArray, at: number): Pick<Parts, 'hour' | 'minute' | 'second' | 'ampm'> {
  if (m[at] === undefined) return {};
  return { hour: num(m[at]), minute: num(m[at + 1]), second: num(m[at + 2]), ampm: m[at + 3]?.toLowerCase() };
}

const PATTERNS: Pattern[] = [
  // 2019-09-07T13:43:45+08:00, 2019/9/7 13:43, 2019.09.07, 2019年9月7日 13:43
  {
    // the two separators agree (2019-09-07, 2019/9/7, 2019年9月7日): "2004 - 01/01" is the end of one
    // range and the start of the next ("12/01/2004 - 01/01/2005"), not a date
    re: new RegExp(`(?<![\\d.])((?:19|20)\\d{2})(?:\\s*([-/.])\\s*(\\d{1,2})\\s*\\2|\\s*(年)\\s*(\\d{1,2})\\s*月)\\s*(\\d{1,2})(?![\\d])\\s*日?(?:${TIME_SEP}${TIME}${OFFSET})?`, 'giu'),
    build: (m) => ({ year: num(m[1])!, month: num(m[3] ?? m[5])!, day: num(m[6])!, ...timeParts(m, 7), offset: m[11] }),
  },
  // 20190907 compact with time? Too ambiguous in text: not matched.
  // 07.09.2019 / 7/9/2019 / 09-07-2019 [13:43]
  {
    re: new RegExp(`(?<![\\d./-])(\\d{1,2})([./-])(\\d{1,2})\\2((?:19|20)\\d{2}|\\d{2})(?![\\d./-]\\d)(?:${TIME_SEP}${TIME}${OFFSET})?`, 'giu'),
    build: (m, o) => {
      const a = num(m[1])!;
      const b = num(m[3])!;
      const year = year2(num(m[4])!);
      let dayFirst = m[2] === '.' ? true : o.dayFirst;
      if (a > 12) dayFirst = true;
      else if (b > 12) dayFirst = false;
      // 06/02/2022: 6 February or June 2 depends on the page's convention
      const orderAmbiguous = m[2] !== '.' && a !== b && a <= 12 && b <= 12;
      return { year, month: dayFirst ? b : a, day: dayFirst ? a : b, ...timeParts(m, 5), offset: m[9], ...(orderAmbiguous ? { orderAmbiguous } : {}) };
    },
  },
  // [Monday,] September 7[th], 2019 [at] [1:43 pm]
  {
    // also with the weekday between day and year, as date widgets lay it out ("Dec 28 Sat 2013 00:28")
    re: new RegExp(`(?<![\\p{L}])(?:${WEEKDAY})?${MON}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(?:${WEEKDAY})?((?:19|20)\\d{2})(?!\\d)(?:${TIME_SEP}${TIME}${OFFSET})?`, 'giu'),
    build: (m) => ({ year: num(m[3])!, month: MONTHS[m[1]!.toLowerCase()]!, day: num(m[2])!, ...timeParts(m, 4), offset: m[8] }),
  },
  // [Monday,] 7[th] [of] September[,] 2019; 7. September 2019; 7 de septiembre de 2019; 7 сентября 2019 г.
  {
    re: new RegExp(`(?<![\\p{L}\\d])(?:${WEEKDAY})?(\\d{1,2})(?:st|nd|rd|th|er|\\.)?\\s*(?:of\\s+|de\\s+)?${MON},?\\s+(?:de\\s+)?((?:19|20)\\d{2})(?!\\d)(?:\\s*г\\.?)?(?:${TIME_SEP}${TIME}${OFFSET})?`, 'giu'),
    build: (m) => ({ year: num(m[3])!, month: MONTHS[m[2]!.toLowerCase()]!, day: num(m[1])!, ...timeParts(m, 4), offset: m[8] }),
  },
  // Chinese without year: 9月7日 13:43 (year inferred from the reference time)
  {
    re: new RegExp(`(?<![\\d年])(\\d{1,2})月(\\d{1,2})日(?:${TIME_SEP}${TIME})?`, 'gu'),
    build: (m, o) => ({ year: o.now.year, month: num(m[1])!, day: num(m[2])!, ...timeParts(m, 3), yearInferred: true }),
  },
  // Month-day with a time, no year (Chinese portals and feeds: "10-08 12:00", "01/14 17:58"); the
  // time is required so that scores and ranges ("3-1") are not read as dates
  {
    re: /(?<![\d./:-])(\d{1,2})[-/](\d{1,2})\s+(\d{1,2})[:：](\d{2})(?![\d:：])/g,
    build: (m, o) => ({ year: o.now.year, month: num(m[1])!, day: num(m[2])!, hour: num(m[3]), minute: num(m[4]), yearInferred: true }),
  },
  // English without year, forum style: "Jan 06 3:07 pm", "September 7 at 13:43" (time required)
  {
    re: new RegExp(`(?<![\\p{L}])(?:${WEEKDAY})?${MON}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?!\\d)${TIME_SEP}${TIME}`, 'giu'),
    build: (m, o) => ({ year: o.now.year, month: MONTHS[m[1]!.toLowerCase()]!, day: num(m[2])!, ...timeParts(m, 3), yearInferred: true }),
  },
  // Relative: N units ago (zh, en, de, fr, es; English abbreviated units too: "6 yr. ago", "2 mo. ago"). The number starts where a digit run starts
  // (`(?<!\d)`): retried from every digit of a long run, `\d+` was quadratic in the run (a 50 KB
  // run of digits took 10 s, issue 14 audit).
  {
    re: /(?:((?<!\d)\d+|an?|one)\s*(秒|分钟|分鐘|小时|小時|天|日|周|週|星期|个月|個月|月|年|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?|yrs?)\.?\s*(前|ago))|(?:(?:vor|il y a|hace|há)\s+(\d+)\s+(sekunden?|minuten?|stunden?|tagen?|wochen?|monaten?|jahren?|secondes?|minutes?|heures?|jours?|semaines?|mois|ans?|segundos?|minutos?|horas?|días?|dias?|semanas?|meses|mes|años?|anos?))/giu,
    build: (m, o) => {
      const nRaw = (m[1] ?? m[4])!.toLowerCase();
      const n = /^\d+$/.test(nRaw) ? Number(nRaw) : 1;
      const unit = (m[2] ?? m[5])!.toLowerCase();
      const dt = o.now.minus(relUnit(unit, n));
      return { ...partsOf(dt), relative: true, exact: dt };
    },
  },
  // 刚刚 / just now
  {
    re: /刚刚|剛剛|(?<![\p{L}])(?:just now|gerade eben|à l'instant)(?![\p{L}])/giu,
    build: (_m, o) => ({ ...partsOf(o.now), relative: true, exact: o.now }),
  },
  // 今天/昨天/前天 [13:43], today/yesterday [at 13:43], heute/gestern, aujourd'hui/hier, hoy/ayer
  {
    // Latin words must stand alone ("ayer" is not in "mayerei"); French "hier" is also German
    // "here", so it counts only with a time after it.
    re: new RegExp(`(今天|昨天|前天|(?<![\\p{L}])(?:today|yesterday|heute|gestern|vorgestern|aujourd'hui|avant-hier|hoy|ayer|anteayer)(?![\\p{L}])|(?<![\\p{L}])hier(?=,?\\s*(?:à\\s*)?\\d{1,2}[:h]\\d{2}))(?:${TIME_SEP}${TIME})?`, 'giu'),
    build: (m, o) => {
      const w = m[1]!.toLowerCase();
      const back = ['昨天', 'yesterday', 'gestern', 'hier', 'ayer'].includes(w) ? 1 : ['前天', 'vorgestern', 'avant-hier', 'anteayer'].includes(w) ? 2 : 0;
      const d = o.now.minus({ days: back });
      return { year: d.year, month: d.month, day: d.day, ...timeParts(m, 2), relative: true };
    },
  },
];

function relUnit(unit: string, n: number): Record<string, number> {
  if (/^(秒|sec|sek|seg)/.test(unit)) return { seconds: n };
  if (/^(分|min)/.test(unit)) return { minutes: n };
  if (/^(小|hour|hr|stund|heure|hora)/.test(unit)) return { hours: n };
  if (/^(天|日|day|tag|jour|día|dia)/.test(unit)) return { days: n };
  if (/^(周|週|星期|week|wk|woche|semaine|semana)/.test(unit)) return { weeks: n };
  if (/^(个月|個月|月|mo|monat|mes)/.test(unit)) return { months: n };
  return { years: n };
}

function partsOf(dt: DateTime): Parts {
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second };
}

/** Zone abbreviations shown after a time ("10:31 pm CST"), upper case only (French "est" is a
 * word). The North American reading of CST; IST (India, Ireland, Israel) is left out. */
const ZONE_ABBR: Record<string, string> = {
  EST: '-05:00', EDT: '-04:00', CST: '-06:00', CDT: '-05:00', MST: '-07:00', MDT: '-06:00', PST: '-08:00', PDT: '-07:00',
  AKST: '-09:00', AKDT: '-08:00', HST: '-10:00', BST: '+01:00', CET: '+01:00', CEST: '+02:00', EET: '+02:00', EEST: '+03:00',
  WET: '+00:00', JST: '+09:00', KST: '+09:00', AEST: '+10:00', AEDT: '+11:00', ACST: '+09:30', ACDT: '+10:30', AWST: '+08:00',
  NZST: '+12:00', NZDT: '+13:00',
};
const ZONE_ABBR_AFTER = new RegExp(`^\\s?(${Object.keys(ZONE_ABBR).join('|')})(?![A-Za-z])`);

function zoneFromOffset(offset: string | undefined): string | undefined {
  if (!offset) return undefined;
  if (ZONE_ABBR[offset]) return zoneFromOffset(ZONE_ABBR[offset]);
  const o = offset.trim().toUpperCase();
  if (o === 'Z' || o === 'UTC' || o === 'GMT') return 'UTC';
  const m = o.match(/([+-])(\d{1,2}):?(\d{2})?/);
  if (!m) return 'UTC';
  const h = Number(m[2]);
  const mi = Number(m[3] ?? 0);
  return `UTC${m[1]}${h}${mi ? `:${String(mi).padStart(2, '0')}` : ''}`;
}

function toMatch(m: RegExpExecArray, p: Parts, zone: string, now: DateTime, minYear: number): DateMatch | undefined {
  let { hour } = p;
  if (hour !== undefined && p.ampm) {
    if (hour > 12 || hour === 0) return undefined;
    if (p.ampm === 'p' && hour < 12) hour += 12;
    if (p.ampm === 'a' && hour === 12) hour = 0;
  }
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.year < minYear) return undefined;
  if (hour !== undefined && (hour > 23 || (p.minute ?? 0) > 59 || (p.second ?? 0) > 59)) return undefined;
  const offsetZone = zoneFromOffset(p.offset);
  const z = zoneOf(offsetZone ?? zone);
  let dt =
    p.exact?.setZone(z) ??
    DateTime.fromObject({ year: p.year, month: p.month, day: p.day, hour: hour ?? 0, minute: p.minute ?? 0, second: p.second ?? 0 }, { zone: z });
  if (!dt.isValid || dt.day !== p.day && !p.exact) return undefined;
  let yearInferred = p.yearInferred;
  if (yearInferred && dt.toMillis() > now.toMillis() + MAX_FUTURE_MS) {
    dt = dt.minus({ years: 1 });
  } else if (dt.toMillis() > now.toMillis() + MAX_FUTURE_MS) {
    return undefined;
  }
  const precision: DatePrecision = p.exact
    ? 'minute'
    : hour === undefined
      ? 'day'
      : p.second !== undefined
        ? 'second'
        : 'minute';
  const iso = dt.toISO({ suppressMilliseconds: true })!;
  return {
    text: m[0].trim(),
    index: m.index + (m[0].length - m[0].trimStart().length),
    year: dt.year,
    month: dt.month,
    day: dt.day,
    ...(precision !== 'day' ? { hour: dt.hour, minute: dt.minute } : {}),
    ...(precision === 'second' ? { second: dt.second } : {}),
    iso,
    precision,
    relative: Boolean(p.relative),
    ...(yearInferred ? { yearInferred } : {}),
    ...(offsetZone ? { hasOffset: true } : {}),
    ...(p.orderAmbiguous ? { orderAmbiguous: true } : {}),
  };
}

const HOUR_MS = 3_600_000;

/**
 * An IANA zone whose offsets are remembered per hour of UTC. luxon asks `Intl` for a zone's
 * offset at every DateTime it builds (~15 µs, the larger half of `findDates` on a forum page,
 * whose dates share a few days); an offset is constant within an hour unless a transition falls in
 * it, so an hour whose first and last millisecond have the same offset is remembered, and an hour
 * with a transition in it is asked of the zone each time (exact either way).
 */
class HourlyOffsetZone extends Zone<true> {
  private readonly hours = new Map<number, number>();
  constructor(private readonly inner: IANAZone<true>) {
    super();
  }
  override get type(): string {
    return this.inner.type;
  }
  override get name(): string {
    return this.inner.name;
  }
  override get isUniversal(): false {
    return false;
  }
  override get isValid(): true {
    return true;
  }
  override offsetName(ts: number, options: Parameters<Zone['offsetName']>[1]): string {
    return this.inner.offsetName(ts, options);
  }
  override formatOffset(ts: number, format: Parameters<Zone['formatOffset']>[1]): string {
    return this.inner.formatOffset(ts, format);
  }
  override offset(ts: number): number {
    const hour = Math.floor(ts / HOUR_MS);
    let o = this.hours.get(hour);
    if (o === undefined) {
      const first = this.inner.offset(hour * HOUR_MS);
      o = first === this.inner.offset(hour * HOUR_MS + HOUR_MS - 1) ? first : Number.NaN;
      if (this.hours.size >= 50_000) this.hours.clear();
      this.hours.set(hour, o);
    }
    return Number.isNaN(o) ? this.inner.offset(ts) : o;
  }
  override equals(other: Zone): boolean {
    return other === this || this.inner.equals(other);
  }
}

/** Zones by name: IANA names as an HourlyOffsetZone, the rest ("UTC", "UTC+8", invalid) as luxon reads the name. */
const zones = new Map<string, Zone | string>();

function zoneOf(name: string): Zone | string {
  let z = zones.get(name);
  if (z === undefined) {
    const n = Info.normalizeZone(name);
    z = n instanceof IANAZone && n.isValid ? new HourlyOffsetZone(n as IANAZone<true>) : name;
    if (zones.size >= 256) zones.clear();
    zones.set(name, z);
  }
  return z;
}

/** The last "now" built: its instant, zone and DateTime (immutable). */
let lastNow: { ms: number; zone: string; dt: DateTime } | undefined;

/** `now` as a DateTime in `zone`, built once per instant and zone in a row. */
function nowIn(now: Date, zone: string): DateTime {
  const ms = now.getTime();
  if (lastNow?.ms !== ms || lastNow.zone !== zone) lastNow = { ms, zone, dt: DateTime.fromJSDate(now, { zone: zoneOf(zone) }) };
  return lastNow.dt;
}

/**
 * All dates in a text, in order of appearance, non-overlapping (the longest match wins).
 * @example findDates('发布时间：2019年9月7日 13:43', { timezone: 'Asia/Shanghai' })[0].iso
 *   // '2019-09-07T13:43:00+08:00'
 */
export function findDates(text: string, options: DateOptions = {}): DateMatch[] {
  if (!text || !/\d|今天|昨天|前天|刚刚|剛剛|today|yesterday|heute|gestern|hier|ayer|hoy|just now/i.test(text)) return [];
  const zone = options.timezone ?? 'UTC';
  const minYear = options.minYear ?? MIN_YEAR;
  // luxon's DateTime costs ~15 µs to build: only when a pattern matched (most texts have none),
  // and the same instant in the same zone is built once (a page's texts share its fetch time)
  let nowCache: DateTime | undefined;
  const o = {
    dayFirst: options.dayFirst ?? false,
    get now(): DateTime {
      return (nowCache ??= nowIn(options.now ?? new Date(), zone));
    },
  };
  const found: DateMatch[] = [];
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = p.re.exec(text))) {
      if (m[0].length === 0) {
        p.re.lastIndex++;
        continue;
      }
      const parts = p.build(m, o);
      if (parts && parts.hour !== undefined && !parts.offset && !parts.exact) {
        const z = ZONE_ABBR_AFTER.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 6));
        if (z) {
          parts.offset = z[1];
          m[0] += z[0];
        }
      }
      const d = parts && toMatch(m, parts, zone, o.now, minYear);
      if (d) found.push(d);
    }
  }
  if (found.length < 2) return found;
  // Longest first, then earliest; keep those not overlapping an already kept match. The kept
  // characters are marked, so a match is checked over its own length (issue 24: every kept match
  // was compared with every other, 18 s for 80,000 dates in one paragraph).
  found.sort((a, b) => b.text.length - a.text.length || a.index - b.index);
  const taken = new Uint8Array(text.length + 1);
  const kept: DateMatch[] = [];
  for (const d of found) {
    const end = Math.min(text.length, d.index + d.text.length);
    let free = true;
    for (let i = d.index; i < end && free; i++) if (taken[i]) free = false;
    if (!free) continue;
    taken.fill(1, d.index, end);
    kept.push(d);
  }
  return kept.sort((a, b) => a.index - b.index);
}

/**
 * The order of numeric dates a page uses, from its unambiguous ones: a 13/02/2022 anywhere says
 * day-first, a 02/13/2022 month-first (undefined when the page shows neither, or both).
 * @example numericDayFirst(['06/02/2022', '13/02/2022']) // true
 */
export function numericDayFirst(texts: Iterable<string>): boolean | undefined {
  let dayFirst = 0;
  let monthFirst = 0;
  const re = /(?<![\d./-])(\d{1,2})([/-])(\d{1,2})\2(?:19|20)?\d{2}(?![\d./-]\d)/g;
  for (const t of texts) {
    if (t.length < 6) continue;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      const a = Number(m[1]);
      const b = Number(m[3]);
      if (a > 12 && a <= 31 && b >= 1 && b <= 12) dayFirst++;
      else if (b > 12 && b <= 31 && a >= 1 && a <= 12) monthFirst++;
    }
  }
  return dayFirst && !monthFirst ? true : monthFirst && !dayFirst ? false : undefined;
}

/** The first date in a text, or undefined. */
export function parseDate(text: string, options: DateOptions = {}): DateMatch | undefined {
  return findDates(text, options)[0];
}

/** true when the text contains a date (cheap pre-check for filters). */
export function hasDate(text: string, options: DateOptions = {}): boolean {
  return findDates(text, options).length > 0;
}

/**
 * Normalise a machine-readable date (meta content, JSON-LD, `<time datetime>`) to ISO 8601 with
 * offset. Accepts ISO forms with or without offset, RFC 2822, epoch seconds/ms, and falls back to
 * `findDates` for display forms.
 */
export function normaliseDateValue(value: string | number | undefined | null, options: DateOptions = {}): DateMatch | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const zone = options.timezone ?? 'UTC';
  const now = DateTime.fromJSDate(options.now ?? new Date(), { zone });
  const s = String(value).trim();
  let dt: DateTime | undefined;
  let precision: DatePrecision = 'second';
  if (/^\d{10}(\d{3})?$/.test(s)) {
    dt = DateTime.fromMillis(s.length === 10 ? Number(s) * 1000 : Number(s), { zone });
  } else {
    const iso = DateTime.fromISO(s.replace(' ', 'T'), { zone, setZone: true });
    if (iso.isValid && /^\d{4}-\d{2}-\d{2}/.test(s)) {
      dt = iso;
      if (/^\d{4}-\d{2}-\d{2}$/.test(s)) precision = 'day';
      else if (!/\d{2}:\d{2}:\d{2}/.test(s)) precision = 'minute';
    } else {
      const rfc = DateTime.fromRFC2822(s, { zone, setZone: true });
      if (rfc.isValid) dt = rfc;
      else {
        const http = DateTime.fromHTTP(s, { zone, setZone: true });
        if (http.isValid) dt = http;
      }
    }
  }
  if (dt?.isValid) {
    if (dt.year < (options.minYear ?? MIN_YEAR) || dt.toMillis() > now.toMillis() + MAX_FUTURE_MS) return undefined;
    return {
      text: s,
      index: 0,
      year: dt.year,
      month: dt.month,
      day: dt.day,
      ...(precision !== 'day' ? { hour: dt.hour, minute: dt.minute } : {}),
      ...(precision === 'second' ? { second: dt.second } : {}),
      iso: dt.toISO({ suppressMilliseconds: true })!,
      precision,
      relative: false,
      hasOffset: /(Z|[+-]\d{2}:?\d{2})$/i.test(s),
    };
  }
  return parseDate(s, options);
}
