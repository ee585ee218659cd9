/**
 * `Middleware.prepare`: the part of a middleware that reads the page alone runs just before its
 * `process`, on the same context, and only where `process` runs (the kinds gate, a dropped page).
 */
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { processPage } from '../../src/chain/process.js';
import { silentLogger, type Middleware } from '../../src/core/middleware.js';
import { MemorySiteStore } from '../../src/storage/site-store.js';

const calls: string[] = [];
const mw = (name: string, o: Partial<Middleware> = {}): Middleware => ({
  name,
  priority: 0,
  prepare(ctx) {
    calls.push(`prepare ${name}`);
    ctx.scratch[name] = 'prepared';
  },
  process(ctx) {
    calls.push(`process ${name} (${String(ctx.scratch[name])})`);
  },
  ...o,
});

describe('Middleware.prepare', () => {
  it('runs just before process, on the same page, and not where process does not run', async () => {
    calls.length = 0;
    const page = createPage({ url: 'http://a.test/1', body: '<html><body><p>Hello.</p></body></html>' });
    const chain = [
      mw('first'),
      mw('lists-only', { kinds: ['list'] }),
      mw('dropper', { prepare: undefined, process: (ctx) => void (ctx.drop = 'enough') }),
      mw('after-drop'),
    ];
    await processPage(page, { url: page.url, label: 'detail' }, { spider: 's', chain, store: new MemorySiteStore(), log: silentLogger });
    expect(calls).toEqual(['prepare first', 'process first (prepared)']);
  });
});
