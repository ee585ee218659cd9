/** StopControl (src/crawler/run/stop.ts): the shared abort signal, the reason a crawl stopped, and
 * SIGINT/SIGTERM with a grace period. `exit` is injected; timers are fake. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StopControl } from '../../../src/crawler/run/stop.js';
import { recordingLogger } from './fakes.js';

function control(graceMs = 1_500) {
  const log = recordingLogger();
  const exits: number[] = [];
  const onStop = vi.fn();
  const stop = new StopControl(log, 'news', { graceMs, exit: (code) => void exits.push(code) });
  stop.onStop(onStop);
  return { stop, log, exits, onStop };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('StopControl', () => {
  it('stopNow aborts the shared signal and calls the crawler hook; stopping follows the signal', () => {
    const { stop, onStop } = control();
    const seen: string[] = [];
    stop.signal.addEventListener('abort', () => seen.push('aborted'));
    expect(stop.stopping).toBe(false);
    stop.stopNow();
    expect(stop.stopping).toBe(true);
    expect(stop.signal.aborted).toBe(true);
    expect(seen).toEqual(['aborted']);
    expect(onStop).toHaveBeenCalledTimes(1);
    // stopNow alone is not a signal: the crawl is not interrupted and no reason is invented
    expect(stop.interrupted).toBe(false);
    expect(stop.stoppedBy).toBeUndefined();
  });

  it('note() keeps the first reason', () => {
    const { stop } = control();
    stop.note('maxPages (5) reached');
    stop.note('maxFailedPages (3) reached');
    expect(stop.stoppedBy).toBe('maxPages (5) reached');
  });

  it('the first signal stops the crawl (interrupted, stoppedBy the signal, signal aborted) without exiting', () => {
    vi.useFakeTimers();
    const { stop, log, exits, onStop } = control();
    stop.note('maxPages (5) reached');
    stop.onSignal('SIGTERM');
    expect(stop.interrupted).toBe(true);
    // a signal outranks an earlier reason: the crawl is interrupted, not finished
    expect(stop.stoppedBy).toBe('SIGTERM');
    expect(stop.stopping).toBe(true);
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([]);
    expect(log.at('warning')).toEqual(['SIGTERM: stopping; the next run of "news" resumes here (SIGTERM again to exit at once)']);
    stop.close();
  });

  it('a second signal exits at once with 130', () => {
    vi.useFakeTimers();
    const { stop, log, exits } = control();
    stop.onSignal('SIGINT');
    stop.onSignal('SIGINT');
    expect(exits).toEqual([130]);
    expect(log.at('warning')[1]).toMatch(/^SIGINT again: exiting now/);
    stop.close();
  });

  it('still busy after the grace period: exits with 130 (not a moment before)', () => {
    vi.useFakeTimers();
    const { stop, log, exits } = control(1_500);
    stop.onSignal('SIGINT');
    vi.advanceTimersByTime(1_499);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([130]);
    expect(log.at('warning').at(-1)).toBe('still busy 1500 ms after SIGINT: exiting (the next run resumes from the journal)');
  });

  it('close() before the grace period runs out: no exit', () => {
    vi.useFakeTimers();
    const { stop, exits } = control(1_500);
    stop.onSignal('SIGINT');
    vi.advanceTimersByTime(1_000);
    stop.close();
    vi.advanceTimersByTime(60_000);
    expect(exits).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('listen() adds a SIGINT and a SIGTERM listener that stop the crawl; close() removes them', () => {
    vi.useFakeTimers();
    const { stop, exits } = control();
    const before = { int: process.listeners('SIGINT'), term: process.listeners('SIGTERM') };
    stop.listen();
    const addedInt = process.listeners('SIGINT').filter((l) => !before.int.includes(l));
    const addedTerm = process.listeners('SIGTERM').filter((l) => !before.term.includes(l));
    expect(addedInt).toHaveLength(1);
    expect(addedTerm).toHaveLength(1);
    // call our own listeners (emitting the signal would reach the test runner's too)
    (addedTerm[0] as () => void)();
    expect(stop.stoppedBy).toBe('SIGTERM');
    expect(stop.stopping).toBe(true);
    (addedInt[0] as () => void)();
    expect(exits).toEqual([130]);
    stop.close();
    expect(process.listeners('SIGINT')).toEqual(before.int);
    expect(process.listeners('SIGTERM')).toEqual(before.term);
    // closing twice is harmless and removes nothing else
    stop.close();
    expect(process.listeners('SIGINT')).toEqual(before.int);
  });

  it('close() without listen() leaves the process listeners alone', () => {
    const { stop } = control();
    const before = process.listenerCount('SIGINT');
    stop.close();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
