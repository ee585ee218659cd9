import { describe, expect, it } from 'vitest';
import { cachedByString } from '../../src/core/string-cache.js';

describe('cachedByString', () => {
  it('computes each string once, remembers undefined results, and stays bounded', () => {
    const calls: string[] = [];
    const f = cachedByString((s: string) => {
      calls.push(s);
      return s === 'none' ? undefined : s.length;
    }, 3);
    expect([f('ab'), f('ab'), f('none'), f('none')]).toEqual([2, 2, undefined, undefined]);
    expect(calls).toEqual(['ab', 'none']);
    f('c');
    f('dddd'); // the fourth distinct string: the cache was full and starts again
    f('ab');
    expect(calls).toEqual(['ab', 'none', 'c', 'dddd', 'ab']);
  });
});
