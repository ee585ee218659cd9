/** The default number of chain threads: from the sources (as here) GLEANER_SOURCE_THREADS when set (the suite sets 0), else one per core. */
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultThreads, SOURCE_THREADS_ENV } from '../../src/crawler/pool/settings.js';

describe('defaultThreads', () => {
  const before = process.env[SOURCE_THREADS_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[SOURCE_THREADS_ENV];
    else process.env[SOURCE_THREADS_ENV] = before;
  });

  it('takes GLEANER_SOURCE_THREADS when it is set, one per core when it is not (or empty)', () => {
    process.env[SOURCE_THREADS_ENV] = '3';
    expect(defaultThreads()).toBe(3);
    process.env[SOURCE_THREADS_ENV] = '0';
    expect(defaultThreads()).toBe(0);
    process.env[SOURCE_THREADS_ENV] = '';
    expect(defaultThreads()).toBe(os.availableParallelism());
    delete process.env[SOURCE_THREADS_ENV];
    expect(defaultThreads()).toBe(os.availableParallelism());
  });

  it('names the variable for a value that is not a whole number', () => {
    for (const bad of ['two', '-1', '1.5']) {
      process.env[SOURCE_THREADS_ENV] = bad;
      expect(() => defaultThreads()).toThrow(/GLEANER_SOURCE_THREADS=.*whole number/);
    }
  });
});
