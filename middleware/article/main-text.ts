/**
 * The page's main text for every item, whatever its kind (issue 11, item 1). Which text is the
 * main text depends on the page type; measured on WCXB dev (1,358 pages of seven types, per-page
 * token F1 against its gold main text, `npm run bench:content`):
 *
 *   - an article: its body (the article extractor's `content`; this stage does not touch it);
 *   - a forum thread: its posts in order (author, time, text) — unless they hold under half of
 *     the page's text (a product page's reviews read as posts), then the page text below;
 *   - a list page: the page's text outside the pre-cleaned chrome without navigation lines, but
 *     with the link lines that lead to the list's items (the records' titles; their blurbs, dates
 *     and prices sit beside them). On the 257 pages the classifier calls list: 0.704 keeping every
 *     link line, 0.592 for the region of the list extractor's items, 0.533 for the article body;
 *     over all of WCXB dev, dropping the other link lines costs 0.001 of F1 (0.837 -> 0.836) and
 *     cuts the must-exclude snippet rate from 0.067 to 0.053;
 *   - any other page: a cascade, each step only when the one before under-delivered (trafilatura's
 *     habit): the article body; the page's text outside the chrome without navigation lines. A
 *     page with no text gets none (not its meta description: WCXB's gold is empty on such pages
 *     as often as it holds the rendered text, 4 pages against 7).
 *
 * `mainText` is the pure entry point; `mainContentMiddleware` fills `content` / `contentHtml` on
 * items whose extractor left them empty.
 */
import type { Page } from '../../src/core/page.js';
import { KIND_OF_LABEL, type Item } from '../../src/core/item.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { Element, type AnyNode } from 'domhandler';
import { buildTree, LINK_DENSITY_MAX, type SegInfo, type Tree } from './tree.js';
import { extractContent } from './content.js';

/** Navigation lines of the page text are link lines shorter than this (weighted chars): a menu
 * entry or a tag, not a sentence with a link in it. WCXB dev, pages without posts or items:
 * 0 (keep every line) 0.830, 80 0.825, 200 0.821 overall; 80 is best on forum (0.684) and article
 * (0.936) pages, keeping every line is best on lists (see above). */
const NAV_LINE_MAX = 80;
/** Posts are the thread's text when they hold at least this share of the page text (by
 * characters); WCXB dev, forum-labelled pages: 0.3 → 0.745, 0.5 → 0.743, 0.7 → 0.739 on forum
 * pages, product pages 0.565 / 0.568 / 0.569. */
const POSTS_SHARE = 0.5;

export interface MainText {
  content: string;
  contentHtml: string;
  /** Which source gave the text. */
  source: 'article' | 'posts' | 'page';
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

/** The page's kept lines (outside pre-cleaned chrome), without link lines shorter than `navMax`. */
function pageLines(tree: Tree, navMax: number, items?: Set<string>): string[] {
  return tree.infos
    .filter((s) => s.el >= 0 && !tree.removed[s.el] && (!(s.linkShare >= LINK_DENSITY_MAX && s.len < navMax) || (items !== undefined && linksTo(tree, s, items))))
    .map((s) => s.seg.text);
}

/** Levels above a line's first text searched for its link. */
const LINK_LEVELS = 4;

/** Whether the line's first text sits in a link to one of `urls` (a list record's title). */
function linksTo(tree: Tree, s: SegInfo, urls: Set<string>): boolean {
  let n: AnyNode | null = tree.page.nodes[s.seg.index] ?? null;
  for (let k = 0; n && k < LINK_LEVELS; k++, n = n.parent as AnyNode | null) {
    if (n instanceof Element && n.name === 'a') {
      const u = tree.page.resolve(n.attribs.href);
      return u !== undefined && urls.has(u);
    }
  }
  return false;
}

/**
 * The main text of a page for an item that has none yet. `kind` is the item's kind (list pages
 * keep their link lines); posts, when the item has them, are the thread's text.
 */
export function mainText(page: Page, item: Partial<Pick<Item, 'posts' | 'items' | 'title' | 'kind'>> = {}): MainText | undefined {
  const tree = buildTree(page);
  if (item.kind === 'list') {
    // navigation goes, the list's own records stay (their titles are links to its items)
    return fromLines(pageLines(tree, NAV_LINE_MAX, new Set((item.items ?? []).map((i) => i.url))), 'page');
  }
  const text = () => fromLines(pageLines(tree, NAV_LINE_MAX), 'page');
  if (item.posts?.length) {
    const posts = postsText(item.posts);
    const all = text();
    if (posts && (!all || posts.content.length >= POSTS_SHARE * all.content.length)) return posts;
    return all ?? posts;
  }
  if (item.kind !== 'forum') {
    const body = extractContent(page, { title: item.title }, tree);
    if (body) return { content: body.content, contentHtml: body.contentHtml, source: 'article' };
  }
  return text();
}

/** Fills `content` (and `contentHtml`) on every item whose extractor left it empty. */
export const mainContentMiddleware: MiddlewareFactory = () => ({
  name: 'main-content',
  priority: 690,
  process(ctx) {
    const item = ctx.item;
    if (item.content) return;
    // a page whose extractor found nothing keeps its label's kind for the choice of text
    const t = mainText(ctx.page, { posts: item.posts, items: item.items, title: item.title, kind: item.kind ?? (ctx.label ? KIND_OF_LABEL[ctx.label] : undefined) });
    if (!t) return;
    item.content = t.content;
    item.contentHtml ??= t.contentHtml;
  },
});
