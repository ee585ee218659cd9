/**
 * Documents that are not web pages a person reads: feeds (RSS, Atom, RDF, JSON Feed), sitemaps
 * and OPML outlines, and bare JSON. They are `other` by rule (issue 12: a crawl that followed a
 * site's feed link stored the feed as a list), whatever the SVM would say of their markup; a
 * crawl may still read their entry links.
 */
import { Element, Text } from 'domhandler';
import type { Page } from '../../src/core/page.js';

/** Root elements of machine-readable XML documents (lower-cased, as the parser gives them). */
const FEED_ROOTS = new Set(['rss', 'feed', 'rdf:rdf', 'channel']);
const SITEMAP_ROOTS = new Set(['urlset', 'sitemapindex', 'opml']);
/** Leading characters of a JSON body. */
const JSON_START = /^\s*[[{]/;

export type DocumentKind = 'feed' | 'sitemap' | 'json';

/** What kind of machine-readable document the page is, or undefined for a web page. */
export function documentKind(page: Page): DocumentKind | undefined {
  const top = page.document.children;
  const root = top.find((n): n is Element => n instanceof Element);
  if (root) {
    if (FEED_ROOTS.has(root.name)) return 'feed';
    if (SITEMAP_ROOTS.has(root.name)) return 'sitemap';
    return undefined;
  }
  const text = top.filter((n): n is Text => n instanceof Text).map((n) => n.data).join('');
  return JSON_START.test(text) ? 'json' : undefined;
}
