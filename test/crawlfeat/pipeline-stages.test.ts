import { describe, expect, it } from 'vitest';
import { DropItem, ItemPipeline, type PipelineStage } from '../../src/crawler/pipeline.js';
import { CallbackSink } from '../../src/storage/item-sink.js';
import type { Item } from '../../src/core/item.js';

const art = (n: number, extra: Partial<Item> = {}): Item => ({ url: `http://a/${n}`, kind: 'article', title: `T${n}`, ...extra });

describe('spider pipelines (Scrapy ITEM_PIPELINES)', () => {
  it('run in order, transform, change in place, drop with reasons, may be async', async () => {
    const got: Item[] = [];
    const calls: string[] = [];
    const stages = [
      function tag(item: Item) {
        calls.push('tag');
        (item as Record<string, unknown>).site = 'a';
      },
      async (item: Item, ctx: { drop(r: string): null }) => {
        calls.push('async');
        await new Promise((r) => setTimeout(r, 1));
        if (!item.title) return ctx.drop('no title');
        return { ...item, title: item.title.toUpperCase() };
      },
      function onlyEven(item: Item) {
        return Number(item.url.split('/').pop()) % 2 === 0 ? item : null;
      },
      {
        name: 'thrower',
        process(item: Item) {
          if (item.url.endsWith('/4')) throw new DropItem('four');
          if (item.url.endsWith('/6')) throw new Error('boom');
          return item;
        },
      },
    ];
    const p = new ItemPipeline([new CallbackSink((i) => void got.push(i))], undefined, [], { stages });
    for (const n of [1, 2, 4, 6, 8]) await p.process(art(n));
    expect(await p.process(art(10, { title: undefined }))).toBe('dropped');
    await p.close();
    expect(got.map((i) => [i.url, i.title, (i as Record<string, unknown>).site])).toEqual([
      ['http://a/2', 'T2', 'a'],
      ['http://a/8', 'T8', 'a'],
    ]);
    expect(p.dropped).toEqual({ onlyEven: 1, four: 1, 'no title': 1 });
    expect(p.errors).toEqual({ thrower: 1 });
    expect(calls.slice(0, 2)).toEqual(['tag', 'async']);
  });

  it('validates what the stages return; opens and closes each stage once', async () => {
    const events: string[] = [];
    const stage: PipelineStage = {
      name: 'db',
      open: () => void events.push('open'),
      process: (item) => ({ ...item, publishedAt: 'yesterday' }),
      close: () => void events.push('close'),
    };
    const got: Item[] = [];
    const p = new ItemPipeline([new CallbackSink((i) => void got.push(i))], undefined, [], { stages: [stage] });
    await p.open();
    expect(await p.process(art(1))).toBe('invalid');
    expect(await p.process(art(2))).toBe('invalid');
    await p.close();
    expect(got).toEqual([]);
    expect(p.invalid).toEqual({ 'publishedAt: ISO 8601 with offset': 2 });
    expect(events).toEqual(['open', 'close']);
  });

  it('a stage returning something that is not an item is an error, not a crash', async () => {
    const p = new ItemPipeline([], undefined, [], { stages: [() => 'oops' as unknown as Item] });
    expect(await p.process(art(1))).toBe('dropped');
    expect(p.errors).toEqual({ 'pipelines[0]': 1 });
  });
});

import { validateSpider } from '../../src/spider/config.js';

describe('pipelines and feeds in a spider are checked before any request', () => {
  it('names each bad field', () => {
    let message = '';
    try {
      validateSpider({ name: 's', startUrls: ['http://h/'], pipelines: [42, { name: 'x' }], feeds: { 'items.txt': {}, 'a.json': { bom: true }, 'b.csv': { rows: 'floor' } } });
    } catch (e) {
      message = (e as Error).message;
    }
    for (const want of [/pipelines\[0\]: expected a function/, /pipelines\[1\]: expected a function/, /feeds\.items\.txt: cannot tell the format/, /feeds\.a\.json: rows and bom apply to CSV feeds only/, /feeds\.b\.csv\.rows: Invalid option/]) expect(message).toMatch(want);
    expect(() => validateSpider({ name: 's', startUrls: ['http://h/'], follow: [{ pattern: '#x' }] })).toThrow(/follow\[0\]\.pattern: invalid glob "#x"/);
  });
});
