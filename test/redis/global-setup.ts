/**
 * Vitest global setup: one redis-server for the whole run (persistence off, a free loopback
 * port), stopped after. Tests read its URL with `inject('redisUrl')`; each test uses its own
 * spider names, so they share the server without seeing each other's keys.
 */
import type { TestProject } from 'vitest/node';
import { startRedis, stopAndClean, type TestRedis } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /** Why there is no server (redis-server missing): the Redis tests fail with it. */
    redisError: string;
  }
}

let server: TestRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  try {
    server = await startRedis();
    project.provide('redisUrl', server.url);
    project.provide('redisError', '');
  } catch (e) {
    project.provide('redisUrl', '');
    project.provide('redisError', (e as Error).message);
  }
}

export async function teardown(): Promise<void> {
  if (server) await stopAndClean(server);
}
