/** Sessions (issue 16 item 4): Crawlee's SessionPool, a cookie jar per session, blocked sessions
 * retired on 403 and the request retried with another session. */
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';

/** Sets `sid` on a request without one (through a redirect on the first visit, as login flows
 * do), blocks a session with 403 after BLOCK_AFTER pages, and requires the consent cookie the
 * spider sets itself. */
const BLOCK_AFTER = 4;
const PAGES = 12;

async function siteWithSessions() {
  let nextSid = 1;
  const served = new Map<string, number>();
  const log: Array<{ path: string; sid?: string; status: number }> = [];
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const cookies = Object.fromEntries((req.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((c) => c.split('=') as [string, string]));
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      log.push({ path: p, sid: cookies.sid, status });
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (p === '/robots.txt') return send(404, '');
    if (cookies.consent !== 'yes') return send(400, 'consent cookie missing');
    if (!cookies.sid) return send(302, '', { location: `${p}?welcome`, 'set-cookie': `sid=s${nextSid++}; Path=/; HttpOnly` });
    const n = (served.get(cookies.sid) ?? 0) + 1;
    served.set(cookies.sid, n);
    if (n > BLOCK_AFTER) return send(403, 'blocked');
    if (p === '/') return send(200, `<html><head><title>Index</title></head><body><ul>${Array.from({ length: PAGES }, (_, i) => `<li><a href="/p/${i + 1}.html">Page ${i + 1} of the index of this site</a></li>`).join('')}</ul></body></html>`);
    const m = /^\/p\/(\d+)\.html$/.exec(p);
    if (m) return send(200, `<html><head><title>Page ${m[1]}</title></head><body><article><h1>Page ${m[1]}</h1><p>${'A paragraph of text for the page, long enough to be read as an article body. '.repeat(4)}</p></article></body></html>`);
    return send(404, 'no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, log, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe('sessions', () => {
  it('keeps each session’s cookies, retires a blocked session and retries with another: every page fetched', async () => {
    const site = await siteWithSessions();
    try {
      const summary = await runSpider(
        { name: 'sessions', startUrls: [`${site.url}/`], allowPrivateAddresses: true, crawler: { maxConcurrency: 1, sessions: { maxPoolSize: 2 }, cookies: [{ name: 'consent', value: 'yes' }], retryBackoffSecs: 0, maxRetries: 4 } },
        { storageDir: mkdtempSync(path.join(tmpdir(), 'sessions-')), log: silentLogger },
      );
      expect(summary.failuresByReason).toEqual({});
      expect(summary.failed).toBe(0);
      expect(summary.pages).toBe(PAGES + 1);
      expect(summary.sessions!.retired).toBeGreaterThanOrEqual(2);
      expect(summary.sessions!.used).toBeGreaterThanOrEqual(3);
      // The cookie set on the redirect came back on the very next request, and every 200 carried a session.
      const ok = site.log.filter((r) => r.status === 200);
      expect(ok.every((r) => r.sid)).toBe(true);
      expect(site.log.filter((r) => r.status === 400)).toEqual([]);
      // A blocked session is never used again.
      const blockedSids = new Set(site.log.filter((r) => r.status === 403).map((r) => r.sid));
      for (const sid of blockedSids) {
        const last403 = site.log.map((r, i) => (r.sid === sid && r.status === 403 ? i : -1)).filter((i) => i >= 0).at(-1)!;
        expect(site.log.slice(last403 + 1).some((r) => r.sid === sid)).toBe(false);
      }
    } finally {
      await site.close();
    }
  }, 60_000);

  it('without sessions the same site blocks the crawl', async () => {
    const site = await siteWithSessions();
    try {
      const summary = await runSpider(
        { name: 'nosessions', startUrls: [`${site.url}/`], allowPrivateAddresses: true, crawler: { maxConcurrency: 1, cookies: [{ name: 'consent', value: 'yes' }], retryBackoffSecs: 0 } },
        { storageDir: mkdtempSync(path.join(tmpdir(), 'nosessions-')), log: silentLogger },
      );
      expect(summary.pages).toBeLessThan(PAGES + 1);
    } finally {
      await site.close();
    }
  }, 60_000);
});
