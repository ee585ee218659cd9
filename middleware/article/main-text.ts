/**
 * The page's main text for every item, whatever its kind (issue 11, item 1). Which text is the
 * main text depends on the page type; measured on WCXB dev (1,358 pages of seven types, per-page
 * token F1 against its gold main text, `npm run bench:content`):
 *
 *   - an article: its body (the article extractor's `content`; this stage keeps it when the page
 *     reads as an article, see below);
 *   - a forum thread: its posts in order (author, time, text) — unless they hold under half of
 *     the page's text (a product page's reviews read as posts), then the page text below;
 *   - a list page: the page's lines outside the pre-cleaned chrome without navigation lines, but
 *     with the link lines that lead to the list's items (the records' titles; their blurbs, dates
 *     and prices sit beside them), read through the line model (below);
 *   - an article-like page (a publish date found, or an article type declared): its article body;
 *   - any other page, including one the classifier called detail that does not read as an
 *     article (a product, service or docs page): the page's lines without chrome and navigation,
 *     read through the line model; the article body only when that leaves nothing. A page with no
 *     text gets none (not its meta description: WCXB's gold is empty on such pages as often as it
 *     holds the rendered text, 4 pages against 7).
 *
 * The line model (lines.ts, trained by `npm run train:lines` on WCXB dev) scores every line; the
 * rules' lines stay unless the model gives them under LINE_KEEP_MIN, and a line the rules drop
 * comes back at LINE_ADD_MIN. WCXB dev `--kind auto`, leave-site-out (each fold of domains with
 * the model trained on the others, `npm run bench:content`): 0.836 without the model (the rules
 * alone) -> 0.847; the model alone (its own threshold, every line) 0.842. Giving article-like
 * pages the model's lines too (body lines under 0.1 dropped, lines at 0.8 added) reached 0.854
 * on WCXB but cost AEB 0.980 -> 0.971 (its gold leaves out the headings and list items WCXB's
 * keeps): their body stays as the article extractor gives it.
 *
 * `mainText` is the pure entry point; `mainContentMiddleware` fills `content` / `contentHtml` on
 * items whose extractor left them empty and on article items whose page does not read as one.
 */
import type { Page } from '../../src/core/page.js';
import { KIND_OF_LABEL, type ItemDraft } from '../../src/core/item.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import { Element, type AnyNode } from 'domhandler';
import { buildTree, LINK_DENSITY_MAX, type SegInfo, type Tree } from './tree.js';
import { extractContent, type ContentResult } from './content.js';
import { bodyRange, scoreLines, shippedLineModel, type LineModel } from './lines.js';

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
  source: 'article' | 'posts' | 'lines';
}

/** The line model's verdicts are read with a margin around the lines the page-type rules keep: a
 * kept line goes when the model gives it under LINE_KEEP_MIN, and a line the rules drop (a
 * navigation line, a line inside pre-cleaned chrome) comes back at LINE_ADD_MIN or more. Chosen
 * on half A of WCXB dev's domains with the model fitted on half B and checked on half B with the
 * model fitted on A; the leave-site-out figure of the whole is in the header. */
const LINE_KEEP_MIN = 0.2;
const LINE_ADD_MIN = 0.6;

/** schema.org types (JSON-LD `@type`) of an article: a page that declares one keeps its article
 * body as its main text. */
const ARTICLE_TYPE = /^(?:\w*newsarticle|article|blogposting|liveblogposting|report|scholarlyarticle)$/i;

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraphsHtml = (lines: string[]) => lines.map((l) => `<p>${esc(l)}</p>`).join('');

function fromLines(lines: string[], source: MainText['source']): MainText | undefined {
  const kept = lines.map((l) => l.trim()).filter(Boolean);
  if (!kept.length) return undefined;
  return { content: kept.join('\n'), contentHtml: paragraphsHtml(kept), source };
}

/** A forum thread's posts in order: author, displayed time, text. */
export function postsText(posts: NonNullable<ItemDraft['posts']>): MainText | undefined {
  const lines: string[] = [];
  for (const p of posts) {
    if (p.author) lines.push(p.author);
    if (p.publishedAtText) lines.push(p.publishedAtText);
    lines.push(...p.content.split('\n'));
  }
  return fromLines(lines, 'posts');
}

/** A navigation line of the page text: link text over half of it, shorter than a sentence. */
const isNav = (s: SegInfo) => s.linkShare >= LINK_DENSITY_MAX && s.len < NAV_LINE_MAX;

/** The page's kept lines (outside pre-cleaned chrome), without navigation lines. */
function pageLines(tree: Tree): string[] {
  return tree.infos.filter((s) => s.el >= 0 && !tree.removed[s.el] && !isNav(s)).map((s) => s.seg.text);
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

export interface MainTextOptions {
  /** The line model (default: the one shipped, line-model.json). */
  model?: LineModel;
}

/**
 * The page's main lines: the lines the page-type rule keeps (outside the pre-cleaned chrome and
 * not navigation — a list page keeps the links to its own items too), less those the line model
 * calls boilerplate, plus those it calls main text with confidence.
 */
function modelLines(page: Page, tree: Tree, model: LineModel, title: string | undefined, itemUrls?: Set<string>, body?: ContentResult): string[] {
  const { lines, p } = scoreLines(page, model, { body: body ? bodyRange(tree, body.root, body.paragraphs) : undefined, headline: title });
  const out: string[] = [];
  lines.forEach((l, i) => {
    const s = l.info;
    const rule = !tree.removed[s.el] && (!isNav(s) || (itemUrls !== undefined && linksTo(tree, s, itemUrls)));
    if ((rule && p[i]! >= LINE_KEEP_MIN) || p[i]! >= LINE_ADD_MIN) out.push(l.text);
  });
  return out;
}

/** Whether the page reads as an article: a publish date was found, or it declares an article
 * type (JSON-LD, og:type). Its article body is then its main text. */
export function articleLike(page: Page, item: Partial<Pick<ItemDraft, 'publishedAt'>>): boolean {
  if (item.publishedAt) return true;
  if ((page.meta.get('og:type') ?? '').toLowerCase() === 'article') return true;
  for (const o of page.jsonLd()) {
    const t = o['@type'];
    for (const v of Array.isArray(t) ? t : [t]) if (typeof v === 'string' && ARTICLE_TYPE.test(v)) return true;
  }
  return false;
}

/**
 * The main text of a page. `kind` is the item's kind (list pages keep the links to their items);
 * posts, when the item has them, are the thread's text; an article-like page (see articleLike)
 * keeps its article body.
 */
export function mainText(page: Page, item: Partial<Pick<ItemDraft, 'posts' | 'items' | 'title' | 'kind' | 'publishedAt'>> = {}, o: MainTextOptions = {}): MainText | undefined {
  const tree = buildTree(page);
  const model = o.model ?? shippedLineModel();
  const body = item.kind === 'forum' ? undefined : extractContent(page, { title: item.title }, tree);
  if (item.kind === 'list') return fromLines(modelLines(page, tree, model, item.title, new Set((item.items ?? []).map((i) => i.url)), body), 'lines');
  const text = () => fromLines(modelLines(page, tree, model, item.title, undefined, body), 'lines');
  if (item.posts?.length) {
    const posts = postsText(item.posts);
    const all = fromLines(pageLines(tree), 'lines');
    if (posts && (!all || posts.content.length >= POSTS_SHARE * all.content.length)) return posts;
    return text() ?? posts;
  }
  if (body && item.kind !== 'forum' && articleLike(page, item)) return { content: body.content, contentHtml: body.contentHtml, source: 'article' };
  return text() ?? (body ? { content: body.content, contentHtml: body.contentHtml, source: 'article' } : undefined);
}

/** Fills `content` (and `contentHtml`) on every item whose extractor left it empty, and gives an
 * article item whose page does not read as an article (no date, no article type: a product or
 * service page the classifier called detail) the page's main lines instead of the densest block. */
export const mainContentMiddleware: MiddlewareFactory = () => ({
  name: 'main-content',
  priority: 690,
  process(ctx) {
    const item = ctx.item;
    const kind = item.kind ?? (ctx.label ? KIND_OF_LABEL[ctx.label] : undefined);
    if (item.content && (kind !== 'article' || articleLike(ctx.page, item))) return;
    // (an empty post of its site — the article stage gave it no text, extractArticle — stays empty)
    if (kind === 'article' && item.content === '') return;
    // a page whose extractor found nothing keeps its label's kind for the choice of text
    const t = mainText(ctx.page, { posts: item.posts, items: item.items, title: item.title, kind, publishedAt: item.publishedAt });
    if (!t) return;
    if (item.content && t.source === 'article') return;
    item.content = t.content;
    item.contentHtml = t.contentHtml;
  },
});
