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
});
