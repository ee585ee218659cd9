/**
 * The middleware contract (ARCHITECTURE §3). Scrapy's habit in TypeScript: one table of named
 * components with numeric priorities (lower runs first, gaps of 100), `false` disables, `open`
 * per crawl and `close` in reverse order. This file is imported by `middleware/*`, which never
 * imports crawlee: extractors run in any crawler and on saved files.
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import type { Page, Segment } from './page.js';
import { isPageLabel, type ItemDraft, type ItemKind, type PageLabel, type PageTypeResult } from './item.js';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warning(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
  /** Whether debug lines are written (a caller may skip building them). */
  debugEnabled?: boolean;
}

export const silentLogger: Logger = { debug() {}, info() {}, warning() {}, error() {} };

/** What led to this page. */
export interface RequestInfo {
  url: string;
  /** Label given by a follow rule (`detail`, `list`, `forum`, `other` or a user label). */
  label?: string;
  /** Page type suggested by the extractor of the page that linked here (a list's items → `detail`,
   * its next page → `list`). Unlike `label` (a follow rule's), it is a hint: the classifier keeps
   * it unless it is confident the page is something else. */
  labelHint?: string;
  /** Anchor text of the link that led here: a title hint (seed 004). */
  anchorText?: string;
  /** Link depth from a start URL. */
  depth?: number;
  /** The page that linked here. */
  referrer?: string;
  /** The HTTP status of the response (the item's `status`); absent for a saved page. */
  status?: number;
  userData?: Record<string, unknown>;
}

/** A link the crawl should follow, produced by a middleware (list items, next pages …). */
export interface FollowRequest {
  url: string;
  /** Page label the target is expected to have (`detail`, `list`, `forum`). */
  label?: string;
  anchorText?: string;
}

/** Per-site persisted state (templates, counters). `data` must stay JSON-serialisable. */
export interface SiteState {
  key: string;
  data: Record<string, unknown>;
  /** Call after changing `data` so the store persists it. */
  touch(): void;
}

export interface SiteStore {
  /** State for a site key, created empty on first use. */
  site(key: string): SiteState;
  /** Persist what changed (called periodically and on close). */
  flush(): Promise<void>;
}

export interface PageContext {
  page: Page;
  request: RequestInfo;
  spider: string;
  /** The site key (URL host by default; spiders may define site patterns). */
  siteKey: string;
  site: SiteState;
  /** Effective segments, narrowed stage by stage (template difference, rule filters). Starts as
   * all of `page.segments`. */
  segments: Segment[];
  /** Whether `segments` has been narrowed by a site template (false on a site's first page). */
  templateApplied: boolean;
  /** Blocks of `segments` from differential peak clustering, when that stage ran. */
  blocks?: Segment[][];
  /** Page type: from a follow rule, else from the classifier. */
  label?: PageLabel;
  /** The item being filled. `kind` is set by the extractor that handled the page. */
  item: ItemDraft;
  /** IANA zone for dates without an offset: spider option, else the page language's. */
  timezone?: string;
  /** Links to follow, appended by middleware; the crawler filters them by domain and budget. */
  follow: FollowRequest[];
  /** Set by a middleware to drop the page (no item), with the reason. */
  drop?: string;
  /** Stage-to-stage scratch space for user middleware. */
  scratch: Record<string, unknown>;
  log: Logger;
}

export interface MiddlewareEnv {
  spider: string;
  /** Directory for state files (`storage/gleaner`). */
  stateDir?: string;
  log: Logger;
}

export interface Middleware {
  /** Kebab-case name: the key in spider configs. */
  name: string;
  /** Lower runs first. */
  priority: number;
  /** Item kinds this middleware applies to (by the page label); all when absent. */
  kinds?: ItemKind[];
  /** Whether it reads or writes `ctx.site.data` (what it learns about a site, page after page).
   * When the chain runs in a crawl's worker threads, a site's pages pass such a middleware one at
   * a time, in order, with the state the earlier ones left; `false` lets them pass in parallel.
   * Absent means it may (user middleware); built-ins set it in src/chain/builtins.ts. */
  siteState?: boolean;
  open?(env: MiddlewareEnv): Promise<void> | void;
  /** Work on the page alone, run just before `process` (and only where `process` runs): in a
   * crawl's worker threads, before the page waits for its turn at the site's state — so the
   * site's other pages are not held up by it. It must not read or write `ctx.site`, nor anything
   * other pages change; what it computes is for this page's `process`. */
  prepare?(ctx: PageContext): Promise<void> | void;
  process(ctx: PageContext): Promise<void> | void;
  /** Batch pre-pass (`gleaner extract --batch`): see a page of the site before any is extracted,
   * e.g. to learn the site template from all of them. */
  learn?(ctx: PageContext): Promise<void> | void;
  close?(env: MiddlewareEnv): Promise<void> | void;
}

/** Thrown by a factory that cannot run with the options it got: the chain warns once and skips it
 * (Scrapy's NotConfigured). */
export class NotConfigured extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotConfigured';
  }
}

/** What a factory returns: a middleware whose priority and kinds may come from the table that
 * registers it (the built-ins' come from `BUILTIN_MIDDLEWARE`, the one priority table). */
export type MiddlewareDefinition = Omit<Middleware, 'priority'> & { priority?: number };

export type MiddlewareFactory<O = Record<string, unknown>> = (options: O) => MiddlewareDefinition;

/** How a spider configures one middleware: `false` disables; an object sets priority/options. */
export type MiddlewareSetting = false | true | { priority?: number; options?: Record<string, unknown> };

/** Probability the classifier must give a hinted label for the hint to stand. Below it the
 * classifier is confident the page is something else (a forum board's items are threads, not
 * articles: forum ≈ 0.9, detail < 0.01 on the demo). */
export const HINT_MIN_PROBABILITY = 0.2;

/**
 * The one place that decides a page's label (issue 10). A follow rule's label (or `--kind`) types
 * the page. Otherwise, with the page-type classifier's result: the type the linking page suggested
 * (a list's item → detail) stands unless the classifier gives it little probability — a list's
 * items can be threads, so it stays a hint — else the classifier's label. Without a result (the
 * page-type stage is disabled, or has not run yet) only the request's own label counts.
 */
export function decideLabel(request: Pick<RequestInfo, 'label' | 'labelHint'>, result?: PageTypeResult): PageLabel | undefined {
  if (isPageLabel(request.label)) return request.label;
  if (!result) return undefined;
  const hint = request.labelHint;
  if (isPageLabel(hint) && (result.probabilities[hint] ?? 0) >= HINT_MIN_PROBABILITY) return hint;
  return isPageLabel(result.label) ? result.label : undefined;
}
