import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../../src/core/page.js';
import { findPagination } from '../../middleware/pagination/index.js';
import { extractList } from '../../middleware/list/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('icon pager (fixture: prev/next drawn as icons, a broken head rel=next)', () => {
  const dir = path.join(here, '..', 'fixtures', 'list', 'icon-pager');
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { url: string; items: string[]; nextPage: string };
  const page = createPage({ url: expected.url, body: readFileSync(path.join(dir, 'page.html')) });
  const r = extractList(page);
  it('takes the icon link labelled next-page, not the double arrow (last) nor the broken head link', () => {
    expect(r.nextPage).toBe(expected.nextPage);
  });
  it('returns the posts, not the side panel', () => {
    expect(r.items.map((i) => i.url)).toEqual(expected.items);
  });
  it('lists the numbered pages without this one', () => {
    expect(r.pages).toEqual(['http://fieldnotes.example.net/page2', 'http://fieldnotes.example.net/page3', 'http://fieldnotes.example.net/page4']);
  });
});

const wrap = (pager: string) => `<html><body><main><ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/post/${i}">A post title long enough number ${i}</a></li>`).join('')}</ul>${pager}</main></body></html>`;
const next = (url: string, pager: string) => findPagination(createPage({ url, body: wrap(pager) })).nextPage;

describe('icon links', () => {
  it('an icon class drawing a right chevron (no text, no pager)', () => {
    expect(next('http://x.example/blog/', '<div class="nav-links"><a href="/blog/?after=k29"><i class="bi bi-chevron-right"></i></a></div>')).toBe('http://x.example/blog/?after=k29');
  });
  it('an icon font ligature (material icons) with a page step', () => {
    expect(next('http://x.example/p/2', '<a href="/p/1"><span class="material-icons">navigate_before</span></a> <a href="/p/3"><span class="material-icons">navigate_next</span></a>')).toBe('http://x.example/p/3');
  });
  it('an svg sprite named arrow-forward', () => {
    expect(next('http://x.example/news', '<a href="/news?page=2"><svg><use href="/icons.svg#arrow-forward"></use></svg></a>')).toBe('http://x.example/news?page=2');
  });
  it('a left arrow and a double arrow (first/last) are never next', () => {
    expect(next('http://x.example/news', '<a href="/news?page=9"><i class="fa fa-angle-double-right"></i></a> <a href="/news?page=0"><i class="fa fa-angle-left"></i></a>')).toBeUndefined();
  });
  it('a picture link whose title starts with "Next" is not an icon', () => {
    expect(next('http://x.example/', '<a href="/show?id=a7"><img src="/t.jpg" title="Next level joule thief, a MOSFET step-up build"></a>')).toBeUndefined();
  });
  it('aria-label "older-posts" (words joined by dashes) is a next word', () => {
    expect(next('http://x.example/', '<a href="/archive?before=2024-01-01" aria-label="older-posts"><svg class="icon"></svg></a>')).toBe('http://x.example/archive?before=2024-01-01');
  });
});

describe('pagers', () => {
  it('a two-page pager "1 [2]" on page 1 (the current page as text) gives page 2', () => {
    const r = findPagination(createPage({ url: 'http://x.example/t?id=5', body: wrap('<div class="pg"><strong>1</strong> <a href="/t?id=5&page=2">2</a></div>') }));
    expect(r.nextPage).toBe('http://x.example/t?id=5&page=2');
    expect(r.pages).toEqual(['http://x.example/t?id=5&page=2']);
    expect(r.current).toBe(1);
  });
  it('numbers that do not rise in page order (vote counts) are no pager', () => {
    const r = findPagination(createPage({ url: 'http://x.example/q/1', body: wrap('<ul class="linked"><li><a href="/q/7">12</a></li><li><a href="/q/9">3</a></li><li><a href="/q/4">8</a></li></ul>') }));
    expect(r.pages).toBeUndefined();
  });
  it('a calendar is no pager', () => {
    const r = findPagination(createPage({ url: 'http://x.example/blog/', body: wrap('<table id="wp-calendar"><tr><td>1</td><td><a href="/2024/03/02/">2</a></td><td><a href="/2024/03/03/">3</a></td></tr></table>') }));
    expect(r.pages).toBeUndefined();
    expect(r.nextPage).toBeUndefined();
  });
  it('a fragment on the pager link (jump to the column) is not part of the next page', () => {
    expect(next('http://x.example/', '<nav id="pagination"><span class="page-number current">1</span><a class="page-number" href="/page/2/#content-inner">2</a><a class="extend next" rel="next" href="/page/2/#content-inner"><i class="fas fa-chevron-right"></i></a></nav>')).toBe('http://x.example/page/2/');
  });
  it('/pageN without a slash is a page step', () => {
    expect(next('http://x.example/', '<div class="pagination"><span class="current">1</span> <a href="/page2">2</a> <a href="/page3">3</a></div>')).toBe('http://x.example/page2');
  });
  it('posts excluded (a forum thread): numbers linked inside them are not the pager', () => {
    const body = '<div id="p1"><a href="/t?page=2">2</a> <a href="/t?page=3">3</a></div><div class="pages"><b>1</b> <a href="/t?page=4">2</a></div>';
    const page = createPage({ url: 'http://x.example/t', body: `<html><body>${body}</body></html>` });
    const start = page.nodes.findIndex((n) => (n as { attribs?: Record<string, string> }).attribs?.id === 'p1');
    const end = page.nodes.findIndex((n) => (n as { attribs?: Record<string, string> }).attribs?.class === 'pages') - 1;
    expect(findPagination(page, { exclude: [{ start, end }] }).pages).toEqual(['http://x.example/t?page=4']);
  });
});

describe('pagers of every kind (issue 23)', () => {
  it('a numbered pager with no "next" link: the number after the current one, whatever the URLs say', () => {
    // cursor URLs carry no page number: only the pager's numbers tell the sequence
    expect(next('http://x.example/list?after=b7k', '<div class="pages"><a href="/list">1</a> <span class="current">2</span> <a href="/list?after=k2x">3</a> <a href="/list?after=m9q">4</a></div>')).toBe('http://x.example/list?after=k2x');
  });
  it('a numbered pager (MkDocs-like: the current page a span, relative links) on page 2', () => {
    expect(next('http://x.example/blog/page/2/', '<nav class="md-pagination"><a class="md-pagination__link" href="../../">1</a> <span class="md-pagination__current">2</span> <a class="md-pagination__link" href="../3/">3</a> <a class="md-pagination__link" href="../4/">4</a></nav>')).toBe('http://x.example/blog/page/3/');
  });
  it('a numbered pager whose current page is a link to itself (Hugo/Bootstrap: li.active > a)', () => {
    expect(next('http://x.example/page/2/', '<ul class="pagination"><li class="page-item"><a class="page-link" href="/">1</a></li><li class="page-item active"><a class="page-link" aria-current="page" href="/page/2/">2</a></li><li class="page-item"><a class="page-link" href="/page/3/">3</a></li></ul>')).toBe('http://x.example/page/3/');
  });
  it('the last page of a numbered pager has no next page', () => {
    expect(next('http://x.example/list?after=m9q', '<div class="pages"><a href="/list">1</a> <a href="/list?after=b7k">2</a> <span class="current">3</span></div>')).toBeUndefined();
  });
  it('<link rel=next> in the head when the body shows no pager', () => {
    const body = `<html><head><link rel="next" href="/archive/page/3/"></head><body><main>${Array.from({ length: 4 }, (_, i) => `<p><a href="/post/${i}">A post title long enough number ${i}</a></p>`).join('')}</main></body></html>`;
    expect(findPagination(createPage({ url: 'http://x.example/archive/page/2/', body })).nextPage).toBe('http://x.example/archive/page/3/');
  });
  it('"Older posts" is the next page (page N+1), "Newer posts" is not', () => {
    expect(next('http://x.example/', '<div class="nav"><a href="/?before=2024-02-01">← Newer posts</a> <a href="/?before=2023-11-02">Older posts →</a></div>')).toBe('http://x.example/?before=2023-11-02');
    expect(next('http://x.example/', '<div class="nav"><a href="/?before=2024-02-01">Newer posts</a></div>')).toBeUndefined();
  });
  it('an icon-only arrow beside the numbers', () => {
    expect(next('http://x.example/page/3/', '<div class="page-nav"><a href="/page/2/"><i class="fa fa-chevron-left"></i></a> <a href="/page/2/">2</a> <span>3</span> <a href="/page/4/">4</a> <a href="/page/4/"><i class="fa fa-chevron-right"></i></a></div>')).toBe('http://x.example/page/4/');
  });
});
