/**
 * Politeness: a per-host request rate and robots.txt (robots-parser), both off the hot path when
 * not configured.
 */
import { createRequire } from 'node:module';
import type RobotsParserModule from 'robots-parser';

// robots-parser is CommonJS with an ESM-style declaration file: load it through require so the
// types and the runtime agree under NodeNext.
type Robot = ReturnType<typeof RobotsParserModule.default>;
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => Robot;

export const ROBOTS_USER_AGENT = 'gleaner';

/** Spaces requests to one host at least 60 s / `perMinute` apart. */
export class HostRateLimiter {
  private next = new Map<string, number>();
  constructor(private readonly perMinute?: number) {}

  async wait(host: string): Promise<void> {
    if (!this.perMinute) return;
    const interval = 60_000 / this.perMinute;
    const now = Date.now();
    const at = Math.max(now, this.next.get(host) ?? 0);
    this.next.set(host, at + interval);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}

export type RobotsFetcher = (url: string) => Promise<{ status: number; body: string } | undefined>;

/** robots.txt per origin, fetched once. Missing (4xx) or unreachable robots.txt allows all
 * (RFC 9309 §2.3.1.3 treats 4xx as "no rules"; we are lenient on 5xx too rather than stall a
 * crawl on a flaky server, and say so in the log). */
export class RobotsCache {
  private cache = new Map<string, Promise<Robot | undefined>>();
  constructor(private readonly fetcher: RobotsFetcher) {}

  async allowed(url: string): Promise<boolean> {
    const u = new URL(url);
    let p = this.cache.get(u.origin);
    if (!p) {
      const robotsUrl = `${u.origin}/robots.txt`;
      p = this.fetcher(robotsUrl)
        .then((r) => (r && r.status < 400 ? robotsParser(robotsUrl, r.body) : undefined))
        .catch(() => undefined);
      this.cache.set(u.origin, p);
    }
    const robots = await p;
    return robots ? robots.isAllowed(url, ROBOTS_USER_AGENT) !== false : true;
  }
}
