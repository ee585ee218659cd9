import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { Extractor } from '../../src/chain/extractor.js';
import { extractManifest } from '../../src/cli/extract.js';
import { buildTree } from '../../middleware/article/tree.js';
import { mainText, postsText } from '../../middleware/article/index.js';
import { LINE_MODEL_ENV, scoreLines, shippedLineModel } from '../../middleware/article/lines.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', 'fixtures', 'article');

interface Expected {
  contentIncludes: string[];
  contentExcludes: string[];
}

const load = (name: string) => ({
  body: readFileSync(path.join(FIXTURES, name, 'page.html')),
  expected: JSON.parse(readFileSync(path.join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected,
});

// One fixture per removal rule of the pre-clean (issue 11): each failed on the earlier pre-clean.
const RULE_FIXTURES: [string, string][] = [
  ['elementor', 'page-builder wrappers (elementor-widget-wrap) are ordinary containers'],
  ['content-in-header', 'a <header> that holds most of the prose is the story, not chrome'],
  ['main-has-sidebar', '<main class="hasSidebar"> is never removed by its class'],
  ['product', "a product page keeps its description and its list of specs"],
  ['docs-code', 'a docs page keeps its code block and its options table'],
];

describe('main content on every kind of page (fixtures)', () => {
  for (const kind of ['auto', 'article'] as const) {
    for (const [name, what] of RULE_FIXTURES) {
      it(`--kind ${kind}: ${what}`, async () => {
        const { body, expected } = load(name);
        const ex = new Extractor({ kind });
        const item = await ex.extract({ url: `https://example.org/${name}`, body });
        await ex.close();
        expect(item.content).toBeTruthy();
        for (const s of expected.contentIncludes) expect(item.content).toContain(s);
        for (const s of expected.contentExcludes) expect(item.content).not.toContain(s);
      });
    }
  }

  it('leaves the Elementor wrappers in the tree (no widget removal) but still removes the footer', () => {
    const page = createPage({ url: 'https://example.org/e', body: load('elementor').body });
    const reasons = [...buildTree(page).reason.values()];
    expect(reasons).not.toContain('class:widget');
    expect(reasons).toContain('tag:footer');
  });
});

const LIST_PAGE = `<!DOCTYPE html><html lang="en"><head><title>Coffee – Roastery</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About</a></nav>
<main><h1>Coffee</h1><p>6 products</p><ul class="grid">
${['Dark Roast', 'Medium Roast', 'Espresso Blend', 'Decaf', 'Single Origin Kenya', 'Cold Brew Pack']
  .map((t, i) => `<li class="card"><a href="/products/p${i}">${t} Coffee Beans 1 kg</a><span class="price">$${19 + i}.99</span></li>`)
  .join('\n')}
</ul></main><footer><p>© Roastery</p></footer></body></html>`;

describe('mainText', () => {
  it('a list item carries the list with its titles and prices', async () => {
    const ex = new Extractor({ kind: 'list' });
    const item = await ex.extract({ url: 'https://shop.example.org/coffee', body: LIST_PAGE });
    await ex.close();
    if (item.kind !== 'list') throw new Error(`a list page read as ${item.kind}`);
    expect(item.items!.length).toBeGreaterThanOrEqual(5);
    expect(item.content).toContain('Dark Roast Coffee Beans 1 kg');
    expect(item.content).toContain('$19.99');
    expect(item.content).toContain('Cold Brew Pack Coffee Beans 1 kg');
    expect(item.content).not.toContain('© Roastery');
  });

  it('posts are the text of a thread when they hold most of the page, in order with author and time', () => {
    const posts = [
      { author: 'ana', publishedAtText: 'Jul 18, 2024', content: 'Has anyone heard back from the interviews yet? I applied in March and still wait.' },
      { author: 'ben', publishedAtText: 'Jul 19, 2024', content: 'Not yet, but a friend got an invitation last week, so it should be soon.' },
    ];
    const t = postsText(posts)!;
    expect(t.content.split('\n')).toEqual(['ana', 'Jul 18, 2024', posts[0]!.content, 'ben', 'Jul 19, 2024', posts[1]!.content]);
    const page = createPage({ url: 'https://forum.example.org/t/1', body: `<html><body><div>${posts.map((p) => `<div class="post"><b>${p.author}</b> <i>${p.publishedAtText}</i><p>${p.content}</p></div>`).join('')}</div></body></html>` });
    expect(mainText(page, { posts, kind: 'forum' })?.source).toBe('posts');
  });

  it('posts that hold little of the page (reviews under a product) give way to the page text', () => {
    const long = 'This stoneware mug is thrown by hand and glazed in small batches, so each one differs a little in colour. '.repeat(8);
    const posts = [{ author: 'kim', content: 'Lovely mug.' }];
    const page = createPage({ url: 'https://shop.example.org/mug', body: `<html><body><main><h1>Mug</h1><p>${long}</p><div class="review"><b>kim</b><p>Lovely mug.</p></div></main></body></html>` });
    const t = mainText(page, { posts, kind: 'forum' })!;
    expect(t.source).toBe('lines');
    expect(t.content).toContain('thrown by hand');
  });

  it('a page with no text gets no content (nothing invented)', () => {
    const page = createPage({ url: 'https://example.org/shell', body: '<html><head><meta name="description" content="A shell"></head><body><section id="main"></section></body></html>' });
    expect(mainText(page, {})).toBeUndefined();
  });
});

const SHOP_PAGE = `<!DOCTYPE html><html lang="en"><head><title>Stoneware mug – Potter's Yard</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/account">My account</a> <a href="/cart">Cart</a></nav></header>
<main><h1>Stoneware mug</h1><p class="price">$24.00</p>
<p>This stoneware mug is thrown by hand and glazed in small batches, so each one differs a little in colour and holds about 350 ml.</p>
<ul class="specs"><li>Capacity: 350 ml</li><li>Dishwasher safe</li><li>Made in Portugal</li></ul>
<button>Add to cart</button></main>
<footer><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of service</a></li></ul><p>© Potter's Yard</p></footer></body></html>`;

describe('the line model (lines.ts)', () => {
  it('a detail page that does not read as an article (no date, no article type) gets its main lines, not only the densest block', async () => {
    const ex = new Extractor({ kind: 'article' });
    const item = await ex.extract({ url: 'https://shop.example.org/mug', body: SHOP_PAGE });
    await ex.close();
    expect(item.content).toContain('thrown by hand');
    expect(item.content).toContain('Capacity: 350 ml');
    expect(item.content).not.toContain('Privacy policy');
    expect(item.content).not.toContain('My account');
  });

  it('scores every line of the page with the shipped model, the main lines above the chrome', () => {
    const page = createPage({ url: 'https://shop.example.org/mug', body: SHOP_PAGE });
    const { lines, p } = scoreLines(page, shippedLineModel());
    const at = (t: string) => p[lines.findIndex((l) => l.text.includes(t))]!;
    expect(at('thrown by hand')).toBeGreaterThan(0.5);
    expect(at('Terms of service')).toBeLessThan(at('thrown by hand'));
    expect(at('My account')).toBeLessThan(0.5);
  });

  it('GLEANER_LINE_MODEL selects another model file; a file that is not one is a clear error', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-lines-'));
    const keepAll = path.join(dir, 'all.json');
    writeFileSync(keepAll, JSON.stringify({ format: 'gleaner-lines-1', bias: 9, threshold: 0.5, weights: {} }));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'svm' }));
    const before = process.env[LINE_MODEL_ENV];
    try {
      process.env[LINE_MODEL_ENV] = keepAll;
      expect(shippedLineModel().bias).toBe(9);
      process.env[LINE_MODEL_ENV] = bad;
      expect(() => shippedLineModel()).toThrow(/bad\.json: not a gleaner line model/);
      process.env[LINE_MODEL_ENV] = path.join(dir, 'absent.json');
      expect(() => shippedLineModel()).toThrow(/absent\.json not found \(GLEANER_LINE_MODEL\)/);
    } finally {
      if (before === undefined) delete process.env[LINE_MODEL_ENV];
      else process.env[LINE_MODEL_ENV] = before;
    }
    expect(shippedLineModel().format).toBe('gleaner-lines-1');
  });
});

describe('gleaner extract reads gzipped pages', () => {
  it('a manifest of .html.gz pages gives the same items as the plain pages', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-gz-'));
    const { body } = load('elementor');
    writeFileSync(path.join(dir, 'a.html'), body);
    writeFileSync(path.join(dir, 'a.html.gz'), gzipSync(body));
    writeFileSync(path.join(dir, 'bad.html.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    writeFileSync(path.join(dir, 'm.jsonl'), ['{"id":"plain","path":"a.html","url":"https://a.example.org/x"}', '{"id":"gz","path":"a.html.gz","url":"https://b.example.org/x"}'].join('\n'));
    const { items } = await extractManifest(path.join(dir, 'm.jsonl'), { kind: 'article' });
    expect(items[1]!.content).toBe(items[0]!.content);
    expect(items[1]!.content).toContain('Lessons last forty-five minutes');
    writeFileSync(path.join(dir, 'bad.jsonl'), '{"id":"bad","path":"bad.html.gz"}\n');
    const bad = await extractManifest(path.join(dir, 'bad.jsonl'));
    expect(bad.failures.map((f) => f.message)).toEqual([expect.stringMatching(/bad\.html\.gz: not a valid gzip file.*manifest id bad/)]);
  });
});
