/**
 * Issue 27 item 1: `gleaner inspect --screenshot` renders the page itself in Debian's chromium
 * (render mode: its scripts run) with the report's boxes drawn on it. Checked: every box of the
 * fixture's provenance is drawn on the element its selector names, the page's own script ran, no
 * request left the page's file (a loopback server the page links to counts the requests: none),
 * a page in GBK renders its text (not mojibake), and the PNG shows the boxes' colours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { tracePage } from '../../src/inspect/trace.js';
import { OVERLAY_SCRIPT, overlaySpec } from '../../src/inspect/render-overlay.js';
import { screenshotPage } from '../../src/crawler/screenshot.js';
import { runInspect } from '../../src/cli/inspect.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-shot-test-'));
let server: Server;
let origin = '';
let requests = 0;
let browser: Browser;
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.end('body{background:red}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], headless: true });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server.close(r));
});

/** Pixels of the PNG within `tol` of each colour (read back through a canvas in chromium). */
async function colourCounts(png: string, colours: Array<[number, number, number]>, tol = 30): Promise<number[]> {
  const page = await browser.newPage();
  try {
    await page.setContent(`<img id="i" src="data:image/png;base64,${readFileSync(png).toString('base64')}">`);
    await page.waitForFunction(() => (document.getElementById('i') as HTMLImageElement).complete);
    return await page.evaluate(
      ([cs, t]) => {
        const img = document.getElementById('i') as HTMLImageElement;
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        const out = cs.map(() => 0);
        for (let i = 0; i < d.length; i += 4) cs.forEach(([r, g, b], k) => Math.abs(d[i]! - r) + Math.abs(d[i + 1]! - g) + Math.abs(d[i + 2]! - b) <= t && out[k]!++);
        return out;
      },
      [colours, tol] as const,
    );
  } finally {
    await page.close();
  }
}

describe('gleaner inspect --screenshot', () => {
  it('renders the page with its boxes, runs its script, loads nothing else', async () => {
    const body = readFileSync(new URL('../fixtures/forum/phpbb/page.html', import.meta.url), 'utf8')
      // what the page would load: a style sheet, a script and an image of a loopback host
      .replace('</head>', `<link rel="stylesheet" href="${origin}/site.css"><script src="${origin}/app.js"></script></head>`)
      .replace('</body>', `<img src="${origin}/pixel.png"><script>document.body.setAttribute('data-ran', 'yes')</script></body>`);
    const url = 'http://127.0.0.1/viewtopic.php?t=1';
    const trace = await tracePage({ url, body });
    expect(trace.item.kind).toBe('forum');
    const spec = overlaySpec(trace);
    const floors = spec.boxes.filter((b) => b.floor !== undefined);
    expect(floors.length).toBeGreaterThan(2);
    const png = path.join(dir, 'forum.png');
    // the overlay, then what the rendered page says about it
    const probe = `(spec) => { const drawn = (${OVERLAY_SCRIPT})(spec); return { drawn, ran: document.body.getAttribute('data-ran'), floors: [...document.querySelectorAll('[data-gl-floor]')].map((e) => e.getAttribute('data-gl-floor')), authors: spec.boxes.filter((b) => /^posts\\.\\d+\\.author$/.test(b.path)).map((b) => document.querySelector(b.selector)?.textContent ?? null) }; }`;
    const r = await screenshotPage<{ drawn: number; ran: string | null; floors: string[]; authors: Array<string | null> }>(trace.page.html, png, probe, spec);
    expect(r.drawn).toBe(spec.boxes.length);
    expect(r.ran).toBe('yes');
    expect(r.floors).toEqual(floors.map((b) => String(b.floor)));
    const posts = trace.item.kind === 'forum' ? trace.item.posts! : [];
    r.authors.forEach((text, i) => expect(text?.replace(/\s+/g, '')).toContain(posts[i]!.author!.replace(/\s+/g, '')));
    expect(requests).toBe(0);
    // the boxes are in the picture: field outlines (#2a6cf0), floors in two colours (#1d8a5b, #c27a00)
    const [blue, green, orange] = await colourCounts(png, [
      [0x2a, 0x6c, 0xf0],
      [0x1d, 0x8a, 0x5b],
      [0xc2, 0x7a, 0x00],
    ]);
    expect(blue).toBeGreaterThan(200);
    expect(green).toBeGreaterThan(200);
    expect(orange).toBeGreaterThan(200);
  }, 60_000);

  it('the command: a GBK page renders as text, with the report beside it', async () => {
    const file = path.join(import.meta.dirname, '..', 'fixtures', 'article', 'gbk-news', 'page.html');
    const png = path.join(dir, 'gbk.png');
    const out = path.join(dir, 'gbk.html');
    await runInspect(file, { url: 'http://127.0.0.1/news/1.html', out, screenshot: png });
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    // the title as the item has it is the text of the rendered page (decoded right: not mojibake)
    const trace = await tracePage({ url: 'http://127.0.0.1/news/1.html', body: readFileSync(file) });
    const title = trace.item.title!;
    expect(title).toMatch(/[\u4e00-\u9fff]/);
    const check = `(spec) => { (${OVERLAY_SCRIPT})(spec); return document.body.innerText; }`;
    const text = await screenshotPage<string>(trace.page.html, path.join(dir, 'gbk2.png'), check, overlaySpec(trace));
    expect(text.replace(/\s+/g, '')).toContain(title.replace(/\s+/g, ''));
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(requests).toBe(0);
  }, 60_000);
});
