/** PageBudget (src/crawler/run/budget.ts): what `maxPages` still allows, with the pages of earlier
 * runs and the requests in flight. */
import { describe, expect, it } from 'vitest';
import { PageBudget } from '../../../src/crawler/run/budget.js';

describe('PageBudget', () => {
  it('without maxPages: never reached, no limit on what may start', () => {
    let pages = 0;
    const b = new PageBudget(undefined, 7, () => pages);
    b.take(1_000);
    pages = 1_000_000;
    expect(b.left()).toBe(Number.MAX_SAFE_INTEGER);
    expect(b.reached()).toBe(false);
  });

  it('left() = maxPages − previous runs − pages now − in flight; take/release move the in-flight count', () => {
    let pages = 0;
    const b = new PageBudget(10, 3, () => pages);
    expect(b.left()).toBe(7);
    b.take(4);
    expect(b.inFlight).toBe(4);
    expect(b.left()).toBe(3);
    // one request fetched: counted in pages, then settled
    pages = 1;
    b.release();
    expect(b.inFlight).toBe(3);
    expect(b.left()).toBe(3);
    // one failed: its place comes back
    b.release();
    expect(b.left()).toBe(4);
    expect(b.reached()).toBe(false);
  });

  it('never goes below 0 while more are in flight than it allows', () => {
    const b = new PageBudget(5, 0, () => 2);
    b.take(10);
    expect(b.left()).toBe(0);
  });

  it('reached() counts fetched pages only (earlier runs + this run), not requests in flight', () => {
    let pages = 0;
    const b = new PageBudget(5, 2, () => pages);
    b.take(3);
    expect(b.reached()).toBe(false);
    expect(b.left()).toBe(0);
    pages = 2;
    expect(b.reached()).toBe(false);
    pages = 3;
    expect(b.reached()).toBe(true);
    pages = 4;
    expect(b.reached()).toBe(true);
  });

  it('a resumed crawl whose earlier runs spent the budget is reached at once', () => {
    const b = new PageBudget(4, 4, () => 0);
    expect(b.reached()).toBe(true);
    expect(b.left()).toBe(0);
  });
});
