/**
 * One loopback server for the fault suite: every way a hostile or broken site misbehaves, by path.
 * Bounded by construction: trickles and big bodies stop after a fixed time or size, and every
 * connection is closed with the server.
 *
 *   /trickle           200, one byte every 100 ms for 20 s
 *   /reset             the socket is destroyed before any answer
 *   /burst/<id>        503 twice, then a page
 *   /slow-down/<id>    429 with Retry-After: 1 once, then a page
 *   /loop/a, /loop/b   302 to each other
 *   /bomb              gzip that inflates to 200 MB (≈ 200 KB on the wire)
 *   /big               a 50 MB page, streamed
 *   /charset-lie       GBK bytes, header says utf-8 (the <meta> says gbk)
 *   /binary            random bytes as text/html
 *   /word              a 1 MB one-word paragraph
 *   /deep              200,000 nested <div>s
 *   /robots.txt        per `robots` option: normal, 5xx, gzip bomb, 1 MB, redirect loop
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';

export type RobotsMode = 'normal' | '5xx' | 'bomb' | 'huge' | 'loop' | 'none';

export interface FaultServer {
  url: string;
  port: number;
  /** Paths requested, in order, with arrival times. */
  requests: Array<{ path: string; at: number }>;
  count(path: string): number;
  close(): Promise<void>;
}

/** gzip of `mb` MB of `fill`, compressed in chunks so the inflated bytes never exist at once. */
export async function gzipOf(fill: Buffer, mb: number): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((r) => gz.on('end', r));
  const chunk = Buffer.alloc(1 << 20, fill);
  for (let i = 0; i < mb; i++) if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await done;
  return Buffer.concat(out);
}

const PARA = 'The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot, and the first changes start in spring.';
const article = (title: string, extra = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><article><h1>${title}</h1><p>By Ann Lee, 3 May 2024</p>${`<p>${PARA}</p>`.repeat(4)}${extra}</article></body></html>`;

/** Paths linked from the home page, each one fault. */
export const FAULT_PATHS = ['/trickle', '/reset', '/burst/1', '/slow-down/1', '/loop/a', '/bomb', '/big', '/charset-lie', '/binary', '/word', '/deep', '/ok.html'];

/** Fixed bytes so a run is reproducible (a linear congruential generator, seed 42). */
function pseudoRandomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  let x = 42;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
}

export async function startFaultServer(opts: { robots?: RobotsMode; home?: string } = {}): Promise<FaultServer> {
  const robots = opts.robots ?? 'normal';
  const requests: FaultServer['requests'] = [];
  const bomb = await gzipOf(Buffer.from('a'), 200);
  // Two gzip members (valid gzip): the rules, then 200 MB of filler.
  const robotsBomb = robots === 'bomb' ? Buffer.concat([zlib.gzipSync('User-agent: *\nDisallow: /private/\n'), await gzipOf(Buffer.from('Disallow: /nothing-here\n'), 200)]) : undefined;
  const binary = pseudoRandomBytes(64 * 1024);
  const gbkTitle = '公交线网优化方案发布';
  const gbkPara = '市交通委员会近日发布新一轮公交线网优化方案，此次调整涉及全市十二个区县，预计惠及市民超过三十万人。';
  const charsetLie = iconv.encode(`<html><head><meta charset="gbk"><title>${gbkTitle}</title></head><body><h1>${gbkTitle}</h1><p>2024年5月3日</p>${`<p>${gbkPara}</p>`.repeat(4)}</body></html>`, 'gbk');
  const word = article('One very long word', `<p>${'w'.repeat(1_000_000)}</p>`);
  const deep = `<!DOCTYPE html><html><head><title>Deep</title></head><body>${'<div>'.repeat(200_000)}<p>${PARA}</p>${'</div>'.repeat(200_000)}</body></html>`;
  const home = opts.home ?? `<html><head><title>Faults</title></head><body>${FAULT_PATHS.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`;
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path: p, at: Date.now() });
    const n = requests.filter((r) => r.path === p).length;
    const html = (body: string | Buffer, status = 200, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (p === '/robots.txt') {
      if (robots === 'none') return html('not found', 404);
      if (robots === '5xx') return html('busy', 503);
      if (robots === 'loop') return html('', 302, { location: '/robots.txt' });
      if (robots === 'bomb') return html(robotsBomb!, 200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      if (robots === 'huge') return html(`User-agent: *\n${'Disallow: /nothing-here\n'.repeat(45_000)}Disallow: /ok.html\n`, 200, { 'content-type': 'text/plain' });
      return html('User-agent: *\nDisallow: /private/\n', 200, { 'content-type': 'text/plain' });
    }
    if (p === '/') return html(home);
    if (p === '/ok.html') return html(article('A plain article'));
    if (p === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const t = setInterval(() => res.write('<'), 100);
      timers.add(t);
      const end = setTimeout(() => (clearInterval(t), res.end()), 20_000);
      timers.add(end);
      res.on('close', () => (clearInterval(t), clearTimeout(end)));
      return;
    }
    if (p === '/reset') return void req.socket.destroy();
    if (p.startsWith('/burst/')) return n <= 2 ? html('busy', 503) : html(article(`Back after a burst ${p}`));
    if (p.startsWith('/slow-down/')) return n === 1 ? html('slow down', 429, { 'retry-after': '1' }) : html(article(`After a pause ${p}`));
    if (p === '/loop/a') return html('', 302, { location: '/loop/b' });
    if (p === '/loop/b') return html('', 302, { location: '/loop/a' });
    if (p === '/bomb') return html(bomb, 200, { 'content-encoding': 'gzip' });
    if (p === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.from(`<p>${PARA}</p>`.repeat(400)); // ~70 KB
      let sent = 0;
      const push = () => {
        while (sent < 50e6) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      res.on('close', () => (sent = Infinity));
      return push();
    }
    if (p === '/charset-lie') return html(charsetLie, 200, { 'content-type': 'text/html; charset=utf-8' });
    if (p === '/binary') return html(binary, 200, { 'content-type': 'text/html' });
    if (p === '/word') return html(word);
    if (p === '/deep') return html(deep);
    if (p === '/private/secret.html') return html(article('Secret'));
    if (p === '/to-private') return html('', 301, { location: '/private/secret.html' });
    return html('not found', 404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    count: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
