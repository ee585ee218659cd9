import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractArticle } from '../../middleware/article/index.js';
import { Element } from 'domhandler';
import { isHomeLink, metaFields, metaTitle } from '../../middleware/article/title.js';

/** Article titles and bylines: the writer's name, the headline without the site's name. */

const LOREM = [
  'The council met on Tuesday evening to discuss the new plans for the riverside park and its paths.',
  'Residents raised questions about parking, lighting and the hours of the new cafe near the old mill.',
  'A final vote is expected next month, after a second round of public meetings in the town hall.',
];
const body = LOREM.map((t) => `<p>${t} ${t}</p>`).join('\n');

function page(head: string, inner: string, url = 'https://news.example.org/2021/04/park.html') {
  return createPage({ url, body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${inner}</body></html>` });
}

describe('meta fields', () => {
  it('reads the RDFa property form before the name form of the same key', () => {
    const p = page(
      `<title>Page</title><meta name="DC.title" content="Name form title"><meta property="dc:title" content="Property form title">` +
        `<meta name="DC.creator" content="Name Form"><meta property="dc:creator" content="Property Form">`,
      `<article>${body}</article>`,
    );
    expect(metaFields(p).get('dc:title')).toBe('Property form title');
    expect(metaTitle(p)).toBe('Property form title');
    expect(extractArticle(p)!.author).toBe('Property Form');
  });

  it('keeps the first tag of one attribute kind', () => {
    const p = page(`<meta name="author" content="First Writer"><meta name="author" content="Second Writer">`, body);
    expect(metaFields(p).get('author')).toBe('First Writer');
  });

  it('does not take an organisation name from JSON-LD as the title', () => {
    const ld = { '@context': 'https://schema.org', '@type': 'NewsMediaOrganization', name: 'The Daily Example' };
    const p = page(
      `<title>Weekend edition - The Daily Example</title><meta property="og:title" content="Weekend edition"><script type="application/ld+json">${JSON.stringify(ld)}</script>`,
      `<main>${body}</main>`,
    );
    expect(metaTitle(p)).toBe('Weekend edition');
    expect(extractArticle(p)!.title).toBe('Weekend edition');
  });

  it('still reads a NewsArticle name as its headline', () => {
    const ld = { '@context': 'https://schema.org', '@type': 'NewsArticle', name: 'Park plans approved' };
    const p = page(`<title>x</title><script type="application/ld+json">${JSON.stringify(ld)}</script>`, body);
    expect(metaTitle(p)).toBe('Park plans approved');
  });
});

describe('title: the site logo heading is not the headline', () => {
  it('skips an h1 that repeats the site suffix of <title>', () => {
    const p = page(
      `<title>尖石賞楓 (2) @ 小林的家 :: 博客站 Example ::</title>`,
      `<div class="topbar"><h1>博客站 Example</h1></div><div class="post"><h2>尖石賞楓 (2)</h2>${body}</div>`,
    );
    expect(extractArticle(p)!.title).toBe('尖石賞楓 (2)');
  });

  it('skips an h1 that shows og:site_name', () => {
    const p = page(
      `<title>Walk (2) @ Pat :: Example Blogs ::</title><meta property="og:site_name" content="Example Blogs">`,
      `<div class="topbar"><h1>Example Blogs</h1></div><div class="post"><h2>Walk (2)</h2>${body}</div>`,
    );
    expect(extractArticle(p)!.title).toBe('Walk (2)');
  });

  it('skips an h1 that only links to the home page', () => {
    const p = page(
      `<title>Shared history — project documentation</title>`,
      `<div class="header"><h1><a href="index.html"><span>project documentation</span></a></h1></div><div class="body"><h1>Shared history</h1>${body}</div>`,
    );
    expect(extractArticle(p)!.title).toBe('Shared history');
  });

  it('keeps a headline that is the last part of a "Site - Headline" title', () => {
    const p = page(`<title>Example News - Riverside park plans approved by the council</title>`, `<h1>Riverside park plans approved by the council</h1>${body}`);
    expect(extractArticle(p)!.title).toBe('Riverside park plans approved by the council');
  });
});

describe('bylines', () => {
  const titled = (head: string, byline: string, extra = '') =>
    page(`<title>Riverside park plans approved | Example News</title>${head}`, `${extra}<article><h1>Riverside park plans approved</h1>${byline}${body}</article>`);

  it('cuts the editor and other credits after the writer', () => {
    expect(extractArticle(titled('', '<div class="byline">Written by Rob Stone Edited by Edna Editor</div>'))!.author).toBe('Rob Stone');
    expect(extractArticle(titled('', '<div class="byline">By Ann Author, photographs by Pat Photo</div>'))!.author).toBe('Ann Author');
  });

  it('drops a contact address after a declared name', () => {
    expect(extractArticle(titled('<meta name="author" content="Jane Doe (https://jane.example.net/)">', ''))!.author).toBe('Jane Doe');
    expect(extractArticle(titled('<meta name="author" content="Jane Doe <jane@example.net>">', ''))!.author).toBe('Jane Doe');
  });

  it('does not read a desk credit as a name', () => {
    expect(extractArticle(titled('<meta name="author" content="Our Foreign Staff">', ''))!.author).toBeUndefined();
    expect(extractArticle(titled('<meta name="author" content="Example News Staff">', ''))!.author).toBeUndefined();
    expect(extractArticle(titled('<meta name="author" content="Ann Staffordshire">', ''))!.author).toBe('Ann Staffordshire');
  });

  it('does not read "Last Updated" as a name', () => {
    expect(extractArticle(titled('', '<div class="author-details">Last Updated: January 7, 2025</div>'))!.author).toBeUndefined();
  });

  it('reads the rel=author link inside a byline block, not the desk line beside it', () => {
    expect(extractArticle(titled('', '<div class="author_fmt">By <a rel="author" href="/writers/ann">Ann Author, MA</a><br>Example Health News</div>'))!.author).toBe('Ann Author, MA');
  });

  it('prefers the byline after the headline to bylines of other stories above it', () => {
    const header = '<ul class="top-stories"><li><a href="/a/1">Other story</a> <span class="byline">Olive Other</span></li></ul>';
    expect(extractArticle(titled('', '<p class="meta"><span class="byline">Willa Stone</span></p>', header))!.author).toBe('Willa Stone');
  });

  it('rejects an author box whose text runs into a story headline', () => {
    const box = '<ul><li class="author-follow"><a href="/u/mb">Matt Bee</a> <a href="/s/2">The real problem behind fake news</a></li></ul>';
    const p = page(`<title>Riverside park plans approved</title>`, `<h1>Riverside park plans approved</h1>${body}${box}<div class="author-name">NADIA WRITER</div>`);
    expect(extractArticle(p)!.author).toBe('NADIA WRITER');
  });
});

describe('short articles', () => {
  it('keeps a short text that fills a declared content container as an article', () => {
    const p = page('<title>Bridge closed</title>', '<main><section><div><div>The old bridge stays closed until Friday for repairs.</div></div></section></main>');
    const a = extractArticle(p);
    expect(a).not.toBeNull();
    expect(a!.title).toBe('Bridge closed');
    expect(a!.content).toBe('The old bridge stays closed until Friday for repairs.');
    expect(a!.contentHtml).toBe('<p>The old bridge stays closed until Friday for repairs.</p>');
  });

  it('does not make an article of a short page of links, headings or labels', () => {
    expect(extractArticle(page('<title>Links</title>', '<main><a href="/a">The old bridge stays closed until Friday for repairs.</a></main>'))).toBeNull();
    expect(extractArticle(page('<title>Images</title>', '<article><h2>Test case one</h2><img src="/a.jpg"><h2>Test case two</h2></article>'))).toBeNull();
    expect(extractArticle(page('<title>Missing</title>', '<main><h1>Page not found.</h1></main>'))).toBeNull();
  });

  it('does not make an article when other text competes with the container', () => {
    const nav = '<div><p>Opening hours are listed on the visitor page.</p></div>';
    expect(extractArticle(page('<title>Brief</title>', `<main><p>The old bridge stays closed until Friday for repairs.</p></main>${nav}`))).toBeNull();
  });
});

describe('plain-text bylines', () => {
  const art = (between: string, after = '') =>
    page('<title>Riverside park plans approved</title>', `<div class="story"><h1>Riverside park plans approved</h1>${between}<div class="text">${body}</div>${after}</div>`);

  it('reads "By"/"Par"/"Von" lines between the headline and the body', () => {
    expect(extractArticle(art('<p>By Jane Doe</p>'))!.author).toBe('Jane Doe');
    expect(extractArticle(art('<p>Par Sébastien Martin</p>'))!.author).toBe('Sébastien Martin');
    expect(extractArticle(art('<p>Von Anna Schmidt und Jan de Vries</p>'))!.author).toBe('Anna Schmidt und Jan de Vries');
  });

  it('reads a name on the line after a lone "by"', () => {
    expect(extractArticle(art('<div><span>by</span><h3><a href="/profile/1">Sleyfield</a></h3></div>'))!.author).toBe('Sleyfield');
  });

  it('does not read sentences, linked vendor labels or lines below the body', () => {
    expect(extractArticle(art('<p>By the time we arrived</p>'))!.author).toBeUndefined();
    expect(extractArticle(art('<div><a href="https://ads.example.com/">by Adnetwork</a></div>'))!.author).toBeUndefined();
    expect(extractArticle(art('', '<p>By Jane Doe</p>'))!.author).toBeUndefined();
  });
});

describe('declared handles', () => {
  it('shows the name of the profile link for a declared account handle', () => {
    const ld = { '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Riverside park plans approved', author: 'CC7567' };
    const head = `<title>Riverside park plans approved</title><script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const withLink = page(head, `<h1>Riverside park plans approved</h1><div class="meta"><a href="https://community.example.org/u/CC7567"><img src="/a.png" alt=""> <span>James Okafor</span></a></div>${body}`);
    expect(extractArticle(withLink)!.author).toBe('James Okafor');
    const withoutLink = page(head, `<h1>Riverside park plans approved</h1>${body}`);
    expect(extractArticle(withoutLink)!.author).toBe('CC7567');
  });
});

describe('several declared authors', () => {
  it('reads every citation_author / DC.Creator tag of the preferred attribute kind', () => {
    const two = page('<title>On parks</title><meta name="citation_author" content="Ann Lee"><meta name="citation_author" content="Bo Park">', `<h1>On parks</h1>${body}`);
    expect(extractArticle(two)!.author).toBe('Ann Lee, Bo Park');
    const inverted = page('<title>On parks</title><meta name="DC.Creator" content="Lee, A."><meta name="DC.Creator" content="Park, Bo">', `<h1>On parks</h1>${body}`);
    expect(extractArticle(inverted)!.author).toBe('Lee, A.; Park, Bo');
    const mixed = page('<title>On parks</title><meta name="DC.creator" content="Name Form"><meta property="dc:creator" content="Property Form">', `<h1>On parks</h1>${body}`);
    expect(extractArticle(mixed)!.author).toBe('Property Form');
  });
});

describe('Chinese spaced names', () => {
  const zh = (line: string) =>
    createPage({
      url: 'https://journal.example.cn/paper/1.html',
      body: `<html><head><title>淘宝网物流配送研究</title></head><body><div class="t">淘宝网物流配送研究</div><div>${line}</div><div><p>${'本文分析了电子商务企业在物流配送环节中存在的主要问题，并提出了相应的对策和建议。'.repeat(4)}</p></div></body></html>`,
    });
  it('joins a two-character name spaced to three widths after a writer cue', () => {
    expect(extractArticle(zh('作者: 赵 培：北京物资学院，北京'))!.author).toBe('赵培');
    expect(extractArticle(zh('作者：王　芳'))!.author).toBe('王芳');
  });
  it('reads a nickname joined by a symbol after 作者', () => {
    expect(extractArticle(zh('作者： 放飞&心情'))!.author).toBe('放飞&心情');
    expect(extractArticle(zh('作者：张三 发表于 2005-08-28'))!.author).toBe('张三');
  });
  it('leaves other lines after 作者 alone', () => {
    expect(extractArticle(zh('作者单位：北京物资学院'))!.author).toBeUndefined();
  });
});

describe('personal blogs: the writer behind the site name', () => {
  const blog = (head: string, inner: string, title = '平面几何笔记 - 阿飞的小屋') =>
    createPage({
      url: 'https://blog.example.cn/posts/1.html',
      body: `<html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${inner}<article><h1>平面几何笔记</h1><div><p>${'三角形的内角和等于一百八十度，这是平面几何中最基本的定理之一，证明方法有很多种。'.repeat(4)}</p></div></article></body></html>`,
    });
  it('reads a declared author that the site is named after in the possessive', () => {
    expect(extractArticle(blog('<meta name="author" content="阿飞"><meta property="og:site_name" content="阿飞的小屋">', ''))!.author).toBe('阿飞');
    const en = page(`<title>Park notes - Jane's Notes</title><meta name="author" content="Jane"><meta property="og:site_name" content="Jane's Notes">`, `<article><h1>Park notes</h1>${body}</article>`);
    expect(extractArticle(en)!.author).toBe('Jane');
  });
  it('reads the header byline of a site named after its writer', () => {
    expect(extractArticle(blog('<meta property="og:site_name" content="阿飞的小屋">', '<header><h1 class="header-author"><a href="/">阿飞</a></h1></header>'))!.author).toBe('阿飞');
  });
  it('still rejects a name the site name merely contains, or that is the site name', () => {
    expect(extractArticle(blog('<meta name="author" content="小屋">', ''))!.author).toBeUndefined();
    expect(extractArticle(blog('<meta name="author" content="阿飞的小屋">', ''))!.author).toBeUndefined();
  });
  it('does not read menu entries, a contents heading, a section heading or the headline as the writer', () => {
    expect(extractArticle(blog('', '<nav><a href="/about/"><i class="fa fa-user"> 关于我</i></a></nav>'))!.author).toBeUndefined();
    const toc = createPage({
      url: 'https://blog.example.cn/2011/02/14/plum/',
      body: `<html><head><title>梅花初开 | 小林的博客</title></head><body><h1 class="post-title">梅花初开</h1><div class="post-meta">2011-02-14</div><div class="toc-title">文章目录</div><div class="post-content"><p>${'冬天还没有过去，院子里的梅花已经开了，清晨的空气里都是淡淡的花香。'.repeat(4)}</p></div></body></html>`,
    });
    expect(extractArticle(toc)!.author).toBeUndefined();
    const heading = page('<title>Sound meter</title>', `<article><h1>Sound meter</h1>${body}<h2 id="author">Author</h2><p>Made by hand.</p></article>`);
    expect(extractArticle(heading)!.author).toBeUndefined();
  });
  it('reads 文字 as a writer cue only with a separator', () => {
    const p = (line: string) =>
      createPage({
        url: 'https://blog.example.cn/posts/2.html',
        body: `<html><head><title>界面开发笔记</title></head><body><h1>界面开发笔记</h1><div>${line}</div><div><p>${'本文记录了界面开发中遇到的常见问题和对应的解决办法，供以后参考。'.repeat(4)}</p></div></body></html>`,
      });
    expect(extractArticle(p('用一张图集制作文字UI。'))!.author).toBeUndefined();
    expect(extractArticle(p('切换 UI 文字时出现卡顿。'))!.author).toBeUndefined();
    expect(extractArticle(p('文字：张三'))!.author).toBe('张三');
  });
});

describe('home links', () => {
  const h1 = (href: string) => {
    const p = page('<title>x</title>', `<h1><a href="${href}">Example</a></h1>`, 'https://www.news.example.org/2021/04/park.html');
    return { p, el: p.nodes.find((n): n is Element => n instanceof Element && n.name === 'h1')! };
  };
  it('knows a heading that links to this site\'s home page', () => {
    for (const href of ['/', './', 'index.html', '../index.html', 'https://news.example.org/', 'http://www.news.example.org']) {
      const { p, el } = h1(href);
      expect(isHomeLink(el, p.url)).toBe(true);
    }
  });
  it('does not take a link to another site or to a story for a home link', () => {
    for (const href of ['https://corp.example.com/', '/2021/04/park.html', 'park.html']) {
      const { p, el } = h1(href);
      expect(isHomeLink(el, p.url)).toBe(false);
    }
  });
});

describe('section-page <title>', () => {
  it('takes the heading at the body top, not a footer line that the <title> contains', () => {
    const para = '<p>五月十日至十二日，本年度人文地理学术年会在西南某大学举行，来自全国各地的专家学者参加了会议并作了报告，会议围绕城乡发展与区域治理展开了深入讨论。</p>';
    const html = `<html><head><title>新闻动态--示例地理学会官网</title></head><body>
<div class="nav"><a href="/">首页</a> <a href="/news">新闻动态</a> <a href="/about">学会简介</a></div>
<h3>首页 - 新闻动态</h3>
<div class="article"><h5>年度人文地理学术年会在西南某大学成功举行！</h5><div class="ly">发布时间：2019-05-18 来源：示例地理学会</div>
${para.repeat(4)}</div>
<div class="contact"><h4>联系我们</h4><h5>示例地理学会</h5><p>地址：北京市某区某路1号</p></div></body></html>`;
    const a = extractArticle(createPage({ url: 'https://www.example.org/content.aspx?id=1', body: html }))!;
    expect(a.title).toBe('年度人文地理学术年会在西南某大学成功举行！');
  });
});
