/**
 * Whole threads (issue 29 item 4): the items of a thread's pages merge into one thread — posts in
 * page order, none twice, one main post. The served case extracts a 5-page thread from a server on
 * 127.0.0.1 the way a crawl meets it (each page on its own, in no particular order) and merges.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeThreadPages, orderThreadPages, pageNumberOf } from '../../middleware/forum/index.js';
import { Extractor } from '../../src/chain/extractor.js';
import type { ForumItem, ForumPost, Item } from '../../src/core/item.js';
import { threadPage } from './thread-site.js';

const post = (floor: number | undefined, author: string, content: string, isMain = false): ForumPost => ({ floor, author, content, publishedAtText: `2024-01-0${1 + (content.length % 9)} 10:00`, isMain });

function page(url: string, nextPage: string | undefined, posts: ForumPost[]): ForumItem {
  return { url, kind: 'forum', title: 'Thread', posts, nextPage, content: posts.map((p) => p.content).join('\n') };
}

describe('mergeThreadPages', () => {
  const p1 = page('https://b.example/t?page=1', 'https://b.example/t?page=2', [post(1, 'ann', 'The question.', true), post(2, 'bob', 'First answer.')]);
  const p2 = page('https://b.example/t?page=2', 'https://b.example/t?page=3', [post(1, 'ann', 'The question.', true), post(3, 'cy', 'Second answer.'), post(4, 'dee', 'Third answer.')]);
  const p3 = page('https://b.example/t?page=3', undefined, [post(4, 'dee', 'Third answer.'), post(5, 'eve', 'Last word.')]);

  it('puts the pages in reading order by their next-page links, whatever order they came in', () => {
    expect(orderThreadPages([p3, p1, p2]).map((p) => p.url)).toEqual([p1.url, p2.url, p3.url]);
  });

  it('keeps every post once, in order, with one main post', () => {
    const m = mergeThreadPages([p2, p3, p1])!;
    expect(m.posts!.map((p) => p.floor)).toEqual([1, 2, 3, 4, 5]);
    expect(m.posts!.filter((p) => p.isMain)).toHaveLength(1);
    expect(m.posts![0]!.isMain).toBe(true);
    expect(m.url).toBe(p1.url);
    expect(m.pages).toEqual([p1.url, p2.url, p3.url]);
    expect(m.nextPage).toBeUndefined();
    expect(m.content).toContain('Last word.');
  });

  it('tells posts without floor numbers apart by author, time and text', () => {
    const a = page('https://c.example/x/page-1', 'https://c.example/x/page-2', [post(undefined, 'ann', 'Hello.', true), post(undefined, 'bob', 'Hi.')]);
    const b = page('https://c.example/x/page-2', undefined, [post(undefined, 'bob', 'Hi.'), post(undefined, 'bob', 'Hi again.')]);
    expect(mergeThreadPages([b, a])!.posts!.map((p) => p.content)).toEqual(['Hello.', 'Hi.', 'Hi again.']);
  });

  it("keeps a later page's first post as a reply, and says where the thread goes on", () => {
    const later = page('https://b.example/t?page=7', 'https://b.example/t?page=8', [post(61, 'fay', 'A reply on page 7.', true)]);
    const m = mergeThreadPages([later])!;
    expect(m.posts![0]!.isMain).toBe(true);
    const both = mergeThreadPages([p1, { ...later, url: 'https://b.example/t?page=2', nextPage: 'https://b.example/t?page=3' }])!;
    expect(both.posts!.filter((p) => p.isMain).map((p) => p.floor)).toEqual([1]);
    expect(both.nextPage).toBe('https://b.example/t?page=3');
  });

  it('reads page numbers from the usual URL shapes, not post ids', () => {
    expect(pageNumberOf('https://b.example/t?page=3')).toBe(3);
    expect(pageNumberOf('https://b.example/thread-9-4.html')).toBe(4);
    expect(pageNumberOf('https://b.example/t/page-2')).toBe(2);
    expect(pageNumberOf('https://b.example/viewtopic.php?p=12345')).toBeUndefined();
  });

  it('is undefined without forum items', () => {
    expect(mergeThreadPages([{ url: 'https://b.example/', kind: 'article' }])).toBeUndefined();
  });
});

describe('a 5-page thread served on 127.0.0.1 becomes one thread', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const m = req.url?.match(/^\/thread-9-(\d)\.html$/);
      if (!m || Number(m[1]) < 1 || Number(m[1]) > 5) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(threadPage(Number(m[1]), base));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('extracts each page on its own and merges them into 1 + 4 × 5 posts', async () => {
    const ex = new Extractor({ kind: 'forum' });
    // Met in crawl order: page 1, then what its pager links, out of order.
    const items: Item[] = [];
    for (const n of [1, 3, 2, 5, 4]) {
      const url = `${base}/thread-9-${n}.html`;
      const body = await (await fetch(url)).text();
      items.push(await ex.extract({ url, body }));
    }
    await ex.close();
    expect(items.every((it) => it.kind === 'forum')).toBe(true);
    expect((items[0] as ForumItem).nextPage).toBe(`${base}/thread-9-2.html`);
    const m = mergeThreadPages(items)!;
    expect(m.pages).toEqual([1, 2, 3, 4, 5].map((n) => `${base}/thread-9-${n}.html`));
    expect(m.posts!.map((p) => p.floor)).toEqual(Array.from({ length: 21 }, (_, k) => k + 1));
    expect(m.posts!.filter((p) => p.isMain)).toHaveLength(1);
    expect(m.posts![0]!.author).toBe('starter');
    expect(m.posts![20]!.content).toContain('Reply number 21');
  });
});
