import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { createPage, textOf, MAX_DEPTH } from '../../src/core/page.js';
import { decodeBody, BinaryContentError } from '../../src/core/decode.js';
import { splitAtPeaks } from '../../middleware/blocks/blocks.js';

const zhHtml = '<html><head><meta charset="gbk"><title>新闻标题 - 示例网</title></head><body><div id="nav"><a href="/">首页</a><a href="/news">新闻</a></div><div class="c"><h1>新闻标题</h1><p>这是第一段，内容<b>很</b>重要。</p><p>第二段。</p></div></body></html>';

describe('decodeBody', () => {
  it('decodes GBK declared only in <meta>', () => {
    const d = decodeBody(iconv.encode(zhHtml, 'gbk'));
    expect(d.charset).toBe('gb18030');
    expect(d.source).toBe('meta');
    expect(d.text).toContain('这是第一段');
  });
  it('detects GBK with no declaration at all', () => {
    const html = zhHtml.replace('<meta charset="gbk">', '').repeat(3);
    const d = decodeBody(iconv.encode(html, 'gbk'));
    expect(d.text).toContain('这是第一段');
    expect(d.source).toBe('detected');
  });
  it('overrules a header that claims UTF-8 for GBK bytes', () => {
    const d = decodeBody(iconv.encode(zhHtml, 'gbk'), 'text/html; charset=utf-8');
    expect(d.text).toContain('这是第一段');
  });
  it('honours a BOM and the header', () => {
    expect(decodeBody(Buffer.from('\ufeff<p>é</p>', 'utf8')).text).toContain('é');
    expect(decodeBody(iconv.encode('<p>Привет</p>', 'windows-1251'), 'text/html; charset=windows-1251').text).toContain('Привет');
  });
  it('refuses binary bodies', () => {
    expect(() => decodeBody(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 4, 5]))).toThrow(BinaryContentError);
  });
});

describe('createPage', () => {
  const page = createPage({ url: 'http://example.com/a/b.html', body: iconv.encode(zhHtml, 'gbk') });
  it('numbers nodes depth-first and cuts block segments with tag paths', () => {
    expect(page.title).toBe('新闻标题 - 示例网');
    const texts = page.segments.map((s) => s.text);
    expect(texts).toEqual(['首页新闻', '新闻标题', '这是第一段，内容很重要。', '第二段。']);
    expect(page.segments[2]!.path).toBe('html/body/div/p');
    expect(page.segments[0]!.linkChars).toBe(4);
    const idx = page.segments.map((s) => s.index);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    expect(page.nodes[page.segments[1]!.index]).toBeDefined();
    expect(page.indexOf(page.segments[1]!.element)).toBeLessThan(page.segments[1]!.index);
  });
  it('detects the language and resolves links', () => {
    expect(page.lang()).toBe('zh');
    expect(page.resolve('../c.html')).toBe('http://example.com/c.html');
    expect(page.resolve('javascript:void(0)')).toBeUndefined();
  });
  it('survives 10,000-deep nesting without a stack overflow', () => {
    const deep = '<div>'.repeat(10000) + 'deep text' + '</div>'.repeat(10000);
    const p = createPage({ url: 'http://x.test/', body: `<html><body>${deep}</body></html>` });
    expect(p.segments.map((s) => s.text)).toContain('deep text');
    expect(textOf(p.document)).toContain('deep text');
    expect(p.$()('body').html()!.length).toBeGreaterThan(MAX_DEPTH);
  });
  it('reads meta, <base> and JSON-LD', () => {
    const p = createPage({
      url: 'http://x.test/a/',
      body: '<html><head><base href="/root/"><meta property="og:title" content="T"><script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","headline":"H"}]}</script></head><body><p>x</p></body></html>',
    });
    expect(p.meta.get('og:title')).toBe('T');
    expect(p.resolve('y')).toBe('http://x.test/root/y');
    expect(p.jsonLd().some((o) => o.headline === 'H')).toBe(true);
  });
});

describe('splitAtPeaks', () => {
  it('splits at local maxima of the DFS differences', () => {
    const idx = [10, 12, 14, 40, 42, 45, 80, 81, 83];
    const blocks = splitAtPeaks(idx.map((index) => ({ index })));
    expect(blocks.map((b) => b.map((x) => x.index))).toEqual([[10, 12, 14], [40, 42, 45], [80, 81, 83]]);
  });
  it('keeps a uniform run together', () => {
    expect(splitAtPeaks([1, 3, 5, 7, 9].map((index) => ({ index })))).toHaveLength(1);
  });
});

describe('noscript fallback', () => {
  it('reads <noscript> when the visible body is empty', () => {
    const post = '<div class="post"><p>This is the server-rendered view of the thread, with enough words to count.</p></div>'.repeat(4);
    const p = createPage({ url: 'http://x.test/', body: `<html><body><div id="app"></div><noscript>${post}</noscript></body></html>` });
    expect(p.segments.length).toBe(4);
  });
  it('ignores <noscript> when the page has visible text', () => {
    const body = '<p>' + 'Visible article text. '.repeat(20) + '</p><noscript><p>Please enable JavaScript to continue.</p></noscript>';
    const p = createPage({ url: 'http://x.test/', body: `<html><body>${body}</body></html>` });
    expect(p.segments.map((s) => s.text).join(' ')).not.toContain('enable JavaScript');
  });
});

describe('JSON-LD wrappers', () => {
  it('reads JSON-LD wrapped in CDATA or a comment', () => {
    const p = createPage({
      url: 'http://x.test/',
      body: '<html><head><script type="application/ld+json"><![CDATA[{"headline":"A"}]]></script><script type="application/ld+json"><!-- {"headline":"B"} --></script></head><body></body></html>',
    });
    expect(p.jsonLd().map((o) => o.headline).sort()).toEqual(['A', 'B']);
  });
});

describe('binary detection', () => {
  it('calls random bytes binary, whatever their control-byte share', () => {
    let seed = 7;
    const bytes = new Uint8Array(20000).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
    expect(() => decodeBody(bytes)).toThrow(BinaryContentError);
  });
});

describe('page language', () => {
  it('a Chinese article full of code and product names is still Chinese', () => {
    const para = '<p>我们来看这样一个场景：函数 parse 的作用是从 Redis 中持续读取 message_queue 数据，使用 contextlib.ExitStack 管理资源。</p>';
    const html = `<html><body><h1>在 Python 中实现延迟调用 ExitStack defer</h1>${para.repeat(5)}<pre>with ExitStack() as stack: stack.callback(cleanup_resources)</pre></body></html>`;
    const page = createPage({ url: 'https://example.com/a', body: html });
    expect(page.lang()).toBe('zh');
  });
  it('an English article quoting a few Chinese words stays English', () => {
    const para = '<p>The word 你好 means hello, and the team said that it was going to be a long and interesting trip to the north.</p>';
    const page = createPage({ url: 'https://example.com/a', body: `<html><body>${para.repeat(5)}</body></html>` });
    expect(page.lang()).toBe('en');
  });
});

describe('stray <![CDATA[ in HTML content', () => {
  it('is a bogus comment up to the next ">" (as browsers read it), not the rest of the page', () => {
    const page = createPage({ url: 'https://e.com/', body: '<html><body><![CDATA[\n<div id="top"></div><article><p>First post text here.</p></article><p>Second paragraph.</p></body></html>' });
    expect(page.segments.map((s) => s.text)).toEqual(['First post text here.', 'Second paragraph.']);
  });
  it('stays as it is inside scripts and SVG', () => {
    const page = createPage({ url: 'https://e.com/', body: '<html><head><script type="application/ld+json">{"@type":"Article","x":"//<![CDATA[ a > b"}</script></head><body><svg><style><![CDATA[ .a>b{} ]]></style></svg><p>Kept text.</p></body></html>' });
    expect(page.segments.map((s) => s.text)).toEqual(['Kept text.']);
    expect(page.jsonLd()[0]?.x).toBe('//<![CDATA[ a > b');
  });
});
