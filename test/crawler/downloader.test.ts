import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Downloader, type DownloadContext } from '../../src/crawler/downloader/index.js';
import { addressGuardStep, contentTypeStep, defaultSteps, httpStatusStep, offsiteStep, redirectStep, retryStep, robotsStep, sizeLimitStep } from '../../src/crawler/downloader/steps.js';
import { backoffDelayMs, backoffScheduleMs, parseRetryAfter, BACKOFF_JITTER } from '../../src/crawler/downloader/backoff.js';
import { readBoundedBody, BodyLimitError } from '../../src/crawler/downloader/body.js';
import { AddressGuard, parseDomains } from '../../src/crawler/net-guard.js';
import { HostRateLimiter, RobotsCache, ROBOTS_MAX_BYTES } from '../../src/crawler/politeness.js';
import { BlockedError, HttpStatusError, NetworkError, NotAPageError, RedirectError, TimeoutError, TooLargeError } from '../../src/crawler/errors.js';

const ctx = (url: string, extra: Partial<DownloadContext> = {}): DownloadContext => ({ url, firstUrl: url, hop: 0, chain: [url], attempt: 0, maxBytes: 1000, signal: new AbortController().signal, ...extra });
const head = (status: number, headers: Record<string, string> = {}) => ({ url: 'http://a.test/', status, headers });

/** A gzip body that inflates to `mb` MB of zeros, made in chunks (never holding the inflated bytes). */
async function gzipZeros(mb: number): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((r) => gz.on('end', r));
  const chunk = Buffer.alloc(1 << 20);
  for (let i = 0; i < mb; i++) if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await done;
  return Buffer.concat(out);
}

describe('downloader steps, each alone', () => {
  it('offsite: redirect targets outside the allowed host and port are refused', () => {
    const step = offsiteStep(parseDomains(['a.test:8080', 'b.test']));
    expect(() => step.request!(ctx('http://x.test/'))).not.toThrow(); // first requests were filtered when queued
    expect(() => step.request!(ctx('http://a.test:8080/p', { hop: 1 }))).not.toThrow();
    expect(() => step.request!(ctx('http://a.test:9090/p', { hop: 1 }))).toThrow(BlockedError);
    expect(() => step.request!(ctx('http://www.b.test:1234/p', { hop: 1 }))).not.toThrow();
    try {
      step.request!(ctx('http://c.test/', { hop: 1, firstUrl: 'http://a.test:8080/' }));
    } catch (e) {
      expect((e as BlockedError).reason).toBe('redirect off-site');
    }
  });

  it('address guard: refuses loopback on every hop', async () => {
    const step = addressGuardStep(new AddressGuard(false));
    await expect(step.request!(ctx('http://[::ffff:127.0.0.1]/'))).rejects.toBeInstanceOf(BlockedError);
    await expect(step.request!(ctx('http://[::127.0.0.1]/', { hop: 2 }))).rejects.toMatchObject({ reason: 'blocked address', afterRedirect: true });
  });

  it('robots: a disallowed path is refused, on the first request and after a redirect', async () => {
    const step = robotsStep(new RobotsCache(async () => ({ status: 200, body: 'User-agent: *\nDisallow: /no/\n' })));
    await expect(step.request!(ctx('http://a.test/yes'))).resolves.toBeUndefined();
    await expect(step.request!(ctx('http://a.test/no/x'))).rejects.toMatchObject({ kind: 'robots', reason: 'robots.txt' });
    await expect(step.request!(ctx('http://a.test/no/x', { hop: 1, firstUrl: 'http://a.test/old' }))).rejects.toThrow(/redirects to http:\/\/a\.test\/no\/x, which robots\.txt disallows/);
  });

  it('redirect: follows, refuses loops, non-http targets and long chains (typed, not retryable)', () => {
    const step = redirectStep(3);
    expect(step.response!(ctx('http://a.test/x'), head(301, { location: '/y#f' }))).toEqual({ redirect: 'http://a.test/y' });
    expect(step.response!(ctx('http://a.test/x'), head(200))).toBeUndefined();
    const loop = () => step.response!(ctx('http://a.test/b', { chain: ['http://a.test/a', 'http://a.test/b'], hop: 1 }), head(302, { location: '/a' }));
    expect(loop).toThrow(RedirectError);
    try {
      loop();
    } catch (e) {
      expect((e as RedirectError).retryable).toBe(false);
      expect((e as RedirectError).reason).toBe('redirect loop');
    }
    expect(() => step.response!(ctx('http://a.test/x', { hop: 3 }), head(302, { location: '/z' }))).toThrow(/more than 3 redirects/);
    expect(() => step.response!(ctx('http://a.test/x'), head(302, { location: 'file:///etc/passwd' }))).toThrow(BlockedError);
  });

  it('http status, content type, size: typed errors', () => {
    expect(() => httpStatusStep().response!(ctx('http://a.test/'), head(404))).toThrow(HttpStatusError);
    try {
      httpStatusStep().response!(ctx('http://a.test/'), head(503, { 'retry-after': '7' }));
    } catch (e) {
      const h = e as HttpStatusError;
      expect([h.status, h.retryable, h.retryAfterMs, h.reason]).toEqual([503, true, 7000, 'http 503']);
    }
    expect(new HttpStatusError(404, 'u').retryable).toBe(false);
    expect(() => contentTypeStep().response!(ctx('http://a.test/'), head(200, { 'content-type': 'image/png' }))).toThrow(NotAPageError);
    expect(() => sizeLimitStep(100).response!(ctx('http://a.test/'), head(200, { 'content-length': '101' }))).toThrow(TooLargeError);
  });

  it('retry: backoff schedule with jitter on top, Retry-After honoured and pausing the host, limits respected', () => {
    const limiter = new HostRateLimiter();
    const step = retryStep({ maxRetries: 3, baseDelayMs: 100, maxDelayMs: 5000, limiter, random: () => 1 });
    const e503 = new HttpStatusError(503, 'http://a.test/');
    expect(step.retry!(ctx('http://a.test/', { attempt: 0 }), e503)).toBe(100 * (1 + BACKOFF_JITTER));
    expect(step.retry!(ctx('http://a.test/', { attempt: 2 }), e503)).toBe(400 * (1 + BACKOFF_JITTER));
    expect(step.retry!(ctx('http://a.test/', { attempt: 3 }), e503)).toBeUndefined();
    expect(step.retry!(ctx('http://a.test/'), new HttpStatusError(404, 'u'))).toBeUndefined();
    expect(step.retry!(ctx('http://a.test/'), new RedirectError('u', 'loop', 'loop'))).toBeUndefined();
    expect(step.retry!(ctx('http://a.test/'), new HttpStatusError(429, 'u', 2000))).toBe(2000);
    expect(step.retry!(ctx('http://a.test/'), new HttpStatusError(429, 'u', 3_600_000))).toBeUndefined(); // too long: fail
    expect(step.retry!(ctx('http://a.test/'), new TimeoutError('u', 10))).toBeGreaterThanOrEqual(100);
    expect(step.retry!(ctx('http://a.test/'), new NetworkError('u', 'ENOTFOUND', 'no such host'))).toBeUndefined();
  });

  it('backoff and Retry-After parsing', () => {
    for (let a = 0; a < 6; a++) {
      const d = backoffDelayMs(a, 1000, 60_000);
      expect(d).toBeGreaterThanOrEqual(backoffScheduleMs(a, 1000, 60_000));
      expect(d).toBeLessThanOrEqual(backoffScheduleMs(a, 1000, 60_000) * (1 + BACKOFF_JITTER));
    }
    expect(backoffScheduleMs(10, 1000, 60_000)).toBe(60_000);
    expect(parseRetryAfter('5')).toBe(5000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('bounded decoding', () => {
  it('stops a gzip bomb at the decoded limit without inflating it', async () => {
    const bomb = await gzipZeros(200);
    expect(bomb.length).toBeLessThan(400_000);
    const before = process.memoryUsage().rss;
    await expect(readBoundedBody(Readable.from([bomb]), 'gzip', { maxBytes: 5_000_000 })).rejects.toBeInstanceOf(BodyLimitError);
    expect(process.memoryUsage().rss - before).toBeLessThan(100e6);
    const cut = await readBoundedBody(Readable.from([bomb]), 'gzip', { maxBytes: ROBOTS_MAX_BYTES, truncate: true });
    expect(cut.body.length).toBe(ROBOTS_MAX_BYTES);
    expect(cut.truncated).toBe(true);
  });

  it('undoes gzip, deflate (wrapped and raw), brotli and stacked codings; caps raw bytes too', async () => {
    const text = Buffer.from('<p>hello</p>'.repeat(100));
    const read = (b: Buffer, enc?: string) => readBoundedBody(Readable.from([b]), enc, { maxBytes: 10_000 });
    expect((await read(zlib.gzipSync(text), 'gzip')).body.equals(text)).toBe(true);
    expect((await read(zlib.deflateSync(text), 'deflate')).body.equals(text)).toBe(true);
    expect((await read(zlib.deflateRawSync(text), 'deflate')).body.equals(text)).toBe(true);
    expect((await read(zlib.brotliCompressSync(text), 'br')).body.equals(text)).toBe(true);
    expect((await read(zlib.brotliCompressSync(zlib.gzipSync(text)), 'gzip, br')).body.equals(text)).toBe(true);
    await expect(read(Buffer.alloc(20_000))).rejects.toBeInstanceOf(BodyLimitError);
    await expect(read(Buffer.from('not gzip at all'), 'gzip')).rejects.toThrow(/corrupt gzip/);
    await expect(read(text, 'compress')).rejects.toThrow(/not supported/);
  });
});

describe('the downloader on a loopback server', () => {
  const hits: Record<string, number[]> = {};
  let base = '';
  let server: http.Server;
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipZeros(100);
    server = http.createServer((req, res) => {
      const p = new URL(req.url!, 'http://x').pathname;
      (hits[p] ??= []).push(Date.now());
      const n = hits[p]!.length;
      if (p === '/robots.txt') return void res.end('User-agent: *\nDisallow: /private/\n');
      if (p === '/down') return void (res.writeHead(503), res.end());
      if (p === '/flaky') return void (n <= 2 ? (res.writeHead(503), res.end()) : res.end('<p>ok</p>'));
      if (p === '/slow-down') return void (n === 1 ? (res.writeHead(429, { 'retry-after': '1' }), res.end()) : res.end('<p>ok</p>'));
      if (p === '/loop-a') return void (res.writeHead(302, { location: '/loop-b' }), res.end());
      if (p === '/loop-b') return void (res.writeHead(302, { location: '/loop-a' }), res.end());
      if (p === '/to-private') return void (res.writeHead(301, { location: '/private/x' }), res.end());
      if (p === '/to-other-port') return void (res.writeHead(301, { location: `http://127.0.0.1:1/` }), res.end());
      if (p === '/bomb') return void (res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' }), res.end(bomb));
      if (p === '/reset') return void req.socket.destroy();
      if (p === '/trickle') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const t = setInterval(() => res.write('x'), 50);
        res.on('close', () => clearInterval(t));
        setTimeout(() => (clearInterval(t), res.end()), 5000);
        return;
      }
      res.end('<p>page</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const make = (o: { maxRetries?: number; baseDelayMs?: number; timeoutMs?: number; maxBytes?: number } = {}) => {
    const limiter = new HostRateLimiter();
    const robotsFetch = new Downloader({ steps: [redirectStep(5)], timeoutMs: 2000, maxBytes: ROBOTS_MAX_BYTES, truncate: true });
    const robots = new RobotsCache(async (u) => {
      const r = await robotsFetch.fetch(u);
      return { status: r.status, body: r.body.toString() };
    });
    return new Downloader({
      steps: defaultSteps({
        domains: parseDomains([new URL(base).host]),
        robots,
        limiter,
        maxBytes: o.maxBytes ?? 1_000_000,
        retry: { maxRetries: o.maxRetries ?? 2, baseDelayMs: o.baseDelayMs ?? 200, maxDelayMs: 10_000 },
      }),
      timeoutMs: o.timeoutMs ?? 5000,
      maxBytes: o.maxBytes ?? 1_000_000,
    });
  };

  it('retries 5xx after gaps at least the backoff schedule', async () => {
    const r = await make({ baseDelayMs: 200 }).fetch(`${base}/flaky`);
    expect(r.status).toBe(200);
    expect(r.attempts).toBe(3);
    const t = hits['/flaky']!;
    expect(t[1]! - t[0]!).toBeGreaterThanOrEqual(200 - 5);
    expect(t[2]! - t[1]!).toBeGreaterThanOrEqual(400 - 5);
  });

  it('honours Retry-After within 10 %', async () => {
    const r = await make().fetch(`${base}/slow-down`);
    expect(r.status).toBe(200);
    const t = hits['/slow-down']!;
    const gap = t[1]! - t[0]!;
    expect(gap).toBeGreaterThanOrEqual(1000 * 0.9);
    expect(gap).toBeLessThanOrEqual(1000 * 1.1);
  });

  it('does not retry a redirect loop', async () => {
    await expect(make().fetch(`${base}/loop-a`)).rejects.toMatchObject({ reason: 'redirect loop' });
    expect(hits['/loop-a']).toHaveLength(1);
    expect(hits['/loop-b']).toHaveLength(1);
  });

  it('a redirect target passes robots.txt and off-site again (nothing sent to it)', async () => {
    await expect(make().fetch(`${base}/to-private`)).rejects.toMatchObject({ kind: 'robots', afterRedirect: true });
    expect(hits['/private/x']).toBeUndefined();
    await expect(make().fetch(`${base}/to-other-port`)).rejects.toMatchObject({ reason: 'redirect off-site' });
  });

  it('a gzip bomb fails as too large, a reset as a network error, a trickle as a timeout', async () => {
    await expect(make({ maxBytes: 2_000_000 }).fetch(`${base}/bomb`)).rejects.toMatchObject({ reason: 'too large', decoded: true });
    await expect(make({ maxRetries: 0 }).fetch(`${base}/reset`)).rejects.toBeInstanceOf(NetworkError);
    const t0 = Date.now();
    await expect(make({ maxRetries: 0, timeoutMs: 400 }).fetch(`${base}/trickle`)).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('an abort ends a fetch and its retry pause at once', async () => {
    const ac = new AbortController();
    const d = new Downloader({
      steps: [httpStatusStep(), retryStep({ maxRetries: 5, baseDelayMs: 10_000, maxDelayMs: 60_000 })],
      timeoutMs: 5000,
      maxBytes: 1000,
      signal: ac.signal,
    });
    const t0 = Date.now();
    const p = d.fetch(`${base}/down`);
    setTimeout(() => ac.abort(), 300);
    await expect(p).rejects.toMatchObject({ name: 'AbortedError' });
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('robots.txt (RFC 9309)', () => {
  it('5xx is retried, then every URL of the origin is refused; 4xx allows all', async () => {
    let calls = 0;
    const unavailable: string[] = [];
    const cache = new RobotsCache(
      async () => {
        calls++;
        return { status: 503 };
      },
      { retries: 2, retryBaseMs: 10, onUnavailable: (o) => unavailable.push(o) },
    );
    const v = await cache.check('http://a.test/page');
    expect(v.allowed).toBe(false);
    expect(v.why).toMatch(/unavailable \(http 503\)/);
    expect(calls).toBe(3);
    expect(unavailable).toEqual(['http://a.test']);
    expect((await cache.check('http://a.test/other')).allowed).toBe(false);
    expect(calls).toBe(3); // cached per origin
    const missing = new RobotsCache(async () => ({ status: 404 }));
    expect((await missing.check('http://b.test/x')).allowed).toBe(true);
    const unreachable = new RobotsCache(async () => ({ error: 'network ECONNREFUSED' }), { retries: 1, retryBaseMs: 1 });
    expect((await unreachable.check('http://c.test/x')).allowed).toBe(false);
  });

  it('a huge robots.txt is parsed in bounded time; over-long rules are ignored', async () => {
    const body = 'User-agent: *\n' + Array.from({ length: 20_000 }, (_, i) => `Disallow: /p${i}/*a*b*c\n`).join('') + `Disallow: /${'*a'.repeat(200_000)}\nDisallow: /secret/\n`;
    const cache = new RobotsCache(async () => ({ status: 200, body: body.slice(0, ROBOTS_MAX_BYTES) }));
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) await cache.check(`http://a.test/page/${i}`);
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});
