import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/index.js';
import { extractTitle } from '../../middleware/article/index.js';

const page = (head: string, body: string) =>
  createPage({ url: 'http://127.0.0.1/post/1/', body: `<html><head><title>${head}</title></head><body>${body}</body></html>` });
const para = '<p>' + '这是一段足够长的正文，用来让页面看起来像一篇文章。'.repeat(6) + '</p>';

describe('headline among headings that share its words', () => {
  it('a section heading repeating a word of the headline does not win over the headline above it', () => {
    const p = page('https初探 | 一个博客', `<div id="post-title">https初探</div>${para}<h2>https</h2>${para}`);
    expect(extractTitle(p)?.title).toBe('https初探');
    // the crawl passes the anchor text of the link that led to the page
    expect(extractTitle(p, { anchorText: 'https初探' })?.title).toBe('https初探');
  });

  it('a section heading below the headline that extends it stays a section heading', () => {
    const p = page('Matrix Terminal | Blog', `<h1>Matrix Terminal</h1>${para}<h2>Matrix Terminal Display</h2>${para}`);
    expect(extractTitle(p)?.title).toBe('Matrix Terminal');
  });

  it('a reading bar above the headline ("正在阅读：…") is not the headline', () => {
    const p = page('儿歌被改写 原作者回应_新闻', `<div class="bar-title">正在阅读：儿歌被改写 原作者回应</div><h1>儿歌被改写 原作者回应</h1>${para}`);
    expect(extractTitle(p)?.title).toBe('儿歌被改写 原作者回应');
  });
});
