/**
 * Issue 27 item 2: `--explain` provenance. Every title, author, date, list entry and post of the
 * fixture pages gets a selector that resolves — in the page's own tree (cheerio) and in a
 * browser's parse of the same HTML (jsdom) — to an element holding the value; default items have
 * no provenance (item shape contract).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { load } from 'cheerio';
import { JSDOM } from 'jsdom';
import { Extractor } from '../../src/chain/extractor.js';
import { createPage } from '../../src/core/page.js';
import type { Item } from '../../src/core/item.js';
import type { Origin, Provenance } from '../../src/inspect/locate.js';
import { cssSelector } from '../../src/inspect/selector.js';
import { pageTree, standardTree } from '../../src/inspect/tree.js';

const squash = (s: string) => s.replace(/\s+/g, '');
const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}/page.html`, import.meta.url));

async function explain(body: Buffer | string, url: string, kind: 'auto' | 'forum' | 'list' | 'article' = 'auto') {
  const ex = new Extractor({ kind, middleware: { provenance: true } });
  const item = (await ex.extract({ url, body })) as Item & { provenance: Provenance };
  await ex.close();
  return item;
}

/** Whether `o` resolves, in both trees, to an element holding `value`. */
function resolves(html: string, o: Origin | undefined | null, value: string): boolean {
  if (!o) return false;
  const read = (text: string | null | undefined, attr: string | null | undefined) => squash((o.attr ? attr : text) ?? '').includes(squash(value));
  const doc = new JSDOM(html).window.document;
  const b = doc.querySelector(o.selector);
  const $ = load(html);
  const s = $(o.selector).first();
  return !!b && read(b.textContent, o.attr ? b.getAttribute(o.attr) : null) && s.length > 0 && read(s.text(), o.attr ? s.attr(o.attr) : null);
}

describe('provenance (--explain)', () => {
  it('article: title, author and date resolve to their elements', async () => {
    const body = fixture('article/english-blog');
    const item = await explain(body, 'http://127.0.0.1/blog/post.html');
    const html = createPage({ url: item.url, body }).html;
    expect(item.kind).toBe('article');
    expect(item.title && resolves(html, item.provenance.title, item.title)).toBe(true);
    if (item.kind === 'article' && item.author) expect(resolves(html, item.provenance.author, item.author)).toBe(true);
    if (item.kind === 'article' && item.publishedAtText) expect(resolves(html, item.provenance.publishedAt, item.publishedAtText)).toBe(true);
    expect(item.provenance.title!.dfs).toBeGreaterThanOrEqual(0);
  });

  it('forum: each post author resolves inside its own floor, in order', async () => {
    const body = fixture('forum/phpbb');
    const item = await explain(body, 'http://127.0.0.1/viewtopic.php?t=1');
    const html = createPage({ url: item.url, body }).html;
    expect(item.kind).toBe('forum');
    const posts = item.kind === 'forum' ? item.posts! : [];
    expect(posts.length).toBeGreaterThan(2);
    const roots = new Set<string>();
    posts.forEach((p, i) => {
      const o = item.provenance.posts![i]!;
      if (p.author) expect(resolves(html, o.author, p.author), `post ${i} author`).toBe(true);
      expect(o.root, `post ${i} root`).toBeDefined();
      roots.add(o.root!.selector);
      // the author's element is inside the post's root
      expect(o.author!.dfs).toBeGreaterThan(o.root!.dfs);
    });
    expect(roots.size).toBe(posts.length);
  });

  it('list: entries point at their own links, in order', async () => {
    const body = fixture('list/en-blog-index');
    const item = await explain(body, 'http://127.0.0.1/blog/', 'list');
    const page = createPage({ url: item.url, body });
    const $ = load(page.html);
    const entries = item.kind === 'list' ? item.items! : [];
    expect(entries.length).toBeGreaterThan(3);
    let last = -1;
    entries.forEach((e, i) => {
      const o = item.provenance.items![i]!;
      const a = $(o.selector).first();
      expect(page.resolve(a.attr('href'))).toBe(e.url);
      expect(o.dfs).toBeGreaterThan(last);
      last = o.dfs;
    });
  });

  it('default items carry no provenance', async () => {
    const ex = new Extractor();
    const item = await ex.extract({ url: 'http://127.0.0.1/blog/post.html', body: fixture('article/english-blog') });
    await ex.close();
    expect('provenance' in item).toBe(false);
  });

  it('selectors survive the trees browsers build differently (implicit tbody, unclosed links)', () => {
    const html = '<html><body><table><tr><td>a</td></tr><tr><td><b>Alice Example</b></td></tr></table><a href="/x"><a href="/y"><p>deep <i>text here</i></p></a></a></body></html>';
    const page = createPage({ url: 'http://127.0.0.1/', body: html });
    const std = standardTree(page);
    const doc = new JSDOM(html).window.document;
    for (const n of std.nodes) {
      if (!('name' in n)) continue;
      const sel = cssSelector(std, n);
      expect(doc.querySelector(sel!)?.tagName.toLowerCase(), sel).toBe((n as { name: string }).name);
    }
    // the page tree's own selectors resolve in that tree (cheerio)
    const $ = page.$();
    const tree = pageTree(page);
    for (const n of tree.nodes) if ('name' in n) expect($(cssSelector(tree, n)!).get(0)).toBe(n);
  });
});
