/**
 * What workers share besides the frontier, on a real redis-server: the per-host fetch gate,
 * robots.txt fetched once per origin, learned site templates published and adopted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { RedisFrontier } from '../../src/crawler/redis/frontier.js';
import { RedisHostRateLimiter, sharedRobotsFetcher } from '../../src/crawler/redis/politeness.js';
import { RedisSiteStore } from '../../src/storage/redis-site-store.js';
import { siteStateReady } from '../../src/chain/site-state.js';
import { TemplateLearner } from '../../middleware/template/index.js';
import { createPage } from '../../src/core/page.js';
import { client, sleep, spiderName } from './helpers.js';

const clients: Redis[] = [];
const conn = () => {
  const r = client();
  clients.push(r);
  return r;
};
afterAll(async () => {
  for (const c of clients) await c.quit();
});

describe('shared politeness', () => {
  it('two workers waiting on one host get slots an interval apart, other hosts are not held back', async () => {
    const spider = spiderName();
    const f = await RedisFrontier.open(conn(), { spider });
    const interval = 100;
    const l1 = new RedisHostRateLimiter(conn(), f.keys, 60_000 / interval);
    const l2 = new RedisHostRateLimiter(conn(), f.keys, 60_000 / interval);
    const times: number[] = [];
    const t0 = Date.now();
    let other = 0;
    await Promise.all([
      // each "request" holds the host's gate until its response (5 ms later) releases it
      ...Array.from({ length: 8 }, async (_, i) => {
        const l = i % 2 ? l1 : l2;
        const ticket = await l.wait('127.0.0.1:1');
        times.push(Date.now());
        await sleep(5);
        l.release('127.0.0.1:1', ticket);
      }),
      l1.wait('127.0.0.2:1').then(() => (other = Date.now() - t0)),
    ]);
    times.sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps), JSON.stringify(gaps)).toBeGreaterThanOrEqual(interval + 5);
    expect(other).toBeLessThan(interval);
    l1.close();
    l2.close();
    await f.close(false);
  });

  it('a worker that never reports its response holds the gate only until the hold runs out', async () => {
    const spider = spiderName();
    const f = await RedisFrontier.open(conn(), { spider });
    const dead = new RedisHostRateLimiter(conn(), f.keys, 6_000, 300);
    const l = new RedisHostRateLimiter(conn(), f.keys, 6_000, 300);
    await dead.wait('127.0.0.1:1'); // and dies
    const t0 = Date.now();
    l.release('127.0.0.1:1', await l.wait('127.0.0.1:1'));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    await f.close(false);
  });

  it('a Retry-After pause is seen by every worker', async () => {
    const spider = spiderName();
    const f = await RedisFrontier.open(conn(), { spider });
    const l1 = new RedisHostRateLimiter(conn(), f.keys, 6_000);
    const l2 = new RedisHostRateLimiter(conn(), f.keys, 6_000);
    l1.pause('127.0.0.1:1', Date.now() + 400);
    await sleep(50);
    const t0 = Date.now();
    await l2.wait('127.0.0.1:1');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    l1.close();
    l2.close();
    await f.close(false);
  });

  it('robots.txt is fetched once per origin by all workers; server errors are not shared', async () => {
    const spider = spiderName();
    let calls = 0;
    const fetcher = async (url: string) => {
      calls++;
      await sleep(100);
      return url.includes(':2/') ? { status: 503, body: '' } : { status: 200, body: 'User-agent: *\nDisallow: /private' };
    };
    const w1 = sharedRobotsFetcher(conn(), spider)(fetcher);
    const w2 = sharedRobotsFetcher(conn(), spider)(fetcher);
    const answers = await Promise.all([w1('http://127.0.0.1:1/robots.txt'), w2('http://127.0.0.1:1/robots.txt'), w2('http://127.0.0.1:1/robots.txt')]);
    expect(calls).toBe(1);
    expect(answers.every((a) => a.status === 200 && a.body.includes('/private'))).toBe(true);
    await w1('http://127.0.0.1:2/robots.txt');
    await w2('http://127.0.0.1:2/robots.txt');
    expect(calls).toBe(3); // a 503 is each worker's own to retry
  });
});

const page = (n: number) =>
  createPage({
    url: `http://127.0.0.1:1/a/${n}.html`,
    body: `<html><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav><h1>Story ${n}</h1><p>Body text of story number ${n}, different on every page ${n * 7}.</p><footer>Copyright 2024 The Example Times</footer></body></html>`,
  });

describe('shared site templates', () => {
  it('a worker publishes its learner when it has seen more pages; a worker whose own is not ready adopts it', async () => {
    const spider = spiderName();
    const a = await RedisSiteStore.open(conn(), spider, { ready: siteStateReady });
    const b = await RedisSiteStore.open(conn(), spider, { ready: siteStateReady });
    // worker a learns the site from 4 pages
    const sa = a.site('127.0.0.1:1');
    const learner = new TemplateLearner();
    sa.data.template = learner;
    for (let i = 0; i < 4; i++) {
      learner.observe(page(i));
      sa.touch();
    }
    expect(learner.ready).toBe(true);
    await a.flush();
    expect(a.counts.published).toBe(1);
    // worker b has seen one page of its own: not ready, so it takes a's
    const sb = b.site('127.0.0.1:1');
    const own = new TemplateLearner();
    own.observe(page(10));
    sb.data.template = own;
    sb.touch();
    await b.flush();
    expect(b.counts.adopted).toBe(1);
    expect(siteStateReady(b.site('127.0.0.1:1').data)).toBe(true);
    // b goes on learning from the adopted state and publishes once it has seen more than a
    const revived = TemplateLearner.fromJSON(b.site('127.0.0.1:1').data.template)!;
    b.site('127.0.0.1:1').data.template = revived;
    revived.observe(page(11));
    b.site('127.0.0.1:1').touch();
    await b.flush();
    expect(b.counts.published).toBe(1);
    // a's state is ready: it keeps its own, and a third worker starts with the stored one
    await a.flush();
    expect(a.counts.adopted).toBe(0);
    const c = await RedisSiteStore.open(conn(), spider, { ready: siteStateReady });
    expect(siteStateReady(c.site('127.0.0.1:1').data)).toBe(true);
  });
});
