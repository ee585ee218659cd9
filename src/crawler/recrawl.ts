/**
 * Incremental recrawl (issue 16 item 6): the "monitoring" use — after a finished crawl, the next
 * pass keeps the dataset, re-visits the list and thread pages it met, asks each with a conditional
 * request (If-None-Match / If-Modified-Since from the validators the last visit got), follows only
 * links never seen before, and stores new pages' items and thread pages whose floors changed —
 * once. A 304 answer is not read or parsed.
 *
 * What is remembered per re-visitable page (`storage/gleaner/<spider>.pages.json`): its kind, the
 * validators, when it was fetched, and a fingerprint of its content (floor number, author and
 * text of each post; not the resolved dates, which move with the fetch time when a page shows
 * "3小时前").
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Item } from '../core/item.js';
import { FetchError } from './errors.js';
import type { DownloaderStep } from './downloader/index.js';

export interface RecrawlOptions {
  /** Re-visit a page only when its last visit is at least this old (`'30m'`, `'1h'`, `'1d'`,
   * or milliseconds). Default 0: every recrawl re-visits every list and thread page. */
  every?: string | number;
  /** Re-visit list pages (default true). */
  lists?: boolean;
  /** Re-visit forum thread pages (default true). */
  threads?: boolean;
  /** Store list pages' items on a recrawl, re-visited or new (default false: list pages are how
   * new pages are found; the items a recrawl emits are the new pages and the changed threads). */
  listItems?: boolean;
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `'90s'`, `'30m'`, `'1h'`, `'1.5h'`, `'1d'`, or milliseconds → milliseconds. */
export function parseDuration(v: string | number): number {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) throw new Error(`invalid duration ${v}`);
    return v;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(v);
  if (!m) throw new Error(`invalid duration "${v}" (e.g. '30m', '1h', '1d')`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

/** What the last visit of a page left. */
export interface PageRecord {
  kind: Item['kind'];
  /** Request label and depth, to queue it again as it was. */
  label?: string;
  depth: number;
  etag?: string;
  lastModified?: string;
  fetchedAt: string;
  fingerprint?: string;
}

interface PagesFile {
  version: 1;
  /** The pass in progress or last run (0: the first crawl). */
  pass: number;
  /** Pages stored (done − failed − skipped) when this pass started: the page budget counts the
   * pass's own pages. */
  passBaseline: number;
  /** Dataset entries when this pass started: the pass's feeds hold the entries after them. */
  datasetStart: number;
  pages: Record<string, PageRecord>;
}

/** The content of an item that a recrawl compares: posts (floor, author, text) for threads, the
 * text fields for other pages. Dates are left out: relative ones move with the fetch time. */
export function fingerprint(item: Item): string {
  const basis =
    item.kind === 'forum'
      ? (item.posts ?? []).map((p) => [p.floor ?? null, p.author ?? null, p.content])
      : item.kind === 'list'
        ? (item.items ?? []).map((e) => e.url)
        : [item.title ?? null, (item.kind === 'article' ? item.author : undefined) ?? null, item.content ?? null];
  return createHash('sha1').update(JSON.stringify(basis)).digest('base64url');
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Re-visitable pages of a spider, on disk beside its frontier (in memory only without a file: a
 * crawl whose frontier is not this machine's journal, e.g. a shared Redis crawl, has no later pass). */
export class PageMemory {
  private data: PagesFile;
  private dirty = false;

  private constructor(private readonly file: string | undefined) {
    this.data = { version: 1, pass: 0, passBaseline: 0, datasetStart: 0, pages: {} };
    if (file && existsSync(file)) {
      try {
        const d = JSON.parse(readFileSync(file, 'utf8')) as PagesFile;
        if (d && d.version === 1 && d.pages) this.data = d;
      } catch {
        /* written by rename, so never torn: a foreign file, start empty */
      }
    }
  }

  static open(file: string | undefined): PageMemory {
    return new PageMemory(file);
  }

  get pass(): number {
    return this.data.pass;
  }
  get passBaseline(): number {
    return this.data.passBaseline;
  }
  get datasetStart(): number {
    return this.data.datasetStart ?? 0;
  }
  get size(): number {
    return Object.keys(this.data.pages).length;
  }

  get(url: string): PageRecord | undefined {
    return this.data.pages[url];
  }

  /** Forget every page (a crawl starting over). */
  clear(): void {
    this.data = { version: 1, pass: 0, passBaseline: 0, datasetStart: 0, pages: {} };
    this.dirty = true;
  }

  /** Record a visit that returned 200. */
  record(url: string, item: Item, how: { label?: string; depth: number; headers?: IncomingHttpHeaders; fetchedAt: Date; fingerprint?: string }): void {
    this.data.pages[url] = {
      kind: item.kind,
      label: how.label,
      depth: how.depth,
      etag: how.headers ? header(how.headers, 'etag') : undefined,
      lastModified: how.headers ? header(how.headers, 'last-modified') : undefined,
      fetchedAt: how.fetchedAt.toISOString(),
      fingerprint: how.fingerprint ?? fingerprint(item),
    };
    this.dirty = true;
  }

  /** A 304: the page is as it was, seen now. */
  touch(url: string, at: Date): void {
    const r = this.data.pages[url];
    if (!r) return;
    r.fetchedAt = at.toISOString();
    this.dirty = true;
  }

  /** Start a recrawl pass: the pages to re-visit (due by `every`, of the kinds asked for). */
  startPass(o: RecrawlOptions, now: Date, datasetCount: number, baseline: () => number, requeue: (urls: Array<[string, PageRecord]>) => void): Array<[string, PageRecord]> {
    const every = o.every === undefined ? 0 : parseDuration(o.every);
    const due = Object.entries(this.data.pages).filter(([, r]) => {
      if (r.kind === 'list' ? o.lists === false : r.kind === 'forum' ? o.threads === false : true) return false;
      if (r.kind !== 'list' && r.kind !== 'forum') return false;
      return now.getTime() - Date.parse(r.fetchedAt) >= every;
    });
    requeue(due);
    this.data.pass++;
    this.data.passBaseline = baseline();
    this.data.datasetStart = datasetCount;
    this.dirty = true;
    this.flush();
    return due;
  }

  flush(): void {
    if (!this.dirty || !this.file) return;
    const tmp = this.file + '.tmp';
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
    this.dirty = false;
  }
}

/** The page was not modified since the last visit (a 304 to a conditional request). Not a
 * failure: the crawl marks the page done without reading it. */
export class NotModifiedError extends FetchError {
  readonly reason = 'not modified';
  constructor(url: string) {
    super(url, `${url}: not modified (304)`);
  }
}

/** Conditional requests for pages re-visited by a recrawl: the validators of their last visit on
 * the way down, a 304 on the way up ends the exchange before the body (between the redirect and
 * the HTTP status steps). */
export function conditionalStep(memory: PageMemory, isRevisit: (url: string) => boolean): DownloaderStep {
  return {
    name: 'conditional',
    priority: 650,
    request(ctx) {
      if (ctx.hop !== 0 || !isRevisit(ctx.firstUrl)) return;
      const r = memory.get(ctx.url);
      if (!r) return;
      const headers: Record<string, string> = {};
      if (r.etag) headers['if-none-match'] = r.etag;
      if (r.lastModified) headers['if-modified-since'] = r.lastModified;
      ctx.headers = { ...(ctx.headers ?? {}), ...headers };
    },
    response(ctx, head) {
      if (head.status === 304) throw new NotModifiedError(ctx.firstUrl);
      return undefined;
    },
  };
}
