import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';

/** A Q&A page of the older kind: tags, the question's title, the question's body (no author, no
 * date: the asker is shown elsewhere) rendered with the same rich-text template as the answers'
 * bodies, a sort bar, then the answers with their writers and dates. */
function qaPage(question: string): string {
  const names = ['青禾', '老周', '小雨', '阿木', '林间', '北岸'];
  const answers = names
    .map((n, i) =>
      `<div class="item-answer" data-aid="${700 + i}"><div class="answer-head"><h3 class="author-wrap"><a href="/people/p${i}">${n}</a></h3></div>` +
      `<div class="item-rich-text"><div class="editable-content">第${i + 1}个回答。祖上是做木匠的，传下来的手艺不多，但有几条规矩一直记得：<br>量两次，锯一次；工具用完要擦干净。<br>这些话到现在还管用，做别的事也一样。</div></div>` +
      `<div class="item-meta"><a class="answer-date-link" href="/question/9/answer/${700 + i}">发布于 2014-0${1 + i}-1${i}</a> <a href="#" class="toggle-comment">${3 + i} 条评论</a> <a href="#">分享</a></div></div>`,
    )
    .join('');
  return `<html><head><title>家里祖传的行业有什么门道？ - 问答</title></head><body>` +
    `<div class="top-nav"><a href="/">首页</a> <a href="/explore">发现</a> <a href="/topic">话题</a></div>` +
    `<div class="main-content"><div class="tag-editor"><a class="item-tag" href="/topic/1">职业</a> <a class="item-tag" href="/topic/2">家族</a></div>` +
    `<div id="question-title"><h2 class="item-title">家里祖传的行业有什么门道？</h2></div>` +
    `<div id="question-detail" class="item-rich-text"><div class="editable-content">${question}</div></div>` +
    `<div class="question-meta"><a href="#">关注问题</a> <a href="#">邀请回答</a></div>` +
    `<div class="answers-title"><span class="lbl">按票数排序</span> <a class="lbl" href="?sort=created">按时间排序</a><h3>6 个回答</h3></div>` +
    `<div id="answer-wrap">${answers}</div></div></body></html>`;
}

describe('a question without author or date above its answers (issue 29)', () => {
  it('is the main post when rendered as the answers\' bodies are, between the title and the answers', () => {
    const q = '很多人家是几代人传下的行业，有没有什么特殊的门道，可以和外人分享的吗？<br>比如屠宰，比如餐厅。';
    const posts = extractForum(createPage({ url: 'https://qa.example/question/9', body: qaPage(q) }))!.posts;
    expect(posts).toHaveLength(7);
    expect(posts[0]!.isMain).toBe(true);
    expect(posts[0]!.content).toContain('很多人家是几代人传下的行业');
    expect(posts[0]!.author).toBeUndefined();
    expect(posts.slice(1).map((p) => p.author)).toEqual(['青禾', '老周', '小雨', '阿木', '林间', '北岸']);
  });
});
