/**
 * Every fetch is bounded (issue 24 item 2): whatever a server does on the wire — breaks its framing
 * right after the head, sends a head and then nothing, accepts and never answers, trickles its body,
 * resets mid-body — the downloader (got-scraping underneath, as a crawl uses it) fails within its
 * timeout plus one second with a typed error. A raw TCP server on 127.0.0.1 writes the bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Downloader } from '../../src/crawler/downloader/index.js';
import { defaultSteps } from '../../src/crawler/downloader/steps.js';
import { AddressGuard, parseDomains } from '../../src/crawler/net-guard.js';
import { HostRateLimiter } from '../../src/crawler/politeness.js';
import { FetchError, NetworkError, TimeoutError } from '../../src/crawler/errors.js';

const TIMEOUT_MS = 1_000;
/** The bound: the timeout plus one second, from request to last byte. */
const BOUND_MS = TIMEOUT_MS + 1_000;

type Behaviour = (socket: net.Socket) => void;
const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n';

const BEHAVIOURS: Record<string, Behaviour> = {
  // Content-Length 40, then far more bytes on a keep-alive connection: the parser fails after the head
  'broken framing (more bytes than Content-Length)': (s) => s.write(`${HEAD}Content-Length: 40\r\nConnection: keep-alive\r\n\r\n${'<p>x</p>'.repeat(40)}HTTP/1.1 200 OK junk\r\n\r\n`),
  'chunked body with a bad chunk size': (s) => s.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nmore\r\n`),
  // a head, then the connection stays open and silent
  'head, then silence (half open)': (s) => s.write(`${HEAD}Content-Length: 100000\r\n\r\n<html>`),
  'accepted, never answered': () => {},
  'half a head, then silence': (s) => s.write('HTTP/1.1 200 OK\r\nContent-Ty'),
  'body trickling one byte at a time': (s) => {
    s.write(`${HEAD}Content-Length: 100000\r\n\r\n`);
    const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write('x')), 100);
    s.on('close', () => clearInterval(t));
  },
  'reset in the middle of the body': (s) => {
    s.write(`${HEAD}Content-Length: 100000\r\n\r\n<html><body>`);
    setTimeout(() => s.resetAndDestroy(), 50);
  },
  'chunked body never terminated': (s) => s.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n`),
};

let server: net.Server;
let base: string;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const path = decodeURIComponent(buf.slice(buf.indexOf(' ') + 1, buf.indexOf(' ', buf.indexOf(' ') + 1)).slice(1));
      buf = buf.slice(end + 4);
      const behaviour = BEHAVIOURS[path];
      if (behaviour) behaviour(socket);
      else socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const downloader = () =>
  new Downloader({
    steps: defaultSteps({
      domains: parseDomains([new URL(base).host]),
      guard: new AddressGuard(true),
      limiter: new HostRateLimiter(undefined),
      maxBytes: 10 * 1024 * 1024,
      retry: { maxRetries: 0, baseDelayMs: 100, maxDelayMs: 1_000 },
    }),
    timeoutMs: TIMEOUT_MS,
    maxBytes: 10 * 1024 * 1024,
  });

describe('every fetch is bounded by its timeout (+ 1 s), whatever the server does', () => {
  it.each(Object.keys(BEHAVIOURS))('%s', async (name) => {
    const t0 = performance.now();
    const error = await downloader()
      .fetch(base + encodeURIComponent(name))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const ms = performance.now() - t0;
    expect(error, 'the fetch must fail').toBeInstanceOf(FetchError);
    expect(error instanceof TimeoutError || error instanceof NetworkError, String(error)).toBe(true);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('a parse error right after the head fails at once, not at the timeout', async () => {
    const t0 = performance.now();
    const error = await downloader()
      .fetch(base + encodeURIComponent('broken framing (more bytes than Content-Length)'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(performance.now() - t0).toBeLessThan(TIMEOUT_MS);
  });
});
