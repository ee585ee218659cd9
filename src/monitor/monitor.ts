/**
 * Live crawl monitor (issue 27 item 4): `npm run crawl -- <spider> --ui [PORT]` serves, on
 * 127.0.0.1 only, a page with the crawl as it runs — pages/s and items/s over time (an inline SVG
 * chart, no frontend build chain, no library), queue and in-flight counts, failures by reason,
 * items by kind, request rates per host, the latest items (a click opens the item's inspector
 * view: the `gleaner inspect` report of its page, whose body is kept for the latest
 * `BODY_ITEMS` items only). It is fed through the crawl's own hooks (`RunOptions.onProgress`,
 * `onItem`, `onResponse`), so it costs the crawl a counter update and one bounded copy of the body
 * per response and one sample per progress tick; the page polls `/stats` once a second.
 * `gleaner status --ui` feeds the same monitor from a shared (Redis) crawl's state instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Item } from '../core/item.js';
import type { CrawlProgress } from '../crawler/run/stats.js';
import { MONITOR_PAGE } from './page.js';

/** Samples kept for the chart (one per progress tick: 10 minutes at one a second). */
export const MAX_SAMPLES = 600;
/** Latest items kept, whole (what a click shows). */
export const LATEST_ITEMS = 50;
/** Of those, the latest whose page body is kept for the inspector view. */
export const BODY_ITEMS = 20;
/** Responses kept while their item is not out yet (an item can wait for its thread or page type). */
export const PENDING_BODIES = 2 * BODY_ITEMS;
/** A body larger than this is not kept (the item then opens without its inspector view). */
export const MAX_KEPT_BODY_BYTES = 4 * 2 ** 20;
/** Hosts counted one by one; the others are counted together (a broad crawl meets many). */
export const MAX_HOSTS = 1_000;
/** Rate rows shown (the busiest now). */
export const RATE_ROWS = 20;
/** Requests per host counted under this name once `MAX_HOSTS` hosts are known. */
export const OTHER_HOSTS = '(other hosts)';

export interface MonitorSample {
  t: number;
  pages: number;
  items: number;
  pagesPerSec: number;
  itemsPerSec: number;
  queued: number;
  failed: number;
  inFlight: number;
}

/** A row of the rates table: a host (a local crawl) or a worker (a shared crawl). */
export interface RateRow {
  name: string;
  total: number;
  /** Over the last progress tick. */
  perSec: number;
}

export interface MonitorState {
  spider: string;
  running: boolean;
  startedAt: number;
  progress?: CrawlProgress;
  samples: MonitorSample[];
  itemsByKind: Record<string, number>;
  items: number;
  latest: Array<{ n: number; url: string; kind: string; title?: string; inspect: boolean }>;
  /** Failures by reason: the progress's while the crawl runs, the summary's at its end. */
  failuresByReason?: Record<string, number>;
  /** Requests per host (local crawl: responses, counted as they arrive) or pages per worker. */
  rates: { by: 'host' | 'worker'; rows: RateRow[] };
  /** Why a click shows no inspector view (a shared crawl's pages are in its workers). */
  noInspect?: string;
  /** What the items by kind count, when not every item of the crawl. */
  kindsNote?: string;
}

/** Builds the inspector view of a page (the CLI passes `gleaner inspect`'s report). */
export type InspectView = (url: string, body: Uint8Array) => Promise<string>;

export interface MonitorOptions {
  inspect?: InspectView;
  /** Shown instead of the inspector view when there is none. */
  noInspect?: string;
  kindsNote?: string;
}

interface KeptBody {
  url: string;
  body: Uint8Array;
}

export class CrawlMonitor {
  private readonly state: MonitorState;
  private readonly items = new Map<number, Item>();
  /** Bodies of the latest items, by item number. */
  private readonly bodies = new Map<number, KeptBody>();
  /** Responses whose item is not out yet, by URL (oldest first). */
  private readonly pending = new Map<string, KeptBody>();
  private readonly hostCounts = new Map<string, number>();
  private lastHostCounts = new Map<string, number>();
  private itemCount = 0;
  private lastSample?: { t: number; items: number };
  private server?: Server;

  constructor(
    spider: string,
    private readonly o: MonitorOptions = {},
  ) {
    this.state = { spider, running: true, startedAt: Date.now(), samples: [], itemsByKind: {}, items: 0, latest: [], rates: { by: 'host', rows: [] }, noInspect: o.noInspect, kindsNote: o.kindsNote };
  }

  /** `RunOptions.onProgress` (or a shared crawl's state, read once a second). */
  onProgress(p: CrawlProgress, rates?: RateRow[]): void {
    const t = Date.now();
    const prev = this.lastSample;
    const dt = prev && t > prev.t ? (t - prev.t) / 1000 : 0;
    // a shared crawl's monitor reads the item count from the crawl (it sees only the items since it started)
    const items = (this.state.items = Math.max(this.state.items, p.items));
    const itemsPerSec = dt ? (items - prev!.items) / dt : 0;
    this.lastSample = { t, items };
    this.state.progress = p;
    if (p.failuresByReason) this.state.failuresByReason = p.failuresByReason;
    this.state.samples.push({ t: t - this.state.startedAt, pages: p.pages, items, pagesPerSec: p.pagesPerSec, itemsPerSec, queued: p.queued, failed: p.failed, inFlight: p.inFlight ?? 0 });
    if (this.state.samples.length > MAX_SAMPLES) this.state.samples.splice(0, this.state.samples.length - MAX_SAMPLES);
    this.state.rates = rates ? { by: 'worker', rows: rates } : { by: 'host', rows: this.hostRates(dt) };
  }

  /** Requests per host over the last tick, the busiest first. */
  private hostRates(dt: number): RateRow[] {
    const rows: RateRow[] = [];
    for (const [name, total] of this.hostCounts) rows.push({ name, total, perSec: dt ? (total - (this.lastHostCounts.get(name) ?? 0)) / dt : 0 });
    this.lastHostCounts = new Map(this.hostCounts);
    return rows.sort((a, b) => b.perSec - a.perSec || b.total - a.total).slice(0, RATE_ROWS);
  }

  /** `RunOptions.onResponse`: counted for its host; its body copied (the chain may transfer it to a
   * worker thread) and kept until its item is out, within the bounds above. */
  onResponse(res: { url: string; body: Uint8Array | string }): void {
    let host = OTHER_HOSTS;
    try {
      host = new URL(res.url).host;
    } catch {
      /* counted with the others */
    }
    if (!this.hostCounts.has(host) && this.hostCounts.size >= MAX_HOSTS) host = OTHER_HOSTS;
    this.hostCounts.set(host, (this.hostCounts.get(host) ?? 0) + 1);
    if (!this.o.inspect) return;
    const size = typeof res.body === 'string' ? res.body.length * 3 : res.body.byteLength;
    if (size > MAX_KEPT_BODY_BYTES) return;
    const body = typeof res.body === 'string' ? Buffer.from(res.body, 'utf8') : new Uint8Array(res.body);
    this.pending.delete(res.url);
    this.pending.set(res.url, { url: res.url, body });
    if (this.pending.size > PENDING_BODIES) this.pending.delete(this.pending.keys().next().value!);
  }

  /** `RunOptions.onItem`. */
  onItem(item: Item): void {
    const n = ++this.itemCount;
    this.state.items = Math.max(this.state.items, n);
    this.state.itemsByKind[item.kind] = (this.state.itemsByKind[item.kind] ?? 0) + 1;
    const kept = this.pending.get(item.url);
    if (kept) {
      this.pending.delete(item.url);
      this.bodies.set(n, kept);
      // the oldest kept body goes when there are more than BODY_ITEMS
      if (this.bodies.size > BODY_ITEMS) this.bodies.delete(this.bodies.keys().next().value!);
    }
    this.state.latest.unshift({ n, url: item.url, kind: item.kind, title: item.title, inspect: !!kept });
    this.items.set(n, item);
    if (this.state.latest.length > LATEST_ITEMS) {
      const gone = this.state.latest.pop()!;
      this.items.delete(gone.n);
    }
    // an item's body is kept only while the item is listed
    for (const e of this.state.latest.slice(BODY_ITEMS)) if (e.inspect) e.inspect = this.bodies.has(e.n);
  }

  /** The crawl ended: the page stops updating. */
  finish(summary?: { failuresByReason?: Record<string, number> } & CrawlProgress): void {
    // the requests per host up to the end (the last tick may be up to a second old)
    if (this.state.rates.by === 'host') this.state.rates = { by: 'host', rows: this.hostRates(this.lastSample ? (Date.now() - this.lastSample.t) / 1000 : 0) };
    if (summary) {
      this.state.progress = summary;
      this.state.failuresByReason = summary.failuresByReason;
    }
    this.state.running = false;
  }

  snapshot(): MonitorState {
    return this.state;
  }

  /** Bodies kept now (tests: the bound). */
  keptBodies(): number {
    return this.bodies.size + this.pending.size;
  }

  /** Serve on 127.0.0.1 (never another address); port 0 picks a free one. */
  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, type: string, body: string, csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; img-src data:") => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-security-policy': csp });
        res.end(body);
      };
      if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', MONITOR_PAGE);
      if (url.pathname === '/stats') return send(200, 'application/json', JSON.stringify(this.state));
      const m = /^\/items\/(\d+)(\/inspect)?$/.exec(url.pathname);
      if (!m) return send(404, 'text/plain', 'not found');
      const n = Number(m[1]);
      if (!m[2]) {
        const item = this.items.get(n);
        return item ? send(200, 'application/json', JSON.stringify(item)) : send(404, 'application/json', JSON.stringify({ error: `item ${n} is no longer kept (the latest ${LATEST_ITEMS} are)` }));
      }
      const kept = this.bodies.get(n);
      const why = this.o.noInspect ?? `the page of item ${n} is no longer kept (the pages of the latest ${BODY_ITEMS} items are, up to ${MAX_KEPT_BODY_BYTES / 2 ** 20} MB each)`;
      if (!kept || !this.o.inspect) return send(404, 'text/plain; charset=utf-8', why);
      this.o.inspect(kept.url, kept.body).then(
        // the report's own policy: it loads nothing (src/inspect/report.ts)
        (html) => send(200, 'text/html; charset=utf-8', html, "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'unsafe-inline'; frame-src 'self' about: data:; font-src data:"),
        (e: unknown) => send(500, 'text/plain; charset=utf-8', `the inspector view of item ${n} failed: ${(e as Error).message}`),
      );
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}
