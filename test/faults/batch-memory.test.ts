/**
 * A batch's memory (2026-12-02, eighth session): extracting 1,358 saved pages of one site took 4 GB.
 * Items and caches held strings cut from their page's HTML, which V8 keeps alive whole (a 300-page
 * batch retained ~1 MB per page), and the learn pass held every page of a site parsed at once.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Extractor, LEARN_WINDOW_BYTES, learnWindows } from '../../src/chain/extractor.js';
import { ownString } from '../../src/core/string-cache.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A page of ~200 KB (most of it a script) with a long title and long, page-unique class names. */
function page(i: number): { url: string; body: string } {
  const filler = `var data${i} = "${'abcdefghij'.repeat(20_000)}";`;
  const body = `<!DOCTYPE html><html><head><title>The title of the page number ${i} in this batch</title><script>${filler}</script></head><body><div class="container-of-page-${i}-main"><h1>The title of the page number ${i} in this batch</h1><p class="paragraph-style-of-page-${i}">A paragraph of page ${i}, long enough to be taken as the text of the page by the extractor.</p></div></body></html>`;
  return { url: `http://site-${i}.test/page-${i}.html`, body };
}

/** Heap still used after a batch of `n` pages, with its items held. */
async function retained(n: number): Promise<{ bytes: number; items: unknown[] }> {
  const ex = new Extractor({ kind: 'article' });
  await ex.open();
  gc();
  const before = process.memoryUsage().heapUsed;
  const items = await ex.extractBatch(Array.from({ length: n }, (_, i) => page(i + n * 1000)));
  gc();
  gc();
  return { bytes: process.memoryUsage().heapUsed - before, items };
}

describe('a batch holds no page once its item is made', () => {
  it('the heap a batch keeps grows by its items, not by its pages’ HTML', async () => {
    const small = await retained(10);
    const large = await retained(50);
    const perPage = (large.bytes - small.bytes) / 40;
    // a page is ~200 KB of HTML; its item and cache entries are well under 20 KB
    expect(large.items).toHaveLength(50);
    expect(perPage, `${(perPage / 1024).toFixed(0)} KB retained per page`).toBeLessThan(20_000);
  });

  it('ownString copies a string cut from a larger one; short strings are kept as they are', () => {
    const big = 'x'.repeat(100_000) + 'the part that is kept';
    const cut = big.slice(100_000);
    expect(ownString(cut)).toBe(cut);
    expect(ownString('short')).toBe('short');
  });
});

describe('the learn pass of a large site runs in windows', () => {
  const inputs = (sizes: number[]) => sizes.map((n, i) => ({ url: `http://s.test/${i}`, body: new Uint8Array(n) }));
  it('splits a site’s pages into consecutive windows of about LEARN_WINDOW_BYTES, each with at least one page', () => {
    const MB = 1024 * 1024;
    const w = LEARN_WINDOW_BYTES;
    expect(learnWindows([0, 1, 2], inputs([MB, MB, MB]))).toEqual([[0, 1, 2]]);
    expect(learnWindows([0, 1, 2, 3], inputs([w / 2, w / 2, 1, w * 2]))).toEqual([[0, 1], [2], [3]]);
    expect(learnWindows([2, 0], inputs([w, 1, w]))).toEqual([[2], [0]]);
  });
});
