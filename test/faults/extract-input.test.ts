/** Library input checks (issue 14 item 7): one clear error type for bad input, and every item
 * `Extractor.extract` returns passes `itemSchema`. */
import { describe, expect, it } from 'vitest';
import { Extractor, ExtractInputError } from '../../src/chain/extractor.js';
import { itemSchema } from '../../src/core/item.js';
import type { Middleware } from '../../src/core/middleware.js';

const PARA = '<p>The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot, and the first changes start in spring.</p>';
const page = `<html><head><title>A title for the page</title></head><body><article><h1>A title for the page</h1><p>By Ann Lee, 3 May 2024</p>${PARA.repeat(5)}</article></body></html>`;

describe('Extractor.extract input', () => {
  const ex = new Extractor();
  it.each([
    ['undefined', undefined, /expected an object/],
    ['null', null, /expected an object/],
    ['a string', 'http://a.test/', /expected an object/],
    ['no url', { body: page }, /url: expected an absolute URL string \(got undefined\)/],
    ['a relative url', { url: '/a.html', body: page }, /url: expected an absolute URL/],
    ['body undefined', { url: 'http://a.test/', body: undefined }, /body: expected a string, Buffer\/Uint8Array or ArrayBuffer \(got undefined\)/],
    ['body null', { url: 'http://a.test/', body: null }, /body: .*\(got null\)/],
    ['body a number', { url: 'http://a.test/', body: 42 }, /body: .*\(got number 42\)/],
    ['invalid fetchedAt', { url: 'http://a.test/', body: page, fetchedAt: new Date('nope') }, /fetchedAt: expected a valid Date \(got an invalid Date\)/],
    ['fetchedAt a string', { url: 'http://a.test/', body: page, fetchedAt: '2024-01-01' }, /fetchedAt: expected a valid Date/],
  ])('%s: ExtractInputError', async (_name, input, message) => {
    const p = ex.extract(input as never);
    await expect(p).rejects.toBeInstanceOf(ExtractInputError);
    await expect(ex.extract(input as never)).rejects.toThrow(message);
  });

  it('names every problem at once', async () => {
    const e = (await ex.extract({ body: null, fetchedAt: "x" } as never).catch((err: unknown) => err)) as ExtractInputError;
    expect(e.problems).toHaveLength(3);
  });

  it('accepts an ArrayBuffer body as bytes; a batch checks every input with its index', async () => {
    const bytes = new TextEncoder().encode(page);
    const item = await new Extractor({ kind: 'article' }).extract({ url: 'http://a.test/x', body: bytes.buffer as ArrayBuffer } as never);
    expect(item.title).toBe('A title for the page');
    await expect(ex.extractBatch([{ url: 'http://a.test/1', body: page }, { url: 'http://a.test/2' } as never])).rejects.toThrow(/inputs\[1\]\.body/);
  });

  it('every returned item passes itemSchema, even when a middleware writes a bad field', async () => {
    const bad: Middleware = {
      name: 'bad-date',
      priority: 800,
      process(ctx) {
        (ctx.item as Record<string, unknown>).publishedAt = 'last Tuesday';
        (ctx.item as Record<string, unknown>).images = 'not a list';
      },
    };
    const item = await new Extractor({ kind: 'article', extra: [bad] }).extract({ url: 'http://a.test/x', body: page });
    expect(itemSchema.safeParse(item).success).toBe(true);
    expect(item.kind === 'article' && item.publishedAt).toBeFalsy();
    expect(item.title).toBe('A title for the page');
    expect(item.error).toMatch(/invalid fields dropped \(.*publishedAt.*images/);
    for (const body of ['', '<html>', Buffer.from([0, 1, 2, 3, 255]), '\uFEFF<p>x</p>']) {
      expect(itemSchema.safeParse(await ex.extract({ url: 'http://a.test/y', body })).success).toBe(true);
    }
  });
});
