/**
 * Site template learner (seed 001, "crawlers for general websites"; sources §1).
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
 * Layouts: a page that fits none of the site's known layouts (it shows < 20% of their stable
 * chrome) starts a new one, whose template exists from its second page on. That is how a
 * redesign is noticed and re-learned, and how a host that serves several kinds of pages
 * (articles, galleries, video pages) gets a template per kind; a layout no page has matched for
 * a long while is forgotten.
 *
 * Serialisation (`toJSON` / `fromJSON`) keeps the state in a site's JSON store across crawls.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { cachedByString } from '../../src/core/string-cache.js';

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
  /** A page matching no layout at least this well starts a new layout (see DEFAULT_STALE_COVERAGE). */
  staleCoverage?: number;
  /** Layouts kept per site. */
  maxLayouts?: number;
  /** A layout not matched by any of the last `staleAfter` pages is forgotten. */
  staleAfter?: number;
}

/**
 * θ of the support template. Measured with `npm run bench:templates` (effective text + rule
 * filters, 502 pages in 48 same-site groups of 2–30 pages, content F1): θ 0.1 → 0.886, 0.2 →
 * 0.885, 0.3 → 0.873, 0.5 → 0.862, 0.8 → 0.841, strict intersection 0.822. Lower θ removes
 * rotating sidebars ("most read", ads) that show on a few pages each, at almost no recall cost
 * (0.958 → 0.954 from θ 0.8 to 0.1). 0.2 rather than 0.1: the same F1, and a safer margin against
 * syndicated lines of real content on large sites (a line must be on one page in five).
 */
export const DEFAULT_SUPPORT_THRESHOLD = 0.2;
/** A key must be seen on at least this many distinct pages to be template (seed: intersection of
 * at least two pages). */
export const MIN_SUPPORT_PAGES = 2;
/** Pages needed before a template is used at all (seed: "at the beginning we use two pages"). */
export const MIN_TEMPLATE_PAGES = 2;
/** Counted keys per layout. A news page has 100–600 distinct segments, of which 50–300 are
 * template; 4,000 keys hold the template plus the content of the last ~10–20 pages, which is what
 * a key needs to reach support before it could be evicted. In memory ~60 bytes a key (Map entry),
 * stored ~12 bytes a key. */
export const DEFAULT_MAX_KEYS = 4000;
/** Decay window (pages). A nav line added at page 1,000 reaches θ within ~window pages instead of
 * never. Large enough that a seasonal line does not flip in and out. */
export const DEFAULT_WINDOW = 64;
/** A page joins the layout whose core chrome (keys on ≥ CORE_SUPPORT of its pages) it shows best,
 * when it shows at least this share of it; else it starts a new layout (a redesign, another kind
 * of page). For a one-page layout the match is the share of the smaller page's lines the two
 * share. Measured on the 48 site groups: pairs of pages from different sites share ≤ 0.06 of
 * their lines (90th percentile), pairs of one layout typically 0.45–0.65; 0.2 sits between.
 */
export const DEFAULT_STALE_COVERAGE = 0.2;
/** Support that makes a key part of a layout's core chrome (on at least half of its pages). */
export const CORE_SUPPORT = 0.5;
/** Layouts kept per site: article, gallery/video and list pages of a portal, plus room for a
 * redesign while the old look still appears in the frontier. Memory per site ≤ maxLayouts × maxKeys. */
export const DEFAULT_MAX_LAYOUTS = 4;
/** A layout unseen for this many pages is forgotten (a redesign's old look; 4 decay windows). */
export const DEFAULT_STALE_AFTER = 256;
/** Distinct page fingerprints remembered to ignore the same page seen twice. */
export const FINGERPRINT_MEMORY = 256;
/** Halving drops keys whose count falls below this (they were seen on < 1 page of the window). */
const MIN_KEPT_COUNT = 0.5;

/** Seeds of the two FNV-1a hashes (32-bit, over UTF-16 code units) a segment key folds. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_OFFSET_2 = 0x2545f491;

/**
 * How much of the tag path goes into a key. The seed uses the full path, but pages of one site
 * often differ by a wrapper `div` (an ad slot, a "breaking news" bar) that shifts every path below
 * it (seen in the washingtonpost blog group: the whole nav one `div` deeper on half the pages).
 * `collapsed` merges runs of the same tag (`div/div/div` → `div`), keeping the tag names and their
 * order; `suffix` keeps the last SUFFIX_TAGS tags; `text` ignores the path. Effective-text F1 with
 * link lists filtered: full 0.884, collapsed 0.885, suffix 0.886, text 0.886 (bench:templates) —
 * a tie once link lists go; `collapsed` is the default because it keeps the seed's structure (a
 * "Home" in the footer and one in the article stay distinct).
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
    case 'collapsed':
      return collapsedPath(path);
  }
}

/** `div/div/p` → `div/p` (runs of one tag folded), once per distinct path: pages repeat their
 * paths, and the template keys of every segment of every page read them. */
const collapsedPath = cachedByString((path: string): string => {
  const parts = path.split('/');
  const out: string[] = [];
  for (const p of parts) if (out[out.length - 1] !== p) out.push(p);
  return out.join('/');
});

/** 53-bit key of a segment: two independent 32-bit hashes folded into a safe integer. Collisions
 * among the ≤ 4,000 keys of a site: ~1e-9. */
export function segmentKey(path: string, text: string, mode: PathMode = DEFAULT_PATH_MODE): number {
  // both FNV-1a hashes of `normalisedPath + '\u0000' + text` in one pass, without building it
  const np = normalisePath(path, mode);
  let a = FNV_OFFSET >>> 0;
  let b = FNV_OFFSET_2 >>> 0;
  for (let i = 0; i < np.length; i++) {
    const c = np.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  a = Math.imul(a, 0x01000193); // the separator (char code 0: the xor leaves the hash as it is)
  b = Math.imul(b, 0x01000193);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** Key of a segment object (uncached; a learner caches the keys of the segments it sees). */
export function keyOf(s: SegmentLike, mode: PathMode = DEFAULT_PATH_MODE): number {
  return segmentKey(s.path, s.text, mode);
}

/** Order-independent fingerprint of a key set (sum and xor of the keys' halves). */
function fingerprint(keys: ReadonlySet<number>): string {
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
  /** Match of the page with the layout it joined (see `TemplateLearner.coverage`); undefined when
   * it started a new layout. */
  coverage?: number;
  /** Index of the layout the page was counted in. */
  layout?: number;
  /** The page completed a new layout's template while the site already had one: the site changed
   * its layout (or shows a new kind of page) and the learner has a template for it now. */
  relearned?: boolean;
}

interface LayoutJSON {
  pages: number;
  lastUsed: number;
  /** `key:count` pairs joined by `,`, keys in base 36, counts rounded to 1/1000: one string, so a
   * pretty-printing store does not spend a line per key (~12 bytes a key instead of ~40). */
  keys: string;
}

export interface TemplateJSON {
  v: 2;
  mode: TemplateMode;
  pathMode: PathMode;
  threshold: number;
  observed: number;
  relearned: number;
  layouts: LayoutJSON[];
  fingerprints: string[];
}

/**
 * One page layout of a site: key counts over the pages that share it. A site keyed by host often
 * serves several (articles, video pages, galleries, a redesign) — measured on the 48 site groups,
 * 10% of same-group page pairs share < 19% of their lines, pages of the same layout typically
 * 45–65%.
 */
class Layout {
  pages = 0;
  lastUsed = 0;
  counts = new Map<number, number>();
  private cache: Set<number> | null = null;
  private coreCache: number[] | null = null;

  constructor(private readonly owner: TemplateLearner) {}

  get ready(): boolean {
    return this.pages >= MIN_TEMPLATE_PAGES - 1e-6 && this.template().size > 0;
  }

  template(): Set<number> {
    if (this.cache) return this.cache;
    const out = new Set<number>();
    if (this.pages >= MIN_TEMPLATE_PAGES - 1e-6) {
      // strict: on every counted page (counts and pages decay alike, so equality survives decay
      // up to rounding); support: on ≥ θ of them, and on at least two pages.
      const need = (this.owner.mode === 'strict' ? this.pages : Math.max(MIN_SUPPORT_PAGES, this.owner.threshold * this.pages)) - 1e-6;
      for (const [k, c] of this.counts) if (c >= need) out.add(k);
    }
    this.cache = out;
    return out;
  }

  /** Keys on at least CORE_SUPPORT of the pages (the stable chrome): what a page of this layout
   * must show. A one-page layout's core is its page. */
  private core(): number[] {
    if (this.coreCache) return this.coreCache;
    const need = this.pages < MIN_TEMPLATE_PAGES - 1e-6 ? 0 : Math.max(MIN_SUPPORT_PAGES, CORE_SUPPORT * this.pages) - 1e-6;
    const out: number[] = [];
    for (const [k, c] of this.counts) if (c >= need) out.push(k);
    this.coreCache = out;
    return out;
  }

  /** How well a page fits: share of the core keys on the page; for a one-page layout, the share
   * of the smaller page's keys the two pages share. */
  match(keys: ReadonlySet<number>): number {
    const core = this.core();
    if (!core.length || !keys.size) return 0;
    let hit = 0;
    for (const k of core) if (keys.has(k)) hit++;
    return this.pages < MIN_TEMPLATE_PAGES - 1e-6 ? hit / Math.min(core.length, keys.size) : hit / core.length;
  }

  add(keys: Iterable<number>, now: number): void {
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.pages++;
    this.lastUsed = now;
    this.cache = null;
    this.coreCache = null;
    if (this.pages >= 2 * this.owner.window) this.decay();
    if (this.counts.size > this.owner.maxKeys) this.evict();
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
    const target = Math.floor(this.owner.maxKeys * 0.75);
    const byCount = [...this.counts].sort((a, b) => a[1] - b[1]);
    const drop = this.counts.size - target;
    for (let i = 0; i < drop; i++) this.counts.delete(byCount[i]![0]);
  }

  toJSON(): LayoutJSON {
    const parts: string[] = [];
    for (const [k, c] of this.counts) parts.push(`${k.toString(36)}:${Math.round(c * 1000) / 1000}`);
    return { pages: Math.round(this.pages * 1000) / 1000, lastUsed: this.lastUsed, keys: parts.join(',') };
  }

  static fromJSON(owner: TemplateLearner, j: LayoutJSON): Layout | undefined {
    if (!j || typeof j.pages !== 'number' || typeof j.keys !== 'string') return undefined;
    const l = new Layout(owner);
    l.pages = j.pages;
    l.lastUsed = typeof j.lastUsed === 'number' ? j.lastUsed : 0;
    for (const part of j.keys ? j.keys.split(',') : []) {
      const i = part.indexOf(':');
      const k = parseInt(part.slice(0, i), 36);
      const c = Number(part.slice(i + 1));
      if (i > 0 && Number.isSafeInteger(k) && Number.isFinite(c) && c > 0) l.counts.set(k, c);
    }
    return l;
  }
}

export class TemplateLearner {
  readonly mode: TemplateMode;
  readonly pathMode: PathMode;
  readonly threshold: number;
  readonly maxKeys: number;
  readonly window: number;
  readonly staleCoverage: number;
  readonly maxLayouts: number;
  readonly staleAfter: number;
  /** Pages observed since the start (not decayed). */
  observed = 0;
  /** Times a new layout's template was completed while the site already had one. */
  relearnedCount = 0;
  private layouts: Layout[] = [];
  private fingerprints: string[] = [];
  private fingerprintSet = new Set<string>();

  /** Keys of segment objects in this learner's path mode, computed once: the learner (observe,
   * fit) and the set difference (subtract) hash the same segments of a page. Weak: a page's
   * segments go when the page does. */
  private readonly segmentKeys = new WeakMap<SegmentLike, number>();

  /** The key of a segment in this learner's path mode (cached per segment object). */
  keyOf(s: SegmentLike): number {
    let k = this.segmentKeys.get(s);
    if (k === undefined) {
      k = segmentKey(s.path, s.text, this.pathMode);
      this.segmentKeys.set(s, k);
    }
    return k;
  }

  /** The distinct keys of a page. */
  pageKeys(page: PageLike): Set<number> {
    const keys = new Set<number>();
    for (const s of page.segments) keys.add(this.keyOf(s));
    return keys;
  }

  constructor(options: TemplateLearnerOptions = {}) {
    this.mode = options.mode ?? 'support';
    this.pathMode = options.pathMode ?? DEFAULT_PATH_MODE;
    this.threshold = options.threshold ?? DEFAULT_SUPPORT_THRESHOLD;
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.window = options.window ?? DEFAULT_WINDOW;
    this.staleCoverage = options.staleCoverage ?? DEFAULT_STALE_COVERAGE;
    this.maxLayouts = options.maxLayouts ?? DEFAULT_MAX_LAYOUTS;
    this.staleAfter = options.staleAfter ?? DEFAULT_STALE_AFTER;
  }

  /** Pages counted in the primary layout (decayed). */
  get pageCount(): number {
    return this.primary()?.pages ?? 0;
  }

  /** Keys counted over all layouts. */
  get keyCount(): number {
    return this.layouts.reduce((a, l) => a + l.counts.size, 0);
  }

  /** Layouts currently known (ready or not). */
  get layoutCount(): number {
    return this.layouts.length;
  }

  /** A template with enough support exists (in some layout). */
  get ready(): boolean {
    return this.layouts.some((l) => l.ready);
  }

  /** Count a page into the layout it fits, or start a new layout with it. */
  observe(page: PageLike): ObserveResult {
    return this.observeKeys(this.pageKeys(page));
  }

  /** `observe` on a page's distinct keys (`pageKeys`, in document order): what a crawl's worker
   * threads send to the thread that owns the site's learner. */
  observeKeys(keys: ReadonlySet<number>): ObserveResult {
    if (!keys.size) return { skipped: 'empty' };
    const fp = fingerprint(keys);
    if (this.fingerprintSet.has(fp)) return { skipped: 'duplicate' };
    this.rememberFingerprint(fp);
    this.observed++;
    const { layout, match } = this.bestLayout(keys, false);
    const result: ObserveResult = {};
    const counted = this.bordersOf(keys);
    let target: Layout;
    // Seed 001: the first template is the intersection of the first two pages, whatever they
    // share. A new layout is only started against a site that already has a template.
    const learning = this.layouts.length === 1 && !this.layouts[0]!.ready;
    if (layout && (match >= this.staleCoverage || learning)) {
      target = layout;
      result.coverage = match;
    } else {
      target = new Layout(this);
      this.layouts.push(target);
    }
    const wasReady = target.ready;
    const othersReady = this.layouts.some((l) => l !== target && l.ready);
    target.add(counted, this.observed);
    if (!wasReady && target.ready && othersReady) {
      this.relearnedCount++;
      result.relearned = true;
    }
    this.retire(target);
    result.layout = this.layouts.indexOf(target);
    return result;
  }

  /** How well a page fits the site's best-matching ready layout (share of that layout's core
   * chrome on the page); 0 without a template. */
  coverage(page: PageLike): number {
    return this.bestLayout(this.pageKeys(page), true).match;
  }

  /** The best-fitting ready layout's template for a page and how well the page fits it (one key
   * pass: what the set difference needs). */
  fit(page: PageLike): { template: Set<number>; coverage: number } {
    return this.fitKeys(this.pageKeys(page));
  }

  /** `fit` on a page's distinct keys. */
  fitKeys(keys: ReadonlySet<number>): { template: Set<number>; coverage: number } {
    const { layout, match } = this.bestLayout(keys, true);
    return { template: layout?.template() ?? new Set(), coverage: match };
  }

  /** The template of the layout that fits `page` best (or of the primary layout). Keys of
   * path+text judged boilerplate. */
  template(page?: PageLike): Set<number> {
    const l = page ? this.bestLayout(this.pageKeys(page), true).layout : this.primary();
    return l?.template() ?? new Set();
  }

  /** Whether a segment (path, text) is template in the primary layout. */
  has(path: string, text: string): boolean {
    return this.template().has(segmentKey(path, text, this.pathMode));
  }

  /** Whether a segment object is template in the primary layout (its key is cached). */
  hasSegment(s: SegmentLike): boolean {
    return this.template().has(this.keyOf(s));
  }

  /** Support of a segment in the primary layout: share of its pages that hold it. */
  support(path: string, text: string): number {
    const l = this.primary();
    return l?.pages ? (l.counts.get(segmentKey(path, text, this.pathMode)) ?? 0) / l.pages : 0;
  }

  toJSON(): TemplateJSON {
    return {
      v: 2,
      mode: this.mode,
      pathMode: this.pathMode,
      threshold: this.threshold,
      observed: this.observed,
      relearned: this.relearnedCount,
      layouts: this.layouts.map((l) => l.toJSON()),
      fingerprints: [...this.fingerprints],
    };
  }

  /** Rebuild from `toJSON()` output; undefined when the value is not a template of this version.
   * Options given here override the stored mode/threshold (a crawl may change them). */
  static fromJSON(value: unknown, options: TemplateLearnerOptions = {}): TemplateLearner | undefined {
    if (!value || typeof value !== 'object') return undefined;
    const j = value as Partial<TemplateJSON>;
    if (j.v !== 2 || !Array.isArray(j.layouts)) return undefined;
    const t = new TemplateLearner({ mode: j.mode, threshold: j.threshold, pathMode: j.pathMode, ...options });
    // keys hashed under another path mode mean nothing under this one: start afresh
    if (t.pathMode !== (j.pathMode ?? DEFAULT_PATH_MODE)) return t;
    t.observed = typeof j.observed === 'number' ? j.observed : 0;
    t.relearnedCount = typeof j.relearned === 'number' ? j.relearned : 0;
    for (const lj of j.layouts) {
      const l = Layout.fromJSON(t, lj);
      if (l) t.layouts.push(l);
    }
    for (const fp of j.fingerprints ?? []) if (typeof fp === 'string') t.rememberFingerprint(fp);
    return t;
  }

  /** A page with more distinct lines than half the key cap would flush the layout's memory on its
   * own (every key count 1, the oldest — its own header — evicted first). Such a page is counted by
   * its borders: the first and last keys in document order, where header, navigation and footer
   * sit (seed 004: boilerplate is at the borders of the layout). */
  private bordersOf(keys: ReadonlySet<number>): Iterable<number> {
    const cap = Math.floor(this.maxKeys / 2);
    if (keys.size <= cap) return keys;
    const all = [...keys];
    return [...all.slice(0, Math.ceil(cap / 2)), ...all.slice(all.length - Math.floor(cap / 2))];
  }

  /** The ready layout used most recently (the site's current look); else the newest layout. */
  private primary(): Layout | undefined {
    let best: Layout | undefined;
    for (const l of this.layouts) if (l.ready && (!best || l.lastUsed > best.lastUsed)) best = l;
    return best ?? this.layouts[this.layouts.length - 1];
  }

  private bestLayout(keys: ReadonlySet<number>, readyOnly: boolean): { layout?: Layout; match: number } {
    let layout: Layout | undefined;
    let match = 0;
    for (const l of this.layouts) {
      if (readyOnly && !l.ready) continue;
      const m = l.match(keys);
      if (m > match || (m === match && layout && l.pages > layout.pages)) {
        layout = l;
        match = m;
      }
    }
    return { layout, match };
  }

  /** Forget layouts not seen for `staleAfter` pages (a redesign's old look, one-off pages), and
   * the least recently used beyond `maxLayouts`. */
  private retire(current: Layout): void {
    this.layouts = this.layouts.filter((l) => l === current || this.observed - l.lastUsed <= this.staleAfter);
    if (this.layouts.length > this.maxLayouts) {
      // one-page layouts (odd pages) go before real ones, then the least recently used; never the
      // layout the current page went to (a redesign must get its chance to collect a second page)
      const order = this.layouts.filter((l) => l !== current).sort((a, b) => Number(a.ready) - Number(b.ready) || a.lastUsed - b.lastUsed);
      const drop = new Set(order.slice(0, this.layouts.length - this.maxLayouts));
      this.layouts = this.layouts.filter((l) => !drop.has(l));
    }
  }

  private rememberFingerprint(fp: string): void {
    this.fingerprints.push(fp);
    this.fingerprintSet.add(fp);
    if (this.fingerprints.length > FINGERPRINT_MEMORY) this.fingerprintSet.delete(this.fingerprints.shift()!);
  }
}
