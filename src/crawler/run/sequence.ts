/**
 * Pages of a site enter the chain in the order the crawl queued them (issue 23), not in the order
 * their answers came back. What a page is typed depends on what the site showed before it (the
 * page-type stage's site evidence, the list shapes learned so far: middleware/classifier/site-rules.ts),
 * so a crawl whose concurrent requests come back in another order typed pages otherwise: the same
 * site crawled twice gave 7 or 1 of its 7 other pages typed other. Requests are fetched
 * concurrently as before; a page whose answer came early waits, before the chain, for the site's
 * requests taken before it (breadth first, links in page order: the order the frontier gives), and
 * its links are queued in that order too — so the next requests are taken in the same order, and
 * the whole crawl meets the site's pages in one order whatever the answers' timing.
 *
 * Requests are numbered as taken (Crawlee's request id, crawlee-glue.ts). A request counts from the
 * moment its handler starts (`start`); a page waits for every request of its site numbered before
 * it that has not passed the same step (`turn`, steps `chain` then `links`) nor ended (`end`: it
 * failed, was skipped, goes back for a retry — a retry enters when it comes, out of order — or
 * finished). A wait is bounded (`maxWaitMs`): a site whose one answer is slow is crawled on in the
 * order the answers come (the page-type stage then types its pages as before this existed).
 */

/** The steps a page takes in request order. */
export type SequenceStep = 'chain' | 'links';

interface Waiter {
  id: number;
  site: string;
  step: SequenceStep;
  wake: () => void;
}

/** Longest wait for the site's earlier requests, by default (ms). */
export const SEQUENCE_MAX_WAIT_MS = 10_000;

export class RequestSequence {
  /** Requests started and not ended: id → site, and the steps each has passed. */
  private readonly open = new Map<number, { site: string; passed: Set<SequenceStep> }>();
  /** Every id up to this one has started (ids below it that are not open have ended). */
  private started = 0;
  private readonly seen = new Set<number>();
  private waiters: Waiter[] = [];
  /** Pages that waited, and waits that ran out (for tests and the log). */
  readonly counts = { waited: 0, timedOut: 0 };

  constructor(private readonly maxWaitMs = SEQUENCE_MAX_WAIT_MS) {}

  /** A request's handler starts (its id as taken, its site). Ids that are not numbers are not sequenced. */
  start(id: number, site: string): void {
    if (!Number.isInteger(id) || id <= 0 || this.open.has(id)) return;
    // (a retry starts again: its site's later pages wait for it as for any earlier request)
    this.open.set(id, { site, passed: new Set() });
    if (id > this.started) this.seen.add(id);
    while (this.seen.has(this.started + 1)) this.seen.delete(++this.started);
    this.wake();
  }

  /** The request passed a step (its later pages need not wait for it there). */
  pass(id: number, step: SequenceStep): void {
    const o = this.open.get(id);
    if (!o || o.passed.has(step)) return;
    o.passed.add(step);
    this.wake();
  }

  /** The request ended, whatever way (failed, skipped, handed back for a retry, done). */
  end(id: number): void {
    if (this.open.delete(id)) this.wake();
  }

  /** Whether a request of `site` numbered `id` has no earlier one of its site still before `step`. */
  private ready(id: number, site: string, step: SequenceStep): boolean {
    // an id below ours not started yet: its site is not known yet (it starts at once: wait for it)
    if (this.started < id - 1) return false;
    for (const [other, o] of this.open) if (other < id && o.site === site && !o.passed.has(step)) return false;
    return true;
  }

  /** Resolves when the request's earlier requests of its site passed `step` or ended (or after
   * maxWaitMs, or once the crawl is stopping; at once for a request that was not started here). */
  async turn(id: number, step: SequenceStep, stopping: () => boolean = () => false): Promise<void> {
    const o = this.open.get(id);
    if (!o || this.ready(id, o.site, step)) return;
    this.counts.waited++;
    const inTurn = await new Promise<boolean>((resolve) => {
      const finish = (v: boolean) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(v);
      };
      const waiter: Waiter = { id, site: o.site, step, wake: () => finish(true) };
      const timer = setTimeout(() => finish(false), this.maxWaitMs);
      // (a crawl that stops does not wait: its pages are aborted)
      const poll = setInterval(() => stopping() && finish(true), 200);
      this.waiters.push(waiter);
    });
    if (!inTurn) this.counts.timedOut++;
  }

  private wake(): void {
    for (const w of [...this.waiters]) if (this.ready(w.id, w.site, w.step)) w.wake();
  }
}
