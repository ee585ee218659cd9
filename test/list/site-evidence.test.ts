/**
 * Issue 23 item 3: list shapes learned per site help and never hurt. A page alone (an empty site
 * store: `gleaner extract FILE --kind list`, the first page of a crawl) extracts exactly as
 * `extractList(page)`; a page whose own main list is clear evidence keeps it whatever the site taught.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage, type Page } from '../../src/core/page.js';
import { silentLogger, type PageContext, type SiteState } from '../../src/core/middleware.js';
import { extractList, listMiddleware, observeListPage, emptyShapes } from '../../middleware/list/index.js';
import { Extractor } from '../../src/chain/extractor.js';
import { listItemUrls } from '../../middleware/list/signals.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'list');

/** Every HTML page under test/fixtures/list, with a URL on a host of its own. */
function fixturePages(): Array<{ name: string; url: string; body: Buffer }> {
  const out: Array<{ name: string; url: string; body: Buffer }> = [];
  const walk = (dir: string, rel: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) walk(p, `${rel}/${f}`);
      else if (f.endsWith('.html')) out.push({ name: `${rel}/${f}`, url: `http://fixture.example${rel}/`, body: readFileSync(p) });
    }
  };
  walk(fixtures, '');
  return out;
}

/** The list middleware on one page with a fresh site state (what a crawl's first page sees). */
function throughMiddleware(page: Page) {
  const site: SiteState = { key: 'x', data: {}, touch() {} };
  const ctx = { page, request: { url: page.url }, item: { url: page.url }, follow: [], log: silentLogger, segments: page.segments, site } as unknown as PageContext;
  listMiddleware({}).process(ctx);
  return ctx.item;
}

describe('a page alone extracts exactly as extractList(page)', () => {
  const pages = fixturePages();
  it('there are fixture pages to check', () => {
    expect(pages.length).toBeGreaterThanOrEqual(8);
  });
  for (const { name, url, body } of pages) {
    it(`${name}: the list middleware with an empty site store`, () => {
      const page = createPage({ url, body });
      const direct = extractList(page);
      const item = throughMiddleware(createPage({ url, body }));
      expect(item.items).toEqual(direct.items);
      expect(item.nextPage).toBe(direct.nextPage);
      expect(item.pages).toEqual(direct.pages);
    });
    it(`${name}: gleaner extract --kind list (one Extractor, one page)`, async () => {
      const direct = extractList(createPage({ url, body }));
      const ex = new Extractor({ kind: 'list' });
      const item = await ex.extract({ url, body });
      await ex.close();
      expect(item.kind).toBe('list');
      if (item.kind !== 'list') return;
      expect(item.items ?? []).toEqual(direct.items);
      expect(item.nextPage).toBe(direct.nextPage);
    });
  }
});

describe('per-site shapes never override a page whose own evidence is clear', () => {
  const host = 'http://dating.example';
  // a directory page: title-length links in classed markup, a confident main list (teaches its shape)
  const cats = (n: number) => `<ul class="cats">${Array.from({ length: n }, (_, i) => `<li class="cat"><a class="cat-link" href="/city/c${i}/">Singles in the city number ${i}</a></li>`).join('')}</ul>`;
  const directory = createPage({ url: `${host}/cities/`, body: `<html><body><main><div class="box">${cats(12)}</div></main></body></html>` });
  // a member list: short names, each record with a profile line; the same category block beside it
  const member = (i: number) => `<div class="m"><a href="/u/${i}/">Ann ${i}</a><p>Lives downtown, likes hiking and books, works as a teacher, looking for someone kind and calm (${i}).</p></div>`;
  const members = createPage({ url: `${host}/city/c1/`, body: `<html><body><main><div class="list">${Array.from({ length: 20 }, (_, i) => member(i)).join('')}</div><div class="box">${cats(8)}</div></main></body></html>` });
  // a directory of many short names (no classes, no profile text), two links in the learned
  // category markup below it
  const names = createPage({ url: `${host}/all/`, body: `<html><body><main><div class="dir">${Array.from({ length: 60 }, (_, i) => `<span><a href="/city/n${i}/">Town ${i}</a></span>`).join('')}</div><div class="box"><ul class="cats"><li class="cat"><a class="cat-link" href="/city/c1/">Singles in the city number 1</a></li></ul></div><div class="box"><ul class="cats"><li class="cat"><a class="cat-link" href="/city/c2/">Singles in the city number 2</a></li></ul></div></main></body></html>` });

  it('the member list keeps its members after the site taught the category-link shape', () => {
    const shapes = emptyShapes();
    observeListPage(directory, shapes);
    const r = extractList(members, { shapes });
    expect(r.items.map((i) => new URL(i.url).pathname)).toEqual(extractList(members).items.map((i) => new URL(i.url).pathname));
    for (let i = 0; i < 20; i++) expect(r.items.map((x) => new URL(x.url).pathname)).toContain(`/u/${i}/`);
  });
  it('a directory of 60 short names keeps them', () => {
    const shapes = emptyShapes();
    observeListPage(directory, shapes);
    expect(extractList(names, { shapes }).items).toEqual(extractList(names).items);
    expect(extractList(names).items.length).toBe(60);
  });
});

describe('the list entries a page gives as site evidence', () => {
  const nav = '<header><nav><a href="/">Home</a> <a href="/archive/">Archive</a> <a href="/about/">About the author</a> <a href="/links/">Links and friends</a></nav></header>';
  const entry = (i: number) => `<article class="post-entry"><h2><a href="/2024/01/0${i}/note-${i}/">A note about the winter garden, part ${i}</a></h2><p>${'A few words on stones and rivers. '.repeat(4)}</p></article>`;
  const pageOf = (main: string) => createPage({ url: 'http://blog.example/tags/solo/', body: `<!doctype html><html><body>${nav}<main>${main}</main><footer>© blog</footer></body></html>` });
  it('leave out links inside chrome landmarks (a one-entry page whose only repetition is its menu)', () => {
    const page = pageOf(entry(1));
    const urls = listItemUrls(page, {});
    for (const u of ['http://blog.example/', 'http://blog.example/archive/', 'http://blog.example/about/', 'http://blog.example/links/']) expect(urls).not.toContain(u);
    // (what the list extractor gives the page itself is unchanged: the site evidence only filters)
    const items = extractList(page).items.map((i) => i.url);
    expect(urls.every((u) => items.includes(u))).toBe(true);
  });
  it('keep a list in the page\'s content', () => {
    const urls = listItemUrls(pageOf([1, 2, 3, 4, 5].map(entry).join('')), {});
    expect(urls).toEqual([1, 2, 3, 4, 5].map((i) => `http://blog.example/2024/01/0${i}/note-${i}/`));
  });
});
