/**
 * The page budget (`maxPages`): pages fetched successfully, by this run and the earlier runs of an
 * interrupted crawl. Requests handed to Crawlee count as taken until they settle, so Crawlee never
 * starts more than the budget allows; a failed request gives its place back (issue 12: 261 of 400
 * requests were 404 and the crawl stopped with 4 of 18 index pages unvisited).
 */
export class PageBudget {
  /** Requests handed to Crawlee and not yet settled. */
  inFlight = 0;

  constructor(
    readonly maxPages: number | undefined,
    /** Pages fetched successfully by earlier runs of this crawl (resume). */
    readonly previousPages: number,
    /** Pages fetched successfully by this run so far. */
    private readonly pagesNow: () => number,
  ) {}

  /** Requests the budget still allows to start. */
  left(): number {
    return this.maxPages === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, this.maxPages - this.previousPages - this.pagesNow() - this.inFlight);
  }

  /** The budget is spent: every page it allows was fetched. */
  reached(): boolean {
    return this.maxPages !== undefined && this.previousPages + this.pagesNow() >= this.maxPages;
  }

  take(n: number): void {
    this.inFlight += n;
  }

  /** A taken request reached its end (stored, dropped, failed, skipped, or left for the next run). */
  release(): void {
    this.inFlight--;
  }
}
