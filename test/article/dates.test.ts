/**
 * Publish-time rules of the article extractor (middleware/article/published.ts): which date on a
 * page is the publish time, when there is none, and in which zone a displayed time is.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { extractArticle } from '../../middleware/article/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DIR = path.join(here, '..', 'fixtures', 'article', 'dates');
const fetchedAt = new Date('2026-11-30T12:00:00Z');

function extract(name: string, edit: (html: string) => string = (h) => h) {
  const html = edit(readFileSync(path.join(DIR, `${name}.html`), 'utf8'));
  const a = extractArticle(createPage({ url: 'https://news.example.org/a/3.html', body: html, fetchedAt }));
  expect(a, 'an article').not.toBeNull();
  return a!;
}

describe('article publish time', () => {
  it('keeps the displayed local time with the offset that makes it the meta instant', () => {
    // meta 12:48:06Z, the page shows 13:48 (and day-first dates elsewhere): 13:48 at +01:00
    const a = extract('local-time');
    expect(a.publishedAt).toBe('2022-02-06T13:48:00+01:00');
    expect(a.publishedAtText).toBe('06/02/2022 - 13:48');
  });

  it('reads an ambiguous numeric date the way the meta value confirms', () => {
    // no unambiguous numeric date on the page: 06/02 is 6 February because meta says so
    const a = extract('local-time-ambiguous');
    expect(a.publishedAt).toBe('2022-02-06T13:48:00+01:00');
  });

  it('keeps the page zone when the meta value is the displayed wall time labelled UTC', () => {
    const a = extract('local-time-ambiguous', (h) => h.replace('2022-02-06T12:48:06+00:00', '2022-02-06T13:48:00+00:00'));
    // the language's zone (zh → +08:00) stays: a zero difference is the common mislabelling
    expect(a.publishedAt).toBe('2022-02-06T13:48:00+08:00');
  });

  it('does not invent an offset when the displayed time is another moment', () => {
    // 13:48 shown, 12:31 in meta: 77 minutes is no offset, so the displayed minute stays in the
    // page's zone (sites often hold a stale or rounded meta value)
    const a = extract('local-time-ambiguous', (h) => h.replace('2022-02-06T12:48:06+00:00', '2022-02-06T12:31:00+00:00'));
    expect(a.publishedAt).toBe('2022-02-06T13:48:00+08:00');
  });

  it('outputs no date when the only dates are the ends of ranges', () => {
    const a = extract('range-only');
    expect(a.publishedAt).toBeUndefined();
  });

  it('still reads a single date in the same text as a publish time', () => {
    const a = extract('range-only', (h) => h.replace('<div class="main">', '<div class="main"><p>发布时间：2003-10-20 09:15</p>'));
    expect(a.publishedAt).toBe('2003-10-20T09:15:00+08:00');
  });

  it('outputs no date when the only dates belong to a list of links to other pages', () => {
    const a = extract('teaser-list');
    expect(a.publishedAt).toBeUndefined();
  });

  it('reads a link-and-date line that is not part of a list', () => {
    // one such line is a byline with a linked author, not a list of other pages
    const a = extract('teaser-list', (h) => h.replace(/<a href="\/book\/[245]\.html">.*?<br>\n/g, ''));
    expect(a.publishedAt).toBe('2004-10-10T17:06:00+08:00');
  });

  it('takes the dateline the body begins with, not a comment date below it', () => {
    const a = extract('comment-date');
    expect(a.publishedAt?.slice(0, 16)).toBe('2005-09-10T10:56');
  });

  it('takes a displayed time with its zone over a machine value with a wrong offset', () => {
    // JSON-LD holds the UTC wall time labelled -06:00; the page shows "10:31 pm CST"
    const a = extract('local-time-ambiguous', (h) =>
      h
        .replace('2022-02-06T12:48:06+00:00', '2019-11-20T04:31:13-06:00')
        .replace('06/02/2022 - 13:48', 'Nov 19, 2019, 10:31 pm CST'),
    );
    expect(a.publishedAt).toBe('2019-11-19T22:31:00-06:00');
  });

  it('keeps the seconds of a machine value that is already in the displayed offset', () => {
    const a = extract('local-time-ambiguous', (h) =>
      h.replace('2022-02-06T12:48:06+00:00', '2022-02-06T13:48:06+01:00').replace('<html lang="zh-CN">', '<html lang="fr">'),
    );
    expect(a.publishedAt).toBe('2022-02-06T13:48:06+01:00');
  });

  it('skips the date of a link to the previous or next article', () => {
    const a = extract('teaser-list', (h) =>
      h.replace('<div class="chapters">', '<div class="chapters"><p>此分类上一篇： <a href="/book/2.html">阅读课(2)</a> 2004/10/10</p>'),
    );
    expect(a.publishedAt).toBeUndefined();
  });

  it('reads a date below the body in a block whose class only looks like "respon…"', () => {
    const a = extract('comment-date', (h) =>
      h
        .replace('<p>Saturday, September 10th, 2005 10:56 am</p>', '')
        .replace(/<div id="comments">[\s\S]*?<\/ol>\n<\/div>/, '<div class="responsive-meta"><p>Posted September 10th, 2005 10:56 am</p></div>'),
    );
    expect(a.publishedAt?.slice(0, 16)).toBe('2005-09-10T10:56');
  });

  it("reads an ambiguous numeric date in the page language's order when nothing else says", () => {
    const page = (lang: string) => (h: string) =>
      h
        .replace('<html>', `<html lang="${lang}">`)
        .replace('Saturday, September 10th, 2005 10:56 am', '06/02/2022 13:48')
        .replace(/<div id="comments">[\s\S]*?<\/ol>\n<\/div>/, '');
    expect(extract('comment-date', page('fr')).publishedAt?.slice(0, 16)).toBe('2022-02-06T13:48');
    expect(extract('comment-date', page('en-GB')).publishedAt?.slice(0, 16)).toBe('2022-02-06T13:48');
    expect(extract('comment-date', page('en-US')).publishedAt?.slice(0, 16)).toBe('2022-06-02T13:48');
  });

  it('does not align a displayed time with a machine midnight (a day dressed as a time)', () => {
    const a = extract('comment-date', (h) =>
      h
        .replace('</title>', '</title><meta property="article:published_time" content="2005-09-10T00:00:00+00:00">')
        .replace('2005 10:56 am', '2005 8:00 am'),
    );
    // not 08:00+08:00: the page zone (none known: UTC) stays
    expect(a.publishedAt).toBe('2005-09-10T08:00:00Z');
  });
});
