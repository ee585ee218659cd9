/**
 * Retry timing: exponential backoff with jitter, and the server's `Retry-After` when it sent one
 * (RFC 9110 §10.2.3: seconds or an HTTP date).
 */

/** Jitter on top of the schedule, as a share of the step: retries of many pages that failed
 * together spread out instead of returning together, and no gap is ever shorter than the schedule
 * (AWS architecture blog "Exponential Backoff And Jitter" — "equal jitter" keeps a floor). */
export const BACKOFF_JITTER = 0.25;

/** The schedule: attempt n (0-based) waits `baseMs · 2^n`, at most `capMs`. */
export function backoffScheduleMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** attempt);
}

/** The schedule plus up to `BACKOFF_JITTER` of it, at random. */
export function backoffDelayMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const step = backoffScheduleMs(attempt, baseMs, capMs);
  return Math.round(step * (1 + BACKOFF_JITTER * random()));
}

/** `Retry-After` in milliseconds from now, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** A sleep that ends early (rejecting) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
