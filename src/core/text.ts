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
/** Sentence punctuation in Latin and CJK scripts (seed 003: commas mark content). */
export const SENTENCE_PUNCT = /[,.;:!?，。；：！？、…“”‘’"'()（）《》]/g;
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/** Matches of a single-character pattern (a class), counted natively: the length the text loses when
 * they are removed (a character outside the BMP counts twice; for the scripts measured here that is
 * only the rare Han extension blocks). */
export function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  return text.length - text.replace(re, '').length;
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

/** One CJK character carries about as much as three Latin letters (a Chinese word is 1–2 characters,
 * an English one ~5 letters): counts are weighted so that a Chinese article quoting code or product
 * names is still Chinese. */
const SCRIPT_WEIGHT: Partial<Record<Script, number>> = { han: 3, kana: 3, hangul: 3 };

/** Dominant script of a text sample (first 20k chars), by weighted character counts. Kana anywhere
 * in quantity means Japanese. */
export function dominantScript(text: string): Script {
  const sample = text.length > 20000 ? text.slice(0, 20000) : text;
  const counts = new Map<Script, number>();
  // most pages of Latin-script languages hold no character of the other scripts: one count decides
  if (!OTHER_SCRIPT.test(sample)) return count(LATIN, sample) ? 'latin' : 'other';
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
