/**
 * Follow rules: URL globs or RegExps → page labels (Scrapy's CrawlSpider rules, without
 * callbacks). Globs have Crawlee's semantics (`enqueueLinks({ globs })`: minimatch, case
 * insensitive, over the whole URL): `*` and `?` stay inside one path segment (`?` is one
 * character), `**` crosses `/`, `[0-9]` is a class, `{a,b}` alternates; `[?]` is a literal `?`.
 * RegExps are used as given.
 *
 * Rules are compiled to plain data (a RegExp per rule), so they can be sent to worker threads.
 */
import { GLOBSTAR, Minimatch } from 'minimatch';
import { isPageLabel, ITEM_KINDS, LABEL_OF_KIND, PAGE_LABELS, type PageLabel } from '../core/item.js';
import { suggest } from './suggest.js';

/** A follow rule: links whose URL matches `pattern` get `label`; `follow: false` excludes them. */
export interface FollowRule {
  /** Glob over the whole URL (`https://ex.com/news/*.html`, `**` crosses `/`) or a RegExp. */
  pattern: string | RegExp;
  /**
   * Page label for matching links: `detail` (an article page), `list`, `forum` or `other` type the
   * page (the extractor that runs on it); any other string is your own label, carried on the
   * request and typing nothing (a near miss of a built-in one, `details`, is warned about).
   */
  label?: PageLabel | (string & {});
  /** `false`: never enqueue matching links (a deny rule). Default true. */
  follow?: boolean;
}

/**
 * The built-in label that `label` looks like a slip for: `details` → `detail`, `Lists` → `list`,
 * `article` (an item kind) → `detail`; undefined for a built-in label or a label of your own.
 */
export function nearMissLabel(label: string): PageLabel | undefined {
  if (isPageLabel(label)) return undefined;
  const lower = label.toLowerCase();
  const kind = ITEM_KINDS.find((k) => lower === k || lower === `${k}s`);
  if (kind) return LABEL_OF_KIND[kind];
  return suggest(label, PAGE_LABELS) as PageLabel | undefined;
}

/** One line per follow rule whose label is a near miss of a built-in label (see nearMissLabel). */
export function followRuleWarnings(rules: readonly FollowRule[] | undefined, where = 'follow'): string[] {
  const out: string[] = [];
  (rules ?? []).forEach((r, i) => {
    const hint = typeof r.label === 'string' ? nearMissLabel(r.label) : undefined;
    if (hint) out.push(`${where}[${i}].label "${r.label}" is not a page label (did you mean "${hint}"?): it is kept as a label of your own, and the page type is left to the classifier`);
  });
  return out;
}

export interface CompiledRule {
  re: RegExp;
  label?: string;
  follow: boolean;
  source: string;
}

/** Crawlee's glob options (@crawlee/core enqueue_links/shared.js: `new Minimatch(glob, { nocase: true })`). */
const GLOB_OPTIONS = { nocase: true } as const;

/** A glob that cannot match anything (minimatch refuses it or it is empty). */
export class GlobError extends Error {
  constructor(glob: string, why: string) {
    super(`invalid glob "${glob}": ${why}`);
    this.name = 'GlobError';
  }
}

/** One path segment a `**` may stand for: not `.`, `..` or a dot file (minimatch without `dot`). */
const GLOBSTAR_SEGMENT = '(?:(?!\\.)[^/]*)';
/** A separator: the whole run of slashes (minimatch splits paths on `/+`); the lookahead keeps a
 * segment pattern that matches the empty string from splitting one run into two separators. */
const SEPARATOR = '\\/+(?!\\/)';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The RegExp that matches exactly what `new Minimatch(glob, { nocase: true }).match(url)` matches
 * (the call Crawlee's `enqueueLinks({ globs })` makes). minimatch's own `makeRe()` is not that: it
 * wants single slashes where match() splits on runs of them (`http://`), and lets a trailing `**`
 * match inside a segment (`**\/news/**` matches `…/newsletter`). So the RegExp is built here from
 * minimatch's parsed segments: segments joined by runs of slashes, each `**` zero or more non-dot
 * segments (one or more when it ends the pattern), an optional trailing slash.
 * test/crawler/follow-rules.test.ts checks the two agree on generated globs and URLs.
 */
export function globToRegExp(glob: string): RegExp {
  if (!glob.trim()) throw new GlobError(glob, 'empty');
  const m = new Minimatch(glob, GLOB_OPTIONS);
  if (m.comment) throw new GlobError(glob, 'a pattern starting with # is a comment and matches nothing');
  const alternatives: string[] = [];
  for (const parts of m.set) {
    if (parts.some((p) => (p as unknown) === false)) continue; // a brace alternative that can match nothing
    // Groups of segments between globstars (consecutive globstars are one).
    const groups: string[][] = [[]];
    for (const p of parts) {
      if (p === GLOBSTAR) {
        if (groups.length > 1 && groups[groups.length - 1]!.length === 0) continue;
        groups.push([]);
      } else if (typeof p === 'string') groups[groups.length - 1]!.push(escapeRegExp(p));
      else groups[groups.length - 1]!.push(`(?:${(p as RegExp & { _src?: string })._src ?? p.source.replace(/^\^|\$$/g, '')})`);
    }
    let out = groups[0]!.join(SEPARATOR);
    let first = groups[0]!.length === 0;
    for (let j = 1; j < groups.length; j++) {
      const g = groups[j]!;
      if (g.length) {
        out += `${first ? '' : SEPARATOR}(?:${GLOBSTAR_SEGMENT}${SEPARATOR})*${g.join(SEPARATOR)}`;
        first = false;
      } else {
        // The pattern ends in `**`: at least one more segment.
        out += first ? `${GLOBSTAR_SEGMENT}(?:${SEPARATOR}${GLOBSTAR_SEGMENT})*` : `(?:${SEPARATOR}${GLOBSTAR_SEGMENT})+`;
      }
    }
    alternatives.push(out);
  }
  if (!alternatives.length) throw new GlobError(glob, 'matches nothing');
  const body = `(?:${alternatives.join('|')})\\/*$`;
  return new RegExp(m.negate ? `^(?!${body})` : `^${body}`, 'i');
}

/** A compiled URL pattern (glob or RegExp). */
export function compilePattern(pattern: string | RegExp): RegExp {
  return typeof pattern === 'string' ? globToRegExp(pattern) : pattern;
}

/** Whether a compiled pattern matches a URL (RegExps with the g or y flag are reset first). */
export function patternMatches(re: RegExp, url: string): boolean {
  if (re.global || re.sticky) re.lastIndex = 0;
  return re.test(url);
}

export function compileRules(rules: FollowRule[] | undefined): CompiledRule[] {
  return (rules ?? []).map((r) => ({
    re: compilePattern(r.pattern),
    label: r.label,
    follow: r.follow !== false,
    source: String(r.pattern),
  }));
}

export interface FollowDecision {
  follow: boolean;
  label?: string;
}

/**
 * Decide for one link. First matching rule wins. Without rules every link is followed (a spider
 * with only start URLs crawls its allowed domains); with rules, links matching none are skipped,
 * unless a middleware labelled them (list entries, next pages): the extractors know what they found.
 */
export function decideFollow(url: string, rules: CompiledRule[], middlewareLabel?: string): FollowDecision {
  for (const r of rules) {
    if (patternMatches(r.re, url)) return r.follow ? { follow: true, label: r.label ?? middlewareLabel } : { follow: false };
  }
  if (!rules.length || middlewareLabel) return { follow: true, label: middlewareLabel };
  return { follow: false };
}

export interface SiteKeyRule {
  pattern: string | RegExp;
  key: string;
}

/** `siteKey` rules (first match wins) → a function of the URL; `fallback` for URLs none matches. */
export function compileSiteKeys(rules: SiteKeyRule[], fallback: (url: string) => string): (url: string) => string {
  const compiled = rules.map((r) => ({ re: compilePattern(r.pattern), key: r.key }));
  return (url) => {
    for (const r of compiled) if (patternMatches(r.re, url)) return r.key;
    return fallback(url);
  };
}
