/**
 * The static server and URL keys of the whole-site benches (bench/sites.ts, bench/layout.ts): the
 * generated sites of `../shared/data/sites-crawl` served from their `public/` folder on 127.0.0.1
 * as `python -m http.server` serves them, and the truth's keys of crawled URLs.
 */
import http from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.xml': 'application/xml; charset=utf-8', '.css': 'text/css', '.js': 'application/javascript',
  '.json': 'application/json', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.woff': 'font/woff', '.woff2': 'font/woff2',
};

/** The file a URL path serves (a directory: its index.html), or undefined. */
export function fileFor(root: string, pathname: string): { file?: string; redirect?: boolean } {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    rel = pathname;
  }
  const file = path.join(root, path.normalize(rel).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(root)) return {};
  const st = existsSync(file) ? statSync(file) : undefined;
  if (st?.isDirectory()) {
    if (!pathname.endsWith('/')) return { redirect: true };
    const idx = path.join(file, 'index.html');
    return existsSync(idx) ? { file: idx } : {};
  }
  return st?.isFile() ? { file } : {};
}

/**
 * Seeded per-URL response delays (0 ≤ d < maxMs, the same for a path and seed in every run): a
 * crawl's concurrent requests then come back in another order, and the crawl meets the site's pages
 * in another order — reproducibly, which the crawl's own timing on a shared machine is not. Seed 0:
 * no delay (the order the crawl's timing gives).
 */
export function seededDelay(seed: number, maxMs: number): ((pathname: string) => number) | undefined {
  if (!seed || maxMs <= 0) return undefined;
  return (pathname) => {
    let h = (0x811c9dc5 ^ seed) >>> 0;
    for (let i = 0; i < pathname.length; i++) h = Math.imul(h ^ pathname.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    return ((h >>> 0) / 0x100000000) * maxMs;
  };
}

/** A static server as `python -m http.server` behaves: directory → its index.html, a directory
 * without its trailing slash → 301 to the slash form, anything else missing → 404. With `delay`,
 * each answer waits that many milliseconds for its path (seededDelay). */
export function serve(root: string, options: { delay?: (pathname: string) => number } = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const wait = options.delay?.(new URL(req.url ?? '/', 'http://x').pathname) ?? 0;
    if (wait > 0) setTimeout(() => answer(req, res), wait);
    else answer(req, res);
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const f = fileFor(root, u.pathname);
    if (f.redirect) {
      res.writeHead(301, { location: u.pathname + '/' + u.search }).end();
      return;
    }
    if (!f.file) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(f.file).toLowerCase()] ?? 'application/octet-stream', 'content-length': statSync(f.file).size });
    createReadStream(f.file).pipe(res);
  };
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      }),
    ),
  );
}

/** The truth's key of a crawled URL of the site (its path; a directory linked without its slash is
 * the slash form, as the server redirects there); undefined off the site. */
export function keyOf(url: string, origin: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url, origin + '/');
  } catch {
    return undefined;
  }
  if (u.origin !== origin) return undefined;
  const k = u.pathname.replace(/\/index\.html$/, '/');
  return k.endsWith('/') || /\.[a-z0-9]{2,5}$/i.test(k) ? k : k + '/';
}
/** Truth keys are encoded from UTF-8; the crawler's URLs too, but case of hex digits may differ. */
export const canon = (k: string) => k.replace(/%[0-9a-f]{2}/gi, (s) => s.toUpperCase());

/** F1 of a predicted set against the truth's (1 when both are empty). */
export function prf(pred: Set<string>, gold: Set<string>): number {
  let tp = 0;
  for (const p of pred) if (gold.has(p)) tp++;
  const p = pred.size ? tp / pred.size : gold.size ? 0 : 1;
  const r = gold.size ? tp / gold.size : 1;
  return p + r ? (2 * p * r) / (p + r) : 0;
}
