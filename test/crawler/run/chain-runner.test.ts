/** ChainRunner (src/crawler/run/chain-runner.ts): with `threads: 0` the chain runs on this
 * thread; a page above `inlineMaxBytes` goes to a one-thread side pool (one worker started). */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Middleware } from '../../../src/core/middleware.js';
import { linkPolicyOf } from '../../../src/crawler/links.js';
import type { ChainPool } from '../../../src/crawler/pool/index.js';
import type { PageTask } from '../../../src/crawler/pool/outcome.js';
import { ChainRunner } from '../../../src/crawler/run/chain-runner.js';
import type { SpiderConfig } from '../../../src/spider/config.js';
import { MemorySiteStore } from '../../../src/storage/site-store.js';
import { recordingLogger } from './fakes.js';

const U = 'http://news.example';
const PARA = '<p>The council approved the new transport plan on Tuesday after a long debate about bus routes, fares and the cost of the new depot.</p>';

function html(title: string, paragraphs: number): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/news/">News</a></nav><article><h1>${title}</h1>${PARA.repeat(paragraphs)}</article></body></html>`;
}

function task(url: string, body: string): PageTask {
  return { url, body: new TextEncoder().encode(body), contentType: 'text/html; charset=utf-8', fetchedAt: Date.UTC(2026, 0, 1), request: { url, depth: 1 }, siteKey: 'news.example' };
}

/** Every runner started here is closed, and every pool it started. */
const opened: Array<{ runner: ChainRunner; pools: Array<Promise<ChainPool>> }> = [];
afterAll(async () => {
  for (const { runner, pools } of opened) {
    await runner.close(false);
    for (const p of pools) await p.then((pool) => pool.close(false), () => {});
  }
});

async function start(spider: SpiderConfig, o: { threads?: number; inlineMaxBytes: number }) {
  const log = recordingLogger();
  const pools: Array<Promise<ChainPool>> = [];
  const stateDir = mkdtempSync(path.join(tmpdir(), 'gleaner-chain-'));
  const runner = await ChainRunner.start(spider, { threads: o.threads, stateDir, links: linkPolicyOf(spider), store: new MemorySiteStore(), log, inlineMaxBytes: o.inlineMaxBytes }, pools);
  opened.push({ runner, pools });
  await runner.ready(log, new MemorySiteStore());
  return { runner, pools, log };
}

describe('ChainRunner', () => {
  const spider: SpiderConfig = { name: 'news', startUrls: [`${U}/`] };

  it('threads: 0 runs the chain on this thread (no pool) and gives the page\'s item and links; a large page goes to one side pool, started once', async () => {
    const small = html('Small story about the transport plan', 4);
    const { runner, pools } = await start(spider, { threads: 0, inlineMaxBytes: small.length + 100 });
    expect(runner.inline).toBe(true);
    expect(pools).toEqual([]);
    const out = await runner.run(task(`${U}/news/small.html`, small));
    expect(out.type).toBe('page');
    if (out.type !== 'page') return;
    expect(out.item).toMatchObject({ url: `${U}/news/small.html`, title: 'Small story about the transport plan' });
    expect(out.links.map((l) => l.url)).toEqual(expect.arrayContaining([`${U}/`, `${U}/news/`]));
    expect(pools).toEqual([]);

    // above inlineMaxBytes: a worker thread (the per-page budget holds there)
    const big = html('Big story about the transport plan', 40);
    const outBig = await runner.run(task(`${U}/news/big.html`, big));
    expect(pools).toHaveLength(1);
    expect(outBig.type).toBe('page');
    if (outBig.type === 'page') expect(outBig.item).toMatchObject({ url: `${U}/news/big.html`, title: 'Big story about the transport plan' });
    await runner.run(task(`${U}/news/big-2.html`, big.replace('Big story', 'Second big story')));
    expect(pools).toHaveLength(1);
  });

  it('extraMiddleware objects without a spider file: the chain stays on this thread, whatever the size and threads', async () => {
    const seen: string[] = [];
    const mark: Middleware = {
      name: 'mark',
      priority: 10_000,
      process(ctx) {
        seen.push(ctx.request.url);
      },
    };
    const { runner, pools, log } = await start({ ...spider, extraMiddleware: [mark] }, { threads: 2, inlineMaxBytes: 10 });
    expect(runner.inline).toBe(true);
    expect(log.at('debug')[0]).toMatch(/^extraMiddleware given as objects: the chain runs on the crawl thread/);
    const out = await runner.run(task(`${U}/news/a.html`, html('A story about the transport plan', 4)));
    expect(out.type).toBe('page');
    expect(seen).toEqual([`${U}/news/a.html`]);
    expect(pools).toEqual([]);
  });
});
