/**
 * Rule filters over the effective text (seed 001 "rule filtering"; sources §2). After the
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
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { codePointCounter, detectLang, dominantScript, stopwords, words } from '../../src/core/text.js';
import { hasDate } from '../../src/core/dates.js';

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
  /** Drop runs of link-only segments (navigation, "most read", related-story lists; seed 004 §3).
   * Default true. */
  dropLinkLists?: boolean;
  /** Segments in a row that make a link list. */
  minLinkRun?: number;
  /** Share of a segment's characters inside links above which it is link-only. */
  linkShare?: number;
}

/**
 * Han share threshold. Seed 001 leaves it open ("greater than a certain threshold"). Measured on the
 * content gold of `articles/cwce-zh` (4,401 gold lines of ≥ 2 chars): the Han share among
 * non-space characters is ≥ 0.094 for 98% of them and ≥ 0.327 for 95% (the low ones are times,
 * phone numbers, English titles in a programme). At 0.3, 5% of real lines would go; at 0.1 the
 * Han rule keeps 98% and the rest go through the language-independent rules below.
 */
export const DEFAULT_HAN_THRESHOLD = 0.1;
/**
 * Stop-word density for prose-length segments (jusText's "stopwords_low" is 0.30 with its own
 * lists). Measured on the `sites/` gold lines of ≥ 12 words (stopwords-iso `en`): 1st percentile
 * 0.30, 5th 0.385, median 0.56. 0.15 is half the 1st percentile: only text with almost no function
 * words goes (keyword lists, tag clouds, serialized data).
 */
export const DEFAULT_STOPWORD_THRESHOLD = 0.15;
/** Segments with at least this many words are judged by stop-word density (short lines — titles,
 * list items, captions — have too few words for a density to mean anything). */
export const PROSE_MIN_WORDS = 12;
/**
 * Share of code symbols ({}[];=<>$\|&^~`) among non-space characters above which a segment reads
 * as code/markup, not language. Parentheses, #, *, % and @ are left out: prose and Chinese
 * headings use them ("(2)、两名副教授(或相当职称、)…" was dropped with them in). Prose has almost
 * none of the rest; minified JS and CSS have 10–25%.
 */
export const CODE_SYMBOL_SHARE = 0.1;
/** Fewer code symbols than this never make code by share alone: "#10 Plan vacations (now)" and
 * "(1a) 微观经济学I" are headings (both were dropped by the share test alone in the gold of
 * `sites/` and `articles/cwce-zh`). A statement has at least `x=(…);`. */
export const MIN_CODE_SYMBOLS = 4;
/** Letter-free lines up to this length are numbers, times or scores and are kept. */
export const MAX_NUMERIC_CHARS = 40;
/** A date line rescued from the code test is short (a byline, a timestamp bar). */
export const MAX_DATE_LINE_CHARS = 80;
/** Minimum share of letters among non-space characters of a segment that is not a date, a
 * username or a number: tracking strings, IDs and base64 are digit/symbol heavy. Of the 9,148
 * `sites/` gold lines, the letter-share and code rules drop 36, nearly all of them "---", "*",
 * '."' and a spec table row. */
export const MIN_LETTER_SHARE = 0.5;
/**
 * Link-only segments in a row that make a link list (see `linkListMask`). Measured on the site
 * groups (effective text F1; bench:templates sweep): off 0.839; run ≥ 2 → 0.889, ≥ 3 → 0.885,
 * ≥ 4 → 0.881, ≥ 6 → 0.873 (link share 0.5). 3 rather than 2: a two-item list of links inside an
 * article ("Read the report / Watch the video") survives, for 0.004.
 */
export const DEFAULT_MIN_LINK_RUN = 3;
/** A segment is link-only when this share of its characters sits inside `<a href>`. Same sweep:
 * 0.5 → 0.885, 0.75 → 0.880, 0.95 → 0.875 (teaser lines are a linked title plus a few words). */
export const DEFAULT_LINK_SHARE = 0.5;
/** A prose-length segment with at least one comma per this many words is an enumeration (names,
 * places): 2 of the 4 gold lines the stop-word rule dropped in `sites/` (1 comma per 2–3 words). */
export const ENUMERATION_WORDS_PER_COMMA = 4;
/** A username is short (forum and comment handles; seed 001 rule 2). */
export const MAX_USERNAME_CHARS = 30;

const DIGIT = /\p{N}/u;
const COMMA = /[,，、]/g;
const USERNAME = /^[\p{Script=Han}\p{L}\p{N}_]+$/u;
const CODE_SYMBOLS = /[{}[\];=<>$\\|&^~`]/g;
const LETTERS = /\p{L}/gu;
const HAN = /\p{Script=Han}/gu;
const CJK_OTHER = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** Code-ish tokens that no prose holds (function calls with braces, statements, tags). Linear
 * time: every `\w+` that is not after a literal starts at a word boundary (`\b`), so a space-free
 * run is scanned once; unanchored, `\w+\.\w+\(` retried from each of its characters and was
 * quadratic in the run (issue 14: an 80 KB one-word paragraph took 3.2 s, 1 MB > 120 s). */
const CODE_TOKENS = /function\s*\(|=>|\bvar\s+\w+\s*=|\bconst\s+\w+\s*=|\blet\s+\w+\s*=|<\/?[a-z][a-z0-9]*[\s>]|\}\s*\)|;\s*\}|\b\w+\.\w+\([^()]{0,200}\)\s*;|document\.write|window\.\w+/i;
/** Every code token above holds one of these characters or names `window.` / `document.write`: a
 * text without them is not tested further (the full pattern cost 2.4 % of the crawl chain's CPU,
 * the two scans ~5x less on prose). */
const CODE_CHARS = /[(=<};]/;
const CODE_NAMES = /window\.|document\.write/i;
const hasCodeTokens = (text: string): boolean => (CODE_CHARS.test(text) || CODE_NAMES.test(text)) && CODE_TOKENS.test(text);

/** Counts of one-code-point classes (src/core/text.ts codePointCounter: a table, not a match array). */
const countCodeSymbols = codePointCounter(CODE_SYMBOLS);
const countLetters = codePointCounter(LETTERS);
const countHan = codePointCounter(HAN);
const countCjkOther = codePointCounter(CJK_OTHER);
const countComma = codePointCounter(COMMA);

/** Non-space characters of a whitespace-collapsed segment text. */
function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 32) n++;
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
  const chars = nonSpace(text);
  if (!chars) return false;
  const symbols = countCodeSymbols(text);
  if (symbols >= MIN_CODE_SYMBOLS && symbols / chars > CODE_SYMBOL_SHARE) return true;
  return hasCodeTokens(text);
}

export function isUsername(text: string): boolean {
  return text.length <= MAX_USERNAME_CHARS && USERNAME.test(text);
}

export interface SegmentVerdict {
  keep: boolean;
  /** The rule that decided. */
  rule: 'date' | 'username' | 'number' | 'han' | 'prose' | 'short' | 'code' | 'not-language';
}

/** The verdict for one segment's text. */
export function judgeSegment(text: string, mode: FilterMode, options: FilterOptions = {}): SegmentVerdict {
  // Rule 2 first: it is the cheapest and a single token cannot be code.
  if (isUsername(text)) return { keep: true, rule: 'username' };
  const chars = nonSpace(text);
  if (!chars) return { keep: false, rule: 'not-language' };
  const letters = countLetters(text);
  // Numbers, times, scores, phone numbers ("8:30－8:50", "3-1", "010-8448 8961"): no letters, so
  // no code either, and they are content in programmes, tables and sports reports.
  if (!letters && text.length <= MAX_NUMERIC_CHARS && DIGIT.test(text)) return { keep: true, rule: 'number' };
  if (mode === 'han' || mode === 'cjk') {
    // Rule 3 (seed 001): a Chinese page's content is Chinese.
    const cjk = countHan(text) + (mode === 'cjk' ? countCjkOther(text) : 0);
    // Only code *tokens* veto: brackets and semicolons are ordinary in Chinese references and
    // headings ("[6] 程艳霞. 现代物流管理理论[M]. 武汉: …").
    if (cjk / chars >= (options.hanThreshold ?? DEFAULT_HAN_THRESHOLD) && !hasCodeTokens(text)) return { keep: true, rule: 'han' };
  }
  if (looksLikeCode(text)) {
    // a date line is never code ("Posted 2017-04-15 | 3 comments" has a "|")
    if (text.length < MAX_DATE_LINE_CHARS && hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
    return { keep: false, rule: 'code' };
  }
  if (letters / chars < MIN_LETTER_SHARE) {
    if (hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
    return { keep: false, rule: 'not-language' };
  }
  // Not Han (on a Chinese page: English lines of a programme, a quoted title) or another
  // language: the language-independent test. Short lines pass (headings, list items, captions,
  // bylines: too few words for a density), prose-length ones need stop words of their language.
  const ws = words(text);
  if (ws.length < PROSE_MIN_WORDS) return { keep: true, rule: 'short' };
  let lang = options.lang?.split('-')[0];
  if (mode !== 'language' || !lang || !stopwords(lang).size) lang = detectLang(text);
  const list = lang ? stopwords(lang) : undefined;
  if (!list?.size) return { keep: true, rule: 'short' };
  const threshold = options.stopwordThreshold ?? DEFAULT_STOPWORD_THRESHOLD;
  if (density(ws, list) >= threshold) return { keep: true, rule: 'prose' };
  // a quotation in another language than the page's: judge it with its own stop words
  const own = detectLang(text);
  if (own && own !== lang && stopwords(own).size && density(ws, stopwords(own)) >= threshold) return { keep: true, rule: 'prose' };
  // An enumeration of names is language without function words ("CNN's Anderson Cooper, Kathleen
  // Koch, David Mattingly … contributed to this report"; a list of countries): commas give it away.
  if (countComma(text) * ENUMERATION_WORDS_PER_COMMA >= ws.length) return { keep: true, rule: 'prose' };
  if (hasDate(text, { now: options.now })) return { keep: true, rule: 'date' };
  return { keep: false, rule: 'not-language' };
}

/**
 * Runs of link-only segments: after the template is gone, what still varies between pages and is
 * not content is mostly lists of links to other pages (most read, related, latest headlines), which
 * differ from page to page because they were crawled at different times. Seed 004 §3 (block
 * analysis) drops blocks whose link text outweighs their other text. A single link-only line is
 * kept: a blog headline is often a link to itself.
 */
export function linkListMask<T extends { text: string; linkChars?: number }>(segments: readonly T[], minRun = DEFAULT_MIN_LINK_RUN, linkShare = DEFAULT_LINK_SHARE): boolean[] {
  const drop = new Array<boolean>(segments.length).fill(false);
  let start = 0;
  for (let i = 0; i <= segments.length; i++) {
    const s = segments[i];
    const linky = s !== undefined && (s.linkChars ?? 0) >= linkShare * s.text.length;
    if (linky) continue;
    if (i - start >= minRun) for (let j = start; j < i; j++) drop[j] = true;
    start = i + 1;
  }
  return drop;
}

/** Stop-word density of words already split (as `stopwordDensity`). */
function density(ws: string[], list: Set<string>): number {
  let n = 0;
  for (const w of ws) if (list.has(w)) n++;
  return ws.length ? n / ws.length : 0;
}

/** Keep the segments that pass the rules (pure; segments keep their order and DFS indices). */
export function filterSegments<T extends { text: string; linkChars?: number }>(segments: readonly T[], options: FilterOptions = {}): T[] {
  if (!segments.length) return [];
  const mode = options.mode ?? filterModeFor(options.lang, segments.slice(0, 200).map((s) => s.text).join(' '));
  const drop = options.dropLinkLists === false ? undefined : linkListMask(segments, options.minLinkRun, options.linkShare);
  return segments.filter((s, i) => !drop?.[i] && judgeSegment(s.text, mode, options).keep);
}
