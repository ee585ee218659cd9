/**
 * Live crawl monitor (issue 27 item 4): `npm run crawl -- <spider> --ui [PORT]` serves, on
 * 127.0.0.1 only, a page with the crawl as it runs — pages/s and items/s over time (an inline SVG
 * chart, no frontend build chain, no library), queue, failures, items by kind, the latest items
 * (a click shows the item). It is fed through the crawl's own hooks (`RunOptions.onProgress`,
 * `onItem`), so it sees what the progress line sees and costs the crawl one counter update per
 * item and one sample per progress tick; the page polls `/stats` once a second.
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

export interface MonitorSample {
  t: number;
  pages: number;
  items: number;
  pagesPerSec: number;
  itemsPerSec: number;
  queued: number;
  failed: number;
}

export interface MonitorState {
  spider: string;
  running: boolean;
  startedAt: number;
  progress?: CrawlProgress;
  samples: MonitorSample[];
  itemsByKind: Record<string, number>;
  items: number;
  latest: Array<{ n: number; url: string; kind: string; title?: string }>;
  /** Set when the crawl ended: the summary's failures by reason. */
  failuresByReason?: Record<string, number>;
}

export class CrawlMonitor {
  private readonly state: MonitorState;
  private readonly bodies = new Map<number, Item>();
  private itemCount = 0;
  private lastSample?: { t: number; items: number };
  private server?: Server;

  constructor(spider: string) {
    this.state = { spider, running: true, startedAt: Date.now(), samples: [], itemsByKind: {}, items: 0, latest: [] };
  }

  /** `RunOptions.onProgress`. */
  onProgress(p: CrawlProgress): void {
    const t = Date.now();
    const prev = this.lastSample;
    const itemsPerSec = prev && t > prev.t ? ((this.itemCount - prev.items) * 1000) / (t - prev.t) : 0;
    this.lastSample = { t, items: this.itemCount };
    this.state.progress = p;
    this.state.samples.push({ t: t - this.state.startedAt, pages: p.pages, items: this.itemCount, pagesPerSec: p.pagesPerSec, itemsPerSec, queued: p.queued, failed: p.failed });
    if (this.state.samples.length > MAX_SAMPLES) this.state.samples.splice(0, this.state.samples.length - MAX_SAMPLES);
  }

  /** `RunOptions.onItem`. */
  onItem(item: Item): void {
    const n = ++this.itemCount;
    this.state.items = n;
    this.state.itemsByKind[item.kind] = (this.state.itemsByKind[item.kind] ?? 0) + 1;
    this.state.latest.unshift({ n, url: item.url, kind: item.kind, title: item.title });
    this.bodies.set(n, item);
    if (this.state.latest.length > LATEST_ITEMS) {
      const gone = this.state.latest.pop()!;
      this.bodies.delete(gone.n);
    }
  }

  /** The crawl ended: the page stops updating. */
  finish(summary?: { failuresByReason?: Record<string, number> } & CrawlProgress): void {
    if (summary) {
      this.state.progress = summary;
      this.state.failuresByReason = summary.failuresByReason;
    }
    this.state.running = false;
  }

  snapshot(): MonitorState {
    return this.state;
  }

  /** Serve on 127.0.0.1 (never another address); port 0 picks a free one. */
  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:" });
        res.end(body);
      };
      if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', MONITOR_PAGE);
      if (url.pathname === '/stats') return send(200, 'application/json', JSON.stringify(this.state));
      const m = /^\/items\/(\d+)$/.exec(url.pathname);
      if (m) {
        const item = this.bodies.get(Number(m[1]));
        return item ? send(200, 'application/json', JSON.stringify(item)) : send(404, 'application/json', JSON.stringify({ error: `item ${m[1]} is no longer kept (the latest ${LATEST_ITEMS} are)` }));
      }
      send(404, 'text/plain', 'not found');
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
