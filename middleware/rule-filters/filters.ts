/**
 * Rule filters over the effective text (seed 001 "rule filtering"; ALGORITHMS.md §2). After the
 * template is subtracted, what differs between pages is mostly content, plus leftovers that vary
 * too: embedded code, tracking snippets, serialized data. The seed's engineering rules:
 * 1. keep text with a date format;
 * 2. keep text that looks like a username (Han, Latin letters, digits, `_`; no spaces — code is
 *    full of spaces);
 * 3. keep text whose share of Chinese characters passes a threshold;
 * 4. drop the rest.
 * Rule 3 is for Chinese pages. For other languages the seed proposes a language-independent score
 * of "is this natural language"; we use stop-word density (jusText's signal; stopwords-iso lists)
 * for prose-length segments and a symbol-density test for short ones, so that headings, list items
 * and captions of an article survive. The mode is chosen per page from its script/language.
 */
import { dominantScript, hanCount, stopwordDensity, stopwords, words } from '../../src/text/text.js';
import { hasDate } from '../../src/text/dates.js';

export type FilterMode = 'han' | 'cjk' | 'language';

export interface FilterOptions {
  /** `han` (Chinese), `cjk` (Japanese/Korean: Han + kana/Hangul share), `language` (stop words and
   * symbol density). Default: from `lang`, else from the segments' dominant script. */
  mode?: FilterMode;
  /** Page language (`page.lang()`), selects the stop-word list. */
  lang?: string;
  /** Minimum share of Han (CJK) characters among non-space characters in `han`/`cjk` mode. */
  hanThreshold?: number;
  /** Minimum stop-word density for segments of at least PROSE_MIN_WORDS words in `language` mode. */
  stopwordThreshold?: number;
  /** Reference time for relative dates. */
  now?: Date;
}

/**
 * Han share threshold. Seed 001 leaves it open ("greater than a certain threshold"). Measured on the
 * content gold of `articles/cwce-zh` (69 Chinese pages; lines ≥ 2 chars): 99.5% of gold lines have
 * a Han share ≥ 0.3 among non-space characters (the rest are dates and numbers, kept by rules 1–2);
 * embedded code/CSS and English nav text sit below 0.05.
 */
export const DEFAULT_HAN_THRESHOLD = 0.3;
/**
 * Stop-word density for prose-length segments (jusText's "stopwords_low" is 0.30 for full lists;
 * stopwords-iso lists are longer, so real prose scores higher). Measured on the `sites/` gold
 * paragraphs of ≥ 12 words: 99% have density ≥ 0.2; code and URL lists have < 0.1.
 */
export const DEFAULT_STOPWORD_THRESHOLD = 0.15;
/** Segments with at least this many words are judged by stop-word density (short lines — titles,
 * list items, captions — have too few words for a density to mean anything). */
export const PROSE_MIN_WORDS = 12;
/**
 * Share of code symbols ({}[]();=<>$\|&^~*#@%+`) among non-space characters above which a
 * segment reads as code/markup, not language. Prose has < 2% ("(" and ")" mostly); minified JS
 * and CSS have 15–30%. 0.1 leaves room for prose with parentheses or a formula.
 */
export const CODE_SYMBOL_SHARE = 0.1;
/** Minimum share of letters among non-space characters of a `language`-mode segment that is not a
 * date, a username or a number: tracking strings and base64 are digit/symbol heavy. */
export const MIN_LETTER_SHARE = 0.5;
/** A username is short (forum and comment handles; seed 001 rule 2). */
export const MAX_USERNAME_CHARS = 30;

const USERNAME = /^[\p{Script=Han}\p{L}\p{N}_]+$/u;
const CODE_SYMBOLS = /[{}[\]();=<>$\\|&^~*#@%+`]/g;
const LETTERS = /\p{L}/gu;
const NON_SPACE = /\S/g;
const CJK_OTHER = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** Code-ish tokens that no prose holds (function calls with braces, statements, tags). */
const CODE_PATTERN = /function\s*\(|=>|\bvar\s+\w+\s*=|\bconst\s+\w+\s*=|\blet\s+\w+\s*=|<\/?[a-z][a-z0-9]*[\s>]|\}\s*\)|;\s*\}|\w+\.\w+\(.*\)\s*;|document\.write|window\.\w+/i;

function countRe(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
}

/** Choose the filter mode from a language tag or, without one, the dominant script. */
export function filterModeFor(lang: string | undefined, sampleText: string): FilterMode {
  const l = lang?.split('-')[0]?.toLowerCase();
  if (l === 'zh') return 'han';
  if (l === 'ja' || l === 'ko') return 'cjk';
  if (l) return 'language';
  const script = dominantScript(sampleText);
  if (script === 'han') return 'han';
  if (script === 'kana' || script === 'hangul') return 'cjk';
  return 'language';
}

/** Looks like code or markup: code tokens, or a high share of code symbols. */
export function looksLikeCode(text: string): boolean {
  const chars = countRe(NON_SPACE, text);
  if (!chars) return false;
  if (countRe(CODE_SYMBOLS, text) / chars > CODE_SYMBOL_SHARE) return true;
  return CODE_PATTERN.test(text);
}

export function isUsername(text: string): boolean {
  return text.length <= MAX_USERNAME_CHARS && USERNAME.test(text);
}

export interface SegmentVerdict {
  keep: boolean;
  /** The rule that decided. */
  rule: 'date' | 'username' | 'han' | 'prose' | 'short' | 'code' | 'not-language';
}

/** The verdict for one segment's text. */
export function judgeSegment(text: string, mode: FilterMode, options: FilterOptions = {}): SegmentVerdict {
  // Rule 2 first: it is the cheapest and a single token cannot be code.
  if (isUsername(text)) return { keep: true, rule: 'username' };
  const chars = countRe(NON_SPACE, text);
  if (mode === 'han' || mode === 'cjk') {
    const cjk = hanCount(text) + (mode === 'cjk' ? countRe(CJK_OTHER, text) : 0);
    if (cjk / chars >= (options.hanThreshold ?? DEFAULT_HAN_THRESHOLD) && !looksLikeCode(text)) return { keep: true, rule: 'han' };
    if (hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
    return { keep: false, rule: 'not-language' };
  }
  if (looksLikeCode(text)) {
    // a date line is never code ("Posted 2017-04-15 | 3 comments" has a "|")
    if (text.length < 80 && hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
    return { keep: false, rule: 'code' };
  }
  const letters = countRe(LETTERS, text);
  if (letters / chars < MIN_LETTER_SHARE) {
    if (hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
    return { keep: false, rule: 'not-language' };
  }
  const lang = options.lang?.split('-')[0];
  const ws = words(text, PROSE_MIN_WORDS);
  if (ws.length < PROSE_MIN_WORDS || !lang || !stopwords(lang).size) return { keep: true, rule: 'short' };
  if (stopwordDensity(text, lang) >= (options.stopwordThreshold ?? DEFAULT_STOPWORD_THRESHOLD)) return { keep: true, rule: 'prose' };
  if (hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
  return { keep: false, rule: 'not-language' };
}

/** Keep the segments that pass the rules (pure; segments keep their order and DFS indices). */
export function filterSegments<T extends { text: string }>(segments: readonly T[], options: FilterOptions = {}): T[] {
  if (!segments.length) return [];
  const mode = options.mode ?? filterModeFor(options.lang, segments.slice(0, 200).map((s) => s.text).join(' '));
  return segments.filter((s) => judgeSegment(s.text, mode, options).keep);
}
