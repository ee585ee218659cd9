/**
 * Follow rules: URL globs or RegExps → page labels (Scrapy's CrawlSpider rules, without
 * callbacks). Globs match the whole URL; `*` stays inside one path segment, `**` crosses `/`,
 * `{a,b}` alternates. `?` is literal, because URLs carry query strings.
 */
import type { FollowRule } from './config.js';

export interface CompiledRule {
  re: RegExp;
  label?: string;
  follow: boolean;
  source: string;
}

const REGEX_SPECIAL = /[.+^$()|[\]\\?]/;

export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += '[^/]*';
    } else if (c === '{') {
      braceDepth++;
      re += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      re += ')';
    } else if (c === ',' && braceDepth > 0) re += '|';
    else if (REGEX_SPECIAL.test(c)) re += '\\' + c;
    else re += c;
  }
  return new RegExp(`^${re}$`);
}

export function compileRules(rules: FollowRule[] | undefined): CompiledRule[] {
  return (rules ?? []).map((r) => ({
    re: typeof r.pattern === 'string' ? globToRegExp(r.pattern) : r.pattern,
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
    r.re.lastIndex = 0;
    if (r.re.test(url)) return r.follow ? { follow: true, label: r.label ?? middlewareLabel } : { follow: false };
  }
  if (!rules.length || middlewareLabel) return { follow: true, label: middlewareLabel };
  return { follow: false };
}
