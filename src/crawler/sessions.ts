/**
 * Sessions (issue 16 item 4): Crawlee's SessionPool, each session with its own cookie jar — what
 * a site sets (a login, a consent, an anti-bot token) is sent back by the same session — and
 * retired when the site blocks it (401/403/429 by default: Crawlee's blocked status codes), the
 * request then retried with another session. A downloader step: a session is taken per attempt
 * and kept over its redirect hops, so cookies set on a redirect (login flows) are kept too.
 */
import { Configuration, SessionPool, type Session } from '@crawlee/core';
import { MemoryStorage } from '@crawlee/memory-storage';
import { FetchError } from './errors.js';
import type { DownloadContext, DownloaderStep } from './downloader/index.js';
import type { Logger } from '../core/middleware.js';

export interface SessionOptions {
  /** Sessions in the pool (Crawlee's default 1000; a crawl of one site needs few). Default 20. */
  maxPoolSize?: number;
  /** Requests a session makes before it is retired (Crawlee's default 50). */
  maxUsageCount?: number;
  /** Errors (network, timeouts) a session survives (Crawlee's default 3). */
  maxErrorScore?: number;
  /** Statuses that mean "this session is blocked" (default 401, 403, 429, Crawlee's). */
  blockedStatusCodes?: number[];
}

/** Pool size when the spider does not say: enough to rotate past a few blocked sessions. */
export const DEFAULT_SESSION_POOL_SIZE = 20;
/** Crawlee's SessionPool default (session_pool.js `blockedStatusCodes`). */
export const BLOCKED_STATUS_CODES = [401, 403, 429];

/** The site refused this session: it is retired and the request tried again with another. */
export class SessionBlockedError extends FetchError {
  readonly reason: string;
  override readonly retryable = true;
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(url, `HTTP ${status} from ${url}: session retired`);
    this.reason = `http ${status}`;
  }
}

export interface SessionStats {
  /** Sessions retired because the site blocked them. */
  retired: number;
  /** Distinct sessions that made requests. */
  used: number;
}

export async function openSessionPool(o: SessionOptions): Promise<SessionPool> {
  // In memory: a crawl's sessions are not worth keeping (Crawlee would persist them to a key-value store).
  const config = new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false });
  return SessionPool.open(
    {
      maxPoolSize: o.maxPoolSize ?? DEFAULT_SESSION_POOL_SIZE,
      sessionOptions: { maxUsageCount: o.maxUsageCount, maxErrorScore: o.maxErrorScore },
      blockedStatusCodes: o.blockedStatusCodes ?? BLOCKED_STATUS_CODES,
      persistenceOptions: { enable: false },
    },
    config,
  );
}

/** The session step: cookies from the session's jar on every hop (after the spider's own
 * `cookies`), Set-Cookie kept, blocked sessions retired. */
export function sessionStep(pool: SessionPool, o: SessionOptions, staticCookie: (url: string) => string | undefined, stats: SessionStats, log: Logger): DownloaderStep {
  const sessions = new WeakMap<DownloadContext, Session>();
  const used = new Set<string>();
  const blocked = new Set(o.blockedStatusCodes ?? BLOCKED_STATUS_CODES);
  return {
    name: 'session',
    priority: 450,
    async request(ctx) {
      let s = sessions.get(ctx);
      if (!s || !s.isUsable()) {
        s = await pool.getSession();
        sessions.set(ctx, s);
        if (!used.has(s.id)) {
          used.add(s.id);
          stats.used = used.size;
        }
      }
      const jar = s.getCookieString(ctx.url);
      const own = staticCookie(ctx.url);
      const cookie = [own, jar].filter(Boolean).join('; ');
      if (cookie) ctx.headers = { ...(ctx.headers ?? {}), cookie };
    },
    response(ctx, head) {
      const s = sessions.get(ctx);
      if (!s) return undefined;
      s.setCookiesFromResponse({ url: ctx.url, headers: head.headers as Record<string, string | string[] | undefined> });
      if (blocked.has(head.status)) {
        s.retire();
        stats.retired++;
        log.debug(`session ${s.id} retired: HTTP ${head.status} from ${ctx.url}`);
        throw new SessionBlockedError(head.status, ctx.firstUrl);
      }
      if (head.status < 300) s.markGood();
      return undefined;
    },
    retry(ctx, error) {
      const s = sessions.get(ctx);
      if (s && !(error instanceof SessionBlockedError)) s.markBad();
      return undefined;
    },
  };
}
