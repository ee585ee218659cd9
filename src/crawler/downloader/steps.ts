/**
 * The downloader steps, one small object each, and the table that orders them (priorities with
 * gaps, like Scrapy's DOWNLOADER_MIDDLEWARES_BASE). Requests go down in priority order: a redirect
 * target passes off-site, the address guard and robots.txt again before anything is sent to it.
 */
import { BlockedError, HttpStatusError, NotAPageError, RedirectError, TooLargeError, type FetchError } from '../errors.js';
import type { AddressGuard, DomainRule } from '../net-guard.js';
import { urlAllowed } from '../net-guard.js';
import type { HostRateLimiter, RobotsCache } from '../politeness.js';
import { backoffDelayMs, parseRetryAfter } from './backoff.js';
import type { DownloadContext, DownloaderStep, ResponseAction } from './index.js';
import type { ResponseHead } from './transport.js';

/** Redirect hops followed per request (browsers allow 20, got 10; a crawler needs few). */
export const DEFAULT_MAX_REDIRECTS = 10;

/** Content types we will not parse as pages. */
export const NON_PAGE_TYPE = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-gzip|octet-stream|x-tar|x-7z|vnd\.|msword|x-rar|wasm|java-archive)/i;

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/** Redirect targets must stay within the allowed domains (host and, where a rule names one, port).
 * First requests were filtered when they were queued. */
export function offsiteStep(rules: DomainRule[]): DownloaderStep {
  return {
    name: 'offsite',
    priority: 100,
    request(ctx) {
      if (ctx.hop === 0) return;
      if (!urlAllowed(new URL(ctx.url), rules)) throw new BlockedError('off-site', ctx.firstUrl, `${ctx.firstUrl} redirects to ${ctx.url}, outside the allowed domains`, true);
    },
  };
}

/** No private, loopback or otherwise non-public address, on every hop (SSRF). */
export function addressGuardStep(guard: AddressGuard): DownloaderStep {
  return {
    name: 'address-guard',
    priority: 200,
    async request(ctx) {
      try {
        await guard.check(ctx.url);
      } catch (e) {
        const how = ctx.hop ? `${ctx.firstUrl} redirects to a refused address: ` : '';
        throw new BlockedError('address', ctx.firstUrl, how + (e as Error).message, ctx.hop > 0);
      }
    },
  };
}

/** robots.txt of the URL's origin, on every hop (a same-host redirect to a disallowed path is
 * not fetched either). */
export function robotsStep(robots: RobotsCache): DownloaderStep {
  return {
    name: 'robots',
    priority: 300,
    async request(ctx) {
      const verdict = await robots.check(ctx.url);
      if (!verdict.allowed) {
        const how = ctx.hop ? `${ctx.firstUrl} redirects to ${ctx.url}, which ` : `${ctx.url}: `;
        throw new BlockedError('robots', ctx.firstUrl, `${how}${verdict.why}`, ctx.hop > 0);
      }
    },
  };
}

/** Per-host request spacing, and the pause a host asked for with Retry-After. The exchange's
 * response head (or its failure) is reported back: a limiter shared by several workers holds the
 * host until then (src/crawler/redis/politeness.ts). */
export function rateLimitStep(limiter: HostRateLimiter): DownloaderStep {
  const held = new WeakMap<DownloadContext, { host: string; ticket: unknown }>();
  const release = (ctx: DownloadContext) => {
    const h = held.get(ctx);
    if (!h) return;
    held.delete(ctx);
    limiter.release(h.host, h.ticket);
  };
  return {
    name: 'rate-limit',
    priority: 400,
    request: async (ctx) => {
      const host = new URL(ctx.url).host;
      held.set(ctx, { host, ticket: await limiter.wait(host, ctx.signal) });
    },
    response: (ctx) => {
      release(ctx);
      return undefined;
    },
    retry: (ctx) => {
      release(ctx);
      return undefined;
    },
  };
}

/** The body limit, and an early refusal when Content-Length already says too much. */
export function sizeLimitStep(maxBytes: number): DownloaderStep {
  return {
    name: 'size-limit',
    priority: 500,
    request(ctx) {
      ctx.maxBytes = maxBytes;
    },
    response(ctx, head) {
      const len = Number(head.headers['content-length']);
      if (head.status < 300 && Number.isFinite(len) && len > maxBytes) throw new TooLargeError(ctx.firstUrl, maxBytes, false);
      return undefined;
    },
  };
}

/** 3xx with a Location: the next hop, unless it loops, leaves http(s) or the chain is too long. */
export function redirectStep(maxRedirects = DEFAULT_MAX_REDIRECTS): DownloaderStep {
  return {
    name: 'redirect',
    priority: 600,
    response(ctx: DownloadContext, head: ResponseHead): ResponseAction {
      if (!REDIRECT_STATUS.has(head.status)) return undefined;
      const loc = head.headers.location;
      if (!loc) return undefined;
      let to: URL;
      try {
        to = new URL(loc, ctx.url);
      } catch {
        throw new RedirectError(ctx.firstUrl, 'invalid', `${ctx.url} redirects to an invalid URL (${loc})`);
      }
      if (to.protocol !== 'http:' && to.protocol !== 'https:') throw new BlockedError('scheme', ctx.firstUrl, `${ctx.url} redirects to ${to.protocol} (only http(s) is followed)`, true);
      to.hash = '';
      // Userinfo in a Location is stripped, never sent (credentials come from the spider only).
      to.username = '';
      to.password = '';
      if (ctx.chain.includes(to.href)) throw new RedirectError(ctx.firstUrl, 'loop', `${ctx.firstUrl}: redirect loop (${[...ctx.chain, to.href].join(' -> ')})`);
      if (ctx.hop >= maxRedirects) throw new RedirectError(ctx.firstUrl, 'too many', `${ctx.firstUrl}: more than ${maxRedirects} redirects`);
      return { redirect: to.href };
    },
  };
}

/** Error statuses become `HttpStatusError` (429/5xx retryable, with the server's Retry-After). */
export function httpStatusStep(): DownloaderStep {
  return {
    name: 'http-status',
    priority: 700,
    response(ctx, head) {
      if (head.status >= 200 && head.status < 300) return undefined;
      throw new HttpStatusError(head.status, ctx.url, parseRetryAfter(head.headers['retry-after']));
    },
  };
}

/** Images, archives, PDF … are not pages: refused before their body is read. */
export function contentTypeStep(): DownloaderStep {
  return {
    name: 'content-type',
    priority: 800,
    response(ctx, head) {
      const ct = head.headers['content-type'];
      if (ct && NON_PAGE_TYPE.test(ct)) throw new NotAPageError(ctx.url, ct.split(';')[0]!.trim());
      return undefined;
    },
  };
}

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step (doubles per retry). */
  baseDelayMs: number;
  /** Longest pause: a Retry-After beyond it is not waited for (the request fails). */
  maxDelayMs: number;
  /** Where Retry-After pauses the whole host. */
  limiter?: HostRateLimiter;
  random?: () => number;
}

/** Retryable failures (network, timeout, 429, 5xx) are tried again after an exponential backoff
 * with jitter, or after the server's Retry-After, which then pauses every request to that host. */
export function retryStep(o: RetryOptions): DownloaderStep {
  return {
    name: 'retry',
    priority: 900,
    retry(ctx: DownloadContext, error: FetchError): number | undefined {
      if (!error.retryable || ctx.attempt >= o.maxRetries) return undefined;
      const after = error instanceof HttpStatusError ? error.retryAfterMs : undefined;
      if (after !== undefined) {
        if (after > o.maxDelayMs) return undefined;
        o.limiter?.pause(new URL(ctx.url).host, Date.now() + after);
        return after;
      }
      return backoffDelayMs(ctx.attempt, o.baseDelayMs, o.maxDelayMs, o.random);
    },
  };
}

export interface StepOptions {
  domains: DomainRule[];
  guard?: AddressGuard;
  robots?: RobotsCache;
  limiter: HostRateLimiter;
  maxBytes: number;
  maxRedirects?: number;
  retry: Omit<RetryOptions, 'limiter'>;
}

/** The default table, in priority order. */
export function defaultSteps(o: StepOptions): DownloaderStep[] {
  const steps: DownloaderStep[] = [offsiteStep(o.domains)];
  if (o.guard) steps.push(addressGuardStep(o.guard));
  if (o.robots) steps.push(robotsStep(o.robots));
  steps.push(
    rateLimitStep(o.limiter),
    sizeLimitStep(o.maxBytes),
    redirectStep(o.maxRedirects),
    httpStatusStep(),
    contentTypeStep(),
    retryStep({ ...o.retry, limiter: o.limiter }),
  );
  return steps;
}
