/**
 * A URL's parts, parsed once per URL string. The stages read the same links again and again — the
 * list extractor's path shapes, the site model's page keys, the pagination's host check, the
 * classifier's child links —, each with `new URL` (~2–5 µs): on a page of 10,000 links that was
 * the largest single cost after parsing (0.45 s of ~2 s a page). The parts are frozen; a URL that
 * does not parse is `undefined`.
 */
import { cachedByString } from './string-cache.js';

export interface UrlParts {
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
}

/** The parts of an absolute URL (as `new URL(url)` gives them), or undefined when it does not parse. */
export const urlParts: (url: string) => UrlParts | undefined = cachedByString((url) => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return Object.freeze({ href: u.href, protocol: u.protocol, host: u.host, hostname: u.hostname, pathname: u.pathname, search: u.search });
}, 30_000);
