import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ItemPipeline } from '../../src/crawler/pipeline.js';
import { CallbackSink, DatasetFileSink, FileSink, repairDataset } from '../../src/storage/item-sink.js';
import { Configuration, Dataset, MemoryStorage } from 'crawlee';
import type { Item } from '../../src/core/item.js';

describe('item pipeline', () => {
  it('validates, de-duplicates by url+kind and exports', async () => {
    const got: Item[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), 'pipe-'));
    const csv = path.join(dir, 'out.csv');
    const p = new ItemPipeline([new CallbackSink((i) => void got.push(i)), new FileSink(csv)], undefined, [{ url: 'http://a/old', kind: 'article' }]);
    expect(await p.process({ url: 'http://a/1', kind: 'article', title: 'Hello, "world"', content: 'line1\nline2' })).toBe('stored');
    expect(await p.process({ url: 'http://a/1', kind: 'article' })).toBe('duplicate');
    expect(await p.process({ url: 'http://a/1', kind: 'list', items: [] })).toBe('stored');
    expect(await p.process({ url: 'http://a/old', kind: 'article' })).toBe('duplicate');
    expect(await p.process({ url: 'http://a/2', kind: 'article', publishedAt: 'yesterday' })).toBe('invalid');
    expect(await p.process({ url: 'not a url', kind: 'article' } as Item)).toBe('invalid');
    await p.close();
    expect(got.map((i) => i.kind)).toEqual(['article', 'list']);
    expect(p.stored).toEqual({ article: 1, list: 1 });
    expect(p.duplicates).toBe(2);
    expect(Object.keys(p.invalid)).toEqual(['publishedAt: ISO 8601 with offset', 'url: Invalid URL']);
    const text = readFileSync(csv, 'utf8');
    expect(text.split('\n')[0]).toBe('url,kind,title,author,publishedAt,content'); // the default columns of the kinds met (an article's)
    expect(text).toContain('"Hello, ""world"""');
    expect(text).toContain('"line1\nline2"');
  });

  it('repairs a dataset torn by kill -9', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ds-')), 'datasets', 'x');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '000000001.json'), JSON.stringify({ url: 'http://a/1', kind: 'article' }));
    writeFileSync(path.join(dir, '000000002.json'), '{"url": "http://a/2", "ki');
    writeFileSync(path.join(dir, '000000003.json'), JSON.stringify({ url: 'http://a/3', kind: 'list' }));
    mkdirSync(path.join(dir, '000000003.json.lock'));
    writeFileSync(path.join(dir, '__metadata__.json'), JSON.stringify({ name: 'x', itemCount: 1 }));
    const items = repairDataset(dir);
    expect(items.map((i) => i.url)).toEqual(['http://a/1', 'http://a/3']);
    expect(readdirSync(dir).sort()).toEqual(['000000001.json', '000000002.json', '__metadata__.json']);
    expect(JSON.parse(readFileSync(path.join(dir, '__metadata__.json'), 'utf8')).itemCount).toBe(2);
  });
});

describe('dataset files', () => {
  it('are a Crawlee dataset: Dataset.open reads them back, appends continue the numbering', async () => {
    const storageDir = mkdtempSync(path.join(tmpdir(), 'dsf-'));
    const a = DatasetFileSink.open(storageDir, 'spider-x');
    await a.write({ url: 'http://a/1', kind: 'article', title: 'One' });
    await a.write({ url: 'http://a/2', kind: 'list', items: [{ url: 'http://a/1' }] });
    await a.close();
    const b = DatasetFileSink.open(storageDir, 'spider-x');
    await b.write({ url: 'http://a/3', kind: 'forum', posts: [{ content: 'hi' }] });
    await b.close();
    const storage = new MemoryStorage({ localDataDirectory: storageDir, persistStorage: false });
    const ds = await Dataset.open('spider-x', { config: new Configuration({ storageClient: storage, purgeOnStart: false }), storageClient: storage });
    const data = await ds.getData();
    expect(data.total).toBe(3);
    expect(data.items.map((i) => i.url)).toEqual(['http://a/1', 'http://a/2', 'http://a/3']);
    expect(readdirSync(path.join(storageDir, 'datasets', 'spider-x')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
