/**
 * URL normalisation before the seen-set, as Crawlee's request unique key (`normalizeUrl` of
 * @apify/utilities, which `Request.computeUniqueKey` calls): the fragment dropped (unless
 * `keepUrlFragment`), tracking parameters dropped, the query sorted by parameter name, so that
 * `?b=2&a=1`, `?a=1&b=2` and `?a=1&b=2&utm_source=x` are one page, fetched once.
 *
 * Two differences from Crawlee's key, both to fetch what the link says: the URL is kept as the
 * request URL (Crawlee fetches the first spelling it met and only keys on the normalised one), so
 * the query is re-joined from its own pairs, never re-encoded (URLSearchParams would turn `%20`
 * into `+` and `a` into `a=`); and a trailing slash is kept (`/news/` and `/news` are different
 * resources to most servers; Crawlee's key drops it).
 *
 * Options are plain data (RegExps), so they can be sent to worker threads.
 */
import { compilePattern, patternMatches } from '../spider/follow-rules.js';

/**
 * Query parameters that only track a click, dropped by default. `utm_*` is Crawlee's own rule;
 * the others are the click identifiers ad and mail platforms append to every landing URL (Google
 * gclid/gbraid/wbraid/dclid, Meta fbclid, Microsoft msclkid, Yandex yclid, Mailchimp mc_cid/mc_eid):
 * none selects content.
 */
export const TRACKING_QUERY_PARAMS = ['utm_*', 'gclid', 'gbraid', 'wbraid', 'dclid', 'fbclid', 'msclkid', 'yclid', 'mc_cid', 'mc_eid'];

export interface UrlNormalisation {
  keepUrlFragment: boolean;
  /** Parameter names to drop (compiled globs or RegExps). */
  ignoreQueryParams: RegExp[];
}

export interface UrlNormalisationOptions {
  /** Keep `#fragment` (single-page sites that route by hash). Default false. */
  keepUrlFragment?: boolean;
  /** Parameter names (globs: `sessionid`, `ref_*`; or RegExps) dropped besides the tracking ones. */
  ignoreQueryParams?: Array<string | RegExp>;
}

export function urlNormalisation(o: UrlNormalisationOptions = {}): UrlNormalisation {
  return {
    keepUrlFragment: !!o.keepUrlFragment,
    ignoreQueryParams: [...TRACKING_QUERY_PARAMS, ...(o.ignoreQueryParams ?? [])].map(compilePattern),
  };
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The normalised href of a parsed http(s) URL (the URL object is changed in place). */
export function normaliseUrl(u: URL, n: UrlNormalisation): string {
  if (!n.keepUrlFragment) u.hash = '';
  // Userinfo in a link is neither kept nor sent (the spider's own start URLs give credentials).
  if (u.username || u.password) {
    u.username = '';
    u.password = '';
  }
  const search = u.search;
  if (search.length > 1) {
    const pairs = search
      .slice(1)
      .split('&')
      .filter((p) => p.length > 0)
      .map((p) => ({ p, name: paramName(p) }))
      .filter(({ name }) => !n.ignoreQueryParams.some((re) => patternMatches(re, name)));
    // Array.prototype.sort is stable: repeated names keep their order (URLSearchParams.sort does too).
    pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const joined = pairs.map((x) => x.p).join('&');
    if (joined !== search.slice(1)) u.search = joined ? `?${joined}` : '';
  } else {
    // An empty query (`page?`) is no query: `u.search` is '' for both, the href is not.
    const href = u.href;
    const q = href.indexOf('?');
    const h = href.indexOf('#');
    if (q >= 0 && (h < 0 || q < h)) u.search = '';
  }
  return u.href;
}
