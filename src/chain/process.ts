/**
 * One page through the chain: build the context, run the middleware, finish the item. Shared by
 * the crawlers and `gleaner extract`, so a saved page and a crawled page give the same item.
 */
import type { Page } from '../core/page.js';
import { langTag, MAX_ELEMENTS } from '../core/page.js';
import { elementsNotBuilt } from '../core/html-parser.js';
import { decideLabel, type Logger, type Middleware, type PageContext, type RequestInfo, type SiteStore } from '../core/middleware.js';
import { runChain } from './chain.js';
import { capFields } from './item-caps.js';
import { compactItem, KIND_OF_LABEL, type Item, type PageLabel } from '../core/item.js';

import { timezoneForLang } from '../core/dates.js';
import { ownStrings } from '../core/string-cache.js';

export interface ProcessOptions {
  spider: string;
  chain: Middleware[];
  store: SiteStore;
  log: Logger;
  /** Site key for this page (default: URL host). */
  siteKey?: string;
  /** Spider timezone (IANA). */
  timezone?: string;
}

/**
 * The site a page belongs to: its URL's host. A URL without a host (a saved file's `file://` URL,
 * `data:`) is a site of its own — pages teach each other a site template only when they share a
 * host or are given the same `site` (ARCHITECTURE.md: "the same `site`, else the same URL host");
 * before, every file given without a URL fell into one site of all of them (one thread, one
 * template learned across unrelated pages).
 */
export function siteKeyOf(url: string): string {
  try {
    const u = new URL(url);
    return u.host ? u.host.toLowerCase() : u.href;
  } catch {
    return 'local';
  }
}

export function createContext(page: Page, request: RequestInfo, o: Omit<ProcessOptions, 'chain'>): PageContext {
  const siteKey = o.siteKey ?? siteKeyOf(request.url);
  return {
    page,
    request,
    spider: o.spider,
    siteKey,
    site: o.store.site(siteKey),
    segments: page.segments,
    templateApplied: false,
    // A follow rule's (or `--kind`'s) label types the page even when the classifier is disabled.
    label: decideLabel(request),
    item: { url: request.url },
    timezone: o.timezone ?? timezoneForLang(langTag(page)),
    follow: [],
    scratch: {},
    log: o.log,
  };
}

/** Why the item holds only part of its page (the page model's element budget), or undefined. */
function truncation(page: Page): string | undefined {
  const cut = elementsNotBuilt(page.document);
  return cut ? `page truncated: the first ${MAX_ELEMENTS.toLocaleString('en')} elements were read, ${cut.toLocaleString('en')} more were not (MAX_ELEMENTS)` : undefined;
}

/** Fill the fields every item has and drop the unknown ones. */
export function finishItem(ctx: PageContext, spider?: string): Item {
  const item = capFields(ctx.item);
  const cut = truncation(ctx.page);
  if (cut) item.error = item.error ? `${item.error}; ${cut}` : cut;
  const kind = item.kind ?? (ctx.label && item.content === undefined && !item.items && !item.posts ? 'other' : ctx.label ? KIND_OF_LABEL[ctx.label as PageLabel] : 'other');
  // The item outlives its page (a batch holds a site's items; a crawl's sinks queue them): its
  // strings must not be views of the page's HTML (ownStrings).
  return ownStrings(
    compactItem({
      ...item,
      url: item.url,
      kind,
      spider,
      fetchedAt: ctx.page.fetchedAt.toISOString(),
      lang: item.lang ?? ctx.page.lang(),
      status: item.status ?? ctx.request.status,
    } as Item),
  );
}

/** Run the chain on a page and return the context (item not yet finished) . */
export async function processPage(page: Page, request: RequestInfo, o: ProcessOptions): Promise<PageContext> {
  const ctx = createContext(page, request, o);
  await runChain(o.chain, ctx);
  return ctx;
}
