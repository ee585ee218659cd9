import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { ownText } from '../../src/core/item.js';
import { extractForum, forumMiddleware } from '../../middleware/forum/index.js';

const silent = { debug() {}, info() {}, warning() {}, error() {} };
import { selfNamedLink } from '../../middleware/forum/fields.js';

/** An old board's floor: a user panel cell, then a cell holding a header row (buttons, floor
 * number), the body, and a signature row below — body and signature both plain `<td>`s, the
 * signature often richer in punctuation than a short reply. */
function oldBoard(bodies: string[], signatures: string[]): string {
  const names = ['一种循环', 'kmcool', '我是囧人', '孔明', 'wayn', '断了的弦'];
  const floor = (i: number) =>
    `<a name="pid${100 + i}"></a><table class="tableborder" width="97%"><tr><td><table width="100%"><tr>` +
    `<td class="tablerow" width="21%"><fieldset><legend><b>${names[i % names.length]}</b></legend>发帖: ${100 + i * 7} 篇<br>积分: ${i} 分</fieldset></td>` +
    `<td><table width="100%"><tr><td valign="top"><table width="100%"><tr><td><a href="athread-${i}.html">只看此用户</a></td><td><a onclick="big(${i})">大字体</a></td><td>${i + 1} 楼</td></tr></table>` +
    `<div id="pm_${100 + i}" class="t_smallfont">${bodies[i]}</div></td></tr>` +
    `<tr><td valign="bottom">${signatures[i]}</td></tr></table></td></tr>` +
    `<tr><td class="smalltxt">2014-7-21 10:${10 + i} AM</td><td><a href="profile-uid-${i}.html">查看资料</a></td></tr></table></td></tr></table>`;
  return `<html><head><title>求解惑 - 论坛</title></head><body><h1>求解惑</h1>${bodies.map((_, i) => floor(i)).join('')}</body></html>`;
}

describe('reach of the body inside a floor (issue 29, round 7)', () => {
  const words = ['endanger vt. 危及, 使遭危险', 'fragment n. 碎片, 断片, 片段', 'variety n. 变化, 多样性, 种种', 'patent n. 专利权, 执照, 专利品', 'even adj. 平的, 平滑的, 偶数的', 'appreciate vt. 赏识, 鉴赏, 感激'];
  const sig = (i: number) => `灌水背单词: ${words[i]}<br>Being a Permanent head Damage`;

  it('takes the body row at the place the floors hold their text, not a richer signature row', () => {
    const bodies = [
      // (An opening post of some length, as threads have: the template's body row is where most
      // of the thread's sentences are.)
      'BF个性很犟，很内向。我们在一起超过5年了，但是最近2年多是异地。以前感觉他非常老实，虽然外向，但是基本上很规矩，所以非常信任他。我们最近有8个月没有见面，中间我多次要求他到我这边来玩，结果都被推脱。' +
        '感恩节期间我在他那边发现他注册了很多邮箱，而且在网上聊天发照片，还有交友。一开始，我没有确切的证据。我试图找他好好谈谈，并且一再表示即使出轨了我也能原谅，咱们好好沟通就行。但是他很不耐烦，一口咬定没有，只是看看。' +
        '如果我追问细节，比如要看他手机，他就翻脸，要和我分手。我因为喜欢他，所以委曲求全了，没有追问，而且还表示过去的事让它过去。大家怎么看？请不要灌水，说些有意义的看法。',
      '撸点何在。。。',
      '软文',
      'hookup不就是约炮么',
      '很多白人小帅哥',
      '天天都见维权 原谅我撸点提高太快',
    ];
    const posts = extractForum(createPage({ url: 'http://bbs.example/thread-1-1-1.html', body: oldBoard(bodies, bodies.map((_, i) => sig(i))) }))!.posts;
    expect(posts).toHaveLength(6);
    // (The header row's "2 楼" is the line scorer's to drop: here the body row is what is asked.)
    expect(posts.slice(1).map((p) => p.content.split('\n').pop())).toEqual(bodies.slice(1));
    expect(posts[0]!.content).toContain('大家怎么看？');
    for (const p of posts) expect(p.content).not.toContain('灌水背单词');
  });

  it('reads a quote without quote markup (a nested table repeating an earlier floor) as a quote', () => {
    const quote = (who: string, when: string, said: string) =>
      `<br><center><table width="95%"><tr><td>&nbsp;&nbsp;引用[<a href="redirect.php?goto=findpost">查看原帖</a>]:</td></tr><tr><td><table width="100%"><tr><td><b>${who}</b> ${when}<br>${said}</td></tr></table></td></tr></table></center><br>`;
    const bodies = [
      '我们最近有8个月没有见面，中间我多次要求他到我这边来玩，结果都被推脱。大家怎么看？',
      '撸点何在。。。',
      `${quote('kmcool', '2014-7-21 10:11 AM', '撸点何在。。。')}`,
      `${quote('kmcool', '2014-7-21 10:11 AM', '撸点何在。。。')}hookup`,
      '很多白人小帅哥……',
      `${quote('断了的弦', '2014-7-21 10:14 AM', '很多白人小帅哥……')}原谅我撸点提高太快`,
    ];
    const posts = extractForum(createPage({ url: 'http://bbs.example/thread-2-1-1.html', body: oldBoard(bodies, bodies.map(() => '')) }))!.posts;
    expect(posts).toHaveLength(6);
    expect(posts.map((p) => ownText(p))).toEqual([bodies[0], '撸点何在。。。', '', 'hookup', '很多白人小帅哥……', '原谅我撸点提高太快']);
    expect(posts[3]!.quotes?.join('\n')).toContain('撸点何在。。。');
    // (A short reply that repeats an earlier one, with no header above it, is no quote.)
    expect(posts[1]!.quotes).toBeUndefined();
  });

  it('reads a short reply without punctuation from the slot the other floors hold theirs in', () => {
    const said = ['◎译名 太行山上。◎年代 2005，◎国家 中国，◎类别 剧情，◎语言 普通话。◎字幕 中文，◎文件格式 RMVB，◎文件大小 2CD。◎片长 112 Min，◎导演 韦廉。简介：影片讲述了抗战初期的故事，气势恢宏，场面壮观，值得一看！下载地址见附件，请大家多多支持，谢谢！', '呵呵好啊', '支持一下', '找了好几天了，谢谢啊！', '没得', '辛苦了，楼主好人。'];
    const floor = (i: number) =>
      `<div class="floor"><div class="floor-head">楼层： 第 ${i + 1} 楼 时间：2005-08-2${i} 20:59:54</div></div>` +
      // (The opening post in a template of its own, as boards show the first post.)
      (i === 0
        ? `<div class="floor-body"><div><div class="rich"><table class="tooltipbg"><tbody><tr class="row"><td>${said[i]}</td></tr></tbody></table></div></div></div>`
        : `<div class="floor-body"><table width="100%"><tr><td width="140">作者： <a href="/new/list_user.php?userid=u${i}">会员${i}</a><br>秀才<br>能力值:${127 * (i + 1)}</td>` +
          `<td><table width="100%"><tr><td colspan="2">${said[i]}</td></tr><tr><td><img src="line.gif"></td></tr><tr><td><a href="javascript:ask(${i})">回复</a> <a href="/books?u=${i}">文章</a></td></tr></table></td></tr></table></div>`);
    const html = `<html><head><title>下载 - 论坛</title></head><body><h1>下载</h1>${said.map((_, i) => floor(i)).join('')}</body></html>`;
    const posts = extractForum(createPage({ url: 'http://bbs.example/view.php?id=3', body: html }))!.posts;
    expect(posts.map((p) => p.content)).toEqual(said);
  });

  it('cuts a signature under a rule line that every floor shows', () => {
    const said = ['不得不承认，如果没有她在戛纳封后，就很少有人会去关注这部法国电影。但是当你为了她而去看这部电影，恐怕又进入了另一个误区。', '如果不是他，如果没有她，如果交给王家卫，又会怎么样呢？', '王家衛不適合吧', '很喜欢片中迷离的音乐，与城市的妖艳相衬托。影片最后，我还是不知道她清洁了什么。'];
    const sigs = ['一只猪挺难的', 'You think it is perfect', '要有多坚强，才能对你念念不忘？', '我本浮云命'];
    const floor = (i: number) =>
      `<table width="100%"><tr><td class="p4">主题</td></tr><tr><td class="p4"><a href="user.php?lookuserid=${i}">网友${i}</a></td>` +
      `<td class="p4">${said[i]}<p>------------------------------<p>${sigs[i]}<p>〓 留言板 发布时间 2005/05/1${i} 14:47:54 by <a href="user.php?lookuserid=${i}">网友${i}</a> 〓</td></tr></table>`;
    const html = `<html><head><title>清洁 - 留言板</title></head><body>${said.map((_, i) => floor(i)).join('')}</body></html>`;
    const posts = extractForum(createPage({ url: 'http://bbs.example/forum.php?id=4', body: html }))!.posts;
    expect(posts.map((p) => p.content)).toEqual(said);
  });
});

describe('comment streams whose name carries a badge image (issue 29, round 7)', () => {
  it('reads what each commenter said, not the name line the badge cuts off, nor the controls', () => {
    const people = ['清晨_love', '仙气女girl', '·-_-·', 'PEIQI要努力', '酒窝小吴', '比较擅长开心', '酒窝小吴', '比较擅长开心'];
    const said = ['老子就是因为不想上课这辈子才投生做猫的！', '不拿猫，你们会看屏幕？', '大家别一直光盯着猫 看看黑板！', '回复@酒窝小吴:好像是！', '回复@比较擅长开心:我还跟老师告过他', '回复@酒窝小吴:被惹他，小心点', '回复@比较擅长开心:我没见过他妈，', '回复@酒窝小吴:几班的？'];
    // Members with a badge: an <img> after the name (the page model reads an image as a block).
    const badge = (i: number) => (i % 2 === 0 ? '<img src="https://img.example/donate.png" alt="M" />' : '');
    const item = (i: number) =>
      `<div class="c" id="C_${4000 + i}">${i < 3 ? '<span class="kt">[热门]</span>' : ''}<a href="/u/${7000 + i}">${people[i]}</a>${badge(i)}:<span class="ctt">${said[i]}</span>` +
      `&nbsp;<a href="/spam/?cid=${4000 + i}">举报</a>&nbsp;<span class="cc"><a href="/attitude/${i}">赞[${i * 3}]</a></span>&nbsp;<span class="cc"><a href="/comments/reply/${i}">回复</a></span>&nbsp;<span class="ct">06月0${i + 1}日 1${i}:02&nbsp;来自网页</span></div><div class="s"></div>`;
    const html = `<html><head><title>评论列表</title></head><body><div class="c">评论[1891]</div>${people.map((_, i) => item(i)).join('')}</body></html>`;
    const posts = extractForum(createPage({ url: 'https://weibo.example/comment/IEY7', body: html }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(people);
    expect(posts.map((p) => p.content)).toEqual(said);
  });
});

describe('profile links that name themselves (issue 29, round 7)', () => {
  it('knows a link whose text is the key of the page it leads to, on the page\'s own host', () => {
    const page = 'http://bbs.example/message/read_1.html';
    expect(selfNamedLink('cjy52191', 'http://bbs.example/people?u=cjy52191%23bl&source=nickname', page)).toBe(true);
    expect(selfNamedLink('alice', 'http://bbs.example/~alice', page)).toBe(true);
    expect(selfNamedLink('alice', 'http://bbs.example/u/alice', page)).toBe(true);
    // Another host (a dictionary in a signature), a number, a sentence, a link to something else.
    expect(selfNamedLink('endanger', 'http://dict.example/xdict.php?word=endanger', page)).toBe(false);
    expect(selfNamedLink('12', 'http://bbs.example/page/12', page)).toBe(false);
    expect(selfNamedLink('read more', 'http://bbs.example/read more', page)).toBe(false);
    expect(selfNamedLink('alice', 'http://bbs.example/people?u=bob', page)).toBe(false);
  });

  it('names the author of a one-post page from such a link beside the post', async () => {
    const html =
      `<html><head><title>能量与物质 - 论坛</title></head><body><table><tr><td><a href="http://bbs.example/people?u=cjy52191%23bl&amp;source=nickname"><b>cjy52191</b></a><br>级别：入学了<br>积分：235<br>` +
      `<a href="http://bbs.example/people?u=cjy52191%23bl&amp;source=placards" class="mlinka">看我还写了啥？</a></td>` +
      `<td><div class="title">能量与物质</div><div class="time">2005-09-11 18:04:42</div><div class="msg">一个中子撞击铀原子时，铀原子变成了两三个中子，连锁反应发生了。这些获得动能的中子不停的分裂撞击铀原子，最后巨大的能量产生了。物质就是能量，但前提是必须施加外力。于是很小的力就可以变成巨大的力，这也是有条件的，那就是物质本身的存在。不过宇宙中的能量又是从哪里来的？似乎宇宙本身就是物质和能量的转化过程的混合体。</div></td></tr></table></body></html>`;
    const page = createPage({ url: 'http://bbs.example/message/read_1.html', body: html });
    // (No floors: the middleware reads the page's main text as its one post.)
    expect(extractForum(page)).toBeNull();
    const ctx = { page, item: { url: page.url }, label: 'forum', request: { url: page.url }, timezone: undefined, log: silent } as never;
    await forumMiddleware({}).process(ctx);
    const posts = (ctx as { item: { posts: Array<{ author?: string; authorUrl?: string; content: string }> } }).item.posts;
    expect(posts).toHaveLength(1);
    expect(posts[0]!.content).toContain('一个中子撞击铀原子时');
    expect(posts[0]!.author).toBe('cjy52191');
    expect(posts[0]!.authorUrl).toBe('http://bbs.example/people?u=cjy52191%23bl&source=nickname');
  });
});

describe('link submissions above their comments (issue 29, round 7)', () => {
  const comments = [
    ['gulbrandr', '1 hour ago', 'Please do not post links with tracking junk in the URL.'],
    ['richbradshaw', '2 hours ago', 'For some reason I read that as if there was a page on Google called Larry. I don\'t feel too bad!'],
    ['kbenson', '2 hours ago', 'Interesting read, though the interview is mostly about self-driving cars.'],
    ['aresant', '2 hours ago', 'He has been saying the same thing for years, and it keeps coming true.'],
  ];
  const page = (submissionAgo: string) =>
    `<html><head><title>The future according to Larry Page | Hacker News</title></head><body><center><table id="hnmain">` +
    `<tr><td><table><tr><td class="title"><a href="https://news.example.com/2013/01/page-interview/">The future according to Larry Page</a> <span class="comhead">(news.example.com)</span></td></tr>` +
    `<tr><td class="subtext">42 points by <a href="user?id=Libertatea">Libertatea</a> ${submissionAgo} | <a href="item?id=5002483">${comments.length} comments</a></td></tr></table>` +
    `<form method="post" action="comment"><textarea name="text"></textarea><input type="submit" value="add comment"></form></td></tr>` +
    `<tr><td><table>${comments
      .map(([who, when, said], i) => `<tr><td><table><tr><td><img src="s.gif" width="${(i % 2) * 40}"></td><td class="default"><div><span class="comhead"><a href="user?id=${who}">${who}</a> ${when} | <a href="item?id=${600 + i}">link</a></span></div><span class="comment"><font>${said}</font></span><p><font size="1"><u><a href="reply?id=${600 + i}">reply</a></u></font></p></td></tr></table></td></tr>`)
      .join('')}</table></td></tr></table></center></body></html>`;

  it('takes the submission (the title linking out, its poster, an earlier time) as the main post', () => {
    const posts = extractForum(createPage({ url: 'https://news.example.org/item?id=5002483', body: page('3 hours ago') }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(['Libertatea', ...comments.map((c) => c[0])]);
    expect(posts[0]!.isMain).toBe(true);
    expect(posts[0]!.content).toContain('The future according to Larry Page');
    expect(posts.slice(1).map((p) => p.content)).toEqual(comments.map((c) => c[2]));
  });
});
