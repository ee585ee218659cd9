/**
 * The scraper of the crawl: one fetched response → the middleware chain (a worker thread, or this
 * one) → the item through the pipeline, and the links it found into the frontier. Order matters for
 * resume: follow-ups are journaled first, then the item is stored, then the request is marked done.
 * A recrawl pass remembers list and thread pages (validators, content fingerprint) and stores a
 * re-visited page again only when its content changed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Request as CrawleeRequest } from '@crawlee/basic';
import type { Logger, RequestInfo } from '../../core/middleware.js';
import type { Item } from '../../core/item.js';
import { admitLinks, type LinkCandidate } from '../links.js';
import type { Frontier, FrontierRequest } from '../frontier.js';
import type { Downloader } from '../downloader/index.js';
import { AbortedError } from '../errors.js';
import { displayUrl } from '../failure-log.js';
import { fingerprint, NotModifiedError } from '../recrawl.js';
import type { PageOutcome, PageTask } from '../pool/outcome.js';
import type { ItemPipeline } from '../pipeline.js';
import type { ThreadMerger } from './thread-merge.js';
import { bump, type CrawlStats } from './stats.js';
import type { CrawlState } from './state.js';
import type { StopControl } from './stop.js';
import type { HeldPage, RevisionHold } from './revisions.js';
import type { RequestSequence } from './sequence.js';

/** A response as the chain takes it. */
export interface FetchedPage {
  url: string;
  body: Uint8Array | string;
  contentType?: string;
  headers?: IncomingHttpHeaders;
  /** The final response's HTTP status (the item's `status`). */
  status?: number;
}

/** The runner of the chain (`ChainRunner`), as the handler uses it. */
export interface ChainRun {
  readonly inline: boolean;
  run(task: PageTask): Promise<PageOutcome>;
}

/**
 * Which found links join the frontier (links.ts: not seen, labelled), and the label hints that came
 * for a URL after it was queued (first found through an unlabelled link, then as a list item):
 * advisory, in memory, used once when the page is handled.
 */
/** Late label hints kept at most. */
export const MAX_LATE_HINTS = 20_000;

export class LinkAdmission {
  readonly lateHints = new Map<string, string>();
  constructor(
    private readonly frontier: Frontier,
    private readonly hasRules: boolean,
    private readonly stats: CrawlStats,
  ) {}

  admit(candidates: readonly LinkCandidate[]): FrontierRequest[] {
    const out = admitLinks(candidates, (u) => this.frontier.has(u) === true, this.lateHints, this.hasRules, (u) => this.stats.directoryTwins.add(u));
    // Hints for pages already done are never taken: the oldest go first (memory stays bounded).
    if (this.lateHints.size > MAX_LATE_HINTS) {
      for (const k of this.lateHints.keys()) {
        this.lateHints.delete(k);
        if (this.lateHints.size <= MAX_LATE_HINTS / 2) break;
      }
    }
    return out;
  }

  /** The late hint for a URL, taken (it is used once). */
  takeHint(url: string): string | undefined {
    const h = this.lateHints.get(url);
    this.lateHints.delete(url);
    return h;
  }
}

export interface PageHandlerDeps {
  chain: ChainRun;
  frontier: Frontier;
  pipeline: ItemPipeline;
  /** Whole threads: a thread's pages are held, then stored as one item. */
  threads?: ThreadMerger;
  state: Pick<CrawlState, 'pageMemory' | 'recrawling' | 'recrawlOptions'>;
  stats: CrawlStats;
  stop: StopControl;
  links: LinkAdmission;
  siteKey: (url: string) => string;
  log: Logger;
  /** The per-page budget shown when a page runs out of it. */
  pageBudgetSecs: number;
  /** A taken request reached its end (the page budget gets its place back or counts it). */
  settle: () => void;
  /** Items of pages whose type may still be revised wait there (revisions.ts). */
  revisions?: RevisionHold<HeldRequest>;
  /** Every response, before the chain takes (and may transfer) its body (`RunOptions.onResponse`). */
  onResponse?: (res: FetchedPage) => void;
  /** A site's pages enter the chain, and queue their links, in the order their requests were taken (sequence.ts). */
  sequence?: RequestSequence;
}

/** What storing a held page's item needs besides the task (revisions.ts). */
export interface HeldRequest {
  request: CrawleeRequest;
  from: FrontierRequest;
  res: FetchedPage;
}

export class PageHandler {
  /** Request handlers running now (drained before the sinks close). */
  active = 0;

  constructor(private readonly d: PageHandlerDeps) {}

  /** An HTTP request: fetch it, then handle the response (a 304 of a recrawl is not read). */
  async fetchAndHandle(request: CrawleeRequest, downloader: Downloader): Promise<void> {
    const { frontier, stats, stop, state } = this.d;
    this.active++;
    this.d.sequence?.start(Number(request.id), this.d.siteKey(request.url));
    try {
      let res;
      try {
        res = await downloader.fetch(request.url);
      } catch (e) {
        if (!(e instanceof NotModifiedError)) throw e;
        // Unchanged since the last pass: not read, not parsed, its links are known.
        stats.recrawl.revisited++;
        stats.recrawl.notModified++;
        state.pageMemory.touch(request.url, new Date());
        await frontier.done(request.url, 'ok');
        this.d.settle();
        return;
      }
      if (stop.stopping) throw new AbortedError(request.url);
      stats.bytesDownloaded += res.body.length;
      await this.handle(request, { url: res.url, body: res.body, contentType: res.contentType, headers: res.headers, status: res.status });
      this.d.settle();
    } finally {
      this.active--;
      this.d.sequence?.end(Number(request.id));
    }
  }

  /** One fetched response through the chain; the item stored, the links queued, the request done. */
  async handle(request: CrawleeRequest, res: FetchedPage): Promise<void> {
    const { chain, frontier, stats, stop, log } = this.d;
    const from = request.userData as FrontierRequest;
    if (stop.stopping) throw new AbortedError(res.url);
    this.d.onResponse?.(res);
    // (the site's pages taken before this one enter the chain first: sequence.ts; a late hint is
    // read once they have — one that a page still in the chain gives comes too late, as before)
    const id = Number(request.id);
    await this.d.sequence?.turn(id, 'chain', () => stop.stopping);
    if (stop.stopping) throw new AbortedError(res.url);
    const lateHint = this.d.links.takeHint(from.url);
    const labelHint = from.labelHint ?? lateHint;
    const info: RequestInfo = { url: res.url, label: from.label, labelHint, anchorText: from.anchorText, depth: from.depth, referrer: from.referrer, status: res.status };
    const task: PageTask = { url: res.url, body: res.body, contentType: res.contentType, fetchedAt: Date.now(), request: info, siteKey: this.d.siteKey(res.url) };
    if (chain.inline) {
      // On this thread parsing a big page is one long synchronous step: let a pending signal in
      // first, and leave the page queued for the next run if it asked the crawl to stop.
      await new Promise((r) => setImmediate(r));
      if (stop.stopping) throw new AbortedError(res.url);
    }
    const kept = this.d.revisions?.keep(task);
    const running = chain.run(task);
    this.d.sequence?.pass(id, 'chain');
    const outcome = await running;
    // Stopping: the page stays pending for the next run.
    if (stop.stopping) throw new AbortedError(res.url);
    let item: Item | undefined;
    let problem: string | undefined;
    // (links queued, and a redirect's target marked, in the site's request order: sequence.ts)
    await this.d.sequence?.turn(id, 'links', () => stop.stopping);
    switch (outcome.type) {
      case 'middleware-error':
        bump(stats.failuresByMiddleware, outcome.middleware);
        stats.failed++;
        // With the stack of what the middleware threw (its first frames, page-task.ts): where to look.
        log.error(outcome.message);
        await frontier.done(request.url, 'failed');
        return;
      case 'page': {
        const follows = this.d.links.admit(outcome.links);
        if (follows.length) await frontier.add(follows);
        if (outcome.drop) bump(stats.dropped, outcome.drop);
        else ({ item, invalid: problem } = outcome);
        break;
      }
      case 'timeout':
      case 'crashed':
        bump(stats.timeouts, outcome.stage);
        log.warning(`${displayUrl(res.url)}: ${outcome.item.error} (page budget ${this.d.pageBudgetSecs} s): stored as an "other" item`);
        item = outcome.item;
        break;
      case 'binary':
        item = outcome.item;
    }
    // A redirect target is done too: do not fetch it again when a link leads there.
    if (res.url !== request.url && !(await frontier.has(res.url))) await frontier.done(res.url, 'skipped');
    this.d.sequence?.pass(id, 'links');
    stats.pages++;
    // (a page typed before its site showed evidence: its item waits until its type is final, revisions.ts)
    if (item && kept && outcome.type === 'page' && this.d.revisions?.hold({ task: kept, item, problem, context: { request, from, res } })) return;
    await this.finish(request, from, res, task, item, outcome.type === 'page' ? { problem } : undefined);
    await this.d.revisions?.settle(task.siteKey);
  }

  /** A held page's final item stored, its request done (revisions.ts). */
  finishHeld(p: HeldPage<HeldRequest>): Promise<void> {
    return this.finish(p.context.request, p.context.from, p.context.res, p.task, p.item, { problem: p.problem });
  }

  /** The page's item stored, the request done. */
  private async finish(request: CrawleeRequest, from: FrontierRequest, res: FetchedPage, task: PageTask, item: Item | undefined, checked: { problem: string | undefined } | undefined): Promise<void> {
    const { frontier } = this.d;
    if (item) await this.store(request, from, res, task, item, checked);
    await frontier.done(request.url, 'ok');
  }

  /** The item through the pipeline — on a recrawl pass only when it is new to read. */
  private async store(request: CrawleeRequest, from: FrontierRequest, res: FetchedPage, task: PageTask, item: Item, checked: { problem: string | undefined } | undefined): Promise<void> {
    const { pageMemory, recrawling, recrawlOptions } = this.d.state;
    const counts = this.d.stats.recrawl;
    let update = false;
    let store = true;
    if (from.revisit && !checked) {
      // A re-visited page that ran out of its budget (or crashed its worker): the item stored before
      // and its memory stay as they were, so the page is re-visited on the next pass.
      counts.revisited++;
      return;
    }
    if (item.kind === 'list' || item.kind === 'forum' || from.revisit) {
      const fp = fingerprint(item);
      const before = pageMemory.get(request.url);
      pageMemory.record(request.url, item, { label: from.label, depth: from.depth, headers: res.headers, fetchedAt: new Date(task.fetchedAt), fingerprint: fp });
      // A recrawl stores what is new to read: list pages (re-visited or new) only with listItems.
      if (recrawling && item.kind === 'list' && !recrawlOptions?.listItems) store = false;
      if (from.revisit) {
        counts.revisited++;
        if (!store) {
          /* a list page: how new pages are found */
        } else if (before?.fingerprint === fp) {
          counts.unchanged++;
          store = false;
        } else {
          counts.changed++;
          update = true;
        }
      }
    }
    // A page's item was checked against the item shape where the chain ran (`problem`).
    if (!store) return;
    const items = this.d.threads && !update && !checked?.problem ? this.d.threads.hold(item) : [item];
    for (const it of items) await this.d.pipeline.process(it, { requestUrl: request.url }, { update, checked: it === item ? checked : undefined });
    this.d.threads?.stored(items);
  }
}
