import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumPath } from '../../src/crawler/run/crawlee-crawler.js';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { createPage } from '../../src/core/page.js';
import { Extractor } from '../../src/chain/extractor.js';
import { localFile, renderPages } from '../../src/crawler/render-file.js';
import { applyLayout, layoutOf, REGION_NAMES, BOX_ATTR, VIEW_ATTR } from '../../middleware/layout/index.js';
import { serve } from '../fixtures/crawler/server.js';
import { BODY, FIXTURES, FOOT, FORUM, HEAD, LATEST, LIST, POPULAR, POSTS, SIDE, STORIES } from './fixtures.js';

const has = (content: string | undefined, texts: string[]) => texts.map((t) => (content ?? '').includes(t));

describe('localFile (extract --render serves the page folder only)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-layout-lf-'));
  mkdirSync(path.join(dir, 'css'));
  writeFileSync(path.join(dir, 'css', 'a.css'), 'p{}');
  writeFileSync(path.join(dir, 'index.html'), '<p>x</p>');
  const page = 'http://localhost/site/index.html';
  it('maps the page directory onto the folder, nothing else', () => {
    expect(localFile('http://localhost/site/css/a.css', page, dir)).toBe(path.join(dir, 'css', 'a.css'));
    expect(localFile('http://localhost/site/css/missing.css', page, dir)).toBeUndefined();
    expect(localFile('http://localhost/other/css/a.css', page, dir)).toBeUndefined();
    expect(localFile('http://localhost/site/../site/css/a.css', page, dir)).toBe(path.join(dir, 'css', 'a.css'));
    expect(localFile('http://localhost/site/%2e%2e/%2e%2e/etc/passwd', page, dir)).toBeUndefined();
    expect(localFile('http://example.com/site/css/a.css', page, dir)).toBeUndefined();
    expect(localFile('file:///etc/passwd', page, dir)).toBeUndefined();
  });
});

describe('without boxes nothing changes', () => {
  it('an unrendered page gives the same item with the layout stage on or off, and no regions', async () => {
    for (const f of FIXTURES) {
      // a page that carries the attributes itself (not measured: no view on <html>) has no boxes
      const html = f.html.replace('<div class="s">', `<div class="s" ${BOX_ATTR}="0,0,10,10,f">`);
      const url = `http://localhost/${f.name}/index.html`;
      const page = createPage({ url, body: html });
      expect(applyLayout(page)).toBeUndefined();
      expect(layoutOf(page)).toBeUndefined();
      const on = new Extractor({ middleware: { layout: true } });
      const off = new Extractor();
      const a = await on.extract({ url, body: html, fetchedAt: new Date(0) });
      const b = await off.extract({ url, body: html, fetchedAt: new Date(0) });
      expect(a).toEqual(b);
    }
  });
});

describe.skipIf(!existsSync(chromiumPath()))('visual layout on rendered CSS layouts (chromium)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-layout-'));
  const all = [...FIXTURES, FORUM, LIST];
  const inputs = all.map((f) => {
    const d = path.join(dir, f.name);
    mkdirSync(d);
    writeFileSync(path.join(d, 'style.css'), f.css);
    writeFileSync(path.join(d, 'index.html'), f.html);
    // outside the page's folder: never served (it would hide the body)
    writeFileSync(path.join(dir, 'style.css'), 'p{display:none}');
    return { file: path.join(d, 'index.html'), url: `http://localhost/pages/${f.name}/index.html`, body: Buffer.from(f.html.replace('</head>', '<link rel="stylesheet" href="../style.css"><link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head>')) };
  });
  let rendered: string[] = [];
  beforeAll(async () => {
    rendered = await renderPages(inputs);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(FIXTURES.map((f, i) => [f.name, i] as const))('%s: regions from the drawn boxes', (_name, i) => {
    const f = FIXTURES[i]!;
    const html = rendered[i]!;
    expect(html).toContain(VIEW_ATTR);
    const page = createPage({ url: inputs[i]!.url, body: html });
    const r = applyLayout(page)!;
    expect(r).toBeDefined();
    // the attributes are off the tree once read
    expect(page.nodes.some((n) => 'attribs' in n && (n.attribs as Record<string, string>)[BOX_ATTR] !== undefined)).toBe(false);
    const region = (t: string) => {
      const s = page.segments.find((x) => x.text.includes(t.slice(0, 50)));
      return s ? REGION_NAMES[r.region[page.indexOf(s.element)]!] : 'missing';
    };
    expect(BODY.map(region)).toEqual(BODY.map(() => 'centre'));
    expect(region('Two more morning ferries')).toBe('centre');
    expect(SIDE.map(region)).toEqual(SIDE.map(() => f.sidebar));
    expect(region(HEAD)).toBe('header');
    expect(region(FOOT)).toBe('footer');
  });

  it.each(FIXTURES.map((f, i) => [f.name, i] as const))('%s: content keeps only the centre (layout on), the DOM alone keeps the rest', async (_name, i) => {
    const url = inputs[i]!.url;
    const on = await new Extractor({ middleware: { layout: true } }).extract({ url, body: rendered[i]! });
    expect(on.kind).toBe('article');
    expect(has(on.content, BODY)).toEqual(BODY.map(() => true));
    expect(has(on.content, [...SIDE, HEAD, FOOT])).toEqual([false, false, false, false]);
    // the same rendered page without the stage: the CSS-only layout leaves the DOM extractor the
    // sidebar and the bars (what the stage is for)
    const off = await new Extractor().extract({ url, body: rendered[i]! });
    expect(has(off.content, BODY)).toEqual(BODY.map(() => true));
    expect(has(off.content, [...SIDE, HEAD, FOOT]).some(Boolean)).toBe(true);
  });

  it('forum: the floors are the centre column\'s, not the dated entries of the side column', async () => {
    const i = all.indexOf(FORUM);
    const url = inputs[i]!.url;
    const on = await new Extractor({ middleware: { layout: true } }).extract({ url, body: rendered[i]! });
    expect(on.kind).toBe('forum');
    if (on.kind !== 'forum') return;
    expect(on.posts!.map((p) => p.author)).toEqual(POSTS.map((p) => p.author));
    expect(on.posts!.map((p) => p.content)).toEqual(POSTS.map((p) => p.text));
    // the DOM alone takes the side column's entries for floors
    const off = await new Extractor().extract({ url, body: rendered[i]! });
    expect(off.kind === 'forum' && off.posts!.some((p) => LATEST.some((l) => l.author === p.author))).toBe(true);
  });

  it('list: the main list is the centre\'s, not the longer link list of the side column', async () => {
    const i = all.indexOf(LIST);
    const url = 'http://localhost/news/index.html';
    const on = await new Extractor({ middleware: { layout: true } }).extract({ url, body: rendered[i]! });
    expect(on.kind).toBe('list');
    if (on.kind !== 'list') return;
    expect(on.items!.map((e) => e.url)).toEqual(STORIES.map((_, k) => `http://localhost/news/2024/story-${k + 1}.html`));
    expect(has(on.content, POPULAR).some(Boolean)).toBe(false);
    const off = await new Extractor().extract({ url, body: rendered[i]! });
    expect(off.kind === 'list' && off.items!.some((e) => e.url.includes('/popular/'))).toBe(true);
  });

  it('a render crawl hands the boxes to the chain (layout on) and leaves them out when the stage is off', async () => {
    const f = FIXTURES.find((x) => x.name === 'grid')!;
    const server = await serve({ '/grid/index.html': { body: f.html }, '/grid/style.css': { body: f.css, type: 'text/css' } });
    const storage = mkdtempSync(path.join(tmpdir(), 'gleaner-layout-crawl-'));
    try {
      const items: Record<string, { content?: string }> = {};
      for (const layout of [true, false]) {
        const name = `layout-${layout}`;
        await runSpider(
          { name, startUrls: [`${server.url}/grid/index.html`], allowPrivateAddresses: true, follow: [{ pattern: '**/grid/index.html', label: 'detail' }], maxPages: 1, middleware: { layout }, crawler: { render: true, robotsTxt: false } },
          { storageDir: storage, log: silentLogger, threads: 0 },
        );
        const d = path.join(storage, 'datasets', name);
        items[name] = JSON.parse(readFileSync(path.join(d, readdirSync(d).find((x) => /^\d+\.json$/.test(x))!), 'utf8'));
      }
      expect(has(items['layout-true']!.content, BODY)).toEqual(BODY.map(() => true));
      expect(has(items['layout-true']!.content, [...SIDE, HEAD, FOOT])).toEqual([false, false, false, false]);
      expect(has(items['layout-false']!.content, SIDE).some(Boolean)).toBe(true);
    } finally {
      await server.close();
      rmSync(storage, { recursive: true, force: true });
    }
  }, 120_000);
});
