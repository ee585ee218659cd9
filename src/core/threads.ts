/**
 * Threads as items (issue 29 item 4): a thread's main text from its posts, and whole threads: the
 * items of a thread's pages (page 1 … N, each extracted on its own as the crawl meets it) become
 * one thread — the posts of all pages in page order, no post
 * twice (boards repeat the main post, or the last post of the previous page, at the top of every
 * page), the main post once. A crawl collects a thread's page items (pages link each other through
 * `nextPage` / `pages`) and merges them when the thread is complete or the crawl ends
 * (src/crawler/run/thread-merge.ts). Item-level, as `ownText` is: the forum extractor and the crawl
 * both use it, and the crawl's own thread need not load the extractors for it.
 */
import { ownText, type ForumItem, type ForumPost, type Item } from './item.js';

/**
 * A thread page's main text: the thread as read, post after post — who wrote it, when (as
 * displayed), and what the post itself says ("\n" between lines, as for articles). Quoted
 * passages of other posts are left out (they repeat floors already in the thread), and so are
 * replies inside posts, as they are of each post's `content`. Measured on the 112 WCXB dev forum
 * pages (the benchmark's whole-thread main text, `npm run bench:forums`): posts' content alone
 * 0.817, without quotes 0.831, with the name and time lines 0.838.
 */
export function threadText(posts: ForumPost[]): string {
  const lines: string[] = [];
  for (const p of posts) {
    const text = ownText(p).trim();
    if (!text) continue;
    if (p.author) lines.push(p.author);
    if (p.publishedAtText) lines.push(p.publishedAtText);
    lines.push(text);
  }
  return lines.join('\n');
}

/**
 * What a page's URL says of its place in a paged sequence: a page number (`?page=3`, `&pn=2`,
 * `/page-3`, `/page/3`), an offset (`&start=20`, `offset`, `from`) or a number suffix of the file
 * (`-3.html`, the weakest sign); undefined when it says nothing. The first query parameter that
 * names one wins. (`p=` is a post id on many boards: not read.)
 */
export function urlPagePosition(url: string): { n: number; by: 'page' | 'offset' | 'path' | 'suffix' } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  for (const [k, v] of u.searchParams) {
    const n = Number(v);
    if (!Number.isInteger(n)) continue;
    if (/^(page|pn|pg|pagenum|paged)$/i.test(k)) return { n, by: 'page' };
    if (/^(start|offset|from)$/i.test(k)) return { n, by: 'offset' };
  }
  const path = u.pathname.match(/\/page[-/](\d+)\/?$/i);
  if (path) return { n: Number(path[1]), by: 'path' };
  const suffix = u.pathname.match(/[-_](\d{1,4})\.s?html?$/i);
  return suffix ? { n: Number(suffix[1]), by: 'suffix' } : undefined;
}

/** The number a thread page's URL gives it (`?page=3`, `&pn=2`, `/page-3`, `-3.html`), if any:
 * offsets order pages as well as numbers do. */
export function pageNumberOf(url: string): number | undefined {
  return urlPagePosition(url)?.n;
}

/** A post's identity across pages: its floor number where the board shows one, else who, when and
 * what (the same post on two pages reads the same). */
function postKey(p: ForumPost): string {
  if (p.floor !== undefined) return `#${p.floor}`;
  return `${p.author ?? ''}\u0001${p.publishedAtText ?? p.publishedAt ?? ''}\u0001${p.content.replace(/\s+/g, ' ').trim()}`;
}

const strip = (u: string) => u.replace(/#.*$/, '');

/**
 * The pages of one thread in reading order: following `nextPage` from the page no other page
 * points to; pages the chain does not reach by their URL's page number, then in the order given.
 */
export function orderThreadPages(items: readonly ForumItem[]): ForumItem[] {
  const byUrl = new Map(items.map((it) => [strip(it.url), it]));
  const pointedTo = new Set(items.map((it) => (it.nextPage ? strip(it.nextPage) : '')).filter((u) => byUrl.has(u)));
  const out: ForumItem[] = [];
  const seen = new Set<ForumItem>();
  const starts = items.filter((it) => !pointedTo.has(strip(it.url)));
  // Several chains (a page missing in between): the one with the lowest page number first.
  const rank = (it: ForumItem) => pageNumberOf(it.url) ?? (strip(it.url) === strip(items[0]!.url) ? 1 : Infinity);
  starts.sort((a, b) => rank(a) - rank(b));
  for (const start of starts) {
    for (let it: ForumItem | undefined = start; it && !seen.has(it); it = it.nextPage ? byUrl.get(strip(it.nextPage)) : undefined) {
      seen.add(it);
      out.push(it);
    }
  }
  // A cycle or pages off every chain: by page number, then as given.
  const rest = items.filter((it) => !seen.has(it)).sort((a, b) => (pageNumberOf(a.url) ?? Infinity) - (pageNumberOf(b.url) ?? Infinity));
  return [...out, ...rest];
}

/**
 * One item for a thread from the items of its pages (any order; items of other kinds are left
 * out): the first page's URL, title and fields, the posts of all pages in order without repeats,
 * one main post (the first page's), `content` rebuilt from the posts, `pages` = the pages merged
 * in order, and the last page's `nextPage` when the thread goes on beyond them. Undefined when no
 * item is a forum page.
 */
export function mergeThreadPages(items: readonly Item[]): ForumItem | undefined {
  const pages = orderThreadPages(items.filter((it): it is ForumItem => it.kind === 'forum'));
  if (!pages.length) return undefined;
  const first = pages[0]!;
  const posts: ForumPost[] = [];
  const seen = new Set<string>();
  pages.forEach((page, i) => {
    for (const p of page.posts ?? []) {
      const key = postKey(p);
      if (seen.has(key)) continue;
      seen.add(key);
      // The main post once: the first page's (a later page's "main" is a repeat or a misreading).
      const post = { ...p };
      if (post.isMain && (i > 0 || posts.some((x) => x.isMain))) post.isMain = false;
      posts.push(post);
    }
  });
  const urls = new Set(pages.map((p) => strip(p.url)));
  const last = pages[pages.length - 1]!;
  const merged: ForumItem = { ...first, posts, content: threadText(posts) || undefined, pages: pages.map((p) => p.url) };
  const next = last.nextPage && !urls.has(strip(last.nextPage)) ? last.nextPage : undefined;
  if (next) merged.nextPage = next;
  else delete merged.nextPage;
  return merged;
}
