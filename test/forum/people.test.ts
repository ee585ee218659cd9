import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';
import { datesIn } from '../../middleware/forum/dates.js';

/** Answers with the writer's profile link in a header and, below it, the members who voted for
 * the answer (a list of profile links); some answers are anonymous (a bare name in the header). */
function answersPage(times: string[]): string {
  const writers = ['阿木', '匿名用户', '青禾', '老周', '匿名用户', '小雨'];
  const voters = [['甲一', '乙二', '丙三'], ['丁四', '甲一', '戊五'], ['乙二', '己六', '庚七'], ['甲一', '辛八', '壬九'], ['癸十', '乙二', '甲一'], ['丙三', '丁四', '己六']];
  const answer = (i: number) => {
    const w = writers[i]!;
    const head = w === '匿名用户' ? `<h3 class="author-wrap">${w}</h3>` : `<h3 class="author-wrap"><a href="/people/u${i}">${w}</a></h3>`;
    const vote = `<div class="vote-info"><span class="voters">${voters[i]!.map((v, k) => `<span class="user-block"><a href="/people/v${v.charCodeAt(0)}${k}" class="zg-link">${v}</a>、</span>`).join('')}</span><a href="javascript:;" class="more">等人赞同</a></div>`;
    return `<div class="answer" data-aid="${900 + i}"><div class="answer-head"><div class="author-info">${head}</div>${vote}</div>` +
      `<div class="rich-text"><div class="content">第${i + 1}个回答：我的看法是这样的，先把问题拆开，再一件一件解决。<br>刚开始的时候不要怕失败，多做几次就熟练了。<br>买一本菜谱，从最简单的家常菜做起，每周换一道新菜。</div></div>` +
      `<div class="meta"><a class="answer-date-link" href="/question/1/answer/${900 + i}">${times[i]}</a> <a href="#">${10 + i} 条评论</a></div></div>`;
  };
  return `<html><head><title>怎样学会做饭？</title></head><body><h2 class="title">怎样学会做饭？</h2><div id="answers">${writers.map((_, i) => answer(i)).join('')}</div></body></html>`;
}

describe('authors among lists of people (issue 29)', () => {
  it('takes the writer, not the last of the voters beside the date, and the bare name of an anonymous answer', () => {
    const times = ['发布于 2014-12-09', '编辑于 2014-12-09', '发布于 2014-12-08', '编辑于 2014-12-08', '发布于 2014-12-07', '发布于 2014-12-07'];
    const posts = extractForum(createPage({ url: 'https://qa.example/question/1', body: answersPage(times) }))!.posts;
    const authors = posts.filter((p) => p.content.includes('个回答')).map((p) => p.author);
    expect(authors).toEqual(['阿木', '匿名用户', '青禾', '老周', '匿名用户', '小雨']);
  });

  it('keeps an answer dated by a bare time after its label (a post of today)', () => {
    const times = ['发布于 2014-12-09', '编辑于 2014-12-09', '编辑于 21:28', '编辑于 2014-12-08', '发布于 2014-12-07', '发布于 2014-12-07'];
    const posts = extractForum(createPage({ url: 'https://qa.example/question/1', body: answersPage(times), fetchedAt: new Date('2014-12-10T06:00:00Z') }))!.posts;
    const answers = posts.filter((p) => p.content.includes('个回答'));
    expect(answers.map((p) => p.content.match(/第(\d)个/)![1])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(answers[2]!.publishedAtText).toBe('21:28');
  });
});

describe('a deleted member (issue 29)', () => {
  it('takes the bare name in the box that holds the others\' name link (inside a hover card)', () => {
    const who = ['alice_k', '[deleted]', 'bob-r', 'carol', '[deleted]', 'dave99'];
    const comment = (w: string, i: number) =>
      `<div class="comment" id="t1_${i}"><div class="head"><span class="_1ril">level ${1 + (i % 2)}</span><div class="_3qek">` +
      (w === '[deleted]' ? `<span class="lizq">${w}</span>` : `<div class="hover-card"><div><a href="https://talk.example/user/${w}/">${w}</a></div></div>`) +
      `</div><span> · </span><a class="ts" href="https://talk.example/r/x/comments/1/c/${i}/">${2 + i} hr. ago</a></div>` +
      `<div class="body"><p>Comment ${i}: I imagine it as a very good life, and I said so twice.</p></div></div>`;
    const html = `<html><head><title>A thread</title></head><body><h1>A thread</h1><div class="comments">${who.map(comment).join('')}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://talk.example/r/x/comments/1/', body: html }))!.posts;
    expect(posts.filter((p) => p.content.startsWith('Comment')).map((p) => p.author)).toEqual(who);
  });
});

describe('a bare time after a posting label (issue 29)', () => {
  const options = { now: new Date('2014-12-10T06:00:00Z'), timezone: 'Asia/Shanghai' };
  it('is a time of the reference day in a short label', () => {
    const [d] = datesIn('编辑于 21:28', options);
    expect(d?.text).toBe('21:28');
    expect(d?.iso).toBe('2014-12-10T21:28:00+08:00');
  });
  it('is not a date in a sentence, nor without the label', () => {
    expect(datesIn('比赛在 21:28 开始，大家记得准时到场观看，这是一场非常重要的比赛，不要错过了，一定要来，我们在老地方等你们。', options)).toEqual([]);
    expect(datesIn('21:28', options)).toEqual([]);
    expect(datesIn('发布于 25:61', options)).toEqual([]);
  });
});
