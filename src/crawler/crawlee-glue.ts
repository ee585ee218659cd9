/**
 * Crawlee plumbing without per-request overhead (issue 13).
 *
 * - `FrontierRequestManager`: BasicCrawler's request source (`requestManager`) read straight from
 *   the frontier, which already deduplicated, filtered and journaled every URL. Crawlee's own
 *   in-memory RequestQueue (the previous feed) validated each request with shapeshift and ow on
 *   add, lock, update and mark-handled and kept a second copy of the queue; here a Crawlee
 *   `Request` exists only for a URL being fetched, from when it is handed out until it is done.
 * - `withProcessMemoryInfo`: Crawlee's autoscaling samples memory every second by spawning `ps`
 *   (ps-tree) to add up child processes; a crawl has none (its chain runs in threads of the same
 *   process), so the process's own RSS is read instead. On the realistic bench site the `ps`
 *   spawns cost ~0.3 s of the crawl thread per minute.
 */
import { Request, type Configuration, type IRequestManager } from '@crawlee/core';
import type { Frontier, FrontierRequest } from './frontier.js';

/** Requests taken from the frontier at a time (the frontier marks them handed out). */
export const TAKE_BATCH = 64;

type OperationInfo = { wasAlreadyPresent: boolean; wasAlreadyHandled: boolean; requestId: string; uniqueKey: string; forefront: boolean };

export class FrontierRequestManager implements IRequestManager {
  private buffer: FrontierRequest[] = [];
  private head = 0;
  /** Requests Crawlee gave back for a retry, fetched again before new ones. */
  private readonly retries: Request[] = [];
  private readonly inProgress = new Set<Request>();
  private handled = 0;
  /** BasicCrawler releases a request's lock through this after some failures. */
  readonly client = { deleteRequestLock: async (_id: string) => {} };

  constructor(
    private readonly frontier: Frontier,
    private readonly o: {
      /** How many more requests may be taken now (the page budget; 0 when stopping). */
      limit?: () => number;
      /** Requests were taken from the frontier (they count against the budget from now). */
      onTake?: (n: number) => void;
    } = {},
  ) {}

  /** Requests handed to Crawlee so far (their ids). */
  private taken = 0;

  private async refill(): Promise<void> {
    if (this.head < this.buffer.length) return;
    const n = Math.min(TAKE_BATCH, this.o.limit?.() ?? TAKE_BATCH);
    this.buffer = n > 0 ? await this.frontier.take(n) : [];
    this.head = 0;
    if (this.buffer.length) this.o.onTake?.(this.buffer.length);
  }

  async fetchNextRequest<T extends Record<string, any> = Record<string, any>>(): Promise<Request<T> | null> {
    let req = this.retries.shift();
    if (!req) {
      await this.refill();
      const r = this.buffer[this.head++];
      if (!r) return null;
      // an id, as a queue gives one: Crawlee's messages name it ("… timed out after 130 seconds (id)")
      req = new Request({ id: String(++this.taken), url: r.url, uniqueKey: r.key ?? r.url, userData: { ...r } });
    }
    this.inProgress.add(req);
    return req as unknown as Request<T>;
  }

  async isEmpty(): Promise<boolean> {
    if (this.retries.length) return false;
    await this.refill();
    return this.head >= this.buffer.length;
  }

  async isFinished(): Promise<boolean> {
    return this.inProgress.size === 0 && (await this.isEmpty());
  }

  private info(req: Request, forefront = false): OperationInfo {
    return { wasAlreadyPresent: true, wasAlreadyHandled: false, requestId: req.id ?? req.uniqueKey, uniqueKey: req.uniqueKey, forefront };
  }

  async markRequestHandled(req: Request): Promise<OperationInfo> {
    this.inProgress.delete(req);
    this.handled++;
    return { ...this.info(req), wasAlreadyHandled: true };
  }

  async reclaimRequest(req: Request, options?: { forefront?: boolean }): Promise<OperationInfo> {
    this.inProgress.delete(req);
    if (options?.forefront) this.retries.unshift(req);
    else this.retries.push(req);
    return this.info(req, options?.forefront);
  }

  async handledCount(): Promise<number> {
    return this.handled;
  }

  getTotalCount(): number {
    return this.frontier.stats().seen;
  }

  getPendingCount(): number {
    return this.frontier.stats().pending;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
    for (let r = await this.fetchNextRequest(); r; r = await this.fetchNextRequest()) yield r;
  }

  /** Requests added through Crawlee (`crawler.addRequests`) go to the frontier like any link. */
  async addRequest(requestLike: any, options?: { forefront?: boolean }): Promise<any> {
    return (await this.addRequestsBatched([requestLike], options)).addedRequests[0];
  }

  async addRequestsBatched(requests: any, options?: { forefront?: boolean }): Promise<any> {
    const list = (Array.isArray(requests) ? requests : [...(requests as Iterable<unknown>)]).map((r) => (typeof r === 'string' ? { url: r } : (r as { url: string; label?: string; userData?: Record<string, unknown> })));
    const accepted = await this.frontier.add(list.map((r) => ({ url: r.url, label: r.label ?? (r.userData?.label as string | undefined), depth: 0 })));
    const ok = new Set(accepted.map((a) => a.url));
    const addedRequests = list.map((r) => ({ requestId: r.url, uniqueKey: r.url, wasAlreadyPresent: !ok.has(r.url), wasAlreadyHandled: false, forefront: !!options?.forefront }));
    return { addedRequests, waitForAllRequestsToBeAdded: Promise.resolve([]) };
  }
}

/** Crawlee's event manager for `config`, reading memory from this process instead of `ps`. The
 * machine's (or container's) total is taken once from Crawlee's own reading. */
export function withProcessMemoryInfo(config: Configuration): Configuration {
  // `getMemoryInfo` is private in Crawlee's typings; it is the one method that reads memory.
  const events = config.getEventManager() as unknown as { getMemoryInfo(): Promise<MemoryInfo> };
  const original = events.getMemoryInfo.bind(events);
  let total: Promise<MemoryInfo> | undefined;
  events.getMemoryInfo = async () => {
    total ??= original();
    const t = await total;
    const rss = process.memoryUsage.rss();
    return { ...t, mainProcessBytes: rss, childProcessesBytes: 0, usedBytes: rss, freeBytes: Math.max(0, t.totalBytes - rss) };
  };
  return config;
}

interface MemoryInfo {
  totalBytes: number;
  freeBytes: number;
  usedBytes: number;
  mainProcessBytes: number;
  childProcessesBytes: number;
}
