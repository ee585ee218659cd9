import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';

/** A thread whose members' profile links read handles of Han characters glued to a number
 * ("下次再见123") and whose floors end in a client tag with the floor number ("来自iPhone客户端28楼"). */
function thread(names: string[]): string {
  const said = ['中国队第22金！无悬念！', '卫冕成功，动作质量高。', '小炸也赢了，恭喜！', '心疼一秒', '真的长大不少，好无奈', '决赛太精彩了！', '明天还有比赛吗？', '恭喜恭喜'];
  const floor = (i: number) =>
    `<div class="post" id="p${500 + i}"><div class="side"><ul><li class="face"><a href="/home/main?id=tb.1.${i}x&amp;fr=pb"><img src="/h/${i}.jpg"></a></li>` +
    `<li class="name"><a href="/home/main?id=tb.1.${i}x&amp;fr=pb">${names[i]}</a></li><li class="badge"><a href="/f/level?lv=${i}">等级 ${i + 3}</a></li></ul></div>` +
    `<div class="main"><div class="body">${said[i]}</div>` +
    `<div class="tail"><span>${i % 2 ? '来自iPhone客户端' : '来自Android客户端'}</span><span>${i + 2}楼</span><span>2024-08-06 22:${String(10 + i).padStart(2, '0')}</span><a href="#">回复</a></div></div></div>`;
  return `<html><head><title>中国队第22金_网球吧</title></head><body><h1>中国队第22金</h1><div id="list">${said.map((_, i) => floor(i)).join('')}</div></body></html>`;
}

describe('member handles and client tags (issue 29)', () => {
  it('reads a handle of Han characters and digits from the voted name slot, never a client tag', () => {
    const names = ['heinzfrentzen', '洛神五五', '下次再见123', '红黑军团810', '托管教你做人', '梦里回江', '京酱肉丝', 'AI未来'];
    const posts = extractForum(createPage({ url: 'https://bbs.example/p/9', body: thread(names) }))!.posts;
    expect(posts).toHaveLength(8);
    expect(posts.map((p) => p.author)).toEqual(names);
    expect(posts[2]!.authorUrl).toBe('https://bbs.example/home/main?id=tb.1.2x&fr=pb');
  });
});
