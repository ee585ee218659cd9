import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';

describe('a style in quotes of its own (issue 29)', () => {
  const names = ['橘子', '海角天涯', '者文', '闭嘴', '安然', '木木'];
  const item = (i: number, style: string) =>
    `<li class="comment-item" id="c${i}"${style}><div class="reply-doc"><h4><a href="https://people.example/people/${300 + i}/">${names[i]}</a> <span class="pubtime">2016-08-2${i} 10:0${i}:20</span></h4>` +
    `<p>第${i}条回应，写了一句完整的话。</p></div></li>`;
  const page = (style: string) =>
    `<html><head><title>合租</title></head><body><h1>合租</h1><ul id="comments">${[0, 1, 2, 3, 4, 5].map((i) => item(i, i === 2 || i === 3 ? style : '')).join('')}</ul></body></html>`;

  it('does not hide a floor (`style=&#39;display:none&#39;` is not CSS: browsers show it)', () => {
    const posts = extractForum(createPage({ url: 'https://group.example/topic/1/', body: page(" style=&#39;display:none&#39;") }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(names);
  });

  it('while `display: none` in a declaration hides it', () => {
    const posts = extractForum(createPage({ url: 'https://group.example/topic/1/', body: page(' style="color: red; display: none"') }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(['橘子', '海角天涯', '安然', '木木']);
  });
});
