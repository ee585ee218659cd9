import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { Extractor } from '../../src/chain/extractor.js';
import { itemSchema } from '../../src/core/item.js';
import { extractArticle, cutSiteName, longestCommonSubstring } from '../../middleware/article/index.js';

const articleExtractor = () => new Extractor({ kind: 'article' });

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', 'fixtures', 'article');

interface Expected {
  title?: string;
  author?: string | null;
  publishedAt?: string;
  publishedAtText?: string;
  lang?: string;
  fetchedAt?: string;
  contentIncludes?: string[];
  contentExcludes?: string[];
  images?: string[];
}

function load(name: string, url = 'https://blog.example.org/2021/04/post.html') {
  const dir = path.join(FIXTURES, name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
  const body = readFileSync(path.join(dir, 'page.html'));
  const fetchedAt = new Date(expected.fetchedAt ?? '2026-11-30T12:00:00Z');
  return { page: createPage({ url, body, fetchedAt }), expected, body, fetchedAt };
}

function checkFixture(name: string) {
  const { page, expected } = load(name);
  const a = extractArticle(page);
  expect(a).not.toBeNull();
  if (expected.title !== undefined) expect(a!.title).toBe(expected.title);
  if (expected.author !== undefined) expect(a!.author ?? null).toBe(expected.author);
  if (expected.publishedAt !== undefined) expect(a!.publishedAt).toBe(expected.publishedAt);
  if (expected.publishedAtText !== undefined) expect(a!.publishedAtText).toBe(expected.publishedAtText);
  if (expected.lang !== undefined) expect(a!.lang).toBe(expected.lang);
  for (const s of expected.contentIncludes ?? []) expect(a!.content).toContain(s);
  for (const s of expected.contentExcludes ?? []) expect(a!.content).not.toContain(s);
  if (expected.images) expect(a!.images).toEqual(expected.images);
  return a!;
}

describe('extractArticle on fixtures', () => {
  it('reads a GBK Chinese news page: writer (not editor), time with offset, body without related links', () => {
    const a = checkFixture('gbk-news');
    // paragraphs joined by "\n", full-width indentation trimmed by segmenting
    expect(a.content!.split('\n')).toHaveLength(4);
    expect(a.contentHtml).toContain('<p>');
    expect(a.contentHtml).not.toContain('相关阅读');
  });

  it('reads an English blog post with JSON-LD: author, date, headings and lists kept, captions and share lines dropped', () => {
    const a = checkFixture('english-blog');
    expect(a.contentHtml).toContain('<h2>What the numbers say</h2>');
    expect(a.contentHtml).toContain('<li>');
    expect(a.contentHtml).not.toMatch(/class=|style=/);
  });

  it('stops at the comment section', () => {
    checkFixture('comments');
  });

  it('resolves a relative dateline against the fetch time in the page language zone', () => {
    checkFixture('relative-dates');
  });

  it('returns null for a page without an article', () => {
    const { page } = load('no-article');
    expect(extractArticle(page)).toBeNull();
  });

  it('uses the site template when the chain narrowed the segments', () => {
    const { page } = load('english-blog');
    // pretend the template learner marked the first paragraph as site boilerplate
    const segments = page.segments.filter((s) => !s.text.startsWith('Urban agriculture'));
    const a = extractArticle(page, { segments, templateApplied: true });
    expect(a!.content).not.toContain('Urban agriculture');
    expect(a!.content).toContain('The reason is simple arithmetic');
    // without the template flag the segments are advisory only
    expect(extractArticle(page, { segments })!.content).toContain('Urban agriculture');
  });

  it('takes the anchor text as a title hint when the page has no better one', () => {
    const html = `<html><head><title>Site</title></head><body><div><p>${'A sentence about the river and the bridge. '.repeat(12)}</p><p>${'Another sentence on the same topic, with commas, and a full stop. '.repeat(6)}</p></div></body></html>`;
    const page = createPage({ url: 'https://example.org/x', body: html });
    expect(extractArticle(page, { anchorText: 'The river bridge reopens' })!.title).toBe('The river bridge reopens');
  });
});

describe('publish time from page data', () => {
  const body = `<div class="content"><p>${'城市公园的改造工程今天全面完成，市民可以在湖边散步、健身和休息。'.repeat(6)}</p><p>${'工程历时两年，新增绿地面积三万平方米，种植乔木两千余株。'.repeat(6)}</p></div>`;
  const fetchedAt = new Date('2026-11-30T12:00:00Z');

  it('reads the publish time of inline script data (script-rendered pages)', () => {
    const html = `<html><head><title>公园改造完成</title><script>window.DATA = {"title": "公园改造完成", "pubtime": "2019-09-07 19:02:26", "media": "某报"};</script></head><body><h1>公园改造完成</h1>${body}</body></html>`;
    const a = extractArticle(createPage({ url: 'https://news.example.cn/a/1.html', body: html, fetchedAt }))!;
    expect(a.publishedAt).toBe('2019-09-07T19:02:26+08:00');
  });

  it('takes the post header next to a headline that the body took in, not a date at the end of the text', () => {
    const html = `<html><head><title>社会资本、人力资本与下岗职工的再就业 - 学术前沿 - powered by Forum Archiver</title></head><body><div class="archiver"><p>论坛 » 学术前沿 » 社会资本、人力资本与下岗职工的再就业</p><p>2003-5-29 09:07 高山流水</p><p>社会资本、人力资本与下岗职工的再就业</p>${body}<p>网站搜集整理于2002-09-25</p></div></body></html>`;
    const a = extractArticle(createPage({ url: 'https://bbs.example.cn/archiver/2.html', body: html, fetchedAt }))!;
    expect(a.publishedAt).toBe('2003-05-29T09:07:00+08:00');
  });

  it('completes a displayed date without a year from the declared modification time on the same day', () => {
    const html = `<html><head><title>公园改造完成</title><meta itemprop="dateUpdate" content="2019-09-30 22:46:13"></head><body><h1>公园改造完成</h1><div class="info"><span>发布时间：9月30日</span></div>${body}</body></html>`;
    const a = extractArticle(createPage({ url: 'https://news.example.cn/a/2.html', body: html, fetchedAt }))!;
    expect(a.publishedAt).toBe('2019-09-30T22:46:13+08:00');
    // a modification on another day is not the publication of "9月30日"
    const other = extractArticle(createPage({ url: 'https://news.example.cn/a/3.html', body: html.replace('2019-09-30 22:46:13', '2019-10-30 22:46:13'), fetchedAt }))!;
    expect(other.publishedAt?.startsWith('2026-09-30')).toBe(true);
  });
});

describe('Chinese bylines', () => {
  const para = (t: string) => `<p>${t.repeat(5)}</p>`;
  const page = (inner: string) => createPage({ url: 'https://news.example.cn/a/9.html', body: `<html><head><title>金融知识进万家活动启动</title></head><body><h1>金融知识进万家活动启动</h1>${inner}</body></html>` });
  const body = para('活动期间，工作人员走进社区和学校，向居民讲解防范电信诈骗的知识。') + para('参加活动的居民纷纷表示，这样的宣传通俗易懂，很有帮助。');

  it('reads writers after the time of a dateline', () => {
    expect(extractArticle(page(`<div class="info">2020-06-05 20:35 叨叨姐 胡一刀</div>${body}`))!.author).toBe('叨叨姐 胡一刀');
  });
  it('reads a "文/图" credit closing the body', () => {
    expect(extractArticle(page(`${body}<p>活动将持续到月底。(文/图 刘玺东 易赛楠)</p>`))!.author).toBe('刘玺东 易赛楠');
  });
  it('reads the writer after 原创： and cuts 编译', () => {
    expect(extractArticle(page(`<p>原创： 路闻卓立编译 人民币交易与研究</p>${body}`))!.author).toBe('路闻卓立');
  });
  it('reads 记者 … 发自, a "文：" credit, and a bracketed credit line after the body (not a bracketed table heading)', () => {
    expect(extractArticle(page(`<p>本报记者罗科苏盈发自北京</p>${body}`))!.author).toBe('罗科苏盈');
    expect(extractArticle(page(`${body}<p>文：眉间尺</p>`))!.author).toBe('眉间尺');
    expect(extractArticle(page(`<div>${body}</div><div>（袁源）</div>`))!.author).toBe('袁源');
    expect(extractArticle(page(`<div>${body}</div><div>专业名称（代码）</div>`))!.author).toBeUndefined();
  });
  it('reads a name line under a headline that the body took in', () => {
    const html = `<html><head><title>社会资本、人力资本与下岗职工的再就业 - 学术前沿 - powered by Forum Archiver</title></head><body><div class="archiver"><p>论坛 » 学术前沿 » 社会资本、人力资本与下岗职工的再就业</p><p>社会资本、人力资本与下岗职工的再就业</p><p>赵延东、风笑天</p>${body}</div></body></html>`;
    expect(extractArticle(createPage({ url: 'https://bbs.example.cn/archiver/1.html', body: html }))!.author).toBe('赵延东、风笑天');
  });
  it('reads 执笔人 credits and the poster line of blog and forum software', () => {
    expect(extractArticle(page(`${body}<p>执笔人：闵乐夫 赵兰波 刘韬 刘晋芳 胡玉顺</p><p>编辑： 吕峥</p>`))!.author).toBe('闵乐夫 赵兰波 刘韬 刘晋芳 胡玉顺');
    expect(extractArticle(page(`${body}<p>由海姑娘张贴 @ 2005-06-14 03:25:55 (370) 共 11 篇评论</p>`))!.author).toBe('海姑娘');
    expect(extractArticle(page(`<p>ggjjzhzz 发表于 2005-9-15 11:46:00</p>${body}`))!.author).toBe('ggjjzhzz');
    expect(extractArticle(page(`${body}<p>〓 明星话题 发布时间 2005/03/15 22:36:13 by duscha 〓</p>`))!.author).toBe('duscha');
  });
  it('joins credits split over consecutive lines, once per name; 实习生 inside prose is no cue', () => {
    expect(extractArticle(page(`<p>本报实习生 刘国栋 周炜</p><p>本报记者 王燕平 方云凤</p>${body}`))!.author).toBe('刘国栋 周炜 王燕平 方云凤');
    expect(extractArticle(page(`${body}<p>采写：南都记者 余毅菁 向雪妮</p><p>作者：余毅菁 向雪妮</p>`))!.author).toBe('余毅菁 向雪妮');
    expect(extractArticle(page(`${body}<p>相关文章</p><p>晶科电子IPO：实习生占比达14%</p>`))!.author).toBeUndefined();
  });
  it('reads a bracketed writer in a dateline before the source; a software team is no writer', () => {
    expect(extractArticle(page(`<p>2004年7月16日08:19 [ 黄宇 ] 来源：[ 国际金融报 ]</p>${body}`))!.author).toBe('黄宇');
    const team = createPage({ url: 'https://bbs.example.cn/t/1.html', body: `<html><head><title>论坛帖子</title><meta name="author" content="Forum Team and UI Team"></head><body><h1>金融知识进万家活动启动</h1>${body}</body></html>` });
    expect(extractArticle(team)!.author).toBeUndefined();
  });
  it('takes an account name beside its follow button, and no cue word inside a longer word', () => {
    expect(extractArticle(page(`<div class="news_author"><div class="name">中国广州发布</div><div>关注</div></div>${body}`))!.author).toBe('中国广州发布');
    expect(extractArticle(page(`${body}<p>广大科技工作者毫不松懈、坚守岗位，用精益求精的作风确保任务完成。</p>`))!.author).toBeUndefined();
  });
});

describe('Latin bylines', () => {
  const prose = `<p>${'The council approved the new bridge after a long debate, and work starts in spring. '.repeat(6)}</p><p>${'Residents welcomed the decision, though some worry about the traffic during construction. '.repeat(5)}</p>`;
  const page = (head: string, byline: string) => createPage({ url: 'https://jane.example.org/bridge', body: `<html><head><title>Council approves the bridge | Jane Doe</title>${head}</head><body><h1>Council approves the bridge</h1>${byline}${prose}</body></html>` });

  it('cuts a displayed date and a job title from the byline', () => {
    expect(extractArticle(page('', '<div class="byline">By Joshua Sokol May 20, 2019</div>'))!.author).toBe('Joshua Sokol');
    expect(extractArticle(page('', '<div class="byline">Lucas Nolan22 Dec 2016</div>'))!.author).toBe('Lucas Nolan');
    expect(extractArticle(page('', '<div class="byline">Joe Wee Monday, 29 February 2016</div>'))!.author).toBe('Joe Wee');
    expect(extractArticle(page('', '<div class="byline">Ben Silverman Games Editor</div>'))!.author).toBe('Ben Silverman');
    // a name run into another article's headline is no byline
    expect(extractArticle(page('', '<div class="author">Michael Isikoff Inauguration: ticket packages, $25,000 to $1 million</div>'))!.author).toBeUndefined();
  });

  it('reads space-separated meta properties and Dublin Core first', () => {
    const metas = '<meta property="x:title dc:title" content="Preferred title"><meta property="og:title twitter:title" content="A title"><meta property="dc:creator twitter:site_name" content="Creator Name"><meta name="author" content="Other Name">';
    const a = extractArticle(createPage({ url: 'https://example.org/x', body: `<html><head><title>Title Element</title>${metas}</head><body><h1>Test document title</h1>${prose}</body></html>` }))!;
    expect(a.title).toBe('Preferred title');
    expect(a.author).toBe('Creator Name');
  });

  it('prefers the declared meta title when the shown headline is a variant of it, not when it only adds a suffix', () => {
    const mk = (og: string) => createPage({ url: 'https://example.org/x', body: `<html><head><title>The seven secrets of hotels | The Daily</title><meta property="og:title" content="${og}"></head><body><h1>The seven secrets of hotels</h1>${prose}</body></html>` });
    expect(extractArticle(mk('Seven secrets of hotels'))!.title).toBe('Seven secrets of hotels');
    expect(extractArticle(mk('The seven secrets of hotels | The Daily'))!.title).toBe('The seven secrets of hotels');
    expect(extractArticle(mk('The Daily: news and opinion'))!.title).toBe('The seven secrets of hotels');
    const punct = createPage({ url: 'https://example.org/y', body: `<html><head><title>How we designed the ATF: an async task framework | Eng Blog</title><meta property="og:title" content="How we designed the team’s ATF - an async task framework"></head><body><h1>How we designed the ATF: an async task framework</h1>${prose}</body></html>` });
    expect(extractArticle(punct)!.title).toBe('How we designed the team’s ATF - an async task framework');
  });

  it('keeps a declared Person on a site named after them, not an undeclared site name', () => {
    const ld = '<script type="application/ld+json">{"@type": "BlogPosting", "author": {"@type": "Person", "name": "Jane Doe"}}</script>';
    expect(extractArticle(page(ld, ''))!.author).toBe('Jane Doe');
    expect(extractArticle(page('<meta property="og:site_name" content="Jane Doe"><meta name="author" content="Jane Doe">', ''))!.author).toBeUndefined();
    expect(extractArticle(page('', '<span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Jane Doe</span></span>'))!.author).toBe('Jane Doe');
  });
});

describe('bad input', () => {
  it('survives 10,000-deep nesting without overflowing the stack', () => {
    const depth = 10_000;
    const html = `<html><body>${'<div>'.repeat(depth)}<p>${'Deeply nested text keeps its sentences, its commas and its full stops. '.repeat(8)}</p>${'</div>'.repeat(depth)}</body></html>`;
    const page = createPage({ url: 'https://example.org/deep', body: html });
    const a = extractArticle(page);
    expect(a?.content).toContain('Deeply nested text');
  });

  it('handles a 5 MB page of repeated blocks in one piece', () => {
    const para = `<p>${'A long sentence about the harbour, with commas, and a full stop. '.repeat(10)}</p>`;
    const nav = `<ul>${'<li><a href="/x">Link text here</a></li>'.repeat(20)}</ul>`;
    const parts: string[] = ['<html><body><div class="main">'];
    let size = 0;
    while (size < 5e6) {
      const block = `<div class="block">${para}${nav}</div>`;
      parts.push(block);
      size += block.length;
    }
    parts.push('</div></body></html>');
    const page = createPage({ url: 'https://example.org/huge', body: parts.join('') });
    const a = extractArticle(page);
    expect(a?.content?.length).toBeGreaterThan(1e6);
    expect(a?.content).not.toContain('Link text here');
  });

  it('reads a GBK page that declares no charset (detected from the bytes)', async () => {
    const { body } = load('gbk-news');
    // drop the <meta http-equiv> line: the decoder must detect GBK by itself
    const latin = Buffer.from(body).toString('latin1').replace(/<meta http-equiv[^>]*>/i, '');
    const page = createPage({ url: 'https://news.example.cn/a/2.html', body: Buffer.from(latin, 'latin1') });
    const a = extractArticle(page);
    expect(a?.title).toBe('新能源汽车下乡活动启动 三百余款车型参展');
    expect(a?.author).toBe('李明');
  });

  it('gives kind "other" for empty and binary input through the Extractor', async () => {
    const ex = articleExtractor();
    const empty = await ex.extract({ url: 'https://example.org/empty', body: new Uint8Array(0) });
    expect(empty.kind).toBe('other');
    const binary = new Uint8Array(4096);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) % 256;
    const bin = await ex.extract({ url: 'https://example.org/bin', body: binary });
    expect(bin.kind).toBe('other');
    await ex.close();
  });

  it('gives an article item that passes the item schema through the Extractor', async () => {
    const { body } = load('gbk-news');
    const ex = articleExtractor();
    const item = await ex.extract({ url: 'https://news.example.cn/a/1.html', body });
    await ex.close();
    expect(item.kind).toBe('article');
    expect(item.title).toBe('新能源汽车下乡活动启动 三百余款车型参展');
    expect(itemSchema.safeParse(item).success).toBe(true);
    const none = await articleExtractor().extract({ url: 'https://example.org/', body: readFileSync(path.join(FIXTURES, 'no-article', 'page.html')) });
    expect(none.kind).toBe('other');
  });
});

describe('title helpers', () => {
  it('cuts the site name from <title>', () => {
    expect(cutSiteName('Why Small Gardens Feed Big Cities | Green Thumb Journal')).toBe('Why Small Gardens Feed Big Cities');
    expect(cutSiteName('法国全国大罢工再次严重影响交通-新华网')).toBe('法国全国大罢工再次严重影响交通');
    expect(cutSiteName('COVID-19 vaccines explained')).toBe('COVID-19 vaccines explained');
    // Han characters count double: the Chinese headline beats a longer Latin credit
    expect(cutSiteName('社会资本、人力资本与下岗职工的再就业(页 1) - 学术前沿 - powered by Discuz! Archiver')).toBe('社会资本、人力资本与下岗职工的再就业(页 1)');
  });
  it('measures the longest common substring', () => {
    expect(longestCommonSubstring('abcdef', 'zzcdez')).toBe(3);
    expect(longestCommonSubstring('', 'x')).toBe(0);
  });
});
