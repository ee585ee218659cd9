/**
 * Small text measures shared by the filters and extractors: Han share, punctuation, script and
 * language. Regexes are compiled once here (Readability's habit).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import stopwordsIso from 'stopwords-iso' with { type: 'json' };

/** `\p{Script=Han}` rather than `[\u4E00-\u9FA5]`: the latter misses 〇 and extension blocks. */
export const HAN = /\p{Script=Han}/gu;
export const HAN_ONE = /\p{Script=Han}/u;
/**
 * Punctuation, one table (issue 10). SENTENCE_MARKS are the Latin and CJK sentence marks: GNE's
 * symbol set for symbol density (seed 002) and the marks that tell post text from signatures and
 * buttons (seed 003: commas mark content). ENCLOSING_MARKS (quotes, brackets, 《》) also belong to
 * written text. LABEL_MARKS are the sentence marks that also end labels ("Posted:", "发表于：").
 * Who counts what, chosen by bench (figures in the issue-10 note):
 *   - `punctCount` (article symbol density, page-type features) counts sentence + enclosing marks:
 *     AEB / CWCE-zh unchanged either way (0.980 / 0.927), page-type balanced accuracy 0.958
 *     with the enclosing marks, 0.956 without;
 *   - the floor splitter counts sentence marks without the label marks, Latin ones in context
 *     (middleware/forum/dom.ts): WEB-FORUM-52 text 0.956, 0.813 when colons count; the article
 *     extractor needs them (CWCE-zh content 0.928, 0.915 without).
 */
export const SENTENCE_MARKS = ',.;:!?…，。；：！？、';
export const ENCLOSING_MARKS = '“”‘’"\'()（）《》';
export const LABEL_MARKS = ':：';
const escapeClass = (chars: string) => chars.replace(/[\]\\^-]/g, '\\$&');
/** Any sentence or enclosing mark (global: for counting). */
export const SENTENCE_PUNCT = new RegExp(`[${escapeClass(SENTENCE_MARKS + ENCLOSING_MARKS)}]`, 'g');
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/** Matches of a single-character pattern (a class), counted natively: the length the text loses when
 * they are removed (a character outside the BMP counts twice; for the scripts measured here that is
 * only the rare Han extension blocks). */
export function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  return text.length - text.replace(re, '').length;
}

/**
 * Width of one CJK character (Han, kana, hangul, full-width forms) in Latin letters, for every
 * length threshold written in Latin letters (paragraph lengths, title widths, the script vote): a
 * Chinese word is 1–2 characters, an English one ~5 letters with its space. One factor for all
 * algorithms (issue 10; they used 2 for list titles and page features, 2.5 for article paragraph
 * lengths, 3 for the script vote). Chosen by bench, over the figures each factor moves:
 *   2:   CWCE-zh content 0.927, page types 0.958, list items 0.917, script vote unchanged on all 1,240 data pages;
 *   2.5: CWCE-zh 0.928, page types 0.955, list items 0.917;
 *   3:   page types 0.959, list items 0.889.
 */
export const CJK_WIDTH = 2;

/** Whether a UTF-16 code unit is a CJK character (CJK radicals … Hangul syllables, compatibility
 * ideographs, full-width forms). */
function isCjkUnit(c: number): boolean {
  return (c >= 0x2e80 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
}

/** Width of a text in Latin letters: CJK characters count CJK_WIDTH. */
export function textWidth(text: string): number {
  let w = 0;
  for (let i = 0; i < text.length; i++) w += isCjkUnit(text.charCodeAt(i)) ? CJK_WIDTH : 1;
  return w;
}

export function hanCount(text: string): number {
  return count(HAN, text);
}

/** Share of Han characters among non-space characters. */
export function hanRatio(text: string): number {
  const chars = text.replace(/\s+/g, '').length;
  return chars ? hanCount(text) / chars : 0;
}

export function punctCount(text: string): number {
  return count(SENTENCE_PUNCT, text);
}

export type Script = 'han' | 'kana' | 'hangul' | 'latin' | 'cyrillic' | 'arabic' | 'hebrew' | 'greek' | 'thai' | 'devanagari' | 'other';

const LATIN = /\p{Script=Latin}/gu;
/** Whether a text holds a Latin letter at all: a test stops at the first (counting them all cost
 * ~0.7 ms on a 27,000-character sample, a third of language detection; issue 13 profile). */
const LATIN_ONE = /\p{Script=Latin}/u;
const SCRIPT_TESTS: Array<[Script, RegExp]> = [
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ['hangul', /\p{Script=Hangul}/gu],
  ['han', /\p{Script=Han}/gu],
  ['cyrillic', /\p{Script=Cyrillic}/gu],
  ['arabic', /\p{Script=Arabic}/gu],
  ['hebrew', /\p{Script=Hebrew}/gu],
  ['greek', /\p{Script=Greek}/gu],
  ['thai', /\p{Script=Thai}/gu],
  ['devanagari', /\p{Script=Devanagari}/gu],
  ['latin', LATIN],
];

/** Any character of the non-Latin scripts measured below (Greek … Devanagari, Thai, Hangul, kana, CJK). */
const OTHER_SCRIPT = /[\u0370-\u0fff\u1100-\u11ff\u1f00-\u1fff\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff\uff66-\uff9d]|[\ud840-\ud87f]/;

/** Counts are weighted by CJK_WIDTH so that a Chinese article quoting code or product names is
 * still Chinese. */
const SCRIPT_WEIGHT: Partial<Record<Script, number>> = { han: CJK_WIDTH, kana: CJK_WIDTH, hangul: CJK_WIDTH };

/** Dominant script of a text sample (first 20k chars), by weighted character counts. Kana anywhere
 * in quantity means Japanese. */
export function dominantScript(text: string): Script {
  const sample = text.length > 20000 ? text.slice(0, 20000) : text;
  const counts = new Map<Script, number>();
  // most pages of Latin-script languages hold no character of the other scripts: one count decides
  if (!OTHER_SCRIPT.test(sample)) return LATIN_ONE.test(sample) ? 'latin' : 'other';
  for (const [s, re] of SCRIPT_TESTS) counts.set(s, count(re, sample));
  const kana = counts.get('kana')!;
  const han = counts.get('han')!;
  if (kana > 20 && kana > 0.05 * (kana + han)) return 'kana';
  let best: Script = 'other';
  let bestN = 0;
  for (const [s, raw] of counts) {
    const n = raw * (SCRIPT_WEIGHT[s] ?? 1);
    if (n > bestN) {
      best = s;
      bestN = n;
    }
  }
  return best;
}

/** Languages the stop-word detector tells apart (Latin script). */
const LATIN_LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'no', 'fi', 'pl', 'cs', 'tr', 'ro', 'hu', 'id'];
const CYRILLIC_LANGS = ['ru', 'uk', 'bg'];
/** Only the most frequent stop words are used for language identification: long tails overlap. */
const LANGID_STOPWORDS = 120;

const stopwordSets = new Map<string, Set<string>>();
export function stopwords(lang: string): Set<string> {
  let s = stopwordSets.get(lang);
  if (!s) {
    const list = (stopwordsIso as Record<string, string[]>)[lang] ?? [];
    s = new Set(list.map((w) => w.toLowerCase()));
    stopwordSets.set(lang, s);
  }
  return s;
}
const langIdSets = new Map<string, Set<string>>();
function langIdSet(lang: string): Set<string> {
  let s = langIdSets.get(lang);
  if (!s) {
    s = new Set(((stopwordsIso as Record<string, string[]>)[lang] ?? []).slice(0, LANGID_STOPWORDS).map((w) => w.toLowerCase()));
    langIdSets.set(lang, s);
  }
  return s;
}

const WORD = /[\p{L}']+/gu;
export function words(text: string, limit = Infinity): string[] {
  const out: string[] = [];
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(text)) && out.length < limit) out.push(m[0].toLowerCase());
  return out;
}

const langIdTables = new Map<string[], Map<string, number[]>>();
/** Stop word → indices (in `langs`) of the languages it identifies. */
function langIdTable(langs: string[]): Map<string, number[]> {
  let t = langIdTables.get(langs);
  if (!t) {
    t = new Map();
    langs.forEach((lang, i) => {
      for (const w of langIdSet(lang)) {
        const ls = t!.get(w);
        if (ls) ls.push(i);
        else t!.set(w, [i]);
      }
    });
    langIdTables.set(langs, t);
  }
  return t;
}

function byStopwords(text: string, langs: string[]): string | undefined {
  const ws = words(text, 3000);
  if (ws.length < 5) return undefined;
  // one lookup per word in a table of every language's identifying stop words
  const table = langIdTable(langs);
  const hits = new Array<number>(langs.length).fill(0);
  for (const w of ws) {
    const ls = table.get(w);
    if (ls) for (const l of ls) hits[l]!++;
  }
  let best: string | undefined;
  let bestN = 0;
  langs.forEach((lang, i) => {
    if (hits[i]! > bestN) {
      best = lang;
      bestN = hits[i]!;
    }
  });
  return bestN >= 2 ? best : undefined;
}

/** Best-effort language of a text: by script, then by stop words within the script. */
export function detectLang(text: string): string | undefined {
  switch (dominantScript(text)) {
    case 'han':
      return 'zh';
    case 'kana':
      return 'ja';
    case 'hangul':
      return 'ko';
    case 'cyrillic':
      return byStopwords(text, CYRILLIC_LANGS) ?? 'ru';
    case 'arabic':
      return 'ar';
    case 'hebrew':
      return 'he';
    case 'greek':
      return 'el';
    case 'thai':
      return 'th';
    case 'devanagari':
      return 'hi';
    case 'latin':
      return byStopwords(text, LATIN_LANGS);
    default:
      return undefined;
  }
}

/** Share of words that are stop words of `lang` (jusText's signal of running prose). */
export function stopwordDensity(text: string, lang: string): number {
  const ws = words(text);
  if (!ws.length) return 0;
  const set = stopwords(lang);
  let n = 0;
  for (const w of ws) if (set.has(w)) n++;
  return n / ws.length;
}

/**
 * A counter of the code points a one-code-point class matches (`/\p{L}/u`, `/[,，、]/`): the same
 * count as `text.match(globalRe).length`, by a table of the Basic Multilingual Plane built on the
 * first call (65,536 tests, ~5 ms) and a regex test only for astral characters. `match` builds an
 * array of every matched character: on the crawl's rule filters, counting letters that way was 4 %
 * of the chain's CPU; the table is ~10× faster.
 */
export function codePointCounter(re: RegExp): (text: string) => number {
  const one = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  const inBmp = codeUnitMatcher(one);
  return (text) => {
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          if (one.test(text.slice(i, i + 2))) n++;
          i++;
          continue;
        }
      }
      if (inBmp(c)) n++;
    }
    return n;
  };
}

/**
 * Whether a one-code-point class (`/\s/`, `/\p{L}/u`) matches a UTF-16 code unit outside the
 * surrogates, by the same table of the Basic Multilingual Plane (built on the first call): for a
 * loop over a text's code units that asks more than a count (`\s` holds no astral character).
 */
export function codeUnitMatcher(re: RegExp): (c: number) => boolean {
  const one = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  let table: Uint8Array | undefined;
  const build = () => {
    const t = new Uint8Array(65536);
    for (let c = 0; c < 65536; c++) if (c < 0xd800 || c > 0xdfff) t[c] = one.test(String.fromCharCode(c)) ? 1 : 0;
    return t;
  };
  return (c) => (table ??= build())[c] === 1;
}
