/**
 * Issue 23: a site's short post (a code snippet, a formula, a few links; under the body extractor's
 * length floor) is an article of that site once the site's own evidence says the page is one of its
 * posts (typed detail after the site showed evidence, listed by its lists, in the URL shape that
 * several of its lists point to): the page-type stage says
 * so (SITE_POST_KEY) and the article stage then takes the short body — none at all for a post that
 * shows no text of its own. A page with no such evidence keeps the length floor.
 */
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { Extractor } from '../../src/chain/extractor.js';
import { extractArticle } from '../../middleware/article/index.js';

const nav = '<header class="site-header"><nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/tags/">Tags</a> <a href="/archives/">Archives</a></nav></header>';
const side = '<aside class="sidebar"><h3>About the author</h3><p>Writes about small tools and the shell.</p><ul><li><a href="/tags/shell/">shell</a></li><li><a href="/tags/db/">db</a></li></ul></aside>';
const shell = (title: string, main: string) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title} | Small tools</title></head><body>${nav}<main class="content">${main}</main>${side}<footer class="site-footer">© 2024 Small tools · Powered by a generator</footer></body></html>`;
const slugs = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const entry = (s: string, i: number) => `<article class="post-entry"><h2 class="post-title"><a href="/2024/05/0${i + 1}/${s}/">Notes on the shell, part ${s}</a></h2><time datetime="2024-05-0${i + 1}">May ${i + 1}, 2024</time><p class="excerpt">A teaser of the note, one line about shells and small tools.</p></article>`;
const para = (n: number) => Array.from({ length: n }, (_, i) => `<p>This is sentence ${i} of a long note about shells, with a clause, and an end. It goes on to say more things.</p>`).join('');
const post = (s: string, i: number, body: string) =>
  shell(`Notes on the shell, part ${s}`, `<article class="post"><h1 class="post-title">Notes on the shell, part ${s}</h1><div class="post-meta">Posted on 2024-05-0${i + 1}</div><div class="post-body">${body}</div>
<div class="license"><div>Notes on the shell, part ${s}</div><div>https://tools.example/2024/05/0${i + 1}/${s}/</div></div>
<nav class="post-nav"><a href="/2024/05/0${i}/${slugs[i - 1] ?? 'one'}/">« Older post</a> <a href="/2024/05/0${i + 2}/${slugs[i + 1] ?? 'eight'}/">Newer post »</a></nav></article>`);
const SHORT = '<pre><code>mysql -u root -p\ncreate database notes;</code></pre><p>Then: <code>grant all on notes.*</code></p>';

describe('a short post of a site', () => {
  it('without site evidence, a body under the length floor is no article; with it, the body is the content', () => {
    const page = createPage({ url: 'https://tools.example/2024/05/04/four/', body: post('four', 3, SHORT) });
    expect(extractArticle(page)).toBeNull();
    const a = extractArticle(page, { sitePost: true });
    expect(a?.kind).toBe('article');
    expect(a?.content).toContain('create database notes;');
    expect(a?.content).toContain('grant all on notes.*');
    // the permalink line, the previous/next links and the date line are not the post's text
    expect(a?.content).not.toMatch(/https:\/\/tools\.example|Older post|Newer post|Posted on/);
  });

  it('through the chain (kind auto, one site store): typed detail once the index listed it, stored as an article', async () => {
    const x = new Extractor({ kind: 'auto' });
    try {
      const index = await x.extract({ url: 'https://tools.example/', body: shell('Small tools', slugs.map(entry).join('')) });
      expect(index.kind).toBe('list');
      // a second list of the site (a tag page) lists posts in the same URL shape: that shape is the posts'
      const tag = await x.extract({ url: 'https://tools.example/tags/shell/', body: shell('Tag: shell', `<h1 class="tag-title">shell</h1>${slugs.slice(0, 5).map(entry).join('')}`) });
      expect(tag.kind).toBe('list');
      for (const [i, s] of [[0, 'one'], [1, 'two']] as const) {
        const long = await x.extract({ url: `https://tools.example/2024/05/0${i + 1}/${s}/`, body: post(s, i, para(8)) });
        expect(long.kind).toBe('article');
      }
      const short = await x.extract({ url: 'https://tools.example/2024/05/04/four/', body: post('four', 3, SHORT) });
      expect(short.kind).toBe('article');
      expect(short.kind === 'article' && short.content).toContain('create database notes;');
      // a post with no text of its own (an image, nothing at all) is still one of the site's posts:
      // an article with its title and date, whose text is what it shows — not the side panel's, the
      // site template's, nor the licence box's and the older/newer links' (sites-crawl has two such)
      for (const [i, s, body] of [[4, 'five', '<p><img src="/five.png" alt=""></p>'], [5, 'six', '']] as const) {
        const empty = await x.extract({ url: `https://tools.example/2024/05/0${i + 1}/${s}/`, body: post(s, i, body) });
        expect(empty.kind).toBe('article');
        if (empty.kind !== 'article') continue;
        expect(empty.title).toBe(`Notes on the shell, part ${s}`);
        expect(empty.publishedAt?.slice(0, 10)).toBe(`2024-05-0${i + 1}`);
        // (here the post's heading, repeated in its licence box: the only line of the page's own)
        expect(['', empty.title]).toContain(empty.content);
      }
      // a post whose declared body (itemprop=articleBody) is empty has no text
      const declared = await x.extract({ url: 'https://tools.example/2024/05/07/seven/', body: post('seven', 6, '').replace('<div class="post-body">', '<div class="post-body" itemprop="articleBody">') });
      expect(declared.kind).toBe('article');
      expect(declared.kind === 'article' && (declared.content ?? '')).toBe('');
    } finally {
      await x.close();
    }
    // the same page met first, before the site showed anything: no article
    const fresh = new Extractor({ kind: 'auto' });
    try {
      const alone = await fresh.extract({ url: 'https://tools.example/2024/05/04/four/', body: post('four', 3, SHORT) });
      expect(alone.kind).not.toBe('article');
    } finally {
      await fresh.close();
    }
  });
});
