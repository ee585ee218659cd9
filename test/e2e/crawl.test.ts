import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import http from 'node:http';
import net from 'node:net';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger, type Middleware } from '../../src/core/middleware.js';
import type { Item } from '../../src/core/item.js';
import { serve, smallSite, smallSitePaths } from '../fixtures/crawler/server.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'gleaner-e2e-'));

function datasetItems(storageDir: string, name: string): Item[] {
  const dir = path.join(storageDir, 'datasets', name);
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
}

const RULES = [
  { pattern: '**/story/*.html', label: 'detail' },
  { pattern: '**/list/*.html', label: 'list' },
];

describe('crawling a small loopback site', () => {
  it('stores one item per page in the dataset, labelled by the follow rules', async () => {
    const server = await serve(smallSite(2, 5));
    const storageDir = tmp();
    try {
      const summary = await runSpider({ name: 'small', startUrls: [`${server.url}/`], allowPrivateAddresses: true, follow: RULES }, { storageDir, log: silentLogger });
      const items = datasetItems(storageDir, 'small');
      const paths = items.map((i) => new URL(i.url).pathname).sort();
      expect(paths).toEqual(smallSitePaths(2, 5).sort());
      expect(summary.pages).toBe(13);
      expect(summary.finished).toBe(true);
      const byKind = (k: string) => items.filter((i) => i.kind === k).length;
      expect(byKind('article')).toBe(10);
      expect(byKind('list')).toBe(2);
      for (const i of items) {
        expect(i.spider).toBe('small');
        expect(i.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      const story = items.find((i) => i.url.endsWith('/story/3.html'))!;
      expect(story.content).toContain('Paragraph 2 of story 3');
      // Off-site and mailto links were never requested; nothing was fetched twice.
      expect(server.requests.filter((p) => p !== '/robots.txt').sort()).toEqual(smallSitePaths(2, 5).sort());
    } finally {
      await server.close();
    }
  });

  it('refuses loopback addresses unless the spider allows them', async () => {
    const server = await serve(smallSite(1, 2));
    const storageDir = tmp();
    try {
      const summary = await runSpider({ name: 'guarded', startUrls: [`${server.url}/`] }, { storageDir, log: silentLogger });
      expect(summary.pages).toBe(0);
      expect(summary.failuresByReason).toEqual({ 'blocked address': 1 });
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('obeys robots.txt, limits response size, and survives binary and broken pages', async () => {
    const big = '<html><body>' + '<p>x</p>'.repeat(200_000) + '</body></html>';
    const server = await serve({
      '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n', type: 'text/plain' },
      '/': { body: '<html><body><a href="/private/a.html">p</a> <a href="/big.html">big</a> <a href="/img.png">img</a> <a href="/bin.html">bin</a> <a href="/gone.html">gone</a> <a href="/deep.html">deep</a></body></html>' },
      '/private/a.html': { body: '<html><body>secret</body></html>' },
      '/big.html': { body: big },
      '/img.png': { body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]), type: 'image/png' },
      '/bin.html': { body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), type: 'text/html' },
      '/deep.html': { body: '<html><body>' + '<div>'.repeat(20_000) + 'deep text here' + '</div>'.repeat(20_000) + '</body></html>' },
    });
    const storageDir = tmp();
    try {
      const summary = await runSpider(
        { name: 'rough', startUrls: [`${server.url}/`], allowPrivateAddresses: true, crawler: { maxResponseBytes: 500_000, maxRetries: 0 } },
        { storageDir, log: silentLogger },
      );
      expect(server.requests).not.toContain('/private/a.html');
      expect(summary.skippedByRobots).toBe(1);
      expect(summary.failuresByReason['too large']).toBe(1);
      expect(summary.failuresByReason['not a page']).toBe(1);
      expect(summary.failuresByReason['http 404']).toBe(1);
      const items = datasetItems(storageDir, 'rough');
      const bin = items.find((i) => i.url.endsWith('/bin.html'));
      expect(bin?.kind).toBe('other');
      expect(bin?.error).toBeTruthy();
      expect(items.find((i) => i.url.endsWith('/deep.html'))).toBeTruthy();
      expect(summary.finished).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('redirects', () => {
  it('stores the target once, under its own URL, and refuses off-site redirects', async () => {
    const site = smallSite(1, 2);
    const server = await serve((p) => {
      if (p === '/') return { body: '<html><body><a href="/old.html">old</a> <a href="/story/1.html">new</a> <a href="/away.html">away</a></body></html>' };
      if (p === '/old.html') return { body: '', status: 301, headers: { location: '/story/1.html' } };
      if (p === '/away.html') return { body: '', status: 302, headers: { location: 'http://elsewhere.example/' } };
      return site(p);
    });
    const storageDir = tmp();
    try {
      const summary = await runSpider({ name: 'redir', startUrls: [`${server.url}/`], allowPrivateAddresses: true, crawler: { robotsTxt: false, maxRetries: 0 } }, { storageDir, log: silentLogger });
      const urls = datasetItems(storageDir, 'redir').map((i) => new URL(i.url).pathname);
      expect(urls.filter((u) => u === '/story/1.html')).toHaveLength(1);
      expect(urls).not.toContain('/old.html');
      expect(summary.failuresByReason['redirect off-site']).toBe(1);
      expect(server.requests.filter((p) => p === '/story/1.html').length).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});

describe('crawler options', () => {
  it('sends headers and cookies, spaces requests per host, stops at maxDepth', async () => {
    const server = await serve(smallSite(3, 2));
    const storageDir = tmp();
    try {
      const summary = await runSpider(
        {
          name: 'opts',
          startUrls: [`${server.url}/list/1.html`],
          allowPrivateAddresses: true,
          crawler: {
            headers: { 'x-gleaner-test': 'yes' },
            cookies: [{ name: 'session', value: 'abc' }],
            maxRequestsPerMinute: 300,
            maxDepth: 1,
            robotsTxt: false,
          },
        },
        { storageDir, log: silentLogger },
      );
      // Depth 0: /list/1.html; depth 1: its links (/, /list/2.html, two stories). Nothing deeper.
      expect(server.requests.sort()).toEqual(['/', '/list/1.html', '/list/2.html', '/story/1.html', '/story/2.html']);
      expect(summary.pages).toBe(5);
      for (const h of server.headers) {
        expect(h['x-gleaner-test']).toBe('yes');
        expect(h.cookie).toBe('session=abc');
      }
      // 300 per minute = one request every 200 ms to this host: 5 requests leave over 800 ms. Arrival
      // times at the server jitter on a busy machine (a slow first connection arrives late), so the
      // span is checked with 100 ms of slack and no single gap is checked.
      const span = server.times[server.times.length - 1]! - server.times[0]!;
      expect(span).toBeGreaterThanOrEqual(700);
    } finally {
      await server.close();
    }
  });
});

describe('proxies', () => {
  it('sends requests through crawler.proxyUrls', async () => {
    const server = await serve(smallSite(1, 2));
    // A minimal forward proxy: absolute-URI requests and CONNECT tunnels, each one counted.
    const seen: string[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const up = http.request(req.url!, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    proxy.on('connect', (req, socket, head) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const up = net.connect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const storageDir = tmp();
    try {
      const summary = await runSpider(
        { name: 'proxied', startUrls: [`${server.url}/list/1.html`], allowPrivateAddresses: true, crawler: { proxyUrls: [proxyUrl], robotsTxt: false } },
        { storageDir, log: silentLogger },
      );
      expect(summary.pages).toBeGreaterThanOrEqual(3);
      expect(seen.length).toBeGreaterThanOrEqual(summary.pages);
      expect(seen.some((u) => u.includes('/list/1.html') || u.startsWith('CONNECT'))).toBe(true);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      await server.close();
    }
  });
});

describe('middleware error isolation', () => {
  it('a user middleware throwing on one URL drops only that page, counted and named', async () => {
    const server = await serve(smallSite(1, 4));
    const storageDir = tmp();
    const errors: string[] = [];
    const boom: Middleware = {
      name: 'boom',
      priority: 450,
      process(ctx) {
        if (ctx.request.url.endsWith('/story/2.html')) throw new Error('kaboom');
      },
    };
    try {
      const summary = await runSpider(
        { name: 'iso', startUrls: [`${server.url}/`], allowPrivateAddresses: true, follow: RULES, extraMiddleware: [boom] },
        { storageDir, log: { ...silentLogger, error: (m: string) => void errors.push(m) } },
      );
      const urls = datasetItems(storageDir, 'iso').map((i) => new URL(i.url).pathname);
      expect(urls).not.toContain('/story/2.html');
      expect(urls).toContain('/story/1.html');
      expect(urls).toContain('/story/4.html');
      expect(summary.failuresByMiddleware).toEqual({ boom: 1 });
      expect(summary.failed).toBe(1);
      expect(errors.join('\n')).toMatch(/middleware "boom" failed on http:\/\/127\.0\.0\.1:\d+\/story\/2\.html: kaboom/);
    } finally {
      await server.close();
    }
  });
});

describe('charsets', () => {
  it('decodes a GBK page whose charset is only in <meta>, and one with none', async () => {
    const para = '市交通委员会近日发布新一轮公交线网优化方案，据介绍，此次调整涉及全市十二个区县，预计惠及市民超过三十万人。相关负责人表示，将广泛听取群众意见，确保各项措施落到实处。';
    const page = (title: string, meta: string) =>
      iconv.encode(`<html><head>${meta}<title>${title}</title></head><body><h1>${title}</h1><div class="info">2024年5月3日 10:20 来源：本报讯 作者：王晓明</div><div class="content"><p>${para}</p><p>${para}</p><p>${para}</p></div></body></html>`, 'gbk');
    const server = await serve({
      '/': { body: '<html><body><a href="/meta.html">a</a> <a href="/none.html">b</a></body></html>' },
      '/meta.html': { body: page('公交线网优化方案发布', '<meta charset="gbk">'), type: 'text/html' },
      '/none.html': { body: page('没有声明编码的页面标题', ''), type: 'text/html' },
    });
    const storageDir = tmp();
    try {
      await runSpider(
        { name: 'gbk', startUrls: [`${server.url}/`], allowPrivateAddresses: true, follow: [{ pattern: '**/*.html', label: 'detail' }] },
        { storageDir, log: silentLogger },
      );
      const items = datasetItems(storageDir, 'gbk');
      const meta = items.find((i) => i.url.endsWith('/meta.html'))!;
      const none = items.find((i) => i.url.endsWith('/none.html'))!;
      expect(meta.title).toBe('公交线网优化方案发布');
      expect(meta.content).toContain('市交通委员会近日发布');
      expect(none.title).toBe('没有声明编码的页面标题');
      expect(none.content).toContain('预计惠及市民超过三十万人');
      expect(JSON.stringify(items)).not.toContain('\uFFFD');
    } finally {
      await server.close();
    }
  });
});
