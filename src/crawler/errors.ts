/**
 * Typed fetch errors (Crawlee's errors.ts, ky's one-class-per-error habit): the downloader throws
 * these, the crawl counts them by `reason` and retries those that say `retryable`. No reason is
 * ever parsed back out of a message.
 */

/** A request that did not produce a page. `reason` is the summary key (`http 404`, `timeout` …). */
export abstract class FetchError extends Error {
  abstract readonly reason: string;
  /** Worth another attempt after a pause (network trouble, 5xx, 429). */
  readonly retryable: boolean = false;
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The server answered with an error status. 429 and 5xx are retryable; `retryAfterMs` is the
 * server's `Retry-After`, when it sent one. */
export class HttpStatusError extends FetchError {
  readonly reason: string;
  override readonly retryable: boolean;
  constructor(
    readonly status: number,
    url: string,
    readonly retryAfterMs?: number,
  ) {
    super(url, `HTTP ${status} from ${url}`);
    this.reason = `http ${status}`;
    // 501 Not Implemented and 505 HTTP Version Not Supported do not change on a retry.
    this.retryable = status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);
  }
}

export type BlockedKind = 'robots' | 'address' | 'off-site' | 'scheme';

/** A downloader step refused the request before it was sent (nothing reached the server). */
export class BlockedError extends FetchError {
  readonly reason: string;
  constructor(
    readonly kind: BlockedKind,
    url: string,
    message: string,
    /** Refused after a redirect (the first URL was allowed, the target was not). */
    readonly afterRedirect = false,
  ) {
    super(url, message);
    this.reason = kind === 'robots' ? 'robots.txt' : kind === 'address' ? 'blocked address' : `${afterRedirect ? 'redirect' : 'blocked'} ${kind}`;
  }
}

/** Body (raw or decoded) above `limit` bytes; the download was stopped there. */
export class TooLargeError extends FetchError {
  readonly reason = 'too large';
  constructor(
    url: string,
    readonly limit: number,
    readonly decoded: boolean,
  ) {
    super(url, `${url}: response larger than ${limit} bytes${decoded ? ' once decompressed' : ''}`);
  }
}

/** A content type we will not parse as a page (images, archives, PDF …). */
export class NotAPageError extends FetchError {
  readonly reason = 'not a page';
  constructor(
    url: string,
    readonly contentType: string,
  ) {
    super(url, `${url}: ${contentType} is not a page`);
  }
}

/** No complete answer within the request timeout. */
export class TimeoutError extends FetchError {
  readonly reason = 'timeout';
  override readonly retryable = true;
  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    super(url, `${url}: no complete response within ${timeoutMs / 1000} s`);
  }
}

/** Connection-level failure (`ECONNRESET`, `ECONNREFUSED`, `ENOTFOUND` …). */
export class NetworkError extends FetchError {
  readonly reason: string;
  override readonly retryable: boolean;
  constructor(
    url: string,
    readonly code: string,
    message: string,
  ) {
    super(url, `${url}: ${message}`);
    this.reason = `network ${code}`;
    // A name that does not resolve will not resolve a second later either.
    this.retryable = code !== 'ENOTFOUND';
  }
}

/** A redirect chain that loops or is too long. Never retried: the same chain would come back. */
export class RedirectError extends FetchError {
  readonly reason: string;
  constructor(
    url: string,
    readonly kind: 'loop' | 'too many' | 'invalid',
    message: string,
  ) {
    super(url, message);
    this.reason = kind === 'loop' ? 'redirect loop' : kind === 'too many' ? 'too many redirects' : 'bad redirect';
  }
}

/** The body could not be decompressed (corrupt, or an encoding we do not speak). */
export class DecodingError extends FetchError {
  readonly reason = 'bad encoding';
  constructor(url: string, message: string) {
    super(url, `${url}: ${message}`);
  }
}

/** The crawl is stopping (signal): not a failure of the page, which stays queued for the next run. */
export class AbortedError extends Error {
  constructor(readonly url: string) {
    super(`${url}: aborted (the crawl is stopping)`);
    this.name = 'AbortedError';
  }
}
