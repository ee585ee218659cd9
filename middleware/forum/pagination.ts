/**
 * Thread pagination: the next page and the numbered pages of the same thread.
 *
 * Sources, in order of trust: `<link rel="next">` / `<a rel="next">`; an anchor whose text says
 * "next" (in the board languages we read); the numbered page links of the pagination bar (links
 * whose text is a number, grouped under one container, on the same host), where the next page is
 * the number after the current one (the bar item that is not a link, or is marked current).
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { collapse, textOf } from '../../src/core/page.js';
import type { Range } from './dom.js';

const NEXT_TEXT = /^(next|next page|next ?[›»>]|[›»]|>|>>|→|下一页|下页|下一頁|后页|weiter|nächste|nächste seite|vor|suivant|suivante|page suivante|siguiente|próxima|successiva|следующая|次へ|次のページ)$/i;
const CURRENT_HINT = /(current|active|selected|cur\b|thispage|on\b)/i;
/** Page numbers above this are years or ids, not pages. */
const MAX_PAGE_NUMBER = 9999;

export interface Pagination {
  nextPage?: string;
  pages?: string[];
  /** Current page number, when the bar shows it. */
  current?: number;
}

function sameHost(a: string, b: string): boolean {
  try {
    return new URL(a).host === new URL(b).host;
  } catch {
    return false;
  }
}

/** Whether i lies in one of the ranges (sorted by start, disjoint): binary search. */
function inRanges(i: number, ranges: Range[]): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (i < r.start) hi = mid - 1;
    else if (i > r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Pagination of a thread page. `exclude` = DFS ranges of the posts (numbers there are content). */
export function findPagination(page: Page, exclude: Range[] = []): Pagination {
  let nextPage: string | undefined;
  // 1. rel=next (head links are not numbered: read them through cheerio).
  const $ = page.$();
  const relNext = $('link[rel~="next"], a[rel~="next"]').first().attr('href');
  if (relNext) nextPage = page.resolve(relNext);

  // 2. Numbered links grouped by container.
  const groups = new Map<AnyNode, Array<{ n: number; url?: string; el: Element }>>();
  const nextCandidates: string[] = [];
  for (let i = 0; i < page.nodes.length; i++) {
    const node = page.nodes[i];
    if (!(node instanceof Element)) continue;
    if (inRanges(i, exclude)) continue;
    // Text only of links and leaf-like elements: taking every element's text would be quadratic.
    const leafLike = node.children.length <= 1 && (node.children.length === 0 || !(node.children[0] instanceof Element));
    if (node.name !== 'a' && !leafLike) continue;
    const text = collapse(textOf(node));
    if (node.name === 'a') {
      const url = page.resolve(node.attribs.href);
      if (!url || !sameHost(url, page.url)) continue;
      if (NEXT_TEXT.test(text) || /\bnext\b/i.test(`${node.attribs.class ?? ''} ${node.attribs.title ?? ''}`)) nextCandidates.push(url);
      if (/^\d{1,4}$/.test(text)) addToGroup(groups, node, Number(text), url);
    } else if (/^\d{1,4}$/.test(text) && CURRENT_HINT.test(`${node.attribs.class ?? ''} ${node.attribs['aria-current'] ?? ''}`)) {
      addToGroup(groups, node, Number(text), undefined);
    } else if ((node.name === 'strong' || node.name === 'b' || node.name === 'span' || node.name === 'em') && /^\d{1,4}$/.test(text)) {
      addToGroup(groups, node, Number(text), undefined);
    }
  }
  let best: Array<{ n: number; url?: string; el: Element }> | undefined;
  for (const g of groups.values()) {
    const links = g.filter((x) => x.url);
    if (links.length < 1 || g.length < 2) continue;
    if (g.some((x) => x.n > MAX_PAGE_NUMBER || x.n < 1)) continue;
    if (!best || links.length > best.filter((x) => x.url).length) best = g;
  }
  let pages: string[] | undefined;
  let current: number | undefined;
  if (best) {
    const cur = best.find((x) => !x.url);
    current = cur?.n;
    const seen = new Set<string>([page.url]);
    pages = [];
    for (const x of [...best].sort((a, b) => a.n - b.n)) {
      if (x.url && !seen.has(x.url)) {
        seen.add(x.url);
        pages.push(x.url);
      }
    }
    if (!nextPage && current !== undefined) nextPage = best.find((x) => x.n === current! + 1)?.url;
  }
  if (!nextPage && nextCandidates.length) nextPage = nextCandidates[0];
  if (nextPage === page.url) nextPage = undefined;
  return { nextPage, pages: pages?.length ? pages : undefined, current };
}

/** Group a pagination item under its bar: the parent, or the grandparent when each item sits in
 * its own `<li>`/`<span>`. */
function addToGroup(groups: Map<AnyNode, Array<{ n: number; url?: string; el: Element }>>, el: Element, n: number, url: string | undefined): void {
  let key: AnyNode | null = el.parent;
  if (key instanceof Element && (key.name === 'li' || key.name === 'span' || key.name === 'td') && elementCount(key) === 1) key = key.parent;
  if (!key) return;
  let arr = groups.get(key);
  if (!arr) groups.set(key, (arr = []));
  arr.push({ n, url, el });
}

function elementCount(el: Element): number {
  let k = 0;
  for (const c of el.children) if (c instanceof Element) k++;
  return k;
}

/**
 * Whether a thread URL names a later page (`?page=3`, `&pn=2`, `&start=20`, `/page-2`, `/page/2`);
 * undefined when the URL does not say.
 */
export function laterPageInUrl(url: string): boolean | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  for (const [k, v] of u.searchParams) {
    const n = Number(v);
    if (!Number.isInteger(n)) continue;
    if (/^(page|pn|pg|pagenum|paged)$/i.test(k)) return n > 1;
    if (/^(start|offset|from)$/i.test(k)) return n > 0;
  }
  const m = u.pathname.match(/\/page[-/](\d+)\/?$/i);
  if (m) return Number(m[1]) > 1;
  return undefined;
}
