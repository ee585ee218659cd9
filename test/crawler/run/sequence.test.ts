import { describe, expect, it } from 'vitest';
import { RequestSequence } from '../../../src/crawler/run/sequence.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('RequestSequence (issue 23: a site\'s pages enter the chain in request order)', () => {
  it('a page waits for its site\'s earlier requests, not for other sites\'', async () => {
    const s = new RequestSequence();
    s.start(1, 'a');
    s.start(2, 'b');
    s.start(3, 'a');
    const entered: number[] = [];
    const three = s.turn(3, 'chain').then(() => entered.push(3));
    await s.turn(2, 'chain').then(() => entered.push(2));
    await tick();
    expect(entered).toEqual([2]);
    s.pass(1, 'chain');
    await three;
    expect(entered).toEqual([2, 3]);
    // the links step waits on its own: 1 has not queued its links yet
    let linked = false;
    const links = s.turn(3, 'links').then(() => (linked = true));
    await tick();
    expect(linked).toBe(false);
    s.end(1); // failed, or done without links
    await links;
    expect(s.counts.waited).toBe(2);
  });

  it('waits for an earlier request that has not started yet, and no longer than the bound', async () => {
    const s = new RequestSequence(50);
    s.start(2, 'a');
    let in2 = false;
    const two = s.turn(2, 'chain').then(() => (in2 = true));
    await tick();
    expect(in2).toBe(false);
    s.start(1, 'b'); // another site: 2 may go
    await two;
    s.start(3, 'b');
    s.start(4, 'b');
    const t0 = Date.now();
    await s.turn(4, 'chain'); // 3 never passes: the wait ends at the bound
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
    expect(s.counts.timedOut).toBe(1);
  });

  it('a request not started here (a retry after its end) does not wait', async () => {
    const s = new RequestSequence();
    s.start(1, 'a');
    await s.turn(7, 'chain');
    expect(s.counts.waited).toBe(0);
  });
});
