/** The crawl's thread merger (src/crawler/run/thread-merge.ts) without a crawl: which items wait,
 * when a thread is complete, what an interrupted run leaves for the next. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/middleware.js';
import type { ForumItem, Item } from '../../../src/core/item.js';
import { urlNormalisation } from '../../../src/crawler/normalise-url.js';
import { ThreadMerger } from '../../../src/crawler/run/thread-merge.js';

const B = 'https://b.example/t';
const page = (n: number, of: number): ForumItem => ({
  url: `${B}?page=${n}`,
  kind: 'forum',
  title: 'T',
  posts: [...(n === 1 ? [{ floor: 1, author: 'op', content: 'Q', isMain: true }] : []), { floor: n + 1, author: `u${n}`, content: `reply ${n}` }],
  nextPage: n < of ? `${B}?page=${n + 1}` : undefined,
  pages: Array.from({ length: of }, (_, k) => `${B}?page=${k + 1}`).filter((_, k) => k + 1 !== n),
});
const open = (dir: string, resumed = false) => ThreadMerger.open(dir, 's', urlNormalisation({}), resumed, silentLogger);
const floors = (items: Item[]) => items.flatMap((it) => (it.kind === 'forum' ? (it.posts ?? []).map((p) => p.floor) : []));

describe('ThreadMerger', () => {
  it('passes items of other kinds and forum pages without a pager through unchanged', () => {
    const m = open(mkdtempSync(path.join(tmpdir(), 'gleaner-tm-')));
    const article: Item = { url: 'https://b.example/a', kind: 'article', content: 'x' };
    const single: ForumItem = { url: 'https://b.example/s', kind: 'forum', posts: [{ content: 'only', isMain: true }] };
    expect(m.hold(article)).toEqual([article]);
    expect(m.hold(single)[0]).toBe(single);
  });

  it('holds the pages until every page they link is there, in any order, then one thread', () => {
    const m = open(mkdtempSync(path.join(tmpdir(), 'gleaner-tm-')));
    expect(m.hold(page(3, 3))).toEqual([]);
    expect(m.hold(page(1, 3))).toEqual([]);
    const out = m.hold(page(2, 3));
    expect(out).toHaveLength(1);
    expect(out[0]!.url).toBe(`${B}?page=1`);
    expect(floors(out)).toEqual([1, 2, 3, 4]);
    expect(m.finish(true)).toEqual([]);
  });

  it('an interrupted run keeps its held pages for the resumed one; a stored thread is not held again', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-tm-'));
    const a = open(dir);
    // another thread, complete and stored in this run
    const other = (n: number): ForumItem => ({ ...page(n, 2), url: `${B}2?page=${n}`, nextPage: n < 2 ? `${B}2?page=2` : undefined, pages: [`${B}2?page=${3 - n}`] });
    a.hold(other(1));
    const done = a.hold(other(2));
    a.stored(done);
    expect(a.hold(page(1, 3))).toEqual([]);
    expect(a.finish(false)).toEqual([]);
    a.close(false);

    const b = open(dir, true);
    expect(b.hold(page(2, 3))).toEqual([]);
    // A finished crawl stores what is still held, merged from the pages it has.
    const rest = b.finish(true);
    expect(rest.map((it) => it.url)).toEqual([`${B}?page=1`]);
    expect(floors(rest)).toEqual([1, 2, 3]);
    b.stored(rest);
    b.close(true);
    expect(() => readFileSync(path.join(dir, 's.threads.jsonl'))).toThrow();
  });

  it('a fresh run does not read what an earlier one held', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-tm-'));
    open(dir).hold(page(1, 2));
    expect(open(dir, false).finish(true)).toEqual([]);
  });
});
