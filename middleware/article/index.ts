/**
 * Article extraction (issue 4; sources §5, §8): body by text/symbol density plus block
 * balance, title, publish time, author and language. `extractArticle` is the pure entry point;
 * `articleMiddleware` wraps it for the chain (it runs for pages labelled `detail`).
 *
 * @example
 *   const page = createPage({ url, body });
 *   const article = extractArticle(page, { timezone: 'Asia/Shanghai' });
 *   // → { kind: 'article', title, author?, publishedAt?, content, contentHtml, images, lang } | null
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/core/page.js';
import { langTag } from '../../src/core/page.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import type { ItemDraft } from '../../src/core/item.js';
import { timezoneForLang } from '../../src/core/dates.js';
import { hanRatio } from '../../src/core/text.js';
import { buildTree, type Tree } from './tree.js';
import { SITE_POST_KEY } from './signals.js';
import { extractContent, imageUrl, MIN_ARTICLE_LENGTH, subtreeEnd, type ContentResult } from './content.js';
import { extractTitle } from './title.js';
import { extractPublished } from './published.js';
import { extractAuthor } from './author.js';
import { applyTemplate, existingLearnerOf, SCRATCH_KEY, type TemplateLearner } from '../template/index.js';

export { extractContent } from './content.js';
export { extractTitle, cutSiteName, longestCommonSubstring } from './title.js';
export { extractPublished } from './published.js';
export { extractAuthor } from './author.js';
export { mainText, postsText, mainContentMiddleware, type MainText } from './main-text.js';

/** A title mostly in Han characters on a page without a usable lang: China's zone is the likeliest. */
const HAN_TITLE_SHARE = 0.5;

/** DFS nodes above the body searched as "between headline and body" when no headline element is
 * known (a dateline table row of an old portal page is ~10–40 nodes above the text). */
const DATELINE_WINDOW = 60;

export interface ArticleOptions {
  /** Segments left after the earlier stages (template difference, rule filters). */
  segments?: Segment[];
  /** true when `segments` excludes the site template: text outside them is boilerplate. */
  templateApplied?: boolean;
  /** Anchor text of the link that led to the page (a title hint). */
  anchorText?: string;
  /** IANA zone for dates without an offset (else the page language's zone, else UTC). */
  timezone?: string;
  /** The page is one of its site's posts by the site's own evidence (typed detail once the site
   * showed evidence, and listed by the site's lists or in the URL shape of their entries: the
   * page-type stage says so, see SITE_POST_KEY): a body shorter than MIN_ARTICLE_LENGTH (a post of
   * a code snippet, a formula, a table, a few links) is its content, not "no article". */
  sitePost?: boolean;
}

export { SITE_POST_KEY } from './signals.js';
/** Weighted body length from which a site's post has a body (see ArticleOptions.sitePost). */
const SITE_POST_MIN = 5;
/** The body of a site's post that shows no text of its own (see extractArticle). */
const emptyBody = (): Pick<ContentResult, 'content' | 'contentHtml' | 'images' | 'paragraphs'> => ({ content: '', contentHtml: '', images: [], paragraphs: [] });

/**
 * Extract an article from a page; null when the page holds no article body.
 */
export function extractArticle(page: Page, options: ArticleOptions = {}): Partial<ItemDraft> | null {
  const tree = buildTree(page);
  let titled = extractTitle(page, { anchorText: options.anchorText, tree });
  let body: Pick<ContentResult, 'content' | 'contentHtml' | 'images' | 'paragraphs'> | undefined = extractContent(page, { segments: options.segments, templateApplied: options.templateApplied, title: titled?.title }, tree);
  // A template that swallowed the body (a site whose pages all share the article's frame) must
  // not cost the article: retry without it.
  if (!body && options.templateApplied) body = extractContent(page, { title: titled?.title }, tree);
  // a short article (a brief, a note) below the body's length floor: the whole page is one
  // declared content container holding a sentence
  body ??= shortArticle(page, tree, titled?.title);
  // one of the site's posts by its own evidence: a short body is its content
  // (against the site template only: without it, a short body is no surer than the side panel's text)
  if (!body && options.sitePost) body = extractContent(page, { segments: options.segments, templateApplied: options.templateApplied, title: titled?.title, minLength: SITE_POST_MIN }, tree);
  // ... and one that shows (beside the site template) no more than a heading, a formula or nothing
  // at all is an empty post: an article with its title and date, and what text it shows
  // (against the site template only: without it, nothing tells the page's own lines from the side panel's)
  if (!body && options.sitePost && options.templateApplied) body = declaredBody(page, tree) ?? extractContent(page, { segments: options.segments, templateApplied: true, minLength: 1 }, tree) ?? emptyBody();
  if (!body) return null;
  const timezone = options.timezone ?? timezoneForLang(langTag(page)) ?? (hanRatio(page.title) > HAN_TITLE_SHARE ? timezoneForLang('zh') : undefined);
  const titleAt = titled?.element ? page.indexOf(titled.element as AnyNode) : -1;
  // (an empty post's body starts below its title)
  const first = body.paragraphs[0]?.index ?? titleAt + 1;
  const last = body.paragraphs[body.paragraphs.length - 1]?.index;
  // a line that the <title> contains, shown below the body's end, is a footer line (the site name of
  // a section page's <title>, "新闻动态--某某学会官网"): the headline is the heading at the body's top
  if (!titled || (titled.displayedLine && titled.element && last !== undefined && page.indexOf(titled.element as AnyNode) > last)) titled = headingAbove(page, first) ?? titled;
  const headline = titled?.element ? page.indexOf(titled.element as AnyNode) : -1;
  // without a headline element, the dateline is looked for just above the body
  const anchor = headline >= 0 && headline < first ? headline : Math.max(0, first - DATELINE_WINDOW);
  const published = extractPublished(page, { timezone, anchor, bodyStart: first, bodyEnd: last, headline: headline >= 0 ? headline : undefined });
  const author = extractAuthor(page, { anchor, tail: last, bodyStart: first, headline });
  return {
    kind: 'article',
    title: titled?.title,
    author,
    publishedAt: published?.iso,
    publishedAtText: published?.text,
    content: body.content,
    contentHtml: body.contentHtml,
    images: body.images,
    lang: page.lang(),
  };
}

/** Segments looked at above the body for its heading. */
const HEADING_ABOVE_SEGMENTS = 6;
const HEADING_TAG = /^h[1-6]$/;

/** The nearest heading element (h1–h6) above the body's first paragraph, within a few lines
 * (a dateline or a source line may sit between them), that is not links. */
function headingAbove(page: Page, first: number): { title: string; element: Element } | undefined {
  const segs = page.segments;
  let k = segs.findIndex((s) => s.index >= first);
  if (k < 0) k = segs.length;
  // the body may have taken the headline in: its first line counts
  if (k < segs.length && segs[k]!.index === first) k++;
  for (let i = k - 1, seen = 0; i >= 0 && seen < HEADING_ABOVE_SEGMENTS; i--, seen++) {
    const s = segs[i]!;
    if (!HEADING_TAG.test(s.element.name) || s.linkChars > s.text.length / 2) continue;
    if (s.text.length >= 4 && s.text.length <= 200) return { title: s.text, element: s.element };
  }
  return undefined;
}

/** Elements that declare the page's main content. */
function isContentContainer(el: Element): boolean {
  return el.name === 'article' || el.name === 'main' || el.attribs.role === 'main' || (el.attribs.itemprop ?? '').toLowerCase() === 'articlebody';
}
/** A sentence: several words closed by sentence punctuation (or a run of Han text closed by 。！？). */
const SENTENCE = /(?:[\p{L}\p{N}’'-]+[\s,;:]+){5,}[\p{L}\p{N}’'”)-]+[.!?…](?:\s|$)|\p{Script=Han}{12,}[^。！？]*[。！？]/u;
/** Share of the page's text that the container must hold (nothing else competes with it). */
const SHORT_CONTAINER_SHARE = 0.8;
/** Share of link text above which the container is navigation. */
const SHORT_LINK_SHARE = 0.2;

/** The text of the element the page declares as its article's body (schema.org itemprop=articleBody),
 * none when it is empty; undefined when the page declares none. */
function declaredBody(page: Page, tree: Tree): Pick<ContentResult, 'content' | 'contentHtml' | 'images' | 'paragraphs'> | undefined {
  const el = page.nodes.find((n): n is Element => n instanceof Element && (n.attribs.itemprop ?? '').toLowerCase() === 'articlebody');
  if (!el) return undefined;
  const from = page.indexOf(el as AnyNode);
  const to = subtreeEnd(tree, from);
  const paragraphs = page.segments.filter((s) => s.index > from && s.index <= to && !tree.removed[s.index] && s.text.trim());
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return { content: paragraphs.map((s) => s.text).join('\n'), contentHtml: paragraphs.map((s) => `<p>${esc(s.text)}</p>`).join(''), images: [], paragraphs };
}

/**
 * A page whose text is too short for the body extractor (under MIN_ARTICLE_LENGTH) but that is
 * plainly one short text: an `<article>`, `<main>`, role=main or itemprop=articleBody element
 * holds nearly all of the page's text, that text is not links, and it holds a sentence. Pages of
 * links, empty shells and headings-only pages stay "no article".
 */
function shortArticle(page: Page, tree: Tree, title: string | undefined): ContentResult | undefined {
  const segs = page.segments.filter((s) => !tree.removed[s.index]);
  let total = 0;
  for (const s of segs) total += s.text.length;
  if (!total || total >= 2 * MIN_ARTICLE_LENGTH) return undefined;
  let container: Element | undefined;
  for (const n of page.nodes) if (n instanceof Element && isContentContainer(n)) { container = n; break; }
  if (!container) return undefined;
  const from = page.indexOf(container as AnyNode);
  const to = subtreeEnd(tree, from);
  const inner = segs.filter((s) => s.index > from && s.index <= to);
  let len = 0;
  let links = 0;
  for (const s of inner) {
    len += s.text.length;
    links += s.linkChars;
  }
  if (len < SHORT_CONTAINER_SHARE * total || links > SHORT_LINK_SHARE * len) return undefined;
  const paragraphs = inner.filter((s) => s.text !== title);
  if (!paragraphs.some((s) => SENTENCE.test(s.text))) return undefined;
  // a Set, not images.includes: a page of n images cost n² (issue 24)
  const images = new Set<string>();
  for (let i = from + 1; i <= to; i++) {
    const n = page.nodes[i]!;
    if (n instanceof Element && n.name === 'img') {
      const u = imageUrl(page, n);
      if (u) images.add(u);
    }
  }
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    content: paragraphs.map((s) => s.text).join('\n'),
    contentHtml: paragraphs.map((s) => `<p>${esc(s.text)}</p>`).join('') + [...images].map((u) => `<img src="${esc(u).replace(/"/g, '&quot;')}">`).join(''),
    images: [...images],
    root: container,
    paragraphs,
    tree,
  };
}

export const articleMiddleware: MiddlewareFactory = () => ({
  name: 'article',
  process(ctx) {
    // The body is chosen against the site template only (page − template): the rule filters'
    // verdicts on single lines (a recipe line, a list of numbers is "not language") cost article
    // text and nothing else — AEB through the batch path 0.975 with them, 0.980 without; the
    // sites/ groups 0.961 either way (bench:templates, "(b) without rule filters").
    let segments = ctx.segments;
    if (ctx.templateApplied) {
      const learner = (ctx.scratch[SCRATCH_KEY] as TemplateLearner | undefined) ?? existingLearnerOf(ctx.site);
      segments = (learner && applyTemplate(ctx.page.segments, learner)) || ctx.segments;
    }
    const a = extractArticle(ctx.page, {
      segments,
      templateApplied: ctx.templateApplied,
      anchorText: ctx.request.anchorText,
      timezone: ctx.timezone,
      sitePost: ctx.scratch[SITE_POST_KEY] === true,
    });
    if (a) Object.assign(ctx.item, a);
    else ctx.item.kind = 'other';
  },
});
