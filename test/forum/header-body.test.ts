import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum } from '../../middleware/forum/index.js';

/** A thread whose floors open with a header line (the member's name linked to a profile, the
 * posting time) above a body paragraph and a control bar. One member's name ends in sentence
 * punctuation ("安息。") or carries a comma (a "name，bio" header) while the body of that floor is a
 * short reply without punctuation: the header must not become the floor's body. */
function thread(names: string[], bodies: string[]): string {
  const floor = (i: number) =>
    `<li class="item" id="c${9000 + i}"><div class="face"><img src="/a/${i}.jpg"></div><div class="doc">` +
    `<div class="hd"><h4><a href="https://people.example/people/${7100 + i}/">${names[i]}</a> <span class="t">2016-09-0${1 + (i % 8)} 1${i % 10}:0${i % 6}:58</span></h4></div>` +
    `<p>${bodies[i]}</p><div class="ops"><a href="#">赞</a> <a href="?cid=${9000 + i}#last">回应</a></div></div></li>`;
  return `<html><head><title>周末一起去爬山吗 - 小组</title></head><body><h1>周末一起去爬山吗</h1>` +
    `<div class="topic"><div class="from"><a href="https://people.example/people/7000/">楼主小王</a> <span>2016-08-31 09:00:00</span></div>` +
    `<div class="topic-content"><p>这周六早上八点在地铁站集合，大家带好水和干粮。路线不难，适合新手，全程大约十公里，中午在山顶吃饭。</p>` +
    `<p>报名的朋友请在下面回复，说一下人数、有没有车、能不能帮忙带点东西。下雨就改期，改期会在这里通知。</p>` +
    `<p>注意：穿运动鞋，别穿新鞋；带一件外套，山上风大；垃圾自己带下山。有问题可以私信我，也可以在楼下问。</p></div></div>` +
    `<ul class="comments">${bodies.map((_, i) => floor(i)).join('')}</ul></body></html>`;
}

const BODIES = ['我也想去，算我一个。</p><p>我周六有空，周日不行。', '几点出发？', '带上我吧，我有车。</p><p>能坐四个人。', '天气预报说周六有雨，要不改周日？', '支持，好久没爬山了。</p><p>上次去还是去年。', '同去同去', '楼主，路线发一下？', 'up'];

describe('a floor whose header looks like prose (issue 29)', () => {
  it('keeps the body, not the header, when the name ends in sentence punctuation', () => {
    const names = ['山野行者', '小鹿', '阿飞', '晴天', '走走停停', '小米粥', '大熊', '安息。'];
    const posts = extractForum(createPage({ url: 'https://group.example/topic/1/', body: thread(names, BODIES) }))!.posts;
    expect(posts).toHaveLength(9);
    const last = posts[8]!;
    expect(last.content).toBe('up');
    expect(last.author).toBe('安息。');
    expect(posts[6]!.content).toBe('同去同去');
  });

  it('keeps the body when a header holds a comma ("name，bio")', () => {
    const names = ['山野行者', '小鹿', '阿飞', '晴天', '走走停停', '小米粥，一个爱爬山的程序员', '大熊', '老周'];
    const bodies = [...BODIES];
    bodies[5] = '同去同去';
    bodies[6] = '顶';
    const posts = extractForum(createPage({ url: 'https://group.example/topic/1/', body: thread(names, bodies) }))!.posts;
    expect(posts).toHaveLength(9);
    expect(posts[6]!.content).toBe('同去同去');
    expect(posts[6]!.author).toBe('小米粥，一个爱爬山的程序员');
    expect(posts[7]!.content).toBe('顶');
    expect(posts[8]!.content).toBe('up');
  });
});
