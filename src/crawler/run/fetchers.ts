/**
 * The crawl's downloaders, built from the spider's `crawler` settings (Scrapy's downloader with its
 * middleware): the page downloader (off-site, address guard, robots.txt, per-host rate, size,
 * redirects, status, content type, retries, conditional requests of a recrawl, Crawl-delay,
 * sessions), the robots.txt fetcher and cache, and the sitemap fetcher with the URLs it seeds.
 */
import type { Logger } from '../../core/middleware.js';
import type { SpiderConfig } from '../../spider/config.js';
import { AddressGuard, hostAllowed, normaliseDomains } from '../net-guard.js';
import { HostRateLimiter, RobotsCache, ROBOTS_MAX_BYTES, type RobotsFetcher } from '../politeness.js';
import { Downloader } from '../downloader/index.js';
import { addressGuardStep, defaultSteps, redirectStep } from '../downloader/steps.js';
import { BlockedError, FetchError, RedirectError } from '../errors.js';
import { displayUrl } from '../failure-log.js';
import { crawlDelayStep } from '../crawl-delay.js';
import { openSessionPool, sessionStep, type SessionOptions, type SessionStats } from '../sessions.js';
import { loadSitemaps, sitemapSources, SITEMAP_MAX_BYTES } from '../sitemaps.js';
import { conditionalStep, type PageMemory } from '../recrawl.js';
import { candidateLinks, type LinkCandidate, type LinkPolicy } from '../links.js';
import type { CrawlStats } from './stats.js';
import { credentialsStep, type Credentials } from '../credentials.js';

/** robots.txt has its own, short timeout: it gates every page of its origin. */
const ROBOTS_TIMEOUT_MS = 10_000;

/** Retry, timeout and size settings with their defaults applied. */
export interface FetchSettings {
  timeoutSecs: number;
  maxBytes: number;
  maxRetries: number;
  retryBackoffSecs: number;
  maxRetryDelaySecs: number;
}

export interface FetchContext {
  spider: SpiderConfig;
  settings: FetchSettings;
  guard: AddressGuard;
  limiter: HostRateLimiter;
  signal: AbortSignal;
  log: Logger;
  stats: CrawlStats;
  links: LinkPolicy;
  /** Userinfo of the start URLs, by origin. */
  credentials?: Credentials;
}

const retryOf = (s: FetchSettings) => ({ maxRetries: s.maxRetries, baseDelayMs: s.retryBackoffSecs * 1000, maxDelayMs: s.maxRetryDelaySecs * 1000 });

/** The spider's cookies that apply to a URL, as a `cookie` header. */
export function cookieHeaderFor(url: string, spider: SpiderConfig): string | undefined {
  const cookies = spider.crawler?.cookies;
  if (!cookies?.length) return undefined;
  const u = new URL(url);
  const parts = cookies.filter((c) => (!c.domain || hostAllowed(u.hostname, normaliseDomains([c.domain]))) && (!c.path || u.pathname.startsWith(c.path))).map((c) => `${c.name}=${c.value}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** robots.txt for every origin, fetched once (`crawler.robotsTxt: false`: none). */
export function robotsCache(x: FetchContext, share: ((fetch: RobotsFetcher) => RobotsFetcher) | undefined): RobotsCache | undefined {
  const { spider } = x;
  const c = spider.crawler ?? {};
  if (c.robotsTxt === false) return undefined;
  const proxies = c.proxyUrls ?? [];
  const fetcher = new Downloader({
    // RFC 9309 §2.3.1.2: follow at least five redirects; every hop through the address guard.
    steps: [...(spider.allowPrivateAddresses ? [] : [addressGuardStep(x.guard)]), redirectStep(5), ...(x.credentials?.size ? [credentialsStep(x.credentials)] : [])],
    timeoutMs: ROBOTS_TIMEOUT_MS,
    maxBytes: ROBOTS_MAX_BYTES,
    truncate: true,
    signal: x.signal,
    headersFor: () => ({ ...(c.headers ?? {}) }),
    proxyFor: () => proxies[0],
    guardDns: !spider.allowPrivateAddresses,
  });
  const fetchRobots: RobotsFetcher = async (url) => {
    try {
      const r = await fetcher.fetch(url);
      return { status: r.status, body: r.body.toString('utf8') };
    } catch (e) {
      // RFC 9309 §2.3.1.2: a chain that loops or runs long means "unavailable" (no rules); a
      // hop to a refused address is the same for us.
      if (e instanceof RedirectError || e instanceof BlockedError) return { status: 404 };
      return { error: e instanceof FetchError ? e.reason : (e as Error).message };
    }
  };
  // Shared frontiers share robots.txt answers too.
  return new RobotsCache((share ?? ((f: RobotsFetcher) => f))(fetchRobots), {
    signal: x.signal,
    onUnavailable: (origin, why) => {
      x.stats.robotsUnavailable.add(origin);
      x.log.warning(why);
    },
  });
}

export interface PageFetcher {
  downloader: Downloader;
  /** With `crawler.sessions` (HTTP crawls): the pool, its settings and what it counted. */
  sessions?: { pool: Awaited<ReturnType<typeof openSessionPool>>; stats: SessionStats };
}

/** The downloader every page goes through. */
export async function pageFetcher(x: FetchContext, robots: RobotsCache | undefined, recrawl: { memory: PageMemory; active: () => boolean }, render: boolean): Promise<PageFetcher> {
  const { spider, settings: s } = x;
  const c = spider.crawler ?? {};
  const proxies = c.proxyUrls ?? [];
  let proxyIndex = 0;
  const sessionOptions: SessionOptions | undefined = c.sessions ? (c.sessions === true ? {} : c.sessions) : undefined;
  const sessionPool = sessionOptions && !render ? await openSessionPool(sessionOptions) : undefined;
  const sessionStats: SessionStats = { retired: 0, used: 0 };
  const downloader = new Downloader({
    steps: [
      ...defaultSteps({ domains: x.links.domains, guard: spider.allowPrivateAddresses ? undefined : x.guard, robots, limiter: x.limiter, maxBytes: s.maxBytes, retry: retryOf(s) }),
      conditionalStep(recrawl.memory, recrawl.active),
      ...(x.credentials?.size ? [credentialsStep(x.credentials)] : []),
      ...(robots ? [crawlDelayStep(robots, x.limiter, x.log, c.maxCrawlDelaySecs)] : []),
      ...(sessionPool ? [sessionStep(sessionPool, sessionOptions!, (url) => cookieHeaderFor(url, spider), sessionStats, x.log)] : []),
    ],
    timeoutMs: s.timeoutSecs * 1000,
    maxBytes: s.maxBytes,
    signal: x.signal,
    headersFor: (url) => {
      const headers: Record<string, string> = { ...(c.headers ?? {}) };
      // With sessions the session step sends the spider's cookies with the session's own.
      const cookie = sessionPool ? undefined : cookieHeaderFor(url, spider);
      if (cookie) headers.cookie = cookie;
      return headers;
    },
    proxyFor: () => (proxies.length ? proxies[proxyIndex++ % proxies.length] : undefined),
    // Checked again at connection time: redirects and changed DNS answers included.
    guardDns: !spider.allowPrivateAddresses,
    onRetry: (url, err, delay, attempt) => {
      x.stats.retries++;
      x.log.debug(`retry ${attempt + 1} of ${displayUrl(url)} in ${(delay / 1000).toFixed(1)} s (${err.reason})`);
    },
  });
  return { downloader, sessions: sessionPool ? { pool: sessionPool, stats: sessionStats } : undefined };
}

/** The URLs of the spider's sitemaps (`spider.sitemaps`: `true` for the robots.txt `Sitemap:` lines), as link candidates from depth 0. */
export async function sitemapCandidates(x: FetchContext, robots: RobotsCache | undefined, sitemaps: true | string[]): Promise<{ candidates: LinkCandidate[]; sitemaps: number; listed: number }> {
  const { spider, settings: s } = x;
  const c = spider.crawler ?? {};
  const fetcher = new Downloader({
    steps: [
      ...defaultSteps({ domains: x.links.domains, guard: spider.allowPrivateAddresses ? undefined : x.guard, robots, limiter: x.limiter, maxBytes: SITEMAP_MAX_BYTES, retry: retryOf(s) }).filter((st) => st.name !== 'content-type'),
      ...(robots ? [crawlDelayStep(robots, x.limiter, x.log, c.maxCrawlDelaySecs)] : []),
    ],
    timeoutMs: s.timeoutSecs * 1000,
    maxBytes: SITEMAP_MAX_BYTES,
    signal: x.signal,
    headersFor: () => ({ ...(c.headers ?? {}) }),
    guardDns: !spider.allowPrivateAddresses,
  });
  const listed = (origin: string) => (robots ? robots.sitemaps(origin) : Promise.resolve([]));
  const sources = await sitemapSources(sitemaps, spider.startUrls, robots ? listed : undefined);
  const found = await loadSitemaps(
    sources,
    async (url) => {
      try {
        return await fetcher.fetch(url);
      } catch (e) {
        if (e instanceof FetchError) {
          x.log.warning(`sitemap ${displayUrl(url)}: ${e.reason}`);
          return undefined;
        }
        throw e;
      }
    },
    listed,
    x.log,
  );
  return { candidates: candidateLinks(found.urls.map((e) => ({ url: e.url })), { depth: 0 }, sources[0] ?? '', x.links), sitemaps: found.sitemaps, listed: found.urls.length };
}
