/**
 * What goes into and comes out of one page's run through the chain (page-task.ts), without the
 * chain itself: the crawl thread imports this when the chain runs in worker threads.
 */
import type { Item } from '../../core/item.js';
import type { Logger, Middleware, RequestInfo, SiteStore } from '../../core/middleware.js';
import type { LinkCandidate, LinkPolicy } from '../links.js';

/** A fetched response and what led to it; plain data (sent to worker threads, the body as bytes). */
export interface PageTask {
  url: string;
  body: Uint8Array | string;
  contentType?: string;
  /** Epoch ms (a Date does not survive every transport the same way). */
  fetchedAt: number;
  request: RequestInfo;
  siteKey: string;
}

export type PageOutcome =
  /** The chain ran: the item (absent when a middleware dropped the page), the links to consider,
   * and the first item-shape problem, if any (the pipeline counts it). */
  | { type: 'page'; item?: Item; drop?: string; invalid?: string; links: LinkCandidate[] }
  /** The body is not a page (binary): an `other` item carrying the reason. */
  | { type: 'binary'; item: Item }
  /** A middleware threw: the page is dropped, counted under the middleware's name. */
  | { type: 'middleware-error'; middleware: string; message: string }
  /** The page overran its time budget (or killed its worker): an `other` item with the error,
   * `stage` is the middleware (or `parse`) that was running. */
  | { type: 'timeout' | 'crashed'; stage: string; item: Item };

export interface PageEnv {
  spider: string;
  chain: Middleware[];
  store: SiteStore;
  log: Logger;
  timezone?: string;
  links: LinkPolicy;
}

/** Stage name of the page model (decode + parse + DFS numbering), before the chain. */
export const PARSE_STAGE = 'parse';

/** An `other` item for a page that gave none, with the reason (ARCHITECTURE §5: no crash). */
export function errorItem(task: Pick<PageTask, 'url' | 'fetchedAt'> & { request?: { status?: number } }, spider: string, error: string): Item {
  const status = task.request?.status;
  return { url: task.url, kind: 'other', spider, fetchedAt: new Date(task.fetchedAt).toISOString(), ...(status !== undefined ? { status } : {}), error };
}

/** The pool was closed while the page was in it (a stopped crawl): the page was not processed. */
export class PoolClosedError extends Error {
  constructor(url: string) {
    super(`${url}: not processed (the chain pool was closed)`);
    this.name = 'PoolClosedError';
  }
}
