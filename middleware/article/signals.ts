/**
 * What the page-type classifier may read from the article extractor (issue 10: the classifier
 * reads article internals only through this module): the body the extractor finds on the whole
 * page, without a site template or a title.
 *
 * Versioned: bump `SIGNALS_VERSION` whenever the body found here changes for some page; the
 * golden feature vectors (`test/classifier/golden.test.ts`) fail when that happens unnoticed, and
 * `loadModel` refuses a model trained with another version (retrain with `gleaner
 * train-classifier`).
 */
import type { Page } from '../../src/core/page.js';
import { buildTree } from './tree.js';
import { extractContent } from './content.js';

export const SIGNALS_VERSION = 1;

export interface ArticleBodySignal {
  /** The body's text, as the article extractor returns it. */
  readonly content: string;
  /** DFS index of the element chosen as the body (-1 when it is not one of `page.nodes`). */
  readonly root: number;
}

/** The article body of the page, or undefined when the extractor finds none (or fails). */
export function articleBody(page: Page): ArticleBodySignal | undefined {
  try {
    const body = extractContent(page, {}, buildTree(page));
    return body ? { content: body.content, root: page.indexOf(body.root) } : undefined;
  } catch {
    return undefined;
  }
}

/** Key of ctx.scratch where the page-type stage says the page is one of its site's posts by the
 * site's own evidence (the article stage then takes a short body as its content: ArticleOptions.sitePost). */
export const SITE_POST_KEY = 'sitePost';
