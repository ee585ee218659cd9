/**
 * Decoding (issue 24 item 7): the declared charset (header, BOM, <meta>) decides before any binary
 * heuristic; NUL bytes inside declared text are dropped, not fatal; UTF-16 named by the header
 * alone (no BOM) is decoded. Undeclared bytes that look binary, and random bytes whatever they
 * declare, are still refused.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { BinaryContentError, decodeBody } from '../../src/core/decode.js';
import { Extractor } from '../../src/chain/extractor.js';

const PARA = '<p>The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot.</p>';
const article = `<html><head><title>Transport plan approved</title></head><body><article><h1>Transport plan approved</h1>${PARA.repeat(6)}</article></body></html>`;

function pseudoRandom(n: number): Uint8Array {
  let seed = 11;
  return new Uint8Array(n).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
}

describe('a declared charset decides before the binary check', () => {
  const withNul = Buffer.concat([Buffer.from(article.slice(0, 300)), Buffer.from([0]), Buffer.from(article.slice(300))]);

  it('one NUL byte in a page whose header names its charset: decoded, the NUL dropped', () => {
    const d = decodeBody(withNul, 'text/html; charset=utf-8');
    expect(d.text).toBe(article);
    expect(d.source).toBe('header');
  });

  it('one NUL byte in a page whose <meta> names its charset: decoded', () => {
    const page = article.replace('<head>', '<head><meta charset="utf-8">');
    const bytes = Buffer.concat([Buffer.from(page.slice(0, 400)), Buffer.from([0, 0]), Buffer.from(page.slice(400))]);
    expect(decodeBody(bytes, 'text/html').text).toBe(page);
  });

  it('the same page with no charset anywhere is still refused as binary', () => {
    expect(() => decodeBody(withNul, 'text/html')).toThrow(BinaryContentError);
  });

  it('UTF-16LE and UTF-16BE named by the header alone (no BOM) are decoded', () => {
    const zh = '<html><head><title>新闻标题</title></head><body><p>这是第一段，内容很重要。</p></body></html>';
    expect(decodeBody(iconv.encode(zh, 'utf-16le'), 'text/html; charset=utf-16le').text).toBe(zh);
    expect(decodeBody(iconv.encode(zh, 'utf-16be'), 'text/html; charset=UTF-16BE').text).toBe(zh);
  });

  it('random bytes are refused whatever charset they declare', () => {
    expect(() => decodeBody(pseudoRandom(20_000), 'text/html; charset=utf-8')).toThrow(BinaryContentError);
    expect(() => decodeBody(pseudoRandom(20_000), 'text/html')).toThrow(BinaryContentError);
  });

  it('NUL characters are dropped from a string body too', () => {
    expect(decodeBody('<p>a\u0000b</p>').text).toBe('<p>ab</p>');
  });

  it('through Extractor.extract: the page with a NUL and the UTF-16LE page are articles, not "binary content"', async () => {
    const ex = new Extractor({ kind: 'auto' });
    try {
      for (const [body, contentType] of [
        [withNul, 'text/html; charset=utf-8'],
        [iconv.encode(article, 'utf-16le'), 'text/html; charset=utf-16le'],
      ] as const) {
        const item = await ex.extract({ url: 'http://a.test/news/2024/plan.html', body, contentType });
        expect(item.error ?? '').not.toMatch(/binary/);
        expect(item.title).toBe('Transport plan approved');
        expect(item.content).toContain('The council approved the new transport plan');
        expect(item.content).not.toContain('\u0000');
      }
    } finally {
      await ex.close();
    }
  });
});
