/**
 * Fetch failures in the log: the first few of each reason are printed, the rest counted (issue 12:
 * hundreds of 404 warnings flooded the log), with URLs shown decoded (`/标签/` rather than
 * `/%E6%A0%87%E7%AD%BE/`). The summary lists every reason with its count and a few examples.
 */
import type { Logger } from '../core/middleware.js';
import { redactUrl } from './credentials.js';

/** Failures of one reason printed one by one before the rest are only counted. */
export const LOGGED_FAILURES_PER_REASON = 3;
/** Example URLs kept per reason for the summary. */
export const EXAMPLES_PER_REASON = 3;
/** Longest URL shown in a log line (the rest elided): a hostile link can be megabytes long. */
export const MAX_LOGGED_URL_CHARS = 300;

/** A URL for people: percent-escapes decoded where they form valid UTF-8, long URLs shortened. */
export function displayUrl(url: string): string {
  let out = redactUrl(url);
  try {
    out = decodeURI(out);
  } catch {
    // A malformed escape: decode what decodes, segment by segment.
    out = out.replace(/(%[0-9a-f]{2})+/gi, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
  // Control characters (a decoded %0A) would break the log line.
  out = out.replace(/[\u0000-\u001f\u007f]/g, (c) => encodeURIComponent(c));
  return out.length > MAX_LOGGED_URL_CHARS ? `${out.slice(0, MAX_LOGGED_URL_CHARS)}…` : out;
}

export class FailureLog {
  readonly byReason: Record<string, number> = {};
  readonly examples: Record<string, string[]> = {};
  total = 0;
  constructor(private readonly log: Logger) {}

  record(reason: string, url: string, message: string): void {
    this.total++;
    const n = (this.byReason[reason] = (this.byReason[reason] ?? 0) + 1);
    const ex = (this.examples[reason] ??= []);
    if (ex.length < EXAMPLES_PER_REASON) ex.push(displayUrl(url));
    if (n <= LOGGED_FAILURES_PER_REASON) this.log.warning(`failed ${displayUrl(url)}: ${readable(message)}`);
    if (n === LOGGED_FAILURES_PER_REASON) this.log.warning(`more "${reason}" failures are counted, not logged (see the summary)`);
  }
}

/** First line of a message, its URLs decoded. */
function readable(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/https?:\/\/[^\s,)]+/g, (u) => displayUrl(u));
}
