/**
 * Linear in every dimension (issue 24 item 1): pages of n and 2n siblings — paragraphs, links in
 * list items, table rows, `<br>` lines, date lines, forum posts — through the page model, every
 * built-in middleware (each timed on its own) and the whole `Extractor.extract`. Doubling a page
 * must not cost more than DOUBLING_MAX times as much in any stage: a stage that rescans its
 * siblings per sibling costs four times as much. Found this way: the line model's like-sibling
 * count (article/lines.ts; 84% of the time on 40,000 paragraphs), overlapping date matches
 * (core/dates.ts), the forum's header rows (forum/records.ts, fixed on the forum branch).
 *
 * Sizes: n is chosen per dimension so that a page of 2n stays under the page model's element
 * budget (MAX_ELEMENTS: past it the markup is not built, so a doubling across it says nothing
 * about the stages). `GLEANER_DOUBLING_N=100000` runs every dimension at that n (the budget then
 * flattens the second half of the larger pages: the flattening must be linear too).
 */
import { existsSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { itemSchema } from '../../src/core/item.js';
import { buildChain, openChain } from '../../src/chain/chain.js';
import { BUILTIN_MIDDLEWARE } from '../../src/chain/builtins.js';
import { createContext, finishItem } from '../../src/chain/process.js';
import { validItem } from '../../src/chain/extract-input.js';
import { createPage, MAX_ELEMENTS } from '../../src/core/page.js';
import { MemorySiteStore } from '../../src/storage/site-store.js';
import { silentLogger, type Middleware } from '../../src/core/middleware.js';

/**
 * Times are the CPU time of this thread (Linux: /proc/thread-self/schedstat, nanoseconds; else
 * the process's user + system time), after a full garbage collection before each stage. On a
 * shared machine (2 cores, load 10–19 while this was written) wall times of one stage varied 3×
 * between runs; the process's CPU time counts the GC's helper threads, whose work for one stage's
 * garbage lands on a later one (the forum stage after four others measured ×2.7–2.9 on a page
 * where alone it measures ×1.8).
 */
const SCHEDSTAT = '/proc/thread-self/schedstat';
const threadCpu = existsSync(SCHEDSTAT);
const cpuMs = threadCpu
  ? () => Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]) / 1e6
  : () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (o?: { type: 'major' | 'minor' }) => void;
/** Before each page a full collection, before each stage a young-generation one: the garbage of
 * one stage is not billed to the next. */
const collect = (type: 'major' | 'minor') => gc({ type });
/** Time(2n) / time(n) above this fails (the issue's bound): linear code measures 1.6–2.3 here. */
const DOUBLING_MAX = 2.5;

/** Below this many ms for the larger page a stage's ratio is noise (timer, a GC pause). */
const NOISE_FLOOR_MS = 40;
/** Smaller timings are taken as this. */
const MIN_SMALL_MS = 10;
/** Timings per size (the fastest counts: a shared machine adds pauses, never speed). One was
 * too few, and three attempts at one size too: CI (3 test files at once on 2 cores) measured `br
 * lines` 3,000 -> 6,000 at ×2.56–2.79 in three attempts, while the same stages measure ×1.9–2.2
 * from 3,000 to 80,000 lines on a quiet machine (every stage linear; 40 ms pages). Two were too few
 * once more in a full local suite (2026-12-02): `images` ×2.61–2.92 in all three attempts, while the
 * same extraction measures ×1.9–2.2 from 10,000 to 80,000 images alone. */
const RUNS = 3;
/** A dimension with a stage over the bound is measured again, up to this many times in all, each
 * time on pages twice as large (n, 2n, 4n units: the noise of a small page's few ms shrinks, a
 * super-linear part grows); a stage fails when it is over the bound in every attempt. */
const ATTEMPTS = 3;

const day = (i: number) => `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
const clock = (i: number) => `${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;

interface Dimension {
  /** The body's content for n units. */
  make(n: number): string;
  /** Elements per unit (the element budget bounds n). */
  elements: number;
}

const DIMENSIONS: Record<string, Dimension> = {
  paragraphs: { make: (n) => '<p>x</p>'.repeat(n), elements: 1 },
  'worded paragraphs': { make: (n) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} says a few words, then stops.</p>`).join(''), elements: 1 },
  links: { make: (n) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/post/${i}.html">Post title number ${i}</a></li>`).join('')}</ul>`, elements: 2 },
  'table rows': { make: (n) => `<table>${Array.from({ length: n }, (_, i) => `<tr><td>${i}</td><td><a href="/t/${i}">Thread ${i}</a></td><td>user${i % 97}</td></tr>`).join('')}</table>`, elements: 5 },
  'br lines': { make: (n) => `<div>${Array.from({ length: n }, (_, i) => `line ${i} of the text<br>`).join('')}</div>`, elements: 1 },
  'date lines': { make: (n) => Array.from({ length: n }, (_, i) => `<div>${day(i)} ${clock(i)}</div>`).join(''), elements: 1 },
  images: { make: (n) => `<article><h1>A page</h1><p>A first paragraph of the article, with a few words in it.</p>${Array.from({ length: n }, (_, i) => `<img src="/img/photo-${i}.jpg" width="600" height="400">`).join('')}</article>`, elements: 1 },
  'forum posts': {
    make: (n) =>
      Array.from(
        { length: n },
        (_, i) => `<div class="post"><div class="author"><a href="/u/${i % 500}">user${i % 500}</a></div><div class="date">发表于 ${day(i)} ${clock(i)}</div><div class="content">回复 ${i}：这是一个测试帖子的内容。</div></div>`,
      ).join(''),
    elements: 5,
  },
};

/** Units per page in CI: the larger page holds about this many elements (under MAX_ELEMENTS);
 * a few seconds per dimension on a loaded 2-core machine. */
const CI_ELEMENTS = 6_000;
const FULL_N = Number(process.env.GLEANER_DOUBLING_N) || 0;
const sizeOf = (d: Dimension) => FULL_N || Math.max(500, Math.floor(Math.min(CI_ELEMENTS, MAX_ELEMENTS) / 2 / d.elements));

const wrap = (s: string) => `<!DOCTYPE html><html><head><title>A page</title></head><body>${s}</body></html>`;
const URL_ = 'http://doubling.test/page';

/** Every built-in middleware (blocks too, which is opt-in), none gated by the page kind: each
 * sees every page. */
const chain: Middleware[] = buildChain(BUILTIN_MIDDLEWARE, { settings: { blocks: true }, extractOnly: true }, silentLogger);
await openChain(chain, { spider: 'doubling', log: silentLogger });

/**
 * CPU ms per stage of one extraction: `parse` (decode, parse, DFS numbering, segments), each
 * middleware by name, `finish` (the item finished and checked, as `Extractor.extract` does it),
 * and `extract`, their sum: the whole extraction with every middleware run (a superset of what
 * `Extractor.extract` runs, whose page-type label skips the extractors of the other kinds).
 */
async function stageTimes(body: string): Promise<Record<string, number>> {
  const t: Record<string, number> = {};
  collect('major');
  let t0 = cpuMs();
  const page = createPage({ url: URL_, body });
  const ctx = createContext(page, { url: URL_ }, { spider: 'doubling', store: new MemorySiteStore(), log: silentLogger });
  t.parse = cpuMs() - t0;
  for (const mw of chain) {
    collect('minor');
    t0 = cpuMs();
    await mw.process(ctx);
    t[mw.name] = cpuMs() - t0;
  }
  collect('minor');
  t0 = cpuMs();
  const item = validItem(finishItem(ctx));
  t.finish = cpuMs() - t0;
  t.extract = Object.values(t).reduce((a, b) => a + b, 0);
  expect(itemSchema.safeParse(item).success).toBe(true);
  return t;
}

/** The fastest of RUNS timings per stage of each page, the two pages alternating (a change of
 * machine load then falls on both), after one untimed run of the smaller page (JIT tiers). */
async function fastest(small: string, large: string): Promise<[Record<string, number>, Record<string, number>]> {
  const a: Record<string, number> = {};
  const b: Record<string, number> = {};
  await stageTimes(small);
  for (let r = 0; r < RUNS; r++) {
    for (const [k, v] of Object.entries(await stageTimes(small))) a[k] = Math.min(a[k] ?? Infinity, v);
    for (const [k, v] of Object.entries(await stageTimes(large))) b[k] = Math.min(b[k] ?? Infinity, v);
  }
  return [a, b];
}

const rows: string[] = [];

describe('doubling a page costs at most 2.5 times as much, in every stage', () => {
  // warm up the chain (JIT, lazy loads) on a small page of every kind
  it('warm-up', async () => {
    for (const d of Object.values(DIMENSIONS)) await stageTimes(wrap(d.make(200)));
  });

  for (const [name, d] of Object.entries(DIMENSIONS)) {
    it(name, async () => {
      /** Stages over the bound in every attempt so far, with what was measured. */
      let over: Map<string, string> | undefined;
      for (let attempt = 0; attempt < ATTEMPTS && (!over || over.size); attempt++) {
        const n = sizeOf(d) * (FULL_N ? 1 : 2 ** attempt);
        const [a, b] = await fastest(wrap(d.make(n)), wrap(d.make(2 * n)));
        const now = new Map<string, string>();
        const cells: string[] = [];
        for (const stage of Object.keys(b)) {
          const ratio = b[stage]! / Math.max(a[stage]!, MIN_SMALL_MS);
          cells.push(`${stage} ${a[stage]!.toFixed(0)}→${b[stage]!.toFixed(0)}`);
          if (b[stage]! >= NOISE_FLOOR_MS && ratio > DOUBLING_MAX && (!over || over.has(stage))) now.set(stage, `${over?.get(stage) ?? ''} ${a[stage]!.toFixed(0)} ms -> ${b[stage]!.toFixed(0)} ms (×${ratio.toFixed(2)});`);
        }
        rows.push(`${name} n=${n}→${2 * n}${attempt ? ` (attempt ${attempt + 1})` : ''}: ${cells.join(', ')}`);
        over = now;
      }
      expect([...over!].map(([stage, seen]) => `${stage}:${seen}`), `${name}: super-linear stages`).toEqual([]);
    }, FULL_N ? 1_800_000 : 120_000);
  }

  it('prints the table', () => {
    console.log(rows.join('\n'));
  });
});
