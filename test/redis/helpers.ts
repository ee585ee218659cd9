/** Shared bits of the Redis tests: a client on the global test server, unique spider names. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

export function redisUrl(): string {
  const url = inject('redisUrl');
  if (!url) throw new Error(`no redis-server for the tests: ${inject('redisError')}`);
  return url;
}

export function client(url = redisUrl()): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

export function spiderName(prefix = 't'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
