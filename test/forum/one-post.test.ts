import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractForum, forumMiddleware, postAfterByline } from '../../middleware/forum/index.js';

const silent = { debug() {}, info() {}, warning() {}, error() {} };

async function viaMiddleware(url: string, html: string): Promise<Record<string, unknown>> {
  const page = createPage({ url, body: html });
  const ctx = { page, item: { url }, label: 'forum', request: { url }, timezone: undefined, log: silent } as never;
  await forumMiddleware({}).process(ctx);
  return (ctx as { item: Record<string, unknown> }).item;
}

describe('a thread of one post read as an article (issue 29 item 2)', () => {
  const body = [
    '这间次卧朝南，采光很好，楼下就是公交站，出门五分钟到地铁站，附近有超市和菜市场，生活很方便。',
    '房租每月两千出头，押一付三，水电按民用价格收，家具家电齐全，可以做饭，拎包入住，随时可以看房。',
    '室友是一位上班族，作息规律，爱干净，希望你也是安静、爱整洁、不吸烟的人，有意者请留言联系我。',
  ];
  const html = (header: string, after = '') =>
    `<html><head><title>次卧转租 - 小组</title></head><body><div id="nav"><a href="/">首页</a> <a href="/groups">小组</a></div>` +
    `<div id="content"><h1>次卧转租</h1><div class="article">${header}<div class="topic-content">${body.map((p) => `<p>${p}</p>`).join('')}</div>${after}</div></div>` +
    `<div id="footer">© 2021 example</div></body></html>`;

  it('starts the post after its byline, whose name is the author', async () => {
    const header =
      '<div class="notice">请注意甄别小组里的兼职、租房等信息，谨防诈骗。</div>' +
      '<div class="topic-doc"><h3><span class="from">来自: <a href="/people/abc/">没猫</a></span> <span class="create-time">2021-10-07 20:59:34</span></h3></div>';
    const item = await viaMiddleware('https://group.example/topic/249/', html(header));
    const posts = item.posts as Array<{ content: string; author?: string; publishedAtText?: string }>;
    expect(posts).toHaveLength(1);
    expect(posts[0]!.content.split('\n')).toEqual(body);
    expect(posts[0]!.author).toBe('没猫');
    expect(posts[0]!.publishedAtText).toBe('2021-10-07 20:59:34');
  });

  it('leaves out a closing list of dated entries (the reply tree under the post)', () => {
    const tree = ['回复：说得好 小虫 22:19:04 8/25/05 (10)', '我也这么想 大卫 20:02:45 9/12/05 (75)', '同意楼上 路人 08:01:00 9/13/05 (3)'];
    expect(postAfterByline([...body, ...tree].join('\n'), undefined).content).toBe(body.join('\n'));
    // two dated lines are not yet a list; a line with a sentence of its own stays
    expect(postAfterByline([...body, ...tree.slice(0, 2)].join('\n'), undefined).content).toBe([...body, ...tree.slice(0, 2)].join('\n'));
  });

  it('keeps the text as it is when the date line is far down or says something', () => {
    const late = [body[0]!, body[1]!, body[2]!, '以上，2021-10-07 20:59:34', body[0]!].join('\n');
    expect(postAfterByline(late, '2021-10-07 20:59:34').content).toBe(late);
    const sentence = ['2021-10-07 20:59:34 我们终于搬家了！', ...body].join('\n');
    expect(postAfterByline(sentence, '2021-10-07 20:59:34').content).toBe(sentence);
  });

  it('does not touch pages with floors', () => {
    expect(extractForum(createPage({ url: 'https://group.example/topic/249/', body: html('') }))).toBeNull();
  });
});
