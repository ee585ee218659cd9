/**
 * The fault suite (issue 14): a real crawl process against one hostile loopback server. Every case
 * must end without a crash, with its error recorded under its own reason, within bounded time and
 * memory; signals are honoured within 2 s while the crawl is busy with the worst of it.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CrawlSummary } from '../../src/crawler/crawl.js';
import type { Item } from '../../src/core/item.js';
import { startFaultServer, type FaultServer, type RobotsMode } from './server.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Peak RSS of the crawl process (issue 14's target, restored by issue 22): the crawl runs the built
 * package, as an installed user's does (369 MB measured with the default two chain threads; with
 * the chain's threads loading the TypeScript sources through tsx the same set peaked at 463-475 MB). */
const MAX_RSS_MB = 400;
/** SIGTERM honoured within this (issue 14 target). */
const SIGNAL_BUDGET_MS = 2_000;

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  out?: { summary: CrawlSummary; peakRssMB: number; ms: number };
  stderr: string;
}

function crawlChild(spider: object, storage: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['test/faults/crawl-child.mjs'], {
    cwd: root,
    env: { ...process.env, FAULT_SPIDER: JSON.stringify(spider), FAULT_STORAGE: storage, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<ChildResult>((resolve) =>
    child.on('exit', (code, signal) => {
      const line = stdout.trim().split('\n').pop();
      let out;
      try {
        out = line ? JSON.parse(line) : undefined;
      } catch {
        out = undefined;
      }
      resolve({ code, signal, out, stderr });
    }),
  );
  return { child, done };
}

function items(storage: string, name: string): Item[] {
  const dir = path.join(storage, 'datasets', name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Item);
}

const tmp = () => mkdtempSync(path.join(tmpdir(), 'gleaner-faults-'));

const faultSpider = (name: string, server: FaultServer, extra: Record<string, unknown> = {}) => ({
  name,
  startUrls: [`${server.url}/`],
  allowPrivateAddresses: true,
  crawler: { timeoutSecs: 2, maxRetries: 2, retryBackoffSecs: 0.25, maxConcurrency: 8, ...extra },
});

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('fault suite: a hostile site', () => {
  it('every fault ends in its own recorded outcome, within bounded time and memory', async () => {
    const server = await startFaultServer();
    const storage = tmp();
    try {
      // 5 s per exchange: the thread also parses the deep and one-word pages (seconds under load),
      // and a timer runs on while it does; a tighter timeout fails healthy requests on a busy box.
      const { done } = crawlChild(faultSpider('faults', server, { timeoutSecs: 5 }), storage);
      const r = await done;
      expect(r.code, r.stderr).toBe(0);
      const { summary, peakRssMB, ms } = r.out!;
      const reasonOf = (p: string) => Object.entries(summary.failureExamples).find(([, urls]) => urls.some((u) => new URL(u).pathname === p))?.[0];
      expect(reasonOf('/trickle')).toBe('timeout');
      expect(reasonOf('/reset')).toMatch(/^network /);
      expect(reasonOf('/loop/a')).toBe('redirect loop');
      expect(reasonOf('/bomb')).toBe('too large');
      expect(reasonOf('/big')).toBe('too large');
      // Retried, fetched at most once per attempt (maxRetries 2: at most 3), a loop once per hop.
      // (On a loaded machine an attempt can time out before it reaches the server: the timer
      // runs while this thread parses the deep page.)
      expect(server.count('/trickle')).toBeGreaterThanOrEqual(1);
      expect(server.count('/trickle')).toBeLessThanOrEqual(3);
      expect(server.count('/reset')).toBeLessThanOrEqual(3);
      expect(server.count('/loop/a')).toBe(1);
      expect(server.count('/loop/b')).toBe(1);
      const got = items(storage, 'faults');
      const byPath = new Map(got.map((i) => [new URL(i.url).pathname, i]));
      // Bursts of 503 and a 429 with Retry-After: stored after the retries.
      expect(byPath.get('/burst/1')?.title, JSON.stringify(summary.failureExamples)).toContain('Back after a burst');
      expect(byPath.get('/slow-down/1')?.title).toContain('After a pause');
      const slow = server.requests.filter((q) => q.path === '/slow-down/1').map((q) => q.at);
      expect(slow[1]! - slow[0]!).toBeGreaterThanOrEqual(900);
      // A lying charset header is overruled; binary served as HTML is an `other` item with an error.
      expect(byPath.get('/charset-lie')?.title).toBe('公交线网优化方案发布');
      expect(byPath.get('/binary')?.kind).toBe('other');
      expect(byPath.get('/binary')?.error).toMatch(/binary/);
      // A 1 MB single-word paragraph and 200,000 nested divs are extracted, not stalled on.
      expect(byPath.get('/word')).toBeTruthy();
      expect(byPath.get('/deep')).toBeTruthy();
      expect(byPath.get('/ok.html')?.kind).toBe('article');
      expect(summary.finished).toBe(true);
      console.log(`fault site: ${ms} ms, peak RSS ${peakRssMB.toFixed(0)} MB, failures ${JSON.stringify(summary.failuresByReason)}`);
      expect(peakRssMB).toBeLessThanOrEqual(MAX_RSS_MB);
      // Trickle: 3 × 5 s timeouts + 0.25 + 0.5 s backoff; everything else runs beside it.
      expect(ms).toBeLessThan(45_000);
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe('fault suite: robots.txt variants', () => {
  const run = async (mode: RobotsMode, extraLinks = '') => {
    const home = `<html><body><a href="/ok.html">ok</a> <a href="/private/secret.html">secret</a> <a href="/to-private">redirect</a>${extraLinks}</body></html>`;
    const server = await startFaultServer({ robots: mode, home });
    const storage = tmp();
    try {
      const r = await crawlChild(faultSpider(`robots-${mode}`, server), storage).done;
      return { r, server, got: items(storage, `robots-${mode}`).map((i) => new URL(i.url).pathname).sort() };
    } finally {
      await server.close();
    }
  };

  it('5xx: retried, then every URL refused (RFC 9309), and said so', async () => {
    const { r, server, got } = await run('5xx');
    expect(r.code).toBe(0);
    expect(server.count('/robots.txt')).toBe(3);
    expect(server.requests.filter((q) => q.path !== '/robots.txt')).toEqual([]);
    expect(got).toEqual([]);
    expect(r.out!.summary.startUrlsFailed).toBe(1);
  }, 60_000);

  it('normal: a same-host redirect into a disallowed path is not fetched', async () => {
    const { r, server, got } = await run('normal');
    expect(r.code).toBe(0);
    expect(server.count('/private/secret.html')).toBe(0);
    expect(got).toEqual(['/', '/ok.html']);
    expect(r.out!.summary.skippedByRobots).toBe(2);
  }, 60_000);

  it('a gzip-bomb robots.txt is cut at 500 KiB decoded; memory stays bounded', async () => {
    const { r, got } = await run('bomb');
    expect(r.code).toBe(0);
    expect(got).toEqual(['/', '/ok.html']);
    expect(r.out!.peakRssMB).toBeLessThanOrEqual(MAX_RSS_MB);
  }, 60_000);

  it('a 1 MB robots.txt is parsed up to 500 KiB (a rule past it is not seen)', async () => {
    const { r, got } = await run('huge');
    expect(r.code).toBe(0);
    expect(got).toContain('/ok.html');
  }, 60_000);

  it('a redirect loop on robots.txt means no rules (RFC 9309: unavailable)', async () => {
    const { r, got } = await run('loop');
    expect(r.code).toBe(0);
    expect(got).toContain('/ok.html');
  }, 60_000);
});

describe('fault suite: signals', () => {
  /** SIGTERM once `ready()` holds; returns how long the process took to exit. */
  const termWhen = async (ready: (s: FaultServer) => boolean, what: string, robots: RobotsMode = 'normal') => {
    const server = await startFaultServer({ robots });
    const storage = tmp();
    try {
      const { child, done } = crawlChild(faultSpider('signals', server, { timeoutSecs: 20, retryBackoffSecs: 5 }), storage);
      await waitFor(() => ready(server), 30_000, what);
      const t0 = Date.now();
      child.kill('SIGTERM');
      const r = await done;
      console.log(`${what}: SIGTERM -> exit in ${Date.now() - t0} ms`);
      return { ms: Date.now() - t0, r };
    } finally {
      await server.close();
    }
  };

  it('SIGTERM during a trickling download and a retry pause: exits within 2 s, resumable', async () => {
    const { ms, r } = await termWhen((s) => s.count('/trickle') > 0 && s.count('/burst/1') > 0, 'the trickle and the burst');
    expect(r.signal).toBeNull();
    expect(ms).toBeLessThan(SIGNAL_BUDGET_MS);
    expect(r.out?.summary.finished ?? false).toBe(false);
  }, 60_000);

  it('SIGTERM while 200,000 nested divs are being parsed: exits within 2 s', async () => {
    const { ms } = await termWhen((s) => s.count('/deep') > 0, 'the deep page');
    expect(ms).toBeLessThan(SIGNAL_BUDGET_MS);
  }, 60_000);

  it('SIGTERM while robots.txt is being retried: exits within 2 s', async () => {
    const { ms } = await termWhen((s) => s.count('/robots.txt') > 0, 'robots.txt', '5xx');
    expect(ms).toBeLessThan(SIGNAL_BUDGET_MS);
  }, 60_000);
});
