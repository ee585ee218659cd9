/**
 * Page types revised in a crawl (issue 23): the page-type stage types a crawl's first pages before
 * the site has shown any evidence (no list read yet) and types them again once it has
 * (middleware/classifier/site-rules.ts, reviseEarlyPages). Their items are **held, not re-emitted**:
 * a page typed before the evidence (at most 16 per site) is neither stored nor marked done in the
 * frontier until its type is final. With the page-type stage's `recheck` (off by default:
 * PageTypeOptions.recheck), those pages and the ones typed just after the site showed evidence
 * (site-rules.ts SETTLE_PAGES; at most 24 a site in all) wait for the crawl's end: each goes through the chain once more, from the body kept
 * here and with its request as it came, and the page-type stage types it again against what the
 * whole crawl taught (the site's list markup, the pages its lists point to) — not from what the
 * page showed when it came. Without it, a page's type is final once the site has shown evidence
 * (the revised type: the page goes through the chain again with that label) or at the crawl's end
 * (the type it had). The dataset gets one item per page, the final one; a crawl interrupted while
 * items are held leaves their pages pending in the frontier, and the resumed crawl fetches them
 * again: nothing lost, nothing stored twice.
 */
import type { Item } from '../../core/item.js';
import type { Logger, SiteStore } from '../../core/middleware.js';
import { provisionalPages } from '../../chain/builtins.js';
import type { PageOutcome, PageTask } from '../pool/outcome.js';

/** A page whose item waits, with what storing it needs (the page handler's own arguments). */
export interface HeldPage<R = unknown> {
  task: PageTask;
  item: Item;
  /** The item-shape problem found where the chain ran, if any. */
  problem: string | undefined;
  /** The handler's context of the request (request, frontier entry, response): given back on release. */
  context: R;
}

export interface RevisionDeps<R> {
  store: SiteStore;
  /** Runs a page through the chain (again, with its request's new label). */
  chain: { run(task: PageTask): Promise<PageOutcome> };
  /** Store the page's final item and mark the page done (the page handler's path). */
  finish(page: HeldPage<R>): Promise<void>;
  log: Logger;
}

export class RevisionHold<R = unknown> {
  private readonly held = new Map<string, HeldPage<R>[]>();
  /** Items held and revised (for the summary and tests). */
  readonly counts = { held: 0, revised: 0 };

  constructor(private readonly d: RevisionDeps<R>) {}

  /** Pages held now. */
  get size(): number {
    let n = 0;
    for (const pages of this.held.values()) n += pages.length;
    return n;
  }

  /**
   * Before a page's chain run: the task with a copy of its body while the site has shown no
   * evidence (the page may be held and go through the chain again; a worker thread takes the bytes
   * it is sent), undefined once it has.
   */
  keep(task: PageTask): PageTask | undefined {
    if (provisionalPages(this.d.store.site(task.siteKey).data).known) return undefined;
    return { ...task, body: typeof task.body === 'string' ? task.body : new Uint8Array(task.body) };
  }

  /** After a page's chain run (`page.task` as `keep` gave it): whether its item waits (its type is
   * provisional). The caller then neither stores it nor marks it done. */
  hold(page: HeldPage<R>): boolean {
    const { early, revisions } = provisionalPages(this.d.store.site(page.task.siteKey).data);
    if (!early.has(page.task.url) && !revisions.has(page.task.url)) return false;
    let pages = this.held.get(page.task.siteKey);
    if (!pages) this.held.set(page.task.siteKey, (pages = []));
    pages.push(page);
    this.counts.held++;
    return true;
  }

  /** The site's held pages whose type is now final, stored (after each page of the site). */
  async settle(siteKey: string): Promise<void> {
    const pages = this.held.get(siteKey);
    if (!pages?.length) return;
    const { early } = provisionalPages(this.d.store.site(siteKey).data);
    const final = pages.filter((p) => !early.has(p.task.url));
    if (!final.length) return;
    this.held.set(
      siteKey,
      pages.filter((p) => early.has(p.task.url)),
    );
    await this.release(siteKey, final);
  }

  /** Every held page stored with the type it has now, or typed again (the crawl ran to its end). */
  async releaseAll(): Promise<void> {
    for (const [siteKey, pages] of [...this.held]) {
      this.held.delete(siteKey);
      await this.release(siteKey, pages);
    }
  }

  private async release(siteKey: string, pages: HeldPage<R>[]): Promise<void> {
    const { revisions, recheck } = provisionalPages(this.d.store.site(siteKey).data);
    for (const p of pages) {
      const r = revisions.get(p.task.url);
      const label = p.item.pageType?.label;
      if (recheck.has(p.task.url)) {
        // typed again against what the whole crawl taught: the page's request as it came (the
        // page-type stage knows the page for one of its held ones); that run's item is the final one
        const again = await this.d.chain.run(p.task).catch((e: Error) => ({ type: 'failed' as const, message: e.message }));
        if (again.type === 'page' && again.item) {
          if (again.item.pageType?.label !== label) this.counts.revised++;
          this.d.log.debug(`${p.task.url}: page type typed again at the crawl's end ${label} -> ${again.item.pageType?.label}`);
          await this.d.finish({ ...p, item: again.item, problem: again.invalid });
          continue;
        }
        this.d.log.warning(`${p.task.url}: typing the page again at the crawl's end gave no item (${'message' in again ? again.message : again.type}): the item typed ${r?.to ?? label} is kept`);
      }
      if (r) {
        // typed again: the page's item is the chain's with the new type (the first one if that fails)
        const again = await this.d.chain.run({ ...p.task, request: { ...p.task.request, label: r.to, labelHint: undefined } }).catch((e: Error) => ({ type: 'failed' as const, message: e.message }));
        if (again.type === 'page' && again.item) {
          this.counts.revised++;
          this.d.log.debug(`${p.task.url}: page type revised ${label} -> ${r.to}`);
          await this.d.finish({ ...p, item: { ...again.item, pageType: r.pageType } as Item, problem: again.invalid });
          continue;
        }
        this.d.log.warning(`${p.task.url}: extracting the page again as ${r.to} gave no item (${'message' in again ? again.message : again.type}): the item typed ${label} is stored`);
      }
      await this.d.finish(p);
    }
  }
}
