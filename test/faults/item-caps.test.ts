/**
 * Caps on item fields (issue 24 item 10): a 2 MB title, 3,000 images, 12,000 list entries and
 * 1,500 pager links are cut to their caps (src/chain/item-caps.ts), and the item's `error` says what was cut from how
 * much. Under the caps nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { Extractor } from '../../src/chain/extractor.js';
import { LIST_CAPS, TEXT_CAPS } from '../../src/chain/item-caps.js';
import { itemSchema } from '../../src/core/item.js';
import type { Middleware } from '../../src/core/middleware.js';

const PARA = '<p>The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot.</p>';

describe('item field caps', () => {
  const ex = new Extractor({ kind: 'article' });

  it('a 2 MB title and 3,000 images are cut, and the item says so', async () => {
    const title = 'Transport plan approved '.repeat(90_000);
    const images = Array.from({ length: 3_000 }, (_, i) => `<img src="/img/photo-${i}.jpg" alt="photo ${i}" width="600" height="400">`).join('');
    const body = `<html><head><title>${title}</title></head><body><article><h1>${title}</h1>${PARA}${images}${PARA.repeat(4)}</article></body></html>`;
    const item = await ex.extract({ url: 'https://news.example.org/2024/05/plan.html', body });
    expect(itemSchema.safeParse(item).success).toBe(true);
    expect(item.kind).toBe('article');
    expect(item.title!.length).toBe(TEXT_CAPS.title);
    expect(item.title!.startsWith('Transport plan approved')).toBe(true);
    expect(item.error).toMatch(/title cut to 1,000 of [\d,]+ characters/);
    expect(item.kind === 'article' && item.images).toHaveLength(LIST_CAPS.images);
    expect(item.error).toMatch(/images cut to the first 1,000 of 3,000/);
    expect(item.content).toContain('The council approved the new transport plan');
  });

  it('list fields filled past their caps by any middleware (here a user one) are cut, and the item says so', async () => {
    const many: Middleware = {
      name: 'many-entries',
      priority: 800,
      process(ctx) {
        ctx.item.kind = 'list';
        ctx.item.items = Array.from({ length: 12_000 }, (_, i) => ({ url: `https://news.example.org/news/story-${i}.html`, title: `Story ${i}` }));
        ctx.item.pages = Array.from({ length: 1_500 }, (_, i) => `https://news.example.org/news/?page=${i + 2}`);
      },
    };
    const item = await new Extractor({ kind: 'list', extra: [many] }).extract({ url: 'https://news.example.org/news/', body: '<html><body><p>x</p></body></html>' });
    expect(item.kind).toBe('list');
    if (item.kind !== 'list') return;
    expect(item.items).toHaveLength(LIST_CAPS.items);
    expect(item.items![0]!.url).toBe('https://news.example.org/news/story-0.html');
    expect(item.pages).toHaveLength(LIST_CAPS.pages);
    expect(item.error).toMatch(/items cut to the first 10,000 of 12,000; pages cut to the first 1,000 of 1,500/);
  });

  it('a page under every cap has no error', async () => {
    const item = await ex.extract({ url: 'https://news.example.org/a.html', body: `<html><head><title>Plan</title></head><body><article><h1>Plan</h1>${PARA.repeat(5)}<img src="/a.jpg" width="600" height="400"></article></body></html>` });
    expect(item.error).toBeUndefined();
  });
});
