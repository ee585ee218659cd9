import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';

describe('authors without a name holder (issue 29)', () => {
  const floorOf = (i: number, who: string) =>
    `<div class="post" id="post_${200 + i}"><div class="side">${who}</div><div class="head"><div class="authi">${i % 3 === 0 ? `匿名用户-A${i}K&nbsp;` : ''}<em>发表于 2025-12-1${i} 15:0${i}:49</em> | <a href="?ordertype=1">倒序浏览</a></div></div>` +
    `<div class="msg">第${i}楼说：这个问题我也遇到过，后来换了一个方法就好了。</div></div>`;

  it('takes the name that opens the date line of an anonymous floor', () => {
    const html = `<html><head><title>求助</title></head><body><h1>求助</h1><div id="postlist">${Array.from({ length: 6 }, (_, i) => floorOf(i, i % 3 === 0 ? '' : `<a href="home.php?mod=space&amp;uid=${i}">member${i}</a>`)).join('')}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://bbs.example/thread-1-1-1.html', body: html }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(['匿名用户-A0K', 'member1', 'member2', '匿名用户-A3K', 'member4', 'member5']);
  });

  it('takes a number as a name at the voted profile-link slot, and never a 楼主 badge', () => {
    const names = ['橘子', '7', '海角天涯', '7', '者文', '闭嘴'];
    const item = (i: number) =>
      `<li class="comment-item" id="c${i}"><div class="reply-doc"><h4><a href="https://people.example/people/${names[i] === '7' ? 157 : 300 + i}/">${names[i]}</a>` +
      `${names[i] === '7' ? ' <span class="topic-author-icon">楼主</span>' : ''} <span class="pubtime">2021-11-17 10:0${i}:20</span></h4>` +
      `<p>第${i}条回应，写了一句完整的话。</p></div></li>`;
    const html = `<html><head><title>关于焦虑</title></head><body><h1>关于焦虑</h1><ul id="comments">${names.map((_, i) => item(i)).join('')}</ul></body></html>`;
    const posts = extractForum(createPage({ url: 'https://group.example/topic/1/', body: html }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(names);
  });

  it('takes a blog comment\'s name that links to the writer\'s own page', () => {
    const people = [['flyingbirds', ''], ['寒星', 'http://other.example/tonyjoule'], ['scong', ''], ['Ninputer', 'http://blog.example/ninputer'], ['王勇', ''], ['ceocio', 'http://blog.example/ceocio']];
    const comments = people
      .map(([n, href], i) => `<h4><a href="http://blog.example/li/archive/1.aspx#${i}">#</a>&nbsp;re: 很高兴入住 <span> 2004-12-27 12:4${i} </span> <a${href ? ` href="${href}"` : ''} target="_blank">${n}</a></h4><p>第${i}条评论，写了几句话。</p>`)
      .join('');
    const html = `<html><head><title>很高兴入住</title></head><body><h2>很高兴入住</h2><div class="post"><p>一篇很短的文章。</p></div><div id="comments"><h3>评论</h3>${comments}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'http://blog.example/li/archive/1.aspx', body: html }))!.posts;
    expect(posts.slice(-6).map((p) => p.author)).toEqual(people.map(([n]) => n));
  });
});
