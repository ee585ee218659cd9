/**
 * Issue 27 item 1, in a real browser (Playwright + Debian's chromium): the `gleaner inspect`
 * report of a fixture article, list and forum page loads with no request leaving the file; each
 * region holds the value of the field it claims (checked through the report's DOM); clicking a
 * field in the item flashes its region, and hovering a region lights the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { tracePage } from '../../src/inspect/trace.js';
import { renderReport, fieldOrigins } from '../../src/inspect/report.js';
import { classifyPage } from '../../middleware/classifier/index.js';

const CASES = [
  { name: 'article', fixture: 'article/english-blog', url: 'http://127.0.0.1/blog/2021/post.html', kind: 'article' },
  { name: 'list', fixture: 'list/en-blog-index', url: 'http://127.0.0.1/blog/', kind: 'list' },
  { name: 'forum', fixture: 'forum/phpbb', url: 'http://127.0.0.1/viewtopic.php?t=1', kind: 'forum' },
] as const;

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-inspect-'));
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], headless: true });
});
afterAll(async () => {
  await browser?.close();
});

describe('gleaner inspect report in chromium', () => {
  for (const c of CASES) {
    it(`${c.name}: loads offline, regions hold their fields, click and hover link both ways`, async () => {
      const body = readFileSync(new URL(`../fixtures/${c.fixture}/page.html`, import.meta.url));
      const trace = await tracePage({ url: c.url, body, classify: (p) => classifyPage(p) });
      expect(trace.item.kind).toBe(c.kind);
      const origins = fieldOrigins(trace);
      const item = trace.item as unknown as Record<string, unknown>;
      const html = renderReport(trace);
      const file = path.join(dir, `${c.name}.html`);
      writeFileSync(file, html);
      const own = pathToFileURL(file).href;

      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(own);
      await page.waitForSelector('body[data-gl-ready]', { timeout: 15_000 });
      // nothing but the report itself (the page's srcdoc is no request)
      expect(requests.filter((u) => u !== own)).toEqual([]);

      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      // Values the fields claim, by path (`posts.2.author` → the item's value).
      const valueAt = (p: string): unknown => p.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], item);
      const squash = (s: string) => s.replace(/\s+/g, '');
      let checked = 0;
      for (const [p, o] of origins) {
        const v = valueAt(p);
        const region = await frame.evaluate((path) => {
          const el = [...document.querySelectorAll('[data-gl-f]')].find((e) => e.getAttribute('data-gl-f')!.split(' ').includes(path));
          if (!el) return null;
          const r = el.getBoundingClientRect();
          const chips = [...el.querySelectorAll('[data-gl-chip]')].map((c) => c.textContent).join('');
          return { text: (el.textContent ?? '').replace(chips, ''), href: (el as HTMLAnchorElement).href ?? null, attr: el.getAttribute('content') ?? el.getAttribute('datetime'), w: r.width, h: r.height };
        }, p);
        expect(region, `${c.name}: region of ${p} (${o.selector})`).not.toBeNull();
        if (typeof v === 'string' && /^(title|author|posts\.\d+\.author)$/.test(p)) {
          expect(squash(region!.text), `${c.name}: ${p}`).toContain(squash(v));
          checked++;
        }
        if (/^items\.\d+$/.test(p)) {
          expect(region!.href).toBe((v as { url: string }).url);
          checked++;
        }
        if (!o.attr && !/^(title$|html > head|meta)/.test(o.selector)) expect(region!.w * region!.h, `${c.name}: ${p} has a box`).toBeGreaterThan(0);
      }
      expect(checked).toBeGreaterThan(0);

      // click a field → its region flashes; hover a region → the field lights up
      const target = [...origins.keys()].find((p) => p !== 'title') ?? 'title';
      await page.click(`#gl-item .gl-f[data-f="${target}"]`);
      expect(await frame.evaluate((path) => [...document.querySelectorAll('.gl-flash')].some((e) => e.getAttribute('data-gl-f')!.split(' ').includes(path)), target)).toBe(true);
      await frame.hover(`[data-gl-f~="${target}"]`);
      expect(await page.locator(`#gl-item .gl-f.hot[data-f="${target}"]`).count()).toBe(1);
      await page.close();
    });
  }

  it('shows what a <noscript> holds (the page runs no script in the report), with its boxes', async () => {
    const para = 'The crawler view of this page holds the whole story, rendered by the server for readers without JavaScript. '.repeat(4);
    const body = `<html><head><title>A story told without scripts</title></head><body><div id="app"></div><noscript><article><h1>A story told without scripts</h1><p>${para}</p><p>${para}</p></article></noscript></body></html>`;
    const trace = await tracePage({ url: 'http://127.0.0.1/story', body, kind: 'article' });
    expect(trace.item.title).toBe('A story told without scripts');
    const file = path.join(dir, 'noscript.html');
    writeFileSync(file, renderReport(trace));
    const page = await browser.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-gl-ready]', { timeout: 15_000 });
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      const title = await frame.evaluate(() => {
        const el = [...document.querySelectorAll('[data-gl-f]')].find((e) => e.getAttribute('data-gl-f')!.split(' ').includes('title'));
        return el ? { text: el.textContent, h: el.getBoundingClientRect().height } : null;
      });
      expect(title?.text).toBe('A story told without scripts');
      expect(title!.h).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  }, 60_000);
});
