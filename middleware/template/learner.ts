/**
 * Site template learner (seed 001, "crawlers for general websites"; ALGORITHMS.md §1).
 *
 * A page is the set of its text-bearing nodes, each written as "tag path + text" (tag names only:
 * ids and classes vary on purpose). The site's standard template is what its pages share; the
 * effective text of a page is the page minus the template.
 *
 * Two template definitions are kept from the same counts:
 * - `strict`: the seed's intersection — a key seen on every observed page;
 * - `support` (default): a key seen on at least θ of the site's pages. A strict intersection
 *   shrinks as soon as one page lacks a nav item or a footer line; the support form is robust to
 *   that and to the odd page of another type under the same host.
 *
 * Streaming: the template exists from the second page on and is refined with every page.
 * Memory per site is bounded: keys are 53-bit hashes of path+text, at most `maxKeys` of them are
 * counted (the rarest are evicted), and counts decay by halving every `window` pages so that a
 * template line added late still reaches the threshold.
 * A layout change is noticed when several pages in a row share little with the template; the
 * learner then restarts from those pages (re-learning).
 *
 * Serialisation (`toJSON` / `fromJSON`) keeps the state in a site's JSON store across crawls.
 */

/** Anything with text segments: a `Page`, or a test double. */
export interface SegmentLike {
  path: string;
  text: string;
}
export interface PageLike {
  segments: readonly SegmentLike[];
  url?: string;
}

export type TemplateMode = 'support' | 'strict';

export interface TemplateLearnerOptions {
  /** `support` (key on ≥ θ of the pages) or `strict` (key on every page, the seed's intersection). */
  mode?: TemplateMode;
  /** How the tag path enters a key (see PathMode). */
  pathMode?: PathMode;
  /** θ of the support mode. */
  threshold?: number;
  /** Counted keys kept per site (memory bound). */
  maxKeys?: number;
  /** Counts and the page count are halved each time the page count reaches 2 × window. */
  window?: number;
  /** A page whose share of template keys is below this is a stale-template suspect. */
  staleCoverage?: number;
  /** Consecutive suspects that trigger re-learning from them. */
  stalePages?: number;
}

/**
 * θ of the support template. Measured with `npm run bench:templates` (θ sweep of the effective
 * text over 502 pages in 49 same-site groups): 0.5 and 0.6 tie at the top; strict intersection is
 * ~0.1 F1 lower because one missing nav line per page keeps it in the "content". 0.5 = "on at
 * least half of the site's pages".
 */
export const DEFAULT_SUPPORT_THRESHOLD = 0.2;
/** A key must be seen on at least this many distinct pages to be template (seed: intersection of
 * at least two pages). */
export const MIN_SUPPORT_PAGES = 2;
/** Pages needed before a template is used at all (seed: "at the beginning we use two pages"). */
export const MIN_TEMPLATE_PAGES = 2;
/** Counted keys per site. A news page has 100–600 distinct segments, of which 50–300 are
 * template; 4,000 keys hold the template plus the content of the last ~10–20 pages, which is what
 * a key needs to reach support before it could be evicted. ~40 bytes a key → ~160 KB a site. */
export const DEFAULT_MAX_KEYS = 4000;
/** Decay window (pages). A nav line added at page 1,000 reaches θ = 0.5 within ~window pages
 * instead of never. Large enough that a seasonal line does not flip in and out. */
export const DEFAULT_WINDOW = 64;
/** Coverage = share of the template's keys found on a page. Measured on the 49 site groups: pages
 * of the same layout have coverage ≥ 0.45 (median 0.9); a page of another site/layout has < 0.1. */
export const DEFAULT_STALE_COVERAGE = 0.2;
/** Three low-coverage pages in a row mean a redesign, not an odd page (a single error page or a
 * list page under the same host should not discard the template). */
export const DEFAULT_STALE_PAGES = 3;
/** Distinct page fingerprints remembered to ignore the same page seen twice. */
export const FINGERPRINT_MEMORY = 256;
/** Halving drops keys whose count falls below this (they were seen on < 1 page of the window). */
const MIN_KEPT_COUNT = 0.5;

/** FNV-1a over a string (UTF-16 code units), 32-bit, with a seed offset. */
function fnv1a(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_OFFSET_2 = 0x2545f491;

/**
 * How much of the tag path goes into a key. The seed uses the full path; measured on the site
 * groups, pages of one site often differ by a wrapper `div` (an ad slot, a "breaking news" bar),
 * which shifts every path below it. `collapsed` merges runs of the same tag (`div/div/div` →
 * `div`), keeping the tag names and their order; `suffix` keeps the last SUFFIX_TAGS tags; `text`
 * ignores the path.
 */
export type PathMode = 'full' | 'collapsed' | 'suffix' | 'text';
export const DEFAULT_PATH_MODE: PathMode = 'collapsed';
/** Tags kept by the `suffix` path mode. */
export const SUFFIX_TAGS = 3;

export function normalisePath(path: string, mode: PathMode): string {
  switch (mode) {
    case 'full':
      return path;
    case 'text':
      return '';
    case 'suffix':
      return path.split('/').slice(-SUFFIX_TAGS).join('/');
    case 'collapsed': {
      const parts = path.split('/');
      const out: string[] = [];
      for (const p of parts) if (out[out.length - 1] !== p) out.push(p);
      return out.join('/');
    }
  }
}

/** 53-bit key of a segment: two independent 32-bit hashes folded into a safe integer. Collisions
 * among the ≤ 4,000 keys of a site: ~1e-9. */
export function segmentKey(path: string, text: string, mode: PathMode = DEFAULT_PATH_MODE): number {
  const s = normalisePath(path, mode) + '\u0000' + text;
  const a = fnv1a(s, FNV_OFFSET);
  const b = fnv1a(s, FNV_OFFSET_2) & 0x1fffff;
  return a * 0x200000 + b;
}

/** Keys of segment objects, computed once per path mode: the learner (observe) and the set
 * difference (subtract) hash the same segments of a page. */
const keyCaches: Record<PathMode, WeakMap<SegmentLike, number>> = { full: new WeakMap(), collapsed: new WeakMap(), suffix: new WeakMap(), text: new WeakMap() };
export function keyOf(s: SegmentLike, mode: PathMode = DEFAULT_PATH_MODE): number {
  const cache = keyCaches[mode];
  let k = cache.get(s);
  if (k === undefined) {
    k = segmentKey(s.path, s.text, mode);
    cache.set(s, k);
  }
  return k;
}

/** The distinct keys of a page. */
export function pageKeys(page: PageLike, mode: PathMode = DEFAULT_PATH_MODE): Set<number> {
  const keys = new Set<number>();
  for (const s of page.segments) keys.add(keyOf(s, mode));
  return keys;
}

/** Order-independent fingerprint of a key set (sum and xor of the keys' halves). */
function fingerprint(keys: Set<number>): string {
  let sum = 0;
  let x = 0;
  for (const k of keys) {
    const lo = k % 0x100000000;
    sum = (sum + lo) % 0x100000000;
    x = (x ^ Math.floor(k / 0x800)) >>> 0;
  }
  return `${keys.size.toString(36)}.${sum.toString(36)}.${x.toString(36)}`;
}

export interface ObserveResult {
  /** Why the page was not counted, if it was not. */
  skipped?: 'duplicate' | 'empty';
  /** Share of the template (before this page) found on the page; undefined without a template. */
  coverage?: number;
  /** The page completed a run of low-coverage pages and the learner restarted from them. */
  relearned?: boolean;
}

export interface TemplateJSON {
  v: 1;
  mode: TemplateMode;
  pathMode: PathMode;
  threshold: number;
  pages: number;
  observed: number;
  relearned: number;
  /** [key, count] pairs; counts rounded to 1/1000. */
  keys: Array<[number, number]>;
  fingerprints: string[];
  suspects: number[][];
}

export class TemplateLearner {
  readonly mode: TemplateMode;
  readonly pathMode: PathMode;
  readonly threshold: number;
  readonly maxKeys: number;
  readonly window: number;
  readonly staleCoverage: number;
  readonly stalePages: number;
  /** Pages counted (after decay, may be fractional). */
  private pages = 0;
  /** Pages observed since the start (not decayed). */
  observed = 0;
  /** Times the learner restarted after a layout change. */
  relearnedCount = 0;
  private counts = new Map<number, number>();
  private fingerprints: string[] = [];
  private fingerprintSet = new Set<string>();
  private suspects: number[][] = [];
  private cache: Set<number> | null = null;

  constructor(options: TemplateLearnerOptions = {}) {
    this.mode = options.mode ?? 'support';
    this.pathMode = options.pathMode ?? DEFAULT_PATH_MODE;
    this.threshold = options.threshold ?? DEFAULT_SUPPORT_THRESHOLD;
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.window = options.window ?? DEFAULT_WINDOW;
    this.staleCoverage = options.staleCoverage ?? DEFAULT_STALE_COVERAGE;
    this.stalePages = options.stalePages ?? DEFAULT_STALE_PAGES;
  }

  /** Pages currently counted (decayed). */
  get pageCount(): number {
    return this.pages;
  }

  /** Keys currently counted. */
  get keyCount(): number {
    return this.counts.size;
  }

  /** A template with enough support exists. */
  get ready(): boolean {
    return this.pages >= MIN_TEMPLATE_PAGES && this.template().size > 0;
  }

  /** Count a page. Returns whether it was counted and how well it matched the template. */
  observe(page: PageLike): ObserveResult {
    const keys = pageKeys(page, this.pathMode);
    if (!keys.size) return { skipped: 'empty' };
    const fp = fingerprint(keys);
    if (this.fingerprintSet.has(fp)) return { skipped: 'duplicate' };
    this.rememberFingerprint(fp);
    this.observed++;
    const result: ObserveResult = {};
    if (this.ready) {
      const cov = this.coverageOfKeys(keys);
      result.coverage = cov;
      if (cov < this.staleCoverage) {
        this.suspects.push([...keys]);
        if (this.suspects.length >= this.stalePages) {
          this.restartFrom(this.suspects);
          this.suspects = [];
          this.relearnedCount++;
          result.relearned = true;
          return result;
        }
      } else this.suspects = [];
    }
    this.add(keys);
    return result;
  }

  /** Share of the current template's keys present on a page (1 when there is no template). */
  coverage(page: PageLike): number {
    return this.coverageOfKeys(pageKeys(page, this.pathMode));
  }

  /** The template: keys of path+text judged boilerplate. Cached until the next observation. */
  template(): Set<number> {
    if (this.cache) return this.cache;
    const out = new Set<number>();
    if (this.pages >= MIN_TEMPLATE_PAGES) {
      // strict: on every counted page (counts and pages decay alike, so equality survives decay up
      // to rounding); support: on ≥ θ of them.
      const need = (this.mode === 'strict' ? this.pages : Math.max(MIN_SUPPORT_PAGES, this.threshold * this.pages)) - 1e-6;
      for (const [k, c] of this.counts) if (c >= need) out.add(k);
    }
    this.cache = out;
    return out;
  }

  /** Whether a segment (path, text) is template. */
  has(path: string, text: string): boolean {
    return this.template().has(segmentKey(path, text, this.pathMode));
  }

  /** Whether a segment object is template (its key is cached). */
  hasSegment(s: SegmentLike): boolean {
    return this.template().has(keyOf(s, this.pathMode));
  }

  /** Support of a segment: share of the counted pages that hold it. */
  support(path: string, text: string): number {
    return this.pages ? (this.counts.get(segmentKey(path, text, this.pathMode)) ?? 0) / this.pages : 0;
  }

  toJSON(): TemplateJSON {
    return {
      v: 1,
      mode: this.mode,
      pathMode: this.pathMode,
      threshold: this.threshold,
      pages: Math.round(this.pages * 1000) / 1000,
      observed: this.observed,
      relearned: this.relearnedCount,
      keys: [...this.counts].map(([k, c]) => [k, Math.round(c * 1000) / 1000]),
      fingerprints: [...this.fingerprints],
      suspects: this.suspects.map((s) => [...s]),
    };
  }

  /** Rebuild from `toJSON()` output; undefined when the value is not a template of this version.
   * Options given here override the stored mode/threshold (a crawl may change them). */
  static fromJSON(value: unknown, options: TemplateLearnerOptions = {}): TemplateLearner | undefined {
    if (!value || typeof value !== 'object') return undefined;
    const j = value as Partial<TemplateJSON>;
    if (j.v !== 1 || !Array.isArray(j.keys) || typeof j.pages !== 'number') return undefined;
    const t = new TemplateLearner({ mode: j.mode, threshold: j.threshold, pathMode: j.pathMode, ...options });
    // keys hashed under another path mode mean nothing under this one: start afresh
    if (t.pathMode !== (j.pathMode ?? DEFAULT_PATH_MODE)) return t;
    t.pages = j.pages;
    t.observed = typeof j.observed === 'number' ? j.observed : Math.round(j.pages);
    t.relearnedCount = typeof j.relearned === 'number' ? j.relearned : 0;
    for (const e of j.keys) {
      if (Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'number') t.counts.set(e[0], e[1]);
    }
    for (const fp of j.fingerprints ?? []) if (typeof fp === 'string') t.rememberFingerprint(fp);
    t.suspects = (j.suspects ?? []).filter((s) => Array.isArray(s)).map((s) => s.filter((k) => typeof k === 'number'));
    return t;
  }

  private coverageOfKeys(keys: Set<number>): number {
    const tpl = this.template();
    if (!tpl.size) return 1;
    let hit = 0;
    for (const k of tpl) if (keys.has(k)) hit++;
    return hit / tpl.size;
  }

  private add(keys: Iterable<number>): void {
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.pages++;
    this.cache = null;
    if (this.pages >= 2 * this.window) this.decay();
    if (this.counts.size > this.maxKeys) this.evict();
  }

  /** Halve every count and the page count: recent pages weigh more, shares are unchanged. */
  private decay(): void {
    this.pages /= 2;
    for (const [k, c] of this.counts) {
      const h = c / 2;
      if (h < MIN_KEPT_COUNT) this.counts.delete(k);
      else this.counts.set(k, h);
    }
  }

  /** Drop the rarest keys down to 3/4 of the cap (amortised: eviction runs every few pages, not
   * every page). Map iteration is insertion order, so among equal counts the oldest go first. */
  private evict(): void {
    const target = Math.floor(this.maxKeys * 0.75);
    const byCount = [...this.counts].sort((a, b) => a[1] - b[1]);
    const drop = this.counts.size - target;
    for (let i = 0; i < drop; i++) this.counts.delete(byCount[i]![0]);
  }

  private restartFrom(pages: number[][]): void {
    this.counts.clear();
    this.pages = 0;
    for (const p of pages) this.add(p);
    this.cache = null;
  }

  private rememberFingerprint(fp: string): void {
    this.fingerprints.push(fp);
    this.fingerprintSet.add(fp);
    if (this.fingerprints.length > FINGERPRINT_MEMORY) this.fingerprintSet.delete(this.fingerprints.shift()!);
  }
}
