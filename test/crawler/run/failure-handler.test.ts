/** FailureHandler (src/crawler/run/failure-handler.ts): a request that failed for good → left
 * pending (stopping), skipped (robots.txt), or a failure by reason; maxFailedPages stops the crawl. */
import { describe, expect, it, vi } from 'vitest';
import { FailureHandler, FinalFetchError, LOGGED_ROBOTS_SKIPS, reasonOf } from '../../../src/crawler/run/failure-handler.js';
import { CrawlStats } from '../../../src/crawler/run/stats.js';
import { StopControl } from '../../../src/crawler/run/stop.js';
import { AbortedError, BlockedError, HttpStatusError, NetworkError, TimeoutError } from '../../../src/crawler/errors.js';
import type { FrontierRequest } from '../../../src/crawler/frontier.js';
import { crawleeRequest, MemoryFrontier, recordingLogger } from './fakes.js';

const U = 'http://news.example';

function setup(maxFailedPages?: number, requests: FrontierRequest[] = []) {
  const log = recordingLogger();
  const stats = new CrawlStats(log, 'news');
  const exits: number[] = [];
  const stop = new StopControl(stats.log, 'news', { graceMs: 1_000, exit: (c) => void exits.push(c) });
  const onStop = vi.fn();
  stop.onStop(onStop);
  const frontier = new MemoryFrontier(requests);
  const settle = vi.fn();
  const release = vi.fn();
  const handler = new FailureHandler({ frontier, stats, stop, log: stats.log, maxFailedPages, settle, release });
  return { log, stats, stop, onStop, frontier, settle, release, handler, exits };
}

const req = (path: string, depth = 1): FrontierRequest => ({ url: `${U}${path}`, depth });

describe('reasonOf', () => {
  it('a FetchError gives its reason; anything else is classified like the downloader does', () => {
    expect(reasonOf(new HttpStatusError(404, `${U}/x`))).toBe('http 404');
    expect(reasonOf(new TimeoutError(`${U}/x`, 1_000))).toBe('timeout');
    expect(reasonOf(new BlockedError('address', `${U}/x`, 'private'))).toBe('blocked address');
    expect(reasonOf(new NetworkError(`${U}/x`, 'ECONNRESET', 'socket hang up'))).toBe('network ECONNRESET');
    expect(typeof reasonOf(new Error('something odd'))).toBe('string');
  });
});

describe('FailureHandler', () => {
  it('an AbortedError gives the budget place back and leaves the request pending', async () => {
    const r = req('/a');
    const s = setup(undefined, [r]);
    await s.handler.handle(crawleeRequest(r), new AbortedError(r.url));
    expect(s.release).toHaveBeenCalledTimes(1);
    expect(s.settle).not.toHaveBeenCalled();
    expect(s.frontier.doneCalls).toEqual([]);
    expect(s.frontier.stats().pending).toBe(1);
    expect(s.stats.failed).toBe(0);
    expect(s.stats.failures.total).toBe(0);
  });

  it('any error while the crawl is stopping does the same (the page is not at fault)', async () => {
    const r = req('/', 0);
    const s = setup(undefined, [r]);
    s.stop.stopNow();
    await s.handler.handle(crawleeRequest(r), new HttpStatusError(500, r.url));
    expect(s.release).toHaveBeenCalledTimes(1);
    expect(s.frontier.doneCalls).toEqual([]);
    expect(s.stats.failed).toBe(0);
    expect(s.stats.startUrlsFailed).toBe(0);
  });

  it('a robots.txt refusal is skipped, not failed: frontier.done "skipped", settled, the first few logged', async () => {
    const s = setup();
    const n = LOGGED_ROBOTS_SKIPS + 2;
    for (let i = 0; i < n; i++) {
      const r = req(`/private/${i}`);
      await s.handler.handle(crawleeRequest(r), new BlockedError('robots', r.url, `robots.txt disallows ${r.url}`));
    }
    expect(s.stats.skippedByRobots).toBe(n);
    expect(s.stats.failed).toBe(0);
    expect(s.stats.failures.byReason).toEqual({});
    expect(s.frontier.doneCalls).toEqual(Array.from({ length: n }, (_, i) => [`${U}/private/${i}`, 'skipped']));
    expect(s.settle).toHaveBeenCalledTimes(n);
    expect(s.release).not.toHaveBeenCalled();
    expect(s.log.at('info')).toHaveLength(LOGGED_ROBOTS_SKIPS);
    expect(s.log.at('info')[0]).toBe(`skipped: robots.txt disallows ${U}/private/0`);
  });

  it('a refusal of another kind (off-site after a redirect) is a failure', async () => {
    const s = setup();
    const r = req('/moved');
    await s.handler.handle(crawleeRequest(r), new BlockedError('off-site', r.url, 'redirected off-site', true));
    expect(s.stats.skippedByRobots).toBe(0);
    expect(s.stats.failures.byReason).toEqual({ 'redirect off-site': 1 });
    expect(s.frontier.doneCalls).toEqual([[r.url, 'failed']]);
  });

  it('failures are counted by reason, marked failed and settled; a FinalFetchError counts as the error it wraps', async () => {
    const s = setup();
    const a = req('/gone-1');
    const b = req('/gone-2');
    const c = req('/slow');
    await s.handler.handle(crawleeRequest(a), new HttpStatusError(404, a.url));
    await s.handler.handle(crawleeRequest(b), new FinalFetchError(new HttpStatusError(404, b.url)));
    await s.handler.handle(crawleeRequest(c), new TimeoutError(c.url, 30_000));
    expect(s.stats.failed).toBe(3);
    expect(s.stats.failures.byReason).toEqual({ 'http 404': 2, timeout: 1 });
    expect(s.stats.failures.examples['http 404']).toEqual([a.url, b.url]);
    expect(s.frontier.doneCalls).toEqual([
      [a.url, 'failed'],
      [b.url, 'failed'],
      [c.url, 'failed'],
    ]);
    expect(s.settle).toHaveBeenCalledTimes(3);
    expect(s.stop.stopping).toBe(false);
  });

  it('a failed start URL (depth 0) is counted as such, robots refusals included', async () => {
    const s = setup();
    const home = req('/', 0);
    const priv = req('/private/', 0);
    await s.handler.handle(crawleeRequest(home), new NetworkError(home.url, 'ECONNREFUSED', 'connection refused'));
    await s.handler.handle(crawleeRequest(priv), new BlockedError('robots', priv.url, 'robots.txt disallows it'));
    await s.handler.handle(crawleeRequest(req('/deep')), new HttpStatusError(404, `${U}/deep`));
    expect(s.stats.startUrlsFailed).toBe(2);
  });

  it('maxFailedPages: the crawl stops once, at the limit, with the reason; later failures are left pending', async () => {
    const s = setup(2);
    const [a, b, c] = [req('/1'), req('/2'), req('/3')];
    await s.handler.handle(crawleeRequest(a), new HttpStatusError(404, a.url));
    expect(s.stop.stopping).toBe(false);
    expect(s.settle).toHaveBeenCalledTimes(1);
    await s.handler.handle(crawleeRequest(b), new HttpStatusError(404, b.url));
    expect(s.stop.stopping).toBe(true);
    expect(s.stop.stoppedBy).toBe('maxFailedPages (2) reached');
    expect(s.onStop).toHaveBeenCalledTimes(1);
    expect(s.log.at('warning').at(-1)).toBe('2 failed requests: stopping (crawler.maxFailedPages 2)');
    expect(s.frontier.doneCalls).toEqual([
      [a.url, 'failed'],
      [b.url, 'failed'],
    ]);
    // a request failing after the stop is not the page's fault: left pending, its place given back
    await s.handler.handle(crawleeRequest(c), new HttpStatusError(404, c.url));
    expect(s.stats.failed).toBe(2);
    expect(s.onStop).toHaveBeenCalledTimes(1);
    expect(s.release).toHaveBeenCalledTimes(1);
    expect(s.frontier.doneCalls).toHaveLength(2);
    expect(s.exits).toEqual([]);
  });

  it('maxFailedPages does not replace an earlier reason (the page budget was spent first)', async () => {
    const s = setup(1);
    s.stop.note('maxPages (3) reached');
    const a = req('/1');
    await s.handler.handle(crawleeRequest(a), new HttpStatusError(404, a.url));
    expect(s.stop.stoppedBy).toBe('maxPages (3) reached');
    expect(s.stop.stopping).toBe(false);
    expect(s.settle).toHaveBeenCalledTimes(1);
  });
});
