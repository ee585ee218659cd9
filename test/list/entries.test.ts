/**
 * Entries of generated blogs' lists that the title-slot rules used to drop (issue 23, bench:sites):
 * a two-character title among long ones, an archive grouped by year with one or two posts a year,
 * a post shown without its excerpt or buttons among posts with them.
 */
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractList } from '../../middleware/list/index.js';

const paths = (url: string, body: string) => extractList(createPage({ url, body })).items.map((i) => new URL(i.url).pathname);

describe('list entries', () => {
  it('a short title (two Han characters) among long ones is an entry; a by-line leading to a user page is not', () => {
    const rec = (slug: string, title: string) => `<div class="item"><a class="t" href="/2024/01/02/${slug}/">${title}</a> <span>by <a href="/user/ann/">Ann</a></span><p>摘要：这是一段足够长的文章摘要文字，用来说明这篇文章讲的是什么内容。</p></div>`;
    const body = `<html><body><main><div class="list">${rec('a', '大数据团队代码规范与实践经验总结')}${rec('b', '羁绊')}${rec('c', '阿里巴巴开发手册学习笔记上篇')}${rec('d', '一次线上故障的复盘与思考过程')}</div></main></body></html>`;
    const got = paths('http://b.example/archives/', body);
    expect(got).toEqual(['/2024/01/02/a/', '/2024/01/02/b/', '/2024/01/02/c/', '/2024/01/02/d/']);
  });
  it('an archive grouped by year, one or two posts a year: every post', () => {
    const year = (y: number, posts: string[]) => `<h2>${y}</h2><ul class="listing">${posts.map((p) => `<li><span class="date">${y}/03/01</span><a href="/${y}/03/01/${p}/">${p.replace(/-/g, ' ')}</a></li>`).join('')}</ul>`;
    const body = `<html><body><main><div class="post-archive">${year(2012, ['letter-to-my-future-self'])}${year(2010, ['bonds', 'swan-lake-at-dusk'])}${year(2009, ['end-of-term-summary', 'osmanthus-in-bloom'])}</div></main></body></html>`;
    expect(paths('http://b.example/categories/cycling/', body).sort()).toEqual(['/2009/03/01/end-of-term-summary/', '/2009/03/01/osmanthus-in-bloom/', '/2010/03/01/bonds/', '/2010/03/01/swan-lake-at-dusk/', '/2012/03/01/letter-to-my-future-self/']);
  });
  it('a post shown without excerpt, button or category among posts with them keeps its place', () => {
    const full = (slug: string, title: string) => `<article class="post-block"><header class="post-header"><h2 class="post-title"><a class="post-title-link" href="/2023/02/1${slug.length % 9}/${slug}/">${title}</a></h2><div class="post-meta"><time>2023-02-18</time> in <a href="/categories/js/">JavaScript</a></div></header><div class="post-body"><p>An excerpt of the post, a sentence or two of what it says.</p><a class="btn" href="/2023/02/1${slug.length % 9}/${slug}/">Read more »</a></div></article>`;
    const bare = `<article class="post-block"><header class="post-header"><h2 class="post-title"><a class="post-title-link" href="/2023/02/18/deep-copy/">deep-copy</a></h2><div class="post-meta"><time>2023-02-18</time></div></header><div class="post-body"></div></article>`;
    const body = `<html><body><main>${full('vue3-scene', 'Ten scenes from Vue 2 to Vue 3')}${full('flex-one', 'How flex 1 works, step by step')}${bare}${full('event-loop', 'The event loop in the browser and in Node')}${full('promises', 'Promises from the ground up')}</main></body></html>`;
    expect(paths('http://b.example/page/2/', body)).toContain('/2023/02/18/deep-copy/');
  });
  it('an index showing its newest posts in full: each post is an entry, by its permalink, titled with its heading', () => {
    const para = (k: number) => `<p>${k < 2 ? `A paragraph citing <a href="https://elsewhere.example/ref${k}">a reference elsewhere</a>. ` : ''}${'A paragraph of the post with words enough to make it long, and then some more words. '.repeat(6)}</p>`;
    const post = (slug: string, title: string) => `<div class="body"><h1>${title}</h1><div class="postdate">Thursday, May 13, 2010</div>${Array.from({ length: 8 }, (_, k) => para(k)).join('')}<div class="posttags">Tags: <ul><li><a href="/tags/${slug.slice(0, 4)}/">${slug.slice(0, 4)}</a></li></ul></div><div class="postlinks"><a href="/2010/05/13/${slug}/">Permanent link</a> | <a href="/2010/05/13/${slug}/#comments">Comments</a></div></div><div class="sep"></div>`;
    const body = `<html><body><div class="left"><h3><a href="/">Home</a></h3><h3><a href="/about/">About</a></h3><h3><a href="/archive/">Archive</a></h3></div><div class="content">${post('qemu-lucid', 'Installing Ubuntu on a PowerPC virtual machine')}${post('libpush-callbacks', 'Parser callbacks in libpush, part 1')}${post('llvm-lto', 'Using link-time optimization on Ubuntu')}</div></body></html>`;
    const r = extractList(createPage({ url: 'http://d.example/', body }));
    expect(r.items.map((i) => [new URL(i.url).pathname, i.title])).toEqual([
      ['/2010/05/13/qemu-lucid/', 'Installing Ubuntu on a PowerPC virtual machine'],
      ['/2010/05/13/libpush-callbacks/', 'Parser callbacks in libpush, part 1'],
      ['/2010/05/13/llvm-lto/', 'Using link-time optimization on Ubuntu'],
    ]);
  });
});
