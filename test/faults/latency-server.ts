/** A loopback site whose every answer is delayed 0–300 ms (seeded), counting requests in flight
 * over time: how fast the crawl's concurrency ramps up against a slow remote host. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { smallSite } from '../fixtures/crawler/server.js';

export interface LatencyServer {
  url: string;
  /** [ms since start, requests in flight] at each arrival. */
  inFlight: Array<[number, number]>;
  served: number;
  started: number;
  close(): Promise<void>;
}

export async function startLatencyServer(lists: number, perList: number, maxDelayMs = 300): Promise<LatencyServer> {
  const site = smallSite(lists, perList);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  let current = 0;
  const s: LatencyServer = { url: '', inFlight: [], served: 0, started: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    if (!s.started) s.started = Date.now();
    current++;
    s.inFlight.push([Date.now() - s.started, current]);
    const r = site(new URL(req.url ?? '/', 'http://x').pathname);
    setTimeout(() => {
      current--;
      s.served++;
      res.writeHead(r ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(r?.body ?? 'not found');
    }, random() * maxDelayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return s;
}
