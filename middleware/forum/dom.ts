/**
 * What the floor splitter adds to the page index (src/core/page-index.ts): sentence punctuation
 * and noise per segment as range queries, and small structural helpers (class tokens, id
 * patterns, relative paths). All passes are iterative (no recursion over the DOM).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { pageIndex, rangeOf, rangeChars, rangeNonLinkChars, segSpan, type PageIndex, type Range } from '../../src/core/page-index.js';
import { BLOCK_TAGS, SKIP_TAGS } from '../../src/core/page.js';
import { SENTENCE_MARKS, LABEL_MARKS, codeUnitMatcher } from '../../src/core/text.js';
import { cachedByString } from '../../src/core/string-cache.js';

/** The core's sentence marks without the label marks (colons end "Posted:", "发表于："), split by
 * script: the Latin ones are read in context below. */
const LATIN_MARKS = [...SENTENCE_MARKS].filter((c) => !LABEL_MARKS.includes(c) && c.charCodeAt(0) < 0x3000).join('');
// the ellipsis is written in CJK text too (……), where it counts without Latin context
const CJK_MARKS = [...SENTENCE_MARKS].filter((c) => !LABEL_MARKS.includes(c) && (c.charCodeAt(0) >= 0x3000 || c === '…')).join('');

/** Sentence punctuation (seed 003 §2.3: commas and full stops mark post text; signatures and
 * buttons rarely have any). CJK marks always count; a Latin mark counts when it follows a letter
 * or closing quote (French puts a space before `!`) and ends the word (so `1.599`, `2. Juli 2007`,
 * `2,5m` in user panels do not); a run (`..`, `?!`) is one mark. */
export const CONTENT_PUNCT = new RegExp(`(?<=[\\p{L})"'’”]\\s?)[${LATIN_MARKS}]+(?=[\\s"'’”)]|$)|[${CJK_MARKS}]`, 'gu');

/** Noise inside a floor (seed 003 §2.3: signatures and buttons rarely carry content). Class/id
 * words of board templates; quotes are content and never noise. */
export const NOISE_HINT = /(signature|(^|[\s_-])sig($|[\s_-])|postbit_?sig|button|btn|toolbar|post-?actions|post-?controls|quick-?reply|share-?buttons|reactions?-?bar|likes?-?bar|like-?list)/i;

/** A noise element holds at most this share of the page's text (a post's buttons or signature
 * are a sliver of it; a wrapper holding half the page is layout, whatever its class says). */
export const NOISE_MAX_SHARE = 0.5;

/** The page index (src/core/page-index.ts) plus what floors need: sentence punctuation per segment
 * as prefix sums, and which segments sit inside noise (signatures, buttons). */
export interface ThreadIndex extends PageIndex {
  prePunct: Float64Array;
  /** Per segment: inside a noise element (signature, buttons). */
  noise: Uint8Array;
  /** Per segment: sentence punctuation of its text alone (`punctIn`), -1 until asked for
   * (`segmentPunct`). */
  segPunct: Int32Array;
}

/**
 * @param labelStarts DFS indices of segments that are date labels (short dated lines such as
 * "Ingo78, 10. April 2020"): their commas are metadata, not sentence punctuation.
 */
export function buildIndex(page: Page, labelStarts: ReadonlySet<number> = new Set()): ThreadIndex {
  const ix = pageIndex(page);
  const segments = ix.segments;
  const m = segments.length;
  const prePunct = new Float64Array(m + 1);
  const noise = new Uint8Array(m);
  const segPunct = new Int32Array(m).fill(-1);
  const memo = new Map<AnyNode, boolean>();
  const pageChars = ix.segments.length ? rangeChars(ix, { start: 0, end: page.nodes.length - 1 }) : 0;
  const isNoise = (el: AnyNode): boolean => {
    // Iterative with memo: walk up to the first known ancestor, then fill the chain.
    const chain: AnyNode[] = [];
    let n: AnyNode | null = el;
    let v = false;
    while (n) {
      const known = memo.get(n);
      if (known !== undefined) {
        v = known;
        break;
      }
      chain.push(n);
      n = n.parent;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k]!;
      if (!v && c instanceof Element && c.name !== 'body' && c.name !== 'html') {
        const a = `${c.attribs.class ?? ''} ${c.attribs.id ?? ''}`;
        // Buttons and signatures are small: an element holding most of the page is a layout
        // wrapper whose theme class happens to say so (`flat_buttons` on a page's root).
        if (a.length > 1 && NOISE_HINT.test(a) && !/quote/i.test(a) && rangeChars(ix, rangeOf(ix, c)) <= NOISE_MAX_SHARE * pageChars) v = true;
      }
      memo.set(c, v);
    }
    return v;
  };
  for (let i = 0; i < m; i++) {
    const s = segments[i]!;
    noise[i] = isNoise(s.element) ? 1 : 0;
    const counts = !noise[i] && s.linkChars < s.text.length / 2;
    // In a dated label line ("Ingo78, 10. April 2020") commas are metadata; a full stop or a
    // question mark of CJK text still ends a sentence ("路人甲：说得对。 2019-3-1 21:30").
    prePunct[i + 1] = prePunct[i]! + (!counts ? 0 : labelStarts.has(s.index) ? strongCjkPunct(s.text) : (segPunct[i] = punctIn(s.text)));
  }
  const tix: ThreadIndex = { ...ix, prePunct, noise, segPunct };
  markGuestPrompts(tix);
  return tix;
}

/** Links to a login or sign-up page. */
export const LOGIN_HREF = /(login|logging|log-in|signin|sign-in|sign_in|register|signup|sign-up|join\.php|登录|注册)/i;
/** A guest prompt ("You need to log in to view attachments. No account? Register") is a short
 * block around such a link; 150 characters holds the prompt and its heading, not a post. */
export const GUEST_PROMPT_MAX = 150;

/**
 * Board notices shown to visitors who are not logged in, inside the post body of a saved page:
 * the largest ancestor of a login/sign-up link that stays under GUEST_PROMPT_MAX characters is
 * noise. Punctuation there no longer counts for content either.
 */
function markGuestPrompts(ix: ThreadIndex): void {
  const { page } = ix;
  let changed = false;
  for (let i = 0; i < page.nodes.length; i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || n.name !== 'a' || !n.attribs.href || !LOGIN_HREF.test(n.attribs.href)) continue;
    // The link sits in a sentence ("You need to log in to view…"), not in a bar of buttons
    // (a guest's "Reply" leads to the login page too).
    let block: AnyNode | null = n.parent;
    while (block instanceof Element && !BLOCK_TAGS.has(block.name)) block = block.parent;
    if (!(block instanceof Element)) continue;
    const br = rangeOf(ix, block);
    const plain = rangeNonLinkChars(ix, br);
    if (plain < rangeChars(ix, br) - plain) continue;
    let top: Range | undefined;
    for (let p: AnyNode | null = n; p instanceof Element && p.name !== 'body'; p = p.parent) {
      const r = rangeOf(ix, p);
      if (rangeChars(ix, r) > GUEST_PROMPT_MAX) break;
      top = r;
    }
    if (!top) continue;
    const [a, b] = segSpan(ix, top);
    for (let k = a; k < b; k++) if (!ix.noise[k]) (ix.noise[k] = 2), (changed = true);
    i = top.end;
  }
  if (!changed) return;
  // Punctuation of the new noise no longer counts: one pass over the prefix sums.
  let prevOld = ix.prePunct[0]!;
  for (let k = 0; k < ix.segments.length; k++) {
    const oldNext = ix.prePunct[k + 1]!;
    const own = oldNext - prevOld;
    prevOld = oldNext;
    ix.prePunct[k + 1] = ix.prePunct[k]! + (ix.noise[k] === 2 ? 0 : own);
  }
}

const CJK_SENTENCE_END = /[。！？]/g;

function strongCjkPunct(text: string): number {
  return text.match(CJK_SENTENCE_END)?.length ?? 0;
}

export function punctIn(text: string): number {
  CONTENT_PUNCT.lastIndex = 0;
  let k = 0;
  while (CONTENT_PUNCT.exec(text)) k++;
  return k;
}

/** `punctIn` of segment k's text, computed once per segment. */
export function segmentPunct(ix: ThreadIndex, k: number): number {
  let v = ix.segPunct[k]!;
  if (v < 0) ix.segPunct[k] = v = punctIn(ix.segments[k]!.text);
  return v;
}

const LATIN_MARK_START = new RegExp(`^[${LATIN_MARKS}]`);

/**
 * `punctIn` of lines joined by '\n' (a segment's text where `text` is undefined), from the lines'
 * own counts: a mark never spans lines, and only a Latin mark opening a line after the first reads
 * the line before it (its lookbehind: "word\n."), so then the joined text is counted as it is.
 */
export function linesPunct(ix: ThreadIndex, lines: ReadonlyArray<{ k: number; text?: string | undefined }>, joined: () => string): number {
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const t = l.text ?? ix.segments[l.k]!.text;
    if (i > 0 && LATIN_MARK_START.test(t)) return punctIn(joined());
    n += l.text !== undefined ? punctIn(l.text) : segmentPunct(ix, l.k);
  }
  return n;
}

export { lowerBound } from '../../src/core/positions.js';
export { rangeOf, segSpan, segmentsIn, contains, rangeNonLinkChars as nonLinkChars, rangeChars as chars, type Range } from '../../src/core/page-index.js';

export function punctMarks(ix: ThreadIndex, r: Range): number {
  const [a, b] = segSpan(ix, r);
  return ix.prePunct[b]! - ix.prePunct[a]!;
}

/** Element children that can hold content (no script/style). */
export function elementChildren(el: AnyNode): Element[] {
  const out: Element[] = [];
  if (!('children' in el)) return out;
  for (const c of (el as Element).children) if (c instanceof Element && !SKIP_TAGS.has(c.name)) out.push(c);
  return out;
}

/** The next sibling element that can hold content (as `elementChildren` lists them): O(gap), where
 * looking a sibling up in its parent's children costs the parent's size (issue 24: a 20,000-post
 * page went quadratic that way). */
export function nextElementSibling(el: AnyNode): Element | undefined {
  for (let n = el.next; n; n = n.next) if (n instanceof Element && !SKIP_TAGS.has(n.name)) return n;
  return undefined;
}

/** One floor: one or more consecutive sibling elements (or, from the peak fallback, a text range). */
export interface PostRecord {
  roots: Element[];
  range: Range;
  /** How it was found (for debugging and the bench's verbose mode). */
  via: 'siblings' | 'rows' | 'ids' | 'class' | 'layout' | 'headers' | 'peaks' | 'single';
  /** Replies inside this floor (comments under an answer, 楼中楼): records of an inner list that
   * names authors. Their text, authors and dates are theirs, not the floor's. */
  replies?: PostRecord[];
  /** What the replies occupy, with their list's label: left out of the floor's own fields. */
  replyArea?: Range[];
}

/** Two siblings belong to one structure when their digit-free class sets overlap at least this
 * much. 0.5 keeps `post bg1 firstpost` with `post bg2` (phpBB alternation) and separates
 * `post` from `signature`. */
export const CLASS_SIMILARITY = 0.5;
const DIGITS = /\d+/g;

const NO_TOKENS: readonly string[] = Object.freeze([]);

/** Class tokens with digits stripped (`bg1`/`bg2` → `bg`, `post-123` → `post-`). Shared and
 * frozen: one array per distinct class attribute (a page repeats a few dozen of them over
 * thousands of elements, and the splitter asks for them many times per element); remembered
 * across pages by the core's string cache (owned copies: no entry keeps a page's HTML). */
export function classTokens(el: Element): readonly string[] {
  const c = el.attribs.class;
  return c ? tokensOfClass(c) : NO_TOKENS;
}

/** A pure function of a class attribute returning a list, remembered (bounded) and frozen. */
export function frozenByString(f: (c: string) => string[]): (c: string) => readonly string[] {
  return cachedByString((c: string): readonly string[] => Object.freeze(f(c)));
}

/** classTokens of a class attribute. */
export const tokensOfClass = frozenByString((c) => splitClassTokens(c));

function splitClassTokens(c: string): string[] {
  const out: string[] = [];
  for (const t of c.split(/\s+/)) {
    const s = t.replace(DIGITS, '');
    if (s && s !== '-' && s !== '_') out.push(s.toLowerCase());
  }
  return [...new Set(out)].sort();
}

/** `post_123` → `post_#`; ids without digits are kept as they are. */
export function idPattern(el: Element): string | undefined {
  const id = el.attribs.id;
  if (!id) return undefined;
  return id.replace(DIGITS, '#');
}

/** One step of a structural path: tag plus digit-free classes (`div.message.post`). */
export function stepKey(el: Element): string {
  const cls = classTokens(el);
  return cls.length ? `${el.name}.${cls.join('.')}` : el.name;
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (!a.length && !b.length) return 1;
  let inter = 0;
  // (Class sets are short: a scan of b per token costs less than a set built per call.)
  if (b.length <= 16) {
    for (const x of a) if (b.includes(x)) inter++;
  } else {
    const sb = new Set(b);
    for (const x of a) if (sb.has(x)) inter++;
  }
  return inter / (a.length + b.length - inter);
}

/** Path of steps from `root` (exclusive) down to `el` (inclusive); undefined if not inside. */
export function relPath(root: Element, el: AnyNode): string | undefined {
  const steps: string[] = [];
  let n: AnyNode | null = el;
  while (n && n !== root) {
    if (n instanceof Element) steps.push(stepKey(n));
    n = n.parent;
  }
  if (n !== root) return undefined;
  return steps.reverse().join('/');
}

/** Whether any ancestor (up to `root`, exclusive) satisfies the test. */
export function hasAncestor(el: AnyNode, root: AnyNode | null, test: (e: Element) => boolean): boolean {
  for (let n: AnyNode | null = el; n && n !== root; n = n.parent) {
    if (n instanceof Element && test(n)) return true;
  }
  return false;
}

/** Whether a UTF-16 code unit is one `\s` matches (the core's table of the class). */
export const isSpaceCode = codeUnitMatcher(/\s/);

/**
 * A 32-bit hash of `t.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()` (a text with its numbers
 * masked), computed in one pass without building that string: equal masked texts hash equal.
 */
export function maskedHash(t: string): number {
  let h = 0;
  let started = false;
  let space = false;
  let digit = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digit) continue;
      digit = true;
      if (space && started) h = (Math.imul(h, 31) + 32) | 0;
      space = false;
      h = (Math.imul(h, 31) + 35) | 0;
      started = true;
      continue;
    }
    digit = false;
    if (isSpaceCode(c)) {
      space = true;
      continue;
    }
    if (space && started) h = (Math.imul(h, 31) + 32) | 0;
    space = false;
    h = (Math.imul(h, 31) + c) | 0;
    started = true;
  }
  return h;
}

/** Whether a text holds at most `n` characters besides white space (`\s`). */
export function solidAtMost(t: string, n: number): boolean {
  if (t.length <= n) return true;
  let k = 0;
  for (let i = 0; i < t.length; i++) if (!isSpaceCode(t.charCodeAt(i)) && ++k > n) return false;
  return true;
}
