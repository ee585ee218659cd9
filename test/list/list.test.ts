import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../../src/core/page.js';
import { extractList, listMiddleware, findLinkClusters } from '../../middleware/list/index.js';
import { findPagination, urlStep } from '../../middleware/pagination/index.js';
import { classSignature } from '../../middleware/list/clusters.js';
import { silentLogger, type PageContext } from '../../src/core/middleware.js';
import { parseHtml } from '../../src/core/page.js';
import { Element } from 'domhandler';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => {
  const dir = path.join(here, '..', 'fixtures', 'list', name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { url: string; items: string[]; nextPage?: string };
  return { page: createPage({ url: expected.url, body: readFileSync(path.join(dir, 'page.html')) }), expected };
};

describe('extractList on a Chinese news list (GBK)', () => {
  const { page, expected } = fixture('zh-news-gbk');
  const r = extractList(page);
  it('decodes GBK', () => {
    expect(page.charset).toBe('gb18030');
  });
  it('returns exactly the main list: no nav, sidebar ranking or footer links', () => {
    expect(r.items.map((i) => i.url)).toEqual(expected.items);
    const urls = r.items.map((i) => i.url).join(' ');
    expect(urls).not.toContain('/hot/');
    expect(urls).not.toContain('/about/');
    expect(urls).not.toContain('/guoji/');
  });
  it('keeps anchor text as title and finds item dates', () => {
    expect(r.items[0]!.title).toBe('国务院常务会议部署进一步稳定外贸工作');
    expect(r.items[0]!.publishedAt).toBe('2024-07-20T00:00:00+08:00');
  });
  it('finds the next page (下一页) and the numbered pages, not 尾页 or 上一页', () => {
    expect(r.nextPage).toBe(expected.nextPage);
    expect(r.pages).toContain('http://news.example.cn/guonei/index_4.html');
    expect(r.pages).not.toContain(page.url);
  });
});

describe('extractList on an English blog index', () => {
  const { page, expected } = fixture('en-blog-index');
  const r = extractList(page);
  it('returns the posts once each (title link, not "Continue reading" or comments)', () => {
    expect(r.items.map((i) => i.url)).toEqual(expected.items);
    expect(r.items[1]!.title).toBe('A practical guide to profiling Node.js memory leaks');
  });
  it('follows "Older posts", never the calendar widget', () => {
    expect(r.nextPage).toBe(expected.nextPage);
    expect(r.nextPage).not.toContain('/2024/04/');
  });
});

describe('bad input', () => {
  it('a page without links gives no items and no next page', () => {
    const page = createPage({ url: 'http://example.com/', body: '<html><body><p>Just some text, no links at all.</p></body></html>' });
    expect(extractList(page)).toEqual({ items: [], nextPage: undefined, pages: undefined });
  });
  it('an empty body gives an empty list', () => {
    expect(extractList(createPage({ url: 'http://example.com/', body: '' })).items).toEqual([]);
  });
  it('resolves relative item URLs against <base href>', () => {
    const lis = Array.from({ length: 6 }, (_, i) => `<li><a href="story-${i}.html">A reasonably long headline number ${i} here</a> <span>2024-01-0${i + 1}</span></li>`).join('');
    const page = createPage({ url: 'http://example.com/a/b/index.html', body: `<html><head><base href="http://cdn.example.com/news/"></head><body><ul>${lis}</ul></body></html>` });
    const r = extractList(page);
    expect(r.items.map((i) => i.url)).toEqual(Array.from({ length: 6 }, (_, i) => `http://cdn.example.com/news/story-${i}.html`));
  });
  it('5,000 links: bounded time, bounded output', () => {
    const lis = Array.from({ length: 5000 }, (_, i) => `<li><a href="/item/${i}">Item title number ${i} in a very long list</a></li>`).join('');
    const page = createPage({ url: 'http://example.com/', body: `<html><body><ul>${lis}</ul></body></html>` });
    const t = performance.now();
    const r = extractList(page, { maxItems: 1000 });
    expect(performance.now() - t).toBeLessThan(3000);
    expect(r.items.length).toBe(1000);
    expect(new Set(r.items.map((i) => i.url)).size).toBe(1000);
  });
  it('a link farm of duplicate URLs is de-duplicated', () => {
    const lis = Array.from({ length: 50 }, (_, i) => `<li><a href="/same/${i % 5}">A title that repeats itself ${i % 5} times</a></li>`).join('');
    const r = extractList(createPage({ url: 'http://example.com/', body: `<ul>${lis}</ul>` }));
    expect(r.items.length).toBe(5);
  });
  it('10,000-deep nesting does not overflow', () => {
    const body = '<div>'.repeat(10000) + '<ul>' + Array.from({ length: 5 }, (_, i) => `<li><a href="/x/${i}">Deeply nested title number ${i}</a></li>`).join('') + '</ul>' + '</div>'.repeat(10000);
    expect(() => extractList(createPage({ url: 'http://example.com/', body }))).not.toThrow();
  });
});

describe('pagination', () => {
  const pageOf = (url: string, body: string) => createPage({ url, body: `<html><body>${body}</body></html>` });
  it('rel=next wins', () => {
    expect(findPagination(pageOf('http://e.com/list', '<a href="/list?page=2" rel="next">more</a>')).nextPage).toBe('http://e.com/list?page=2');
  });
  it('reads next words in several languages', () => {
    for (const w of ['Next »', '下一页', '次へ', 'Weiter', 'Suivant', 'Следующая', '›']) {
      const p = pageOf('http://e.com/list?page=3', `<div class="pager"><a href="/list?page=2">2</a><span>3</span><a href="/list?page=4">4</a><a href="/list?page=4">${w}</a></div>`);
      expect(findPagination(p).nextPage, w).toBe('http://e.com/list?page=4');
    }
  });
  it('reads "next N results" in Japanese and Chinese pagers (次の20件), not "previous N" (前の20件)', () => {
    const p = pageOf('http://e.jp/search?q=x&b=21', '<div><a href="/search?q=x&b=1">前の20件</a> <a href="/search?q=x&b=41">次の20件</a></div>');
    expect(findPagination(p).nextPage).toBe('http://e.jp/search?q=x&b=41');
    const q = pageOf('http://e.cn/s?q=x&pn=10', '<div><a href="/s?q=x&pn=20">下10条</a></div>');
    expect(findPagination(q).nextPage).toBe('http://e.cn/s?q=x&pn=20');
  });
  it('uses the number after the current page when there is no next word', () => {
    const p = pageOf('http://e.com/news/', '<div class="pagination"><span class="current">1</span><a href="/news/page/2/">2</a><a href="/news/page/3/">3</a></div>');
    expect(findPagination(p).nextPage).toBe('http://e.com/news/page/2/');
    expect(findPagination(p).pages).toEqual(['http://e.com/news/page/2/', 'http://e.com/news/page/3/']);
  });
  it('does not take "previous", "last" or an article-to-article link', () => {
    const p = pageOf('http://e.com/a/5.html', '<a href="/a/4.html">« Previous</a> <a href="/a/99.html">Last »»</a> <a href="/a/6.html">下一篇：另一篇文章的标题</a>');
    expect(findPagination(p).nextPage).toBeUndefined();
  });
  it('never follows a calendar', () => {
    const p = pageOf('http://e.com/blog/', '<table id="calendar"><tr><td><a href="/blog/2024/05/">Next »</a></td></tr></table>');
    expect(findPagination(p).nextPage).toBeUndefined();
  });
  it('urlStep sees one number one step further', () => {
    expect(urlStep('http://e.com/list?page=3', 'http://e.com/list?page=4')).toBe(1);
    expect(urlStep('http://e.com/news/', 'http://e.com/news/page/2/')).toBe('added');
    expect(urlStep('http://e.com/a/1', 'http://e.com/b/2')).toBeUndefined();
  });
});

describe('clusters', () => {
  it('class signatures ignore digits and state classes', () => {
    const doc = parseHtml('<li class="post-123 odd entry"></li><li class="post-7 even entry"></li>');
    const [a, b] = doc.children as Element[];
    expect(classSignature(a!)).toBe(classSignature(b!));
  });
  it('a menu of short links scores below a list of headlines with dates', () => {
    const menu = '<ul class="x">' + ['Home', 'News', 'Sport', 'Blog', 'Shop', 'Help'].map((w) => `<li><a href="/${w}">${w}</a></li>`).join('') + '</ul>';
    const list = '<ul class="y">' + Array.from({ length: 5 }, (_, i) => `<li><a href="/story/${i}">Council approves plan number ${i} for the old yard</a> 2024-05-0${i + 1}</li>`).join('') + '</ul>';
    const clusters = findLinkClusters(createPage({ url: 'http://e.com/', body: menu + list }));
    expect(clusters[0]!.entries[0]!.url).toBe('http://e.com/story/0');
  });
});

describe('listMiddleware', () => {
  it('fills the item and leaves following to the follow middleware', () => {
    const { page, expected } = fixture('en-blog-index');
    const ctx = { page, request: { url: page.url }, item: { url: page.url }, follow: [], log: silentLogger, segments: page.segments, site: { key: 'blog.example.org', data: {}, touch() {} } } as unknown as PageContext;
    listMiddleware({}).process(ctx);
    expect(ctx.item.kind).toBe('list');
    expect(ctx.item.title).toBe('Engineering notes'); // the page's title as the article extractor reads it (the page number is in pages)
    expect(ctx.item.items!.length).toBe(expected.items.length);
    expect(ctx.item.nextPage).toBe(expected.nextPage);
  });
});

describe('several content lists on one page (round 2)', () => {
  const result = (i: number, host: string, title: string) =>
    `<div class="res"><a href="https://${host}/doc/${i}"><h3>${title}</h3><cite>${host} › doc</cite></a><p>Snippet ${i} describing the page in a sentence or two of text for the reader.</p></div>`;
  const story = (i: number) =>
    `<div class="story"><a href="https://news${i}.example.org/2024/05/story-${i}"><div>Outlet ${i}</div><div>A headline about the subject number ${i} that runs long</div><span>${i} hours ago</span></a></div>`;
  const html = `<html><body><div id="search"><div class="results">
    ${result(1, 'alpha.example', 'First organic result title here')}
    ${result(2, 'beta.example', 'Second organic result title here')}
    <div class="block"><h2>Top stories</h2><div class="carousel">${story(1)}${story(2)}${story(3)}</div></div>
    ${result(3, 'gamma.example', 'Third organic result title here')}
    ${result(4, 'delta.example', 'Fourth organic result title here')}
    </div>
    <div class="related"><div class="rel"><a href="/search?q=foo+bar">foo bar related query</a></div><div class="rel"><a href="/search?q=foo+baz">foo baz related query</a></div><div class="rel"><a href="/search?q=foo+qux">foo qux related query</a></div></div>
    </div></body></html>`;
  const r = extractList(createPage({ url: 'https://search.example.com/search?q=foo', body: html }));
  const urls = r.items.map((i) => i.url);
  it('returns the organic results and the differently shaped news block', () => {
    for (const i of [1, 2, 3]) expect(urls).toContain(`https://news${i}.example.org/2024/05/story-${i}`);
    expect(urls).toContain('https://alpha.example/doc/1');
    expect(urls).toContain('https://delta.example/doc/4');
  });
  it('leaves out refinements of this page (same path, other query)', () => {
    expect(urls.some((u) => u.includes('/search?'))).toBe(false);
  });
});

describe('record links (round 2)', () => {
  it('takes the record\'s own detail link, not a download, a user or a recurring "latest" link', () => {
    const rel = (v: string, latest: boolean) => `<div class="release">
      ${latest ? '<span><a href="/o/r/releases/latest">Latest release</a></span>' : ''}
      <div class="head"><a href="/o/r/releases/tag/${v}">${v}</a></div>
      <p><a href="/someone">someone</a> released this on Oct 21, 2019</p>
      <div class="notes">Fixes a bug in the loader and improves the build output for everyone.</div>
      <details><a href="/o/r/archive/${v}.tar.gz">Source code (tar.gz)</a><a href="/o/r/archive/${v}.zip">Source code (zip)</a></details>
    </div>`;
    const html = `<html><body><main><div class="list">${rel('v2.1', true)}${rel('v2.0', false)}${rel('v1.9', false)}${rel('v1.8', false)}</div></main></body></html>`;
    const r = extractList(createPage({ url: 'https://code.example.com/o/r/releases', body: html }));
    expect(r.items.map((i) => i.url)).toEqual(['v2.1', 'v2.0', 'v1.9', 'v1.8'].map((v) => `https://code.example.com/o/r/releases/tag/${v}`));
  });
  it('joins the sections of a directory split into blocks, whatever their link widths', () => {
    const section = (letter: string, n: number) =>
      `<dl class="city-list"><dt>${letter}</dt><dd>${Array.from({ length: n }, (_, i) => `<a href="/city/${letter}${i}">${letter}城${i}</a>`).join('')}</dd></dl>`;
    const html = `<html><body><nav><a href="/">Home</a><a href="/about">About</a><a href="/help">Help</a></nav><article>${section('a', 12)}${section('b', 5)}${section('c', 4)}</article></body></html>`;
    const r = extractList(createPage({ url: 'http://dir.example.cn/cities', body: html }));
    expect(r.items).toHaveLength(21);
    expect(r.items.map((i) => i.url)).toContain('http://dir.example.cn/city/c3');
  });
});

describe('text-rich records with many links (round 2)', () => {
  it('keeps a release whose notes cite dozens of issues', () => {
    const notes = (n: number) =>
      Array.from({ length: n }, (_, i) => `<li>Fix case ${i} in the renderer (<a href="/o/r/pull/${1000 + i}">#${1000 + i}</a>).</li>`).join('');
    const rel = (v: string, n: number) => `<div class="release"><div class="head"><a href="/o/r/releases/tag/${v}">${v}</a></div>
      <p>released this on Oct 21, 2019</p><ul class="notes">${notes(n)}</ul></div>`;
    const html = `<html><body><main><div class="list">${rel('v3.0', 45)}${rel('v2.9', 3)}${rel('v2.8', 2)}${rel('v2.7', 4)}${rel('v2.6', 1)}${rel('v2.5', 2)}</div></main></body></html>`;
    const r = extractList(createPage({ url: 'https://code.example.com/o/r/releases', body: html }));
    expect(r.items.map((i) => i.url)).toContain('https://code.example.com/o/r/releases/tag/v3.0');
    expect(r.items.map((i) => i.url)).toContain('https://code.example.com/o/r/releases/tag/v2.7');
  });
});

describe('search results in deep or grouped markup (round 3)', () => {
  // a result block: title link wrapped in several classed layout levels, a snippet, sitelinks
  const block = (host: string, path: string, title: string) =>
    `<div class="tb"><div class="tc"><div class="tl"><a href="https://${host}${path}"><h3>${title}</h3></a></div></div>
     <div class="sn"><span>A snippet for ${title}, a sentence or two of text about the page found.</span></div></div>`;
  const wrap = (inner: string, levels: number) => '<div>'.repeat(levels) + inner + '</div>'.repeat(levels);
  const result = (host: string, title: string, extra = '') =>
    `<div class="r">${wrap(`<div class="g">${block(host, '/', title)}${extra}</div>`, 4)}</div>`;
  const sitelinks = (host: string) =>
    `<div class="sl">${['About us', 'Contact the team', 'Opening hours'].map((t, i) => `<a href="https://${host}/s${i}">${t}</a>`).join('')}</div>`;
  const indented = (host: string, path: string, title: string) => `<ul class="ind"><li><div>${block(host, path, title)}</div></li></ul>`;
  const html = `<html><body><div id="search"><div class="results">
    ${result('one.example', 'First result title of some length', indented('one.example', '/deeper/page', 'Second page of the first site, indented'))}
    ${result('two.example', 'Second result title of some length', sitelinks('two.example'))}
    ${result('three.example', 'Third result title of some length')}
    ${result('four.example', 'Fourth result title of some length')}
    </div></div></body></html>`;
  const r = extractList(createPage({ url: 'https://search.example.com/search?q=x', body: html }));
  const urls = r.items.map((i) => i.url);
  it('finds records whose title link sits nine levels below the record', () => {
    for (const h of ['one', 'two', 'three', 'four']) expect(urls).toContain(`https://${h}.example/`);
  });
  it('takes a second result nested in a record in the same title markup, not its sitelinks', () => {
    expect(urls).toContain('https://one.example/deeper/page');
    expect(urls.some((u) => u.startsWith('https://two.example/s'))).toBe(false);
    expect(urls).toHaveLength(5);
  });
  it('does not take a sibling link on the title path (a second link in the same row) as another title', () => {
    const rec = (i: number) => `<li class="rec"><div class="names"><a class="nm" href="/p/${i}">Product name number ${i} here</a> <a class="nm" href="/p/${i}/alt">Alternative view of product ${i}</a></div>
      <p>${'Long description text of the product and what it does. '.repeat(3)}</p></li>`;
    const page = createPage({ url: 'http://shop.example/catalogue', body: `<html><body><ul class="recs">${[1, 2, 3, 4].map(rec).join('')}</ul></body></html>` });
    const items = extractList(page).items.map((i) => i.url);
    expect(items).toEqual([1, 2, 3, 4].map((i) => `http://shop.example/p/${i}`));
  });
});

describe('lone records and repeated labels (round 3)', () => {
  it('takes a lone first result set apart from the group of the others (same title markup)', () => {
    const res = (i: number) =>
      `<div class="res"><div class="rt"><a href="https://site${i}.example/page">Result number ${i} with a title of some length</a></div><span>A snippet of the result, a sentence of text.</span></div>`;
    const html = `<html><body><div id="results"><h2>Results</h2>${res(0)}<div class="group">${[1, 2, 3, 4].map(res).join('')}</div></div>
      <div class="foot"><div class="rt"><a href="https://other.example/x">A footer link in the same markup but far away</a></div></div></body></html>`;
    const urls = extractList(createPage({ url: 'https://search.example.com/search?q=x', body: html })).items.map((i) => i.url);
    expect(urls).toContain('https://site0.example/page');
    expect(urls).toHaveLength(5);
  });
  it('does not take another list in the same markup nearby as lone records (a sidebar list)', () => {
    const post = (i: number) => `<li class="entry"><a href="/posts/${i}">A long post title number ${i} for the main list</a><p>Teaser text of post ${i}, a sentence.</p></li>`;
    const side = (i: number) => `<li class="entry"><a href="/tags/t${i}">Tag name ${i} here</a></li>`;
    const html = `<html><body><div class="page"><ul class="posts">${[1, 2, 3, 4, 5].map(post).join('')}</ul><div class="box"><ul class="recent">${[1, 2, 3].map(side).join('')}</ul></div></div></body></html>`;
    const urls = extractList(createPage({ url: 'https://blog.example/', body: html })).items.map((i) => i.url);
    expect(urls).toEqual([1, 2, 3, 4, 5].map((i) => `https://blog.example/posts/${i}`));
  });
  it('does not take a link whose text is the same in every record ("RSS feed") as the records\' title', () => {
    const rec = (i: number) => `<li class="forum"><h3><a href="/f${i}">Board ${i}</a></h3><p>What board ${i} is about, in a few words.</p>
      <ul class="actions"><li><a href="/rss?f=${i}">Show the RSS feed of this board</a></li></ul></li>`;
    const html = `<html><body><ol class="boards">${[1, 2, 3, 4, 5].map(rec).join('')}</ol></body></html>`;
    const urls = extractList(createPage({ url: 'https://forum.example/index.php', body: html })).items.map((i) => i.url);
    expect(urls).toEqual([1, 2, 3, 4, 5].map((i) => `https://forum.example/f${i}`));
  });
});

describe('records whose link is a label (round 3)', () => {
  const place = (i: number) => `<div class="place"><div class="card"><div role="heading">Name of place number ${i}</div>
    <div>12${i} Long Street · (555) 010-00${i}</div><div>Open until 6 pm</div></div>
    <a class="btn" href="https://place${i}.example/">Website</a> <a class="btn" href="#">Directions to here</a></div>`;
  const html = `<html><body><div class="places">${[1, 2, 3].map(place).join('')}</div></body></html>`;
  const r = extractList(createPage({ url: 'https://search.example.com/search?q=places', body: html }));
  it('takes the one link that leads elsewhere, not a link to this page ("#")', () => {
    expect(r.items.map((i) => i.url)).toEqual([1, 2, 3].map((i) => `https://place${i}.example/`));
  });
  it('titles such records by their heading, not by the repeated label', () => {
    expect(r.items.map((i) => i.title)).toEqual([1, 2, 3].map((i) => `Name of place number ${i}`));
  });
});

describe('item titles (round 3)', () => {
  it('takes the heading inside a result link, not the site line beside it', () => {
    const res = (i: number) => `<div class="res"><a href="https://s${i}.example/doc"><h3>Result title number ${i}</h3><cite>https://s${i}.example › doc</cite></a><p>Snippet text ${i} of the result.</p></div>`;
    const r = extractList(createPage({ url: 'https://search.example.com/search?q=x', body: `<html><body><div id="r">${[1, 2, 3, 4].map(res).join('')}</div></body></html>` }));
    expect(r.items.map((i) => i.title)).toEqual([1, 2, 3, 4].map((i) => `Result title number ${i}`));
  });
  it('prefers a short title link to a longer link text repeated in every record on the same path (a tooltip)', () => {
    const res = (i: number) => `<div class="res"><h2><a href="https://s${i}.example/p">A shorter title ${i}</a><a class="check" href="https://s${i}.example/p"><span>Your browser shows whether you have visited this link</span></a></h2><p>Snippet text ${i} of the result, a sentence.</p></div>`;
    const r = extractList(createPage({ url: 'https://search.example.com/search?q=x', body: `<html><body><div id="r">${[1, 2, 3, 4].map(res).join('')}</div></body></html>` }));
    expect(r.items.map((i) => i.title)).toEqual([1, 2, 3, 4].map((i) => `A shorter title ${i}`));
  });
});
