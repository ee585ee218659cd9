/**
 * The Lua semantics of the shared frontier, on a real redis-server (no mocks): leases with
 * deadlines on Redis's clock, renewal, re-lease after expiry, late results refused, exactly-once
 * items, global finish, the page budget, politeness booked with the lease, the seen-set.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { RedisFrontier } from '../../src/crawler/redis/frontier.js';
import { crawlKeys } from '../../src/crawler/redis/keys.js';
import { SEEN_BUCKET_LOAD } from '../../src/crawler/redis/scripts.js';
import { RedisItemSink, streamItems } from '../../src/storage/redis-item-sink.js';
import type { Item } from '../../src/core/item.js';
import { client, sleep, spiderName } from './helpers.js';

const clients: Redis[] = [];
const open = (opts: Parameters<typeof RedisFrontier.open>[1]) => {
  const r = client();
  clients.push(r);
  return RedisFrontier.open(r, { heartbeatMs: 60_000, ...opts });
};
afterAll(async () => {
  for (const c of clients) await c.quit();
});

const req = (url: string, depth = 1) => ({ url, depth });
const item = (url: string): Item => ({ url, kind: 'article', title: `t ${url}`, spider: 's', fetchedAt: new Date().toISOString() }) as Item;

describe('RedisFrontier (real Redis)', () => {
  it('add is idempotent and has() sees every added URL', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a' });
    const b = await open({ spider, workerId: 'b' });
    expect((await a.add([req('http://127.0.0.1:1/x'), req('http://127.0.0.1:1/y')])).map((r) => r.url)).toEqual(['http://127.0.0.1:1/x', 'http://127.0.0.1:1/y']);
    expect(await b.add([req('http://127.0.0.1:1/y'), req('http://127.0.0.1:1/z')])).toEqual([req('http://127.0.0.1:1/z')]);
    expect(b.has('http://127.0.0.1:1/x')).toBe(false); // b never saw it: a hint only
    expect(await b.hasShared('http://127.0.0.1:1/x')).toBe(true);
    expect(await b.hasShared('http://127.0.0.1:1/nope')).toBe(false);
    expect((await a.refresh()).queued).toBe(3);
    await a.close(false);
    await b.close(false);
  });

  it('an expired lease goes back to the queue and to another worker; the late done is refused; the item is stored once', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a', leaseMs: 300 });
    const b = await open({ spider, workerId: 'b', leaseMs: 300 });
    await a.add([req('http://127.0.0.1:1/p')]);
    const [ra] = await a.take(10);
    expect(ra?.url).toBe('http://127.0.0.1:1/p');
    expect(await b.take(10)).toEqual([]); // leased by a
    await sleep(400); // a's lease expires (a "hangs": no heartbeat)
    const [rb] = await b.take(10);
    expect(rb?.url).toBe('http://127.0.0.1:1/p');
    expect(rb?.key).not.toBe(ra?.key);
    // a comes back late with its result: refused, its item not written
    new RedisItemSink(a).write(item('http://127.0.0.1:1/p'), { requestUrl: 'http://127.0.0.1:1/p' });
    await a.done('http://127.0.0.1:1/p', 'ok');
    expect(a.local.refused).toBe(1);
    // b's result counts, once
    await new RedisItemSink(b).write(item('http://127.0.0.1:1/p'), { requestUrl: 'http://127.0.0.1:1/p' });
    await b.done('http://127.0.0.1:1/p', 'ok');
    const st = await b.refresh();
    expect(st).toMatchObject({ ok: 1, leased: 0, queued: 0, items: 1, requeued: 1, refused: 1, finished: true });
    const items = [];
    for await (const it of streamItems(clients[0]!, crawlKeys(spider, a.keys.gen).items)) items.push(it);
    expect(items.map((i) => i.url)).toEqual(['http://127.0.0.1:1/p']);
    await a.close(false);
    await b.close(false);
  });

  it("a page's links go to Redis with its commit, and not at all when the commit is refused", async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a', leaseMs: 300 });
    const b = await open({ spider, workerId: 'b', leaseMs: 300 });
    await a.add([req('http://127.0.0.1:1/p')]);
    const [p] = await a.take(1);
    await a.add([{ url: 'http://127.0.0.1:1/q', depth: 1, referrer: p!.url }]);
    expect(await b.hasShared('http://127.0.0.1:1/q')).toBe(false); // not before the commit
    await sleep(400); // a's lease runs out: its commit is refused, its links are not added
    await a.done(p!.url, 'ok');
    expect(await b.hasShared('http://127.0.0.1:1/q')).toBe(false);
    const [again] = await b.take(5);
    expect(again?.url).toBe(p!.url);
    await b.add([{ url: 'http://127.0.0.1:1/q', depth: 1, referrer: p!.url }]);
    await b.done(p!.url, 'ok');
    expect(await a.hasShared('http://127.0.0.1:1/q')).toBe(true);
    expect((await b.take(5)).map((r) => r.url)).toEqual(['http://127.0.0.1:1/q']);
    await a.close(false);
    await b.close(false);
  });

  it('an item committed twice (a page fetched again) is stored once', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a' });
    await a.add([req('http://127.0.0.1:1/p'), req('http://127.0.0.1:1/q')]);
    await a.take(10);
    // the same item (url + kind) reached through two pages
    a.stage('http://127.0.0.1:1/p', item('http://127.0.0.1:1/same'));
    a.stage('http://127.0.0.1:1/q', item('http://127.0.0.1:1/same'));
    await a.done('http://127.0.0.1:1/p', 'ok');
    await a.done('http://127.0.0.1:1/q', 'ok');
    expect(await a.refresh()).toMatchObject({ ok: 2, items: 1, duplicateItems: 1 });
    await a.close(false);
  });

  it('the heartbeat renews leases past their length', async () => {
    const spider = spiderName();
    const r = client();
    clients.push(r);
    const a = await RedisFrontier.open(r, { spider, workerId: 'a', leaseMs: 300, heartbeatMs: 80 });
    const b = await open({ spider, workerId: 'b', leaseMs: 300 });
    await a.add([req('http://127.0.0.1:1/p')]);
    expect(await a.take(1)).toHaveLength(1);
    await sleep(900); // three lease lengths, renewed every 80 ms
    expect(await b.take(10)).toEqual([]);
    await a.done('http://127.0.0.1:1/p', 'ok');
    expect(a.local.refused).toBe(0);
    expect((await b.refresh()).ok).toBe(1);
    await a.close(false);
    await b.close(false);
  });

  it('finishes for both workers only when nothing is pending and nothing is leased by either', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a' });
    const b = await open({ spider, workerId: 'b' });
    await a.add([req('http://127.0.0.1:1/1')]);
    await a.take(10);
    // b has nothing to do, but a is still working
    expect(await b.take(10)).toEqual([]);
    expect(await b.isFinished()).toBe(false);
    // a's page finds a follow-up (added before its commit)
    await a.add([req('http://127.0.0.1:1/2')]);
    await a.done('http://127.0.0.1:1/1', 'ok');
    expect(await b.isFinished()).toBe(false);
    const [r2] = await b.take(10);
    expect(await a.isFinished()).toBe(false);
    await b.done(r2!.url, 'failed');
    expect(await a.isFinished()).toBe(true);
    expect(await b.isFinished()).toBe(true);
    expect(b.shared).toMatchObject({ ok: 1, failed: 1 });
    expect([a.wonFinish, b.wonFinish].filter(Boolean)).toHaveLength(1);
    await a.close(true);
    await b.close(true);
  });

  it('maxPages is one counter for all workers: successful pages + leases never pass it; failures give their place back', async () => {
    const spider = spiderName();
    const urls = Array.from({ length: 40 }, (_, i) => req(`http://127.0.0.1:1/${i}`));
    const ws = await Promise.all(['a', 'b', 'c'].map((id) => open({ spider, workerId: id, maxPages: 10 })));
    await ws[0]!.add(urls);
    const batches = await Promise.all(ws.map((w) => w.take(100)));
    const taken = batches.flat();
    expect(taken).toHaveLength(10);
    // 3 fail: 3 more may be leased, no more
    // (a worker that does not hold the lease changes nothing: the URL is already known)
    for (const r of taken.slice(0, 3)) for (const w of ws) await w.done(r.url, 'failed');
    const more = (await Promise.all(ws.map((w) => w.take(100)))).flat();
    expect(more).toHaveLength(3);
    expect(await ws[0]!.isFinished()).toBe(false);
    for (const r of [...taken.slice(3), ...more]) {
      for (const w of ws) await w.done(r.url, 'ok');
    }
    expect(await ws[1]!.isFinished()).toBe(true); // budget spent, nothing leased
    expect(ws[1]!.shared.ok).toBe(10);
    for (const w of ws) await w.close(true);
  });

  it('books per-host politeness with the lease: two workers together get one slot per interval', async () => {
    const spider = spiderName();
    const interval = 100;
    const a = await open({ spider, workerId: 'a', intervalMs: interval });
    const b = await open({ spider, workerId: 'b', intervalMs: interval });
    await a.add(Array.from({ length: 200 }, (_, i) => req(`http://127.0.0.1:1/${i}`)));
    await a.add(Array.from({ length: 5 }, (_, i) => req(`http://127.0.0.2:1/${i}`)));
    const started = Date.now();
    let one = 0;
    let two = 0;
    while (Date.now() - started < 1_000) {
      for (const w of [a, b]) {
        for (const r of await w.take(100)) {
          if (r.url.startsWith('http://127.0.0.1:1/')) one++;
          else two++;
          await w.done(r.url, 'ok');
        }
      }
      await sleep(10);
    }
    const elapsed = Date.now() - started;
    // slots up to the end of the window plus the look-ahead (1 s), for one host
    expect(one).toBeLessThanOrEqual(Math.floor((elapsed + 1_000) / interval) + 1);
    expect(one).toBeGreaterThanOrEqual(Math.floor(elapsed / interval));
    expect(two).toBe(5); // the other host is not held back by the first
    await a.close(false);
    await b.close(false);
  });

  it('a worker started again with the same id hands back its leases from before the crash at once', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'w1' });
    await a.add([req('http://127.0.0.1:1/1'), req('http://127.0.0.1:1/2')]);
    expect(await a.take(10)).toHaveLength(2);
    // "kill -9": a never calls done or close
    const again = await open({ spider, workerId: 'w1' });
    expect(again.reclaimedOnStart).toBe(2);
    expect((await again.take(10)).map((r) => r.url).sort()).toEqual(['http://127.0.0.1:1/1', 'http://127.0.0.1:1/2']);
    await again.close(false);
  });

  it('a finished crawl starts over on the next start; --fresh clears a running one', async () => {
    const spider = spiderName();
    const a = await open({ spider, workerId: 'a' });
    await a.add([req('http://127.0.0.1:1/1')]);
    await a.take(1);
    await a.done('http://127.0.0.1:1/1', 'ok');
    expect(await a.isFinished()).toBe(true);
    await a.close(true);
    const b = await open({ spider, workerId: 'b' });
    expect(b.mode).toBe('restart');
    expect(b.keys.gen).toBe(a.keys.gen + 1);
    expect(await b.add([req('http://127.0.0.1:1/1')])).toHaveLength(1); // seen-set is new
    const c = await open({ spider, workerId: 'c' });
    expect(c.mode).toBe('join');
    const d = await open({ spider, workerId: 'd', fresh: true });
    expect(d.mode).toBe('fresh');
    expect(d.keys.gen).toBe(b.keys.gen + 1);
    // the old generation's workers find their crawl gone
    await sleep(200);
    expect(await b.take(5)).toEqual([]);
    expect(b.lost).toBeTruthy();
    for (const f of [b, c, d]) await f.close(false);
  });

  it('keeps the seen-set in small listpack buckets as it grows (linear hashing)', async () => {
    const spider = spiderName();
    const r = client();
    clients.push(r);
    const a = await RedisFrontier.open(r, { spider, workerId: 'a' });
    const n = 20_000;
    const urls = Array.from({ length: n }, (_, i) => req(`http://127.0.0.1:1/page/${i}.html`));
    expect(await a.add(urls)).toHaveLength(n);
    expect(await a.add(urls.slice(0, 1000))).toHaveLength(0);
    const meta = await r.hgetall(a.keys.meta);
    const buckets = 2 ** Number(meta.sL) + Number(meta.sS);
    expect(Number(meta.sn)).toBe(n);
    expect(n / buckets).toBeLessThanOrEqual(SEEN_BUCKET_LOAD);
    expect(n / buckets).toBeGreaterThan(SEEN_BUCKET_LOAD / 2);
    let listpacks = 0;
    let total = 0;
    for (let i = 0; i < buckets; i++) {
      const key = `${a.keys.prefix}s:${i}`;
      total += await r.hlen(key);
      if ((await r.object('ENCODING', key)) === 'listpack') listpacks++;
    }
    expect(total).toBe(n); // every digest in exactly one bucket after the splits
    expect(listpacks).toBe(buckets);
    // a fresh worker (no local cache) finds them all, and nothing else
    const b = await open({ spider, workerId: 'b' });
    for (const u of urls.filter((_, i) => i % 997 === 0)) expect(await b.hasShared(u.url)).toBe(true);
    for (let i = 0; i < 20; i++) expect(await b.hasShared(`http://127.0.0.1:1/other/${i}`)).toBe(false);
    await a.close(false);
    await b.close(false);
  });
});
