import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { analysePage, extractForum, extractForumDebug, floorParts, forumMiddleware } from '../../middleware/forum/index.js';
import { lineCandidates } from '../../middleware/forum/line-features.js';
import { buildChain } from '../../src/chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../../src/chain/builtins.js';
import { processPage } from '../../src/chain/process.js';
import { MemorySiteStore } from '../../src/storage/site-store.js';
import { silentLogger } from '../../src/core/middleware.js';
import { clusterIds } from '../../middleware/forum/records.js';
import { parseHtml } from '../../src/core/page.js';
import { Element } from 'domhandler';
import { itemSchema } from '../../src/core/item.js';
import { bestTime, doublingRatio } from '../fixtures/forum-timing.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', 'fixtures', 'forum');

interface ExpectedPost {
  author?: string;
  authorUrl?: string;
  publishedAtText?: string;
  publishedAt?: string;
  floor?: number;
  isMain?: boolean;
  includes?: string[];
  excludes?: string[];
  content?: string;
  /** Replies inside the floor (comments, 楼中楼), in order; [] = none. */
  replies?: Array<{ author?: string; publishedAtText?: string; includes?: string[] }>;
}
interface Expected {
  url: string;
  fetchedAt?: string;
  charset?: string;
  title?: string;
  nextPage?: string;
  pagesCount?: number;
  posts: ExpectedPost[];
}

function load(name: string) {
  const dir = path.join(FIXTURES, name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
  const page = createPage({ url: expected.url, body: readFileSync(path.join(dir, 'page.html')), fetchedAt: expected.fetchedAt ? new Date(expected.fetchedAt) : undefined });
  return { page, expected };
}

const cases = readdirSync(FIXTURES).filter((d) => existsSync(path.join(FIXTURES, d, 'expected.json')));

describe('extractForum on board fixtures', () => {
  it('has the fixtures of every board family', () => {
    expect(cases).toEqual(expect.arrayContaining(['phpbb', 'vbulletin', 'xenforo', 'discourse', 'discuz-gbk', 'tieba-gbk', 'single-post']));
    // one per failure class of issue 18
    expect(cases).toEqual(expect.arrayContaining(['main-post-own-template', 'qa-comments', 'lou-zhong-lou', 'counters-beside-names', 'authors-without-links']));
  });

  for (const name of cases) {
    describe(name, () => {
      const { page, expected } = load(name);
      const result = extractForum(page);

      it('decodes the page', () => {
        if (expected.charset) expect(page.charset).toMatch(/gb/);
      });

      it('counts the floors exactly', () => {
        expect(result).not.toBeNull();
        expect(result!.posts.map((p) => p.content.slice(0, 40))).toHaveLength(expected.posts.length);
      });

      it('reads the thread title and pagination', () => {
        if (expected.title) expect(result!.title).toBe(expected.title);
        if (expected.nextPage) expect(result!.nextPage).toBe(expected.nextPage);
        if (expected.pagesCount) expect(result!.pages?.length).toBe(expected.pagesCount);
      });

      expected.posts.forEach((want, i) => {
        it(`floor ${i + 1}: author, time, content`, () => {
          const got = result!.posts[i]!;
          if (want.author !== undefined) expect(got.author).toBe(want.author);
          if (want.authorUrl !== undefined) expect(got.authorUrl).toBe(want.authorUrl);
          if (want.publishedAtText !== undefined) expect(got.publishedAtText).toBe(want.publishedAtText);
          if (want.publishedAt !== undefined) expect(Date.parse(got.publishedAt ?? '')).toBe(Date.parse(want.publishedAt));
          if (got.publishedAt) expect(got.publishedAt).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
          if (want.floor !== undefined) expect(got.floor).toBe(want.floor);
          if (want.isMain !== undefined) expect(got.isMain).toBe(want.isMain);
          if (want.content !== undefined) expect(got.content).toBe(want.content);
          for (const s of want.includes ?? []) expect(got.content).toContain(s);
          for (const s of want.excludes ?? []) expect(got.content).not.toContain(s);
          if (want.replies) {
            const reps = got.replies ?? [];
            expect(reps.map((r) => r.author)).toEqual(want.replies.map((r) => r.author ?? expect.anything()));
            want.replies.forEach((w, k) => {
              if (w.publishedAtText !== undefined) expect(reps[k]!.publishedAtText).toBe(w.publishedAtText);
              for (const s of w.includes ?? []) expect(reps[k]!.content).toContain(s);
              // a reply's text is its own, not its floor's
              for (const s of w.includes ?? []) expect(got.content).not.toContain(s);
            });
          }
        });
      });
    });
  }
});

describe('floors and their parts', () => {
  it('keeps quoted posts inside the floor that quotes them', () => {
    const { page } = load('phpbb');
    const posts = extractForum(page)!.posts;
    expect(posts).toHaveLength(4);
    expect(posts[1]!.content).toContain('alice wrote:');
    expect(posts[1]!.author).toBe('bob');
    // the quote did not become a floor of its own
    expect(posts.filter((p) => p.content.trim() === 'alice wrote: I tried the LTS kernel and it works fine, so the regression must be recent.')).toHaveLength(0);
  });

  it('keeps "floor within a floor" comments inside their floor (Tieba 楼中楼)', () => {
    const { page } = load('tieba-gbk');
    const posts = extractForum(page)!.posts;
    expect(posts).toHaveLength(3);
    expect(posts[1]!.publishedAtText).toBe('2017-01-09 16:10');
    expect(posts.some((p) => p.author === '山野行者' && p.content.includes('东线大概要走多久'))).toBe(false);
  });

  it('drops signatures, buttons and user panels', () => {
    for (const name of ['phpbb', 'xenforo', 'vbulletin', 'discuz-gbk']) {
      const { page } = load(name);
      for (const p of extractForum(page)!.posts) {
        expect(p.content).not.toMatch(/Keep it simple|Leave no trace|Work in progress|生命在于折腾|Reply With Quote|Joined|注册时间/);
      }
    }
  });

  it('ignores the footer clock (system time)', () => {
    const { page } = load('discuz-gbk');
    const dates = extractForum(page)!.posts.map((p) => p.publishedAtText);
    expect(dates).not.toContain('2017-1-10 09:12');
  });

  it('resolves relative times against the fetch time in the page zone', () => {
    const { page } = load('tieba-gbk');
    const p = extractForum(page)!.posts[2]!;
    expect(p.publishedAtText).toBe('3小时前');
    expect(p.publishedAt).toBe('2017-01-09T17:00:00+08:00');
  });

  it('honours an explicit timezone option', () => {
    const { page } = load('phpbb');
    const p = extractForum(page, { timezone: 'Europe/Berlin' })!.posts[0]!;
    expect(p.publishedAt).toBe('2012-03-21T13:33:00+01:00');
  });
});

describe('main post', () => {
  it('is not claimed on a later page of the thread', () => {
    const { expected } = load('phpbb');
    const html = readFileSync(path.join(FIXTURES, 'phpbb', 'page.html'), 'utf8').replace(/<div class="pagination">[\s\S]*?<\/div>/, '');
    const later = extractForum(createPage({ url: expected.url + '&start=4', body: html }))!;
    expect(later.posts.some((p) => p.isMain)).toBe(false);
    const first = extractForum(createPage({ url: expected.url, body: html }))!;
    expect(first.posts[0]!.isMain).toBe(true);
  });
});

describe('main post before the floors (question, submission)', () => {
  // A question between the thread's title and its answers, its body rendered as the answers'
  // bodies are (the floor model's main-post scorer: text between the title and the floors, the
  // floors' body template).
  const answer = (i: number, text: string) =>
    `<li class="answer-item"><div class="meta"><a href="/people/u${i}">user${i}</a> <span class="time">2021-05-0${i} 1${i}:30</span></div>` +
    `<div class="rich-text">${text}</div><div class="actions"><a href="#">Like</a> <a href="#">Share</a></div></li>`;
  const texts = [1, 2, 3, 4].map((i) => `Answer ${i}: this is how we did it at home, step by step. It took ${i} weeks, and it worked well enough for us.`);
  const html =
    `<html><head><title>How do you keep bread fresh for a week? - Ask</title></head><body><div id="top"><a href="/">Ask</a> <a href="/login">Log in</a></div>` +
    `<div class="question-page"><h1>How do you keep bread fresh for a week?</h1>` +
    `<div class="question-detail"><div class="rich-text">We bake twice a week, and the bread goes stale after two days. We tried a cloth bag, a tin box and the fridge. What works for you, and why does it work? Does the kind of flour matter, or only how the loaf is kept?</div></div>` +
    `<ul class="answers">${texts.map((t, i) => answer(i + 1, t)).join('')}</ul></div></body></html>`;

  it('takes the question as the main post, the answers as the floors', () => {
    const r = extractForum(createPage({ url: 'https://ask.example.org/q/42', body: html }))!;
    expect(r.posts.map((p) => p.isMain)).toEqual([true, false, false, false, false]);
    expect(r.posts[0]!.content).toContain('We bake twice a week');
    expect(r.posts.slice(1).map((p) => p.author)).toEqual(['user1', 'user2', 'user3', 'user4']);
  });
});

describe('pages that are not threads', () => {
  it('returns null for a news article with a dated sidebar', () => {
    const html = readFileSync(path.join(FIXTURES, 'not-forum', 'page.html'));
    expect(extractForum(createPage({ url: 'https://news.example.com/a', body: html }))).toBeNull();
  });

  it('returns null for a list of threads (rows with titles, authors and dates, but no sentences)', () => {
    const html = readFileSync(path.join(FIXTURES, 'thread-list', 'page.html'));
    expect(extractForum(createPage({ url: 'https://forum.example.org/viewforum.php?f=3', body: html }))).toBeNull();
  });

  it('returns null for empty, undated and binary input', () => {
    expect(extractForum(createPage({ url: 'https://x.example/', body: '' }))).toBeNull();
    expect(extractForum(createPage({ url: 'https://x.example/', body: '<html><body><p>Hello, world. No dates here.</p></body></html>' }))).toBeNull();
    expect(extractForum(createPage({ url: 'https://x.example/', body: '<div>' + 'x'.repeat(10) + '</div>' }))).toBeNull();
  });

  it('does not overflow on 10,000-deep nesting', () => {
    const deep = '<div>'.repeat(10_000) + 'Posted 2020-01-01 10:00 by a, hello there.' + '</div>'.repeat(10_000);
    expect(() => extractForum(createPage({ url: 'https://x.example/', body: deep }))).not.toThrow();
  });
});

describe('scale', () => {
  it('splits a 1,000-post page (linear work: finishes well within the test timeout)', () => {
    const posts: string[] = [];
    for (let i = 1; i <= 1000; i++) {
      const day = String(1 + (Math.floor(i / 50) % 28)).padStart(2, '0');
      posts.push(
        `<div id="p${1000 + i}" class="post bg${(i % 2) + 1}"><dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&amp;u=${i % 37}">user${i % 37}</a></dt><dd>Posts: ${i}</dd></dl>` +
          `<div class="postbody"><p class="author">by <a href="./memberlist.php?mode=viewprofile&amp;u=${i % 37}">user${i % 37}</a> » 2020-03-${day} 10:${String(i % 60).padStart(2, '0')}</p>` +
          `<div class="content">Reply number ${i}, with a sentence of text. And a second one, for good measure.</div></div></div>`,
      );
    }
    const html = `<html><head><title>Long thread</title></head><body><h1>Long thread</h1><div id="posts">${posts.join('\n')}</div></body></html>`;
    const page = createPage({ url: 'https://big.example/viewtopic.php?t=1', body: html });
    const r = extractForumDebug(page)!;
    expect(r.posts).toHaveLength(1000);
    expect(r.posts[999]!.content).toBe('Reply number 1000, with a sentence of text. And a second one, for good measure.');
    expect(r.posts[999]!.author).toBe(`user${1000 % 37}`);
  });
});

describe('linear in siblings (issue 24)', () => {
  it('takes at most 2.5× the time for twice the siblings (50,000 dated paragraphs)', () => {
    const html = (n: number) => `<html><body><div>${Array.from({ length: n }, (_, i) => `<p>2020-01-0${1 + (i % 9)} 10:00 a reply, with text.</p>`).join('')}</div></body></html>`;
    bestTime(html(5_000), 1);
    expect(doublingRatio(html(25_000), html(50_000), 1)).toBeLessThanOrEqual(2.5);
  }, 90_000);
});

describe('quotes with dates', () => {
  it('keeps floors whose quoted posts carry their own dates (nested quotes too)', () => {
    const q = (d: number, i: number): string =>
      d === 0 ? `the quoted words of post ${i}, in a sentence.` : `<blockquote class="quote"><cite>u${(i + d) % 9} wrote on 2020-01-01 10:0${d}:</cite>${q(d - 1, i)}</blockquote>`;
    const html =
      '<html><head><title>Quotes</title></head><body><div id="posts">' +
      Array.from({ length: 20 }, (_, i) => `<div class="post" id="p${i}"><a href="/members/u${i % 9}.1/">u${i % 9}</a> <span class="date">2020-02-${String(i + 1).padStart(2, '0')} 11:00</span><div class="body">${q(3, i)} My reply, number ${i}.</div></div>`).join('') +
      '</div></body></html>';
    const posts = extractForum(createPage({ url: 'https://q.example/t/1', body: html }))!.posts;
    expect(posts).toHaveLength(20);
    expect(posts[4]!.publishedAtText).toBe('2020-02-05 11:00');
    expect(posts[4]!.content).toContain('u7 wrote on 2020-01-01 10:03:');
    expect(posts[4]!.content).toContain('the quoted words of post 4, in a sentence.');
    expect(posts[4]!.content).toContain('My reply, number 4.');
  });
});

describe('the list stage (issue 29)', () => {
  const floor = (i: number, extra = ''): string =>
    `<div class="item"><a class="name" href="/member/u${i}">user${i}</a> <span class="time">2024-03-${String(i + 1).padStart(2, '0')} 10:00</span>${extra}<div class="body">Reply number ${i}, with a sentence of its own.</div></div>`;
  it('drops a record of the floors\' markup that names no author where all the others do (an ad in the stream)', () => {
    const ad = '<div class="item"><span class="time">2024-03-07 12:00</span><div class="body">Cheap flights to the islands, book now and save.</div></div>';
    const html = `<html><head><title>A thread</title></head><body><h1>A thread</h1><div id="list">${Array.from({ length: 12 }, (_, i) => floor(i) + (i === 5 ? ad : '')).join('')}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://ads.example/t/1', body: html }))!.posts;
    expect(posts).toHaveLength(12);
    expect(posts.map((p) => p.author)).toEqual(Array.from({ length: 12 }, (_, i) => `user${i}`));
    expect(posts.some((p) => p.content.includes('Cheap flights'))).toBe(false);
  });
  it('keeps a structural list whole when a dated box every few floors cuts header spans across it', () => {
    const box = (k: number) => `<div class="promo"><div class="promo-footer">2024-04-0${k} 09:00</div><p>Sponsored.</p></div>`;
    const html = `<html><head><title>Long thread</title></head><body><h1>Long thread</h1><div id="list">${Array.from({ length: 24 }, (_, i) => floor(i % 28) + (i % 8 === 7 ? box(1 + ((i / 8) | 0)) : '')).join('')}</div></body></html>`;
    const r = extractForumDebug(createPage({ url: 'https://promo.example/t/2', body: html }), { model: null })!;
    expect(r.posts).toHaveLength(24);
    expect(r.posts[10]!.author).toBe('user10');
    // The floors are the list's elements, not spans between dates.
    expect(r.records.every((rec) => rec.roots[0]?.attribs.class === 'item')).toBe(true);
  });
  it('takes the answers, not the comment box each of them holds, as the floors', () => {
    const comments = (k: number) => `<div class="comments" id="comments-${k}"><ul><li class="comment"><a href="/users/c${k}">c${k}</a> <span class="date">2024-05-0${k + 2} 08:00</span> A short comment on post ${k}, fine.</li></ul></div>`;
    const post = (k: number, cls: string, text: string) => `<div class="${cls}" id="${cls}-${k}"><div class="body">${text}</div><div class="sig"><a href="/users/a${k}">a${k}</a> <span class="date">2024-05-01 1${k}:00</span></div>${comments(k)}</div>`;
    const answers = [1, 2, 3, 4].map((k) => post(k, 'answer', `Answer ${k}: the way to do it is this, and here is a longer explanation of why it works in every case you asked about.`)).join('');
    const html = `<html><head><title>How to do it</title></head><body><h1>How to do it</h1>${post(0, 'question', 'How do I do it? I tried several things and none of them worked, so here is what I tried.')}<div id="answers">${answers}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://qa.example/q/1', body: html }), { model: null })!.posts;
    const answerPosts = posts.filter((p) => p.content.startsWith('Answer'));
    expect(answerPosts.map((p) => p.author)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(posts.some((p) => p.author?.startsWith('c'))).toBe(false);
  });
  it('reads the name, not a user panel of level and points whose class also says "user"', () => {
    const floor = (i: number) =>
      `<section class="post"><div class="side"><div class="c-user"><div class="c-user__side"><div class="usericon"><span>LV.</span> ${10 + i}</div><div class="usericon"><span>GP</span> ${i * 7}</div></div>` +
      `<a class="c-user__avatar" href="//home.example/p${i}"><img src="a.png"></a></div></div><div class="main"><div class="post-header"><a class="floor" href="?f=${i + 1}">${i + 1} 樓</a> ` +
      `<a class="username" href="//home.example/p${i}">玩家${i}号</a> <a class="userid" href="//home.example/p${i}">p${i}</a></div><div class="post-info"><a class="edittime" href="#">2017-09-11 16:${String(10 + i).padStart(2, '0')}:00</a></div>` +
      `<div class="post-body"><article><div class="content">第${i}楼的回复，说了一句完整的话。<br>我中午才到旁边送东西，看到这个消息很惊讶。<br>大家怎么看？</div></article></div></div></section>`;
    const html = `<html><head><title>討論串</title></head><body><h1>討論串</h1><div id="posts">${Array.from({ length: 6 }, (_, i) => floor(i)).join('')}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://bbs.example/thread/9', body: html }))!.posts;
    expect(posts.map((p) => p.author)).toEqual(Array.from({ length: 6 }, (_, i) => `玩家${i}号`));
  });
  it('takes a submission that shows the thread title as a link as the main post, not a dated sidebar before it', () => {
    const title = 'Why the lighthouse keeper left the island';
    const sidebar = '<div class="side"><p>this post was submitted on 2024-03-01 08:00 by <a href="user?id=mod">mod</a>, and the rules of this community say: be kind, stay on topic.</p></div>';
    const submission = `<div class="thing"><p class="title"><a href="https://elsewhere.example/story">${title}</a> (elsewhere.example)</p><a href="user?id=op">op</a> <span class="time">2024-03-01 09:00</span><div class="body">The story, in my words: he left because the light was automated.</div></div>`;
    const comments = Array.from({ length: 6 }, (_, i) => `<div class="thing"><a href="user?id=c${i}">c${i}</a> <span class="time">2024-03-01 1${i}:00</span><div class="body">Comment ${i}, which says something.</div></div>`).join('');
    const html = `<html><head><title>${title} : stories</title></head><body>${sidebar}<div id="site">${submission}${comments}</div></body></html>`;
    const posts = extractForum(createPage({ url: 'https://comments.example/r/stories/1', body: html }))!.posts;
    expect(posts).toHaveLength(7);
    expect(posts[0]!.content).toContain('he left because the light was automated');
    expect(posts[0]!.author).toBe('op');
    expect(posts.some((p) => p.content.includes('rules of this community'))).toBe(false);
  });
});

describe('line features of the floor model (issue 29)', () => {
  it('marks a footer line beside the date, a control\'s text and an icon-led line', () => {
    const floor = (i: number) =>
      `<div class="l_post"><div class="side"><a class="name" href="/home/u${i}">用户${i}</a></div><div class="main"><div class="body">第${i}楼：我觉得这件事情没有那么简单，大家怎么看？` +
      `<div class="tip"><i class="icon-expand"></i>点击展开，查看完整图片</div></div>` +
      `<div class="tail"><span>IP属地:省份${i}</span><a href="###" class="report"><img src="r.png"></a><span>${i + 1}楼</span><span>2024-08-05 1${i}:00</span><div class="more"><a href="#">回复(${i + 3})</a></div></div></div></div>`;
    const html = `<html><head><title>一个帖子</title></head><body><h1>一个帖子</h1><div id="posts">${Array.from({ length: 6 }, (_, i) => floor(i)).join('')}</div></body></html>`;
    const page = createPage({ url: 'https://bbs.example/p/3', body: html });
    const r = extractForumDebug(page, { model: null })!;
    expect(r.records).toHaveLength(6);
    const { ix, anchors } = analysePage(page);
    const parts = floorParts(ix, r.records, anchors);
    const cands = lineCandidates(ix, r.records, parts.content, parts.ruleLines, parts.dates, parts.authors)[2]!;
    const line = (t: string) => cands.find((c) => (c.line.text ?? ix.segments[c.line.k]!.text).includes(t))!.f;
    expect(line('IP属地').has('dateNear')).toBe(true);
    expect(line('回复(5)').has('control')).toBe(true);
    expect(line('点击展开').has('icon')).toBe(true);
    const body = line('我觉得这件事情');
    expect(['dateNear', 'control', 'icon'].some((k) => body.has(k))).toBe(false);
  });
});

describe('id clustering (seed 003)', () => {
  it('groups linear post ids and separates an outlier', () => {
    const doc = parseHtml('<div id="post_101"></div><div id="post_102"></div><div id="post_104"></div><div id="post_9000"></div><div id="nav1"></div>');
    const els = doc.children.filter((c): c is Element => c instanceof Element);
    const clusters = clusterIds(els).map((c) => c.map((e) => e.attribs.id));
    expect(clusters).toContainEqual(['post_101', 'post_102', 'post_104']);
    expect(clusters).toContainEqual(['post_9000']);
  });
});

describe('forumMiddleware', () => {
  it('fills the item of a forum page', async () => {
    const { page } = load('xenforo');
    const mw = forumMiddleware({});
    const ctx = { page, item: { url: page.url }, label: 'forum', request: { url: page.url }, timezone: undefined, log: { debug() {}, info() {}, warning() {}, error() {} } } as never;
    await mw.process(ctx);
    const item = (ctx as { item: Record<string, unknown> }).item;
    expect(item.kind).toBe('forum');
    expect((item.posts as unknown[]).length).toBe(3);
    // the item contract (ARCHITECTURE §4) holds
    expect(() => itemSchema.parse(JSON.parse(JSON.stringify(item)))).not.toThrow();
    expect(item.nextPage).toBe('https://trails.example.com/threads/best-route.777/page-2');
  });

  it('leaves pages of other kinds alone, and honours a request label', async () => {
    const { page } = load('xenforo');
    // the forum stage as the built-in table registers it (kinds: forum), without the classifier
    const chain = buildChain({ forum: BUILTIN_MIDDLEWARE.forum! }, {}, silentLogger);
    const run = (label: string) => processPage(page, { url: page.url, label }, { spider: 'test', chain, store: new MemorySiteStore(), log: silentLogger });
    expect((await run('detail')).item.kind).toBeUndefined();
    expect((await run('forum')).item.kind).toBe('forum');
  });
});

describe('floors without element structure', () => {
  const page = (floor: (who: string, when: string, text: string) => string) =>
    createPage({
      url: 'https://old.example/board',
      body:
        '<html><head><title>Old board</title></head><body><table><tr><td class="main">' +
        floor('alice', '2019-05-01 10:00', 'First post text, with a sentence about the old board.') +
        floor('bob', '2019-05-01 11:00', 'Second post, also written as a sentence. It has two.') +
        floor('carol', '2019-05-02 09:30', 'Third post: I agree with both of you, thanks.') +
        '</td></tr></table></body></html>',
    });
  const texts = [
    'First post text, with a sentence about the old board.',
    'Second post, also written as a sentence. It has two.',
    'Third post: I agree with both of you, thanks.',
  ];

  it('reads floors whose text sits between repeated rows of a flat cell', () => {
    const r = extractForumDebug(page((who, when, text) => `<a href="/profile.php?id=${who}">${who}</a> ${when}<br>${text}<br><br><hr>`))!;
    expect(r.posts.map((p) => p.content)).toEqual(texts);
    expect(r.posts.map((p) => p.author)).toEqual(['alice', 'bob', 'carol']);
  });

  it('falls back to differential peak clustering (seed 000) for plain text floors', () => {
    const r = extractForumDebug(page((who, when, text) => `${who} ${when}<br>${text}<br><br><hr><br>`))!;
    expect(r.records.every((x) => x.via === 'peaks')).toBe(true);
    expect(r.posts.map((p) => p.content)).toEqual(texts);
    expect(r.posts.map((p) => p.publishedAtText)).toEqual(['2019-05-01 10:00', '2019-05-01 11:00', '2019-05-02 09:30']);
  });
});
