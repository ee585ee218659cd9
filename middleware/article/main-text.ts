/**
 * The page's main text for every item, whatever its kind (issue 11, item 1): an article's body
 * (the article extractor's), a list page's main list region with its titles and blurbs, a forum
 * thread's posts in order, and for any other page the main region found by a cascade of
 * fallbacks, each run only when the one before under-delivered (trafilatura's habit, STYLE.md):
 *
 *   1. the article body (text/symbol density + block balance, `extractContent`);
 *   2. the densest region without the article length floor (a short service or product page);
 *   3. the page's text outside the pre-cleaned chrome, navigation lines dropped.
 *
 * `mainText` is the pure entry point; `mainContentMiddleware` fills `content` / `contentHtml` on
 * items whose extractor left them empty.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import type { Item } from '../../src/core/item.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { buildTree, LINK_DENSITY_MAX, type SegInfo, type Tree } from './tree.js';
import { extractContent, subtreeEnd } from './content.js';

/** A list region is read from at least this many items (fewer links are no list). */
const MIN_LIST_ITEMS = 3;
/** Navigation lines of the fallback (3) are link lines shorter than this (weighted chars): a
 * menu entry or a tag, not a sentence with a link in it. */
const NAV_LINE_MAX = 80;

export interface MainText {
  content: string;
  contentHtml: string;
  /** Which source gave the text. */
  source: 'article' | 'posts' | 'list' | 'region' | 'page';
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraphsHtml = (lines: string[]) => lines.map((l) => `<p>${esc(l)}</p>`).join('');

function fromLines(lines: string[], source: MainText['source']): MainText | undefined {
  const kept = lines.map((l) => l.trim()).filter(Boolean);
  if (!kept.length) return undefined;
  return { content: kept.join('\n'), contentHtml: paragraphsHtml(kept), source };
}

/** A forum thread's posts in order: author, displayed time, text. */
export function postsText(posts: NonNullable<Item['posts']>): MainText | undefined {
  const lines: string[] = [];
  for (const p of posts) {
    if (p.author) lines.push(p.author);
    if (p.publishedAtText) lines.push(p.publishedAtText);
    lines.push(...p.content.split('\n'));
  }
  return fromLines(lines, 'posts');
}

/** Lowest common ancestor of two DFS indices. */
function commonAncestor(tree: Tree, a: number, b: number): number {
  const seen = new Set<number>();
  for (let x = a; x >= 0; x = tree.parent[x]!) seen.add(x);
  for (let y = b; y >= 0; y = tree.parent[y]!) if (seen.has(y)) return y;
  return 0;
}

/** Segments inside the subtree of `root` that the pre-clean kept. */
function segmentsIn(tree: Tree, root: number): SegInfo[] {
  const end = subtreeEnd(tree, root);
  return tree.infos.filter((s) => s.seg.index > root && s.seg.index <= end && s.el >= 0 && !tree.removed[s.el]);
}

/**
 * A list page's main list region: the smallest element holding every item link of the list
 * extractor's output (its records with their titles, blurbs, dates and prices), its text outside
 * the pre-cleaned chrome.
 */
export function listText(page: Page, items: NonNullable<Item['items']>, tree: Tree = buildTree(page)): MainText | undefined {
  if (items.length < MIN_LIST_ITEMS) return undefined;
  const want = new Set(items.map((i) => i.url));
  let root = -1;
  const nodes = page.nodes;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!(n instanceof Element) || n.name !== 'a' || tree.removed[i]) continue;
    const u = page.resolve(n.attribs.href);
    if (!u || !want.has(u)) continue;
    root = root < 0 ? i : commonAncestor(tree, root, i);
  }
  if (root < 0) return undefined;
  return fromLines(segmentsIn(tree, root).map((s) => s.seg.text), 'list');
}

/** Fallback 3: every kept line of the page but navigation (short link lines). */
function pageText(tree: Tree): MainText | undefined {
  const lines = tree.infos.filter((s) => s.el >= 0 && !tree.removed[s.el] && !(s.linkShare >= LINK_DENSITY_MAX && s.len < NAV_LINE_MAX)).map((s) => s.seg.text);
  return fromLines(lines, 'page');
}

/**
 * The main text of a page for an item that has none yet: from its posts, its list items, else
 * the cascade (article body, densest region, the page's text).
 */
export function mainText(page: Page, item: Pick<Item, 'posts' | 'items' | 'title'> = {}): MainText | undefined {
  const tree = buildTree(page);
  if (item.posts?.length) {
    const t = postsText(item.posts);
    if (t) return t;
  }
  if (item.items?.length) {
    const t = listText(page, item.items, tree);
    if (t) return t;
  }
  const body = extractContent(page, { title: item.title }, tree);
  if (body) return { content: body.content, contentHtml: body.contentHtml, source: 'article' };
  const region = extractContent(page, { title: item.title, minLength: 0 }, tree);
  if (region) return { content: region.content, contentHtml: region.contentHtml, source: 'region' };
  return pageText(tree);
}

/** Fills `content` (and `contentHtml`) on every item whose extractor left it empty. */
export const mainContentMiddleware: MiddlewareFactory = () => ({
  name: 'main-content',
  priority: 690,
  process(ctx) {
    const item = ctx.item;
    if (item.content) return;
    const t = mainText(ctx.page, item);
    if (!t) return;
    item.content = t.content;
    item.contentHtml ??= t.contentHtml;
  },
});
