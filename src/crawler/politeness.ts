/**
 * Politeness: a per-host request rate and robots.txt (robots-parser), both off the hot path when
 * not configured.
 */
import { createRequire } from 'node:module';
import type RobotsParserModule from 'robots-parser';
import { backoffDelayMs, sleep } from './downloader/backoff.js';

// robots-parser is CommonJS with an ESM-style declaration file: load it through require so the
// types and the runtime agree under NodeNext.
type Robot = ReturnType<typeof RobotsParserModule.default>;
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => Robot;

export const ROBOTS_USER_AGENT = 'gleaner';


/** Spaces requests to one host at least 60 s / `perMinute` apart, and holds every request to a host
 * that asked for a pause (Retry-After) until the pause is over. */
export class HostRateLimiter {
  private next = new Map<string, number>();
  private pausedUntil = new Map<string, number>();
  /** Per-host spacing a host asked for (robots.txt Crawl-delay), ms. */
  private minInterval = new Map<string, number>();
  constructor(private readonly perMinute?: number) {}

  /** Space requests to `host` at least `ms` apart (robots.txt Crawl-delay), on top of the rate. */
  setMinInterval(host: string, ms: number): void {
    if (ms > 0) this.minInterval.set(host, ms);
  }

  /** No request to `host` before `untilMs` (epoch ms). */
  pause(host: string, untilMs: number): void {
    if (untilMs > (this.pausedUntil.get(host) ?? 0)) this.pausedUntil.set(host, untilMs);
  }

  /** Wait until a request to `host` may start. Resolves to a ticket for `release` (a shared
   * limiter's hold on the host; none here). */
  async wait(host: string, signal?: AbortSignal): Promise<unknown> {
    const now = Date.now();
    const paused = this.pausedUntil.get(host) ?? 0;
    const interval = Math.max(this.perMinute ? 60_000 / this.perMinute : 0, this.minInterval.get(host) ?? 0);
    if (!interval) {
      if (paused > now) await sleep(paused - now, signal);
      return undefined;
    }
    const at = Math.max(now, paused, this.next.get(host) ?? 0);
    this.next.set(host, at + interval);
    if (at > now) await sleep(at - now, signal);
    return undefined;
  }

  /** The request that passed `wait(host)` (with `ticket`) got its response or failed: a shared
   * limiter opens the host's gate an interval from then; this one spaces start times and needs
   * nothing. */
  release(_host: string, _ticket?: unknown): void {}
}

/** robots.txt bytes parsed at most (RFC 9309 §2.5: crawlers must parse at least 500 KiB). Past
 * it the file is cut, not refused. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** Tries after the first when robots.txt answers 5xx/429 or cannot be reached. */
export const ROBOTS_RETRIES = 2;
/** First pause between those tries (doubles). */
export const ROBOTS_RETRY_BASE_MS = 1_000;
/** Rules with a longer pattern are ignored: robots-parser matches a pattern in O(pattern × path)
 * per URL, and no real Allow/Disallow path is this long (URLs above ~2,000 characters break in
 * browsers); a hostile file of such rules would make every URL check slow. */
export const ROBOTS_MAX_PATTERN_CHARS = 2_048;

export interface RobotsAnswer {
  /** HTTP status, or undefined when unreachable (network error, timeout). */
  status?: number;
  body?: string;
  /** Why it was unreachable. */
  error?: string;
}

export type RobotsFetcher = (url: string) => Promise<RobotsAnswer>;

export interface RobotsVerdict {
  allowed: boolean;
  /** Why not (`robots.txt disallows …`, `robots.txt unavailable (http 503) …`). */
  why?: string;
}

interface OriginRules {
  robot?: Robot;
  /** Set when every URL of the origin is refused (robots.txt unreachable, RFC 9309 §2.3.1.4). */
  disallowAll?: string;
}

/**
 * robots.txt per origin, fetched once per crawl (RFC 9309): 2xx → its rules; 4xx (but 429) → no
 * rules; 5xx, 429 or unreachable → tried again (`ROBOTS_RETRIES`, backing off), then *complete
 * disallow* for the origin, said once in the log.
 */
export class RobotsCache {
  private cache = new Map<string, Promise<OriginRules>>();
  constructor(
    private readonly fetcher: RobotsFetcher,
    private readonly options: { retries?: number; retryBaseMs?: number; signal?: AbortSignal; onUnavailable?: (origin: string, why: string) => void } = {},
  ) {}

  private async load(origin: string): Promise<OriginRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const retries = this.options.retries ?? ROBOTS_RETRIES;
    let last = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt) await sleep(backoffDelayMs(attempt - 1, this.options.retryBaseMs ?? ROBOTS_RETRY_BASE_MS, 60_000), this.options.signal);
      const r = await this.fetcher(robotsUrl).catch((e: Error) => ({ error: e.message }) as RobotsAnswer);
      if (r.status !== undefined && r.status >= 200 && r.status < 300) return { robot: parseRobots(robotsUrl, r.body ?? '') };
      if (r.status !== undefined && r.status >= 300 && r.status < 500 && r.status !== 429) return {}; // unavailable: no rules
      last = r.status !== undefined ? `http ${r.status}` : (r.error ?? 'unreachable');
    }
    const why = `robots.txt unavailable (${last}): every URL of ${origin} is refused (RFC 9309)`;
    this.options.onUnavailable?.(origin, why);
    return { disallowAll: why };
  }

  private rules(origin: string): Promise<OriginRules> {
    let p = this.cache.get(origin);
    if (!p) {
      p = this.load(origin);
      this.cache.set(origin, p);
    }
    return p;
  }

  /** The `Sitemap:` lines of an origin's robots.txt (fetched once, with the rules). */
  async sitemaps(origin: string): Promise<string[]> {
    const rules = await this.rules(origin);
    return rules.robot ? rules.robot.getSitemaps() : [];
  }

  /** The `Crawl-delay` (seconds) robots.txt asks of us for a URL's origin, if any. */
  async crawlDelay(url: string): Promise<number | undefined> {
    const rules = await this.rules(new URL(url).origin);
    const d = rules.robot?.getCrawlDelay(ROBOTS_USER_AGENT);
    return typeof d === 'number' && Number.isFinite(d) && d > 0 ? d : undefined;
  }

  async check(url: string): Promise<RobotsVerdict> {
    const u = new URL(url);
    const rules = await this.rules(u.origin);
    if (rules.disallowAll) return { allowed: false, why: rules.disallowAll };
    if (rules.robot && rules.robot.isAllowed(url, ROBOTS_USER_AGENT) === false) return { allowed: false, why: `robots.txt disallows ${url}` };
    return { allowed: true };
  }

  async allowed(url: string): Promise<boolean> {
    return (await this.check(url)).allowed;
  }
}

/** Parse robots.txt, leaving out rules too long to be real (see ROBOTS_MAX_PATTERN_CHARS). */
function parseRobots(robotsUrl: string, body: string): Robot {
  const lines = body.split(/\r\n|\r|\n/);
  const kept = lines.filter((l) => l.length <= ROBOTS_MAX_PATTERN_CHARS + 32);
  return robotsParser(robotsUrl, kept.length === lines.length ? body : kept.join('\n'));
}
