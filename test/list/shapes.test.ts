/**
 * Lists of any length (issue 12 item 2): a site's list-entry shapes learned across its list pages
 * (the list middleware's site state), so that a one-entry tag page and a two-entry last index page
 * return their entries, not the menu or the side panel, and a term index returns none.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../../src/core/page.js';
import { silentLogger, type PageContext, type SiteState } from '../../src/core/middleware.js';
import { extractList, listMiddleware, observeListPage, emptyShapes, readShapes, SHAPES_KEY } from '../../middleware/list/index.js';
import { MAX_SHAPES } from '../../middleware/list/shapes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, '..', 'fixtures', 'list', 'short-lists');
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
  origin: string;
  order: string[];
  items: Record<string, string[]>;
  next: Record<string, string>;
};
const load = (p: string) => createPage({ url: expected.origin + p, body: readFileSync(path.join(dir, p, 'index.html')) });
const paths = (urls: Array<{ url: string }>) => urls.map((u) => new URL(u.url).pathname);

/** The list middleware over the pages in crawl order, one site state shared (as in a crawl). */
function crawl(order: string[]) {
  const site: SiteState = { key: 'mudandfire.example', data: {}, touch() {} };
  const out = new Map<string, PageContext['item']>();
  const mw = listMiddleware({});
  for (const p of order) {
    const page = load(p);
    const ctx = { page, request: { url: page.url }, item: { url: page.url }, follow: [], log: silentLogger, segments: page.segments, site } as unknown as PageContext;
    mw.process(ctx);
    out.set(p, ctx.item);
  }
  return { out, site };
}

describe('short lists in a crawl (fixture short-lists: home, archives, a one-post tag page, the last index page, the tag index)', () => {
  const { out, site } = crawl(expected.order);
  for (const p of expected.order) {
    it(`${p}: exactly its entries`, () => {
      expect(paths(out.get(p)!.items!)).toEqual(expected.items[p]);
    });
  }
  it('the home page still finds its next page', () => {
    expect(new URL(out.get('/')!.nextPage!).pathname).toBe(expected.next['/']);
  });
  it('the learned state is plain JSON and reads back', () => {
    const copy = JSON.parse(JSON.stringify(site.data[SHAPES_KEY]));
    expect(readShapes(copy)).toEqual(site.data[SHAPES_KEY]);
    expect(readShapes({ version: 0 })).toEqual(emptyShapes());
    expect(readShapes('junk')).toEqual(emptyShapes());
  });
});

describe('without what the site taught', () => {
  it('a one-post tag page alone shows no repetition of its own: the side panel wins', () => {
    // documents why the shapes are needed: this is what a page seen alone returns
    const r = extractList(load('/tags/kiln/'));
    expect(paths(r.items)).not.toEqual(expected.items['/tags/kiln/']);
  });
  it('with an empty site store (a page alone, the first page of a crawl) it extracts exactly as extractList(page)', () => {
    const page = load('/tags/kiln/');
    expect(extractList(page, { shapes: emptyShapes() })).toEqual(extractList(page));
  });
  it('once the site has shown a list page whose shapes do not occur here, the side panel (an aside) is not taken: the link outside chrome is', () => {
    const shapes = emptyShapes();
    observeListPage(createPage({ url: expected.origin + '/elsewhere/', body: '<html><body><main><ul class="x">' + [1, 2, 3].map((i) => `<li class="r"><a class="t" href="/other/${i}/">An entry of another template ${i}</a></li>`).join('') + '</ul></main></body></html>' }), shapes);
    expect(paths(extractList(load('/tags/kiln/'), { shapes }).items)).toEqual(expected.items['/tags/kiln/']);
  });
  it('an entry\'s own <header> inside an <article> is not page chrome', () => {
    const body = '<html><body><header><nav><a href="/">Home</a><a href="/a/">Archive</a><a href="/t/">Tags</a></nav></header><main><article><header class="post-header"><a class="post-title-link" href="/p/one/">The only post with this tag so far</a></header></article></main><aside><ul><li><a href="/p/x/">A recent post in the side panel one</a></li><li><a href="/p/y/">A recent post in the side panel two</a></li><li><a href="/p/z/">A recent post in the side panel three</a></li></ul></aside></body></html>';
    const shapes = emptyShapes();
    observeListPage(createPage({ url: 'http://b.example/', body: '<html><body><main><div>' + [1, 2, 3, 4, 5].map((i) => `<section><h2><a href="/p/${i}/">A post of the home page number ${i}</a></h2></section>`).join('') + '</div></main></body></html>' }), shapes);
    expect(paths(extractList(createPage({ url: 'http://b.example/tags/t/', body }), { shapes }).items)).toEqual(['/p/one/']);
  });
  it('after the archives page (same entry markup) it returns its one entry', () => {
    const shapes = emptyShapes();
    observeListPage(load('/archives/'), shapes);
    expect(paths(extractList(load('/tags/kiln/'), { shapes }).items)).toEqual(expected.items['/tags/kiln/']);
  });
  it('after the home page (a different template), the tag page still finds no entries of its own markup but not the side panel either', () => {
    const shapes = emptyShapes();
    observeListPage(load('/'), shapes);
    observeListPage(load('/page/2/'), shapes);
    const items = paths(extractList(load('/tags/kiln/'), { shapes }).items);
    expect(items).not.toContain('/posts/wedging-clay-by-hand/');
  });
  it('the two-entry last index page after the home page', () => {
    const shapes = emptyShapes();
    observeListPage(load('/'), shapes);
    expect(paths(extractList(load('/page/2/'), { shapes }).items)).toEqual(expected.items['/page/2/']);
  });
});

describe('bounded state', () => {
  it(`keeps at most ${MAX_SHAPES} shapes`, () => {
    const shapes = emptyShapes();
    for (let i = 0; i < 100; i++) {
      const links = Array.from({ length: 3 }, (_, k) => `<div class="w${'abcdefghij'[i % 10]}${'abcdefghij'[Math.floor(i / 10)]}"><a class="l" href="/x/${i}/${k}">A title long enough ${i} ${k}</a></div>`).join('');
      observeListPage(createPage({ url: `http://s.example/p${i}`, body: `<html><body>${links}</body></html>` }), shapes);
    }
    expect(Object.keys(shapes.shapes).length).toBeLessThanOrEqual(MAX_SHAPES);
  });
});

describe('cards covered by a link without words (a Hugo theme: <a class="entry-link" aria-label=…> over the card)', () => {
  const card = (i: number) =>
    `<article class="post-entry"><header class="entry-header"><h2>Notes on topic number ${i} for the week</h2></header><div class="entry-content"><p>A summary of the post about topic ${i}, two lines of text.</p></div><footer class="entry-footer"><span>March ${i}, 2024</span></footer><a class="entry-link" aria-label="post link to topic ${i}" href="/posts/topic-${i}/"></a></article>`;
  const menu = '<header class="header"><nav class="nav"><a href="/">My Blog</a><ul id="menu"><li><a href="/archives/">Archive</a></li><li><a href="/tags/">Tags</a></li><li><a href="/search/">Search</a></li></ul></nav></header>';
  const page = (url: string, cards: number[], head = '') =>
    createPage({ url, body: `<html><body>${menu}<main class="main">${head}${cards.map(card).join('')}</main><footer class="footer">© 2024</footer></body></html>` });
  it('a one-post tag page returns its card, with the card heading as title', () => {
    const shapes = emptyShapes();
    observeListPage(page('http://myblog.example/', [1, 2, 3, 4, 5, 6]), shapes);
    const r = extractList(page('http://myblog.example/tags/lamps/', [4], '<header class="page-header"><h1>lamps</h1></header>'), { shapes });
    expect(r.items).toEqual([{ url: 'http://myblog.example/posts/topic-4/', title: 'Notes on topic number 4 for the week', publishedAt: '2024-03-04T00:00:00Z' }]);
  });
});
