import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvRecords, openFeed, parseOutArg, FeedError } from '../../src/storage/feed-sink.js';
import type { Item } from '../../src/core/item.js';
import { csvObjects } from './csv.js';

const forum: Item = {
  url: 'http://f/t-1.html',
  kind: 'forum',
  title: '求助：阳台漏水',
  posts: [
    { floor: 1, author: '老张', publishedAt: '2024-05-01T10:00:00+08:00', content: '阳台漏水，\n怎么办？', isMain: true },
    { floor: 2, author: 'Ann "A"', content: '找物业, 先看防水层' },
  ],
  pageType: { label: 'forum', probabilities: { forum: 0.9, list: 0.1 } },
};
const list: Item = { url: 'http://f/list.html', kind: 'list', title: 'News', items: [{ url: 'http://f/a', title: 'A' }, { url: 'http://f/b', title: 'B', publishedAt: '2024-05-01' }], nextPage: 'http://f/list2.html' };
const article: Item = { url: 'http://f/a', kind: 'article', title: 'A', content: 'x', contentHtml: '<p>x</p>', images: ['http://f/1.png', 'http://f/2.png'], ...({ category: 'local' } as object) };

const tmp = () => mkdtempSync(path.join(tmpdir(), 'feeds-'));

describe('feeds', () => {
  it('CSV by default: the lean columns of the kinds met (url, kind, title, author, publishedAt, content), no HTML, no nested arrays', async () => {
    const dir = tmp();
    const file = path.join(dir, 'items.csv');
    const feed = openFeed({ path: file }, [forum]);
    await feed.write(list);
    await feed.write({ ...article, author: 'Li', publishedAt: '2024-05-01T10:00:00+08:00' });
    await feed.write({ url: 'http://f/bin', kind: 'other', error: 'binary content' });
    await feed.close();
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('url,kind,title,author,publishedAt,content,error');
    const rows = csvObjects(text);
    expect(rows.map((r) => [r.kind, r.author, r.content, r.error])).toEqual([
      ['forum', '', '', ''],
      ['list', '', '', ''],
      ['article', 'Li', 'x', ''],
      ['other', '', '', 'binary content'],
    ]);
    expect(readdirSync(dir)).toEqual(['items.csv']); // the spool is gone
    // a feed of lists only: the list columns (no author, no date)
    const lists = openFeed({ path: path.join(dir, 'lists.csv') });
    await lists.write({ ...list, content: 'A\nB' });
    await lists.close();
    expect(readFileSync(path.join(dir, 'lists.csv'), 'utf8')).toBe('url,kind,title,content\nhttp://f/list.html,list,News,"A\nB"\n');
    // a batch line's id comes first
    const batch = openFeed({ path: path.join(dir, 'batch.csv') });
    await batch.write({ ...article, ...({ id: 'p1' } as object) });
    await batch.close();
    expect(readFileSync(path.join(dir, 'batch.csv'), 'utf8').split('\n')[0]).toBe('id,url,kind,title,author,publishedAt,content');
  });

  it('CSV entry rows by default: the thread’s url, kind and title, then each post’s own fields and own text (not the thread’s content, not the quotes)', async () => {
    const dir = tmp();
    const thread: Item = {
      ...forum,
      content: 'the whole thread, long',
      posts: [forum.posts![0]!, { floor: 2, author: 'B', content: '老张 wrote:\n阳台漏水，\n我也是', quotes: ['老张 wrote:\n阳台漏水，'] }],
    };
    const feed = openFeed({ path: path.join(dir, 'posts.csv'), rows: 'entry' });
    await feed.write(thread);
    await feed.write(list);
    await feed.write(article);
    await feed.close();
    const text = readFileSync(path.join(dir, 'posts.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('url,kind,title,author,publishedAt,content,entry.url,entry.title,entry.publishedAt,post.floor,post.author,post.publishedAt,post.content');
    expect(text).not.toContain('the whole thread');
    const rows = csvObjects(text);
    expect(rows.filter((r) => r.kind === 'forum').map((r) => [r.title, r['post.floor'], r['post.author'], r['post.content']])).toEqual([
      ['求助：阳台漏水', '1', '老张', '阳台漏水，\n怎么办？'],
      ['求助：阳台漏水', '2', 'B', '我也是'],
    ]);
    expect(rows.filter((r) => r.kind === 'list').map((r) => [r['entry.url'], r['entry.publishedAt']])).toEqual([
      ['http://f/a', ''],
      ['http://f/b', '2024-05-01'],
    ]);
    expect(rows.filter((r) => r.kind === 'article').map((r) => r.content)).toEqual(['x']);
  });

  it("CSV with fields: 'all': one row per item, nested values in dotted columns, custom fields and contentHtml kept", async () => {
    const file = path.join(tmp(), 'items.csv');
    const feed = openFeed({ path: file, fields: 'all' }, [forum]);
    await feed.write(list);
    await feed.write(article);
    await feed.close();
    const text = readFileSync(file, 'utf8');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const rows = csvObjects(text);
    expect(rows.length).toBe(3);
    const header = text.split('\n')[0]!.split(',');
    expect(header.slice(0, 3)).toEqual(['url', 'kind', 'title']);
    expect(header).toContain('posts.2.author');
    expect(header).toContain('items.1.url');
    expect(header).toContain('pageType.probabilities.forum');
    expect(header.at(-1)).toBe('category'); // fields outside the item shape come last
    expect(rows[0]!['posts.1.content']).toBe('阳台漏水，\n怎么办？');
    expect(rows[0]!['posts.2.author']).toBe('Ann "A"');
    expect(rows[2]!.images).toBe('http://f/1.png\nhttp://f/2.png');
    expect(rows[2]!.contentHtml).toBe('<p>x</p>');
    expect(rows[2]!.category).toBe('local');
    expect(readdirSync(path.dirname(file))).toEqual(['items.csv']); // the spool is gone
  });

  it('CSV rows per post / list entry, BOM, kinds filter, fixed fields', async () => {
    const dir = tmp();
    const posts = openFeed({ path: path.join(dir, 'posts.csv'), rows: 'entry', bom: true, kinds: ['forum'], fields: 'all' });
    for (const i of [forum, list, article]) await posts.write(i);
    await posts.close();
    const text = readFileSync(path.join(dir, 'posts.csv'), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = csvObjects(text);
    expect(rows.map((r) => [r.url, r['post.floor'], r['post.author']])).toEqual([
      ['http://f/t-1.html', '1', '老张'],
      ['http://f/t-1.html', '2', 'Ann "A"'],
    ]);
    expect(rows[0]!.title).toBe('求助：阳台漏水');

    expect(csvRecords(list, 'entry').map((r) => r['entry.url'])).toEqual(['http://f/a', 'http://f/b']);
    expect(csvRecords(article, 'entry').length).toBe(1);

    const fixed = openFeed({ path: path.join(dir, 'fixed.csv'), fields: ['url', 'title', 'post.author'], rows: 'entry' });
    await fixed.write(forum);
    await fixed.close();
    expect(readFileSync(path.join(dir, 'fixed.csv'), 'utf8')).toBe('url,title,post.author\nhttp://f/t-1.html,求助：阳台漏水,老张\nhttp://f/t-1.html,求助：阳台漏水,"Ann ""A"""\n');
  });

  it('JSON is one valid array; JSON Lines one item per line; fields pick dotted paths', async () => {
    const dir = tmp();
    const json = openFeed({ path: path.join(dir, 'items.json') });
    const empty = openFeed({ path: path.join(dir, 'empty.json') });
    const jl = openFeed({ path: path.join(dir, 'items.jl'), fields: ['url', 'pageType.label'] });
    for (const i of [forum, list]) {
      await json.write(i);
      await jl.write(i);
    }
    for (const f of [json, empty, jl]) await f.close();
    expect(JSON.parse(readFileSync(path.join(dir, 'items.json'), 'utf8'))).toEqual([forum, list]);
    expect(JSON.parse(readFileSync(path.join(dir, 'empty.json'), 'utf8'))).toEqual([]);
    expect(readFileSync(path.join(dir, 'items.jl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ url: forum.url, 'pageType.label': 'forum' }, { url: list.url }]);
  });

  it('--out FILE[:FORMAT]; unknown formats and extensions are clear errors', () => {
    expect(parseOutArg('out/items.csv')).toEqual({ path: 'out/items.csv' });
    expect(parseOutArg('items.txt:jsonl')).toEqual({ path: 'items.txt', format: 'jsonl' });
    expect(() => parseOutArg('items.txt')).toThrow(FeedError);
    expect(() => parseOutArg('items.txt')).toThrow(/cannot tell the format/);
    expect(() => parseOutArg('items.out:xml')).toThrow(/unknown format "xml" \(known: jsonl, json, csv\)/);
    expect(() => openFeed({ path: path.join(tmp(), 'a.json'), bom: true })).toThrow(/CSV feeds only/);
  });
});
