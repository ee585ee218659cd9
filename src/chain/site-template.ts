/**
 * The site template across threads (the chain in the crawl's worker pool, src/crawler/pool). A crawl's site template (`template-learner`, ALGORITHMS §1)
 * is one streaming learner per site key; on a single-host site every page belongs to the same
 * one, so routing a site's pages to one worker would leave the other cores idle. Instead the
 * learner stays on the crawl's thread, in its site store (persisted as before), and a worker sends
 * it what the learner reads of a page — its distinct segment keys, 53-bit hashes in document order
 * (`pageKeys`) — when the chain reaches the learner. The crawl's thread counts the page in
 * (`observeKeys`) and answers with the fit (`fitKeys`) in the same step, as one thread would:
 * which of the page's keys are template and how well the page fits. In the worker a
 * `TemplateSnapshot` carries that answer for this page only, so `template-learner` and
 * `set-difference` run unchanged on it.
 */
import type { Logger, MiddlewareSetting, SiteStore } from '../core/middleware.js';
import { DEFAULT_STALE_COVERAGE, existingLearnerOf, learnerOf, SITE_DATA_KEY, TemplateLearner, type ObserveResult, type PageLike, type PathMode, type TemplateLearnerOptions } from '../../middleware/template/index.js';

export { SITE_DATA_KEY };
export type { PathMode };
/** The path mode a learner hashes under unless its options say otherwise. */
export { DEFAULT_PATH_MODE as DEFAULT_TEMPLATE_PATH_MODE } from '../../middleware/template/index.js';

/** Worker → crawl thread: count this page (when `observe`) and fit it. */
export interface TemplateRequest {
  id: number;
  /** The page's place in the pool's order (PoolTask.seq). */
  seq: number;
  siteKey: string;
  url: string;
  /** The page's distinct keys in document order (`pageKeys`), computed under `pathMode`. */
  keys: Float64Array;
  pathMode: PathMode;
  observe: boolean;
}

/** Crawl thread → worker. `retry` when the site's learner hashes under another path mode (a
 * learner stored by an earlier crawl): the worker sends the keys again under `pathMode`. */
export interface TemplateAnswer {
  id: number;
  /** The request's keys, sent back (they were transferred, not copied). */
  keys: Float64Array;
  /** Whether the site has a learner at all (no: the set difference leaves the page alone). */
  exists: boolean;
  retry?: boolean;
  pathMode: PathMode;
  staleCoverage: number;
  ready: boolean;
  observe?: ObserveResult;
  coverage: number;
  /** 1 where the page's key (same order as the request's) is template in the fitted layout. */
  mask: Uint8Array;
}

/** The template-learner's settings as a spider gives them: whether pages are counted (`update`)
 * and the learner's options. `undefined` when the spider disabled it. */
export function templateSettings(settings: Record<string, MiddlewareSetting | undefined> | undefined): { update: boolean; options: TemplateLearnerOptions } | undefined {
  const s = settings?.['template-learner'];
  if (s === false) return undefined;
  const o = (typeof s === 'object' ? (s.options ?? {}) : {}) as { update?: boolean } & TemplateLearnerOptions;
  const { update = true, ...options } = o;
  return { update, options };
}

/** The crawl-thread side: answers template requests from the site store's learners. */
export class TemplateHost {
  constructor(
    private readonly store: SiteStore,
    private readonly options: TemplateLearnerOptions,
    private readonly log: Logger,
  ) {}

  answer(req: TemplateRequest): TemplateAnswer {
    const site = this.store.site(req.siteKey);
    const learner = req.observe ? learnerOf(site, this.options) : existingLearnerOf(site);
    const none = { id: req.id, keys: req.keys, exists: false, pathMode: req.pathMode, staleCoverage: DEFAULT_STALE_COVERAGE, ready: false, coverage: 0, mask: new Uint8Array(0) };
    if (!learner) return none;
    if (learner.pathMode !== req.pathMode) return { ...none, exists: true, retry: true, pathMode: learner.pathMode };
    const keys = new Set(req.keys);
    let observe: ObserveResult | undefined;
    if (req.observe) {
      observe = learner.observeKeys(keys);
      if (!observe.skipped) site.touch();
      // the message template-learner logs in a single-thread crawl
      if (observe.relearned) this.log.info('site template re-learned after a layout change', { site: req.siteKey, url: req.url });
      observe = { ...observe, relearned: undefined };
    }
    const fit = learner.fitKeys(keys);
    const mask = new Uint8Array(req.keys.length);
    for (let i = 0; i < req.keys.length; i++) if (fit.template.has(req.keys[i]!)) mask[i] = 1;
    return { id: req.id, keys: req.keys, exists: true, pathMode: learner.pathMode, staleCoverage: learner.staleCoverage, ready: learner.ready, observe, coverage: fit.coverage, mask };
  }
}

/**
 * A site's learner as seen by one page in a worker: made before the round trip to hash the page's
 * segments (its key cache then serves the set difference too), then given the crawl thread's
 * answer for that page. Everything the template middleware asks of a learner is answered from
 * it; nothing is learned here (the crawl thread did that).
 */
export class TemplateSnapshot extends TemplateLearner {
  private keySet = new Set<number>();
  private answer?: TemplateAnswer;

  constructor(pathMode: PathMode) {
    super({ pathMode });
  }

  /** The crawl thread's answer for the keys this snapshot computed (`pageKeys`). */
  answerWith(keys: Float64Array, answer: TemplateAnswer): this {
    this.answer = answer;
    (this as { staleCoverage: number }).staleCoverage = answer.staleCoverage;
    this.keySet = new Set();
    for (let i = 0; i < keys.length; i++) if (answer.mask[i]) this.keySet.add(keys[i]!);
    return this;
  }

  override get ready(): boolean {
    return this.answer?.ready ?? false;
  }

  override observe(_page: PageLike): ObserveResult {
    return this.answer?.observe ?? {};
  }

  override observeKeys(_keys: ReadonlySet<number>): ObserveResult {
    return this.answer?.observe ?? {};
  }

  override fit(_page: PageLike): { template: Set<number>; coverage: number } {
    return { template: this.keySet, coverage: this.answer?.coverage ?? 0 };
  }

  override fitKeys(_keys: ReadonlySet<number>): { template: Set<number>; coverage: number } {
    return this.fit({ segments: [] });
  }

  override template(_page?: PageLike): Set<number> {
    return this.keySet;
  }

  override coverage(_page: PageLike): number {
    return this.answer?.coverage ?? 0;
  }
}
