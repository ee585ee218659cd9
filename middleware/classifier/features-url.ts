/**
 * URL shape: depth, numeric ids, .html, a query, a page parameter, forum and list path words, a
 * date in the path, slug words, the site root, a trailing slash.
 *
 * A page without a public URL (a file path, a placeholder host without a dot such as localhost
 * or the readability set's "fakehost") has them *missing* (NaN), not zero: standardisation maps
 * a missing value to the training mean, so the URL says nothing either way. Zeros (with a "URL
 * known" flag) let the SVM learn which labelled collections come without URLs (most article
 * sets) and call every URL-less page an article, and shift the prior for pages with a URL, which
 * is every page a crawl sees.
 */
import type { PageScan } from './features-scan.js';

export const URL_FEATURES = [
  'urlDepth', 'urlNumericId', 'urlHtml', 'urlQuery', 'urlPageParam', 'urlForumToken', 'urlListToken',
  'urlDate', 'urlSlugWords', 'urlRoot', 'urlTrailingSlash',
] as const;

/** Path words of board software (common URL schemes, not sites). */
const URL_FORUM_WORDS = ['thread', 'threads', 'topic', 'topics', 'viewtopic', 'showthread', 'forum', 'forums', 'board', 'boards', 'bbs', 'discussion', 'discussions', 'community', 't', 'tid', 'showtopic', 'viewthread'];
/** Path words of index pages. */
const URL_LIST_WORDS = ['list', 'lists', 'index', 'category', 'categories', 'cat', 'tag', 'tags', 'archive', 'archives', 'search', 'page', 'paged', 'news', 'blog', 'section', 'channel', 'column', 'topics'];
/** A word as a whole path/query token: between separators, or followed by digits (`forum12`). */
const pathWord = (words: string[]) => new RegExp(`(?:^|[/_.?&=-])(?:${words.join('|')})(?:$|[/_.?&=-]|\\d)`, 'i');
const URL_FORUM = pathWord(URL_FORUM_WORDS);
const URL_LIST = pathWord(URL_LIST_WORDS);
const URL_PAGE_PARAM = /[?&](?:page|p|pg|paged|pn|start|offset|pagenum|pageno)=\d|\/page\/\d|[_-]\d{1,3}\.html?$/i;
const URL_DATE = /\/(?:19|20)\d\d\/(?:0?[1-9]|1[0-2])(?:\/|$)|(?:19|20)\d\d-?[01]\d-?[0-3]\d/;
/** Caps: deeper paths and longer slugs say no more. */
const MAX_DEPTH = 8;
const MAX_SLUG_WORDS = 15;

type UrlFeatures = Record<(typeof URL_FEATURES)[number], number>;

/** URL features in URL_FEATURES order (all NaN without a public URL). */
export function urlFeatures(url: string): number[] {
  const r = urlShape(url);
  return URL_FEATURES.map((k) => r[k]);
}

function urlShape(url: string): UrlFeatures {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || !/^https?:$/.test(u.protocol) || !u.hostname.includes('.')) {
    return Object.fromEntries(URL_FEATURES.map((k) => [k, NaN])) as UrlFeatures;
  }
  const segs = u.pathname.split('/').filter(Boolean);
  const last = segs[segs.length - 1] ?? '';
  const full = u.pathname + u.search;
  const slugWords = last.replace(/\.[a-z]{2,5}$/i, '').split(/[-_]/).filter((w) => /[a-z]{2,}/i.test(w)).length;
  return {
    urlDepth: Math.min(segs.length, MAX_DEPTH),
    urlNumericId: /\d{4,}/.test(full) ? 1 : 0,
    urlHtml: /\.s?html?$/i.test(u.pathname) ? 1 : 0,
    urlQuery: u.search.length > 1 ? 1 : 0,
    urlPageParam: URL_PAGE_PARAM.test(full) ? 1 : 0,
    urlForumToken: URL_FORUM.test(full) ? 1 : 0,
    urlListToken: URL_LIST.test(full) ? 1 : 0,
    urlDate: URL_DATE.test(u.pathname) ? 1 : 0,
    urlSlugWords: Math.min(slugWords, MAX_SLUG_WORDS),
    urlRoot: segs.length === 0 && u.search.length <= 1 ? 1 : 0,
    urlTrailingSlash: u.pathname.length > 1 && u.pathname.endsWith('/') ? 1 : 0,
  };
}

export function urlGroupFeatures(s: PageScan): UrlFeatures {
  return urlShape(s.page.url);
}
