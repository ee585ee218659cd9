/**
 * Article extraction (issue 4; ALGORITHMS §5, §8): body by text/symbol density plus block
 * balance, title, publish time, author and language. `extractArticle` is the pure entry point;
 * `articleMiddleware` wraps it for the chain (it runs for pages labelled `detail`).
 *
 * @example
 *   const page = createPage({ url, body });
 *   const article = extractArticle(page, { timezone: 'Asia/Shanghai' });
 *   // → { kind: 'article', title, author?, publishedAt?, content, contentHtml, images, lang } | null
 */
import type { AnyNode } from 'domhandler';
import type { Page, Segment } from '../../src/page/page.js';
import type { MiddlewareFactory } from '../../src/middleware/types.js';
import type { Item } from '../../src/item.js';
import { timezoneForLang } from '../../src/text/dates.js';
import { hanRatio } from '../../src/text/text.js';
import { buildTree } from './tree.js';
import { extractContent, type ContentResult } from './content.js';
import { extractTitle } from './title.js';
import { extractPublished } from './published.js';
import { extractAuthor } from './author.js';

export { extractContent } from './content.js';
export { extractTitle, cutSiteName, longestCommonSubstring } from './title.js';
export { extractPublished } from './published.js';
export { extractAuthor } from './author.js';

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
}

/**
 * Extract an article from a page; null when the page holds no article body.
 */
export function extractArticle(page: Page, options: ArticleOptions = {}): Partial<Item> | null {
  const tree = buildTree(page);
  const titled = extractTitle(page, { anchorText: options.anchorText, tree });
  let body: ContentResult | undefined = extractContent(page, { segments: options.segments, templateApplied: options.templateApplied, title: titled?.title }, tree);
  // A template that swallowed the body (a site whose pages all share the article's frame) must
  // not cost the article: retry without it.
  if (!body && options.templateApplied) body = extractContent(page, { title: titled?.title }, tree);
  if (!body) return null;
  const timezone = options.timezone ?? timezoneForLang(page.lang()) ?? (hanRatio(page.title) > HAN_TITLE_SHARE ? timezoneForLang('zh') : undefined);
  const headline = titled?.element ? page.indexOf(titled.element as AnyNode) : -1;
  const first = body.paragraphs[0]?.index ?? 0;
  // without a headline element, the dateline is looked for just above the body
  const anchor = headline >= 0 && headline < first ? headline : Math.max(0, first - DATELINE_WINDOW);
  const last = body.paragraphs[body.paragraphs.length - 1]?.index;
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

export const articleMiddleware: MiddlewareFactory = () => ({
  name: 'article',
  priority: 600,
  kinds: ['article'],
  process(ctx) {
    const a = extractArticle(ctx.page, {
      segments: ctx.segments,
      templateApplied: ctx.templateApplied,
      anchorText: ctx.request.anchorText,
      timezone: ctx.timezone,
    });
    if (a) Object.assign(ctx.item, a);
    else ctx.item.kind = 'other';
  },
});
