/**
 * Link handling for crawls, in two steps so that the expensive one runs beside the chain (in a
 * worker thread when the chain runs in the pool) and only the seen-set check stays on the thread
 * that owns the frontier:
 *
 * 1. `candidateLinks` (pure, per page): the chain's follow list → requests worth asking the
 *    frontier about: http(s) only, normalised (normalise-url.ts: fragment, tracking parameters,
 *    query order), allowed domains, follow rules → labels,
 *    depth, deduplicated within the page. A page of the realistic bench site lists ~150 links, most
 *    of them the shared menu and sidebar: the raw strings are deduplicated before any URL parse.
 * 2. `admitLinks` (main thread): drop what the frontier has seen; remember extractor hints for
 *    URLs already queued (see `lateHints` in crawl.ts).
 *
 * No Crawlee `Request` exists until the frontier accepted a URL (crawl.ts `pump`).
 */
import type { FollowRequest } from '../core/middleware.js';
import type { SpiderConfig } from '../spider/config.js';
import type { FrontierRequest } from './frontier.js';
import { defaultDomains, parseDomains, urlAllowed, type DomainRule } from './net-guard.js';
import { seenAsDirectoryTwin } from './url-aliases.js';
import { compileRules, decideFollow, type CompiledRule } from '../spider/follow-rules.js';
import { normaliseUrl, urlNormalisation, type UrlNormalisation } from './normalise-url.js';

/** Anchor texts longer than this are not titles (they would bloat the queue). */
export const MAX_ANCHOR_CHARS = 300;

/** What decides whether a link is followed; plain data (it is sent to worker threads: the
 * RegExps of the rules and of the URL normalisation survive the structured clone). */
export interface LinkPolicy {
  /** Allowed domains (`parseDomains`: host, and port when given). */
  domains: DomainRule[];
  rules: CompiledRule[];
  /** How a link becomes the URL the seen-set keys on (the spider's `keepUrlFragment`,
   * `ignoreQueryParams`). */
  urlNorm: UrlNormalisation;
  maxDepth?: number;
  /** Anchor texts longer than this are cut (they would bloat the queue). */
  maxAnchorChars: number;
}

/** A candidate request; `hint` is the first extractor label any occurrence of the URL on the
 * page carried (used when the URL is already queued). */
export interface LinkCandidate extends FrontierRequest {
  hint?: string;
}

/** A spider's link policy: its allowed domains (default: the start URLs' hosts), follow rules,
 * URL normalisation and depth limit. */
export function linkPolicyOf(spider: SpiderConfig): LinkPolicy {
  return {
    domains: parseDomains(spider.allowedDomains ?? defaultDomains(spider.startUrls)),
    rules: compileRules(spider.follow),
    urlNorm: urlNormalisation(spider),
    maxDepth: spider.crawler?.maxDepth,
    maxAnchorChars: MAX_ANCHOR_CHARS,
  };
}

/** Step 1: the links of one page the spider may follow, labelled, deduplicated within the page. */
export function candidateLinks(follow: readonly FollowRequest[], from: { depth?: number }, pageUrl: string, policy: LinkPolicy): LinkCandidate[] {
  const depth = (from.depth ?? 0) + 1;
  if (policy.maxDepth !== undefined && depth > policy.maxDepth) return [];
  const { rules, domains, urlNorm } = policy;
  const out = new Map<string, LinkCandidate>();
  /** Raw link strings already decided (kept or not): repeats cost one lookup. */
  const decided = new Map<string, string | null>();
  for (const f of follow) {
    let href = decided.get(f.url);
    if (href === undefined) {
      href = normaliseLink(f.url, domains, urlNorm);
      decided.set(f.url, href);
    }
    if (href === null) continue;
    const known = out.get(href);
    if (known) {
      if (!known.hint && f.label) known.hint = f.label;
      continue;
    }
    const d = decideFollow(href, rules, f.label);
    if (!d.follow) continue;
    const anchor = f.anchorText?.slice(0, policy.maxAnchorChars);
    // A follow rule's label types the page; an extractor's label only hints (the classifier decides).
    const ruleLabel = rules.length ? decideFollow(href, rules).label : undefined;
    const labelHint = ruleLabel ? undefined : d.label;
    const c: LinkCandidate = { url: href, label: ruleLabel, labelHint, anchorText: anchor || undefined, depth, referrer: pageUrl };
    if (f.label) c.hint = f.label;
    out.set(href, c);
  }
  return [...out.values()];
}

/** The URL to queue for a link (http(s), allowed host, normalised), or null. */
function normaliseLink(raw: string, domains: DomainRule[], urlNorm: UrlNormalisation): string | null {
  // cheap refusals before the URL parser: mailto:, javascript:, tel:, data: …
  if (!/^https?:/i.test(raw)) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!urlAllowed(u, domains)) return null;
  return normaliseUrl(u, urlNorm);
}

/** Step 2: the candidates the frontier has not seen. For a URL already queued, an extractor's
 * label is kept as a late hint (`lateHints`) when no follow rules decide labels. A link whose
 * directory-index twin (`…/` and `…/index.html`) is queued, or was just accepted, is not
 * (url-aliases.ts); `onTwin` hears of it. */
export function admitLinks(
  candidates: readonly LinkCandidate[],
  seen: (url: string) => boolean,
  lateHints: Map<string, string>,
  hasRules: boolean,
  onTwin: (url: string) => void = () => {},
): FrontierRequest[] {
  const out: FrontierRequest[] = [];
  const accepted = new Set<string>();
  for (const c of candidates) {
    if (seen(c.url)) {
      if (c.hint && !hasRules && !lateHints.has(c.url)) lateHints.set(c.url, c.hint);
      continue;
    }
    if (seenAsDirectoryTwin(c.url, (t) => seen(t) || accepted.has(t))) {
      onTwin(c.url);
      continue;
    }
    const { hint: _hint, ...req } = c;
    accepted.add(req.url);
    out.push(req);
  }
  return out;
}
