/**
 * Issue 12 item 3: the publish date comes from metadata and the dateline near the headline;
 * relative words in body text never become it; a day shown without a time keeps its day
 * (midnight in the site's zone).
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

function extract(name: string, edit: (html: string) => string = (h) => h, timezone?: string) {
  const html = edit(readFileSync(path.join(DIR, `${name}.html`), 'utf8'));
  const a = extractArticle(createPage({ url: 'https://smallfixes.example/posts/porch-light/', body: html, fetchedAt }), timezone ? { timezone } : {});
  expect(a, 'an article').not.toBeNull();
  return a!;
}

describe('relative words in the body', () => {
  it('"Today I fixed it." as the first paragraph is not the publish date: the dateline is', () => {
    const a = extract('body-today');
    expect(a.publishedAt?.slice(0, 10)).toBe('2024-03-03');
    expect(a.publishedAtText).toBe('March 3, 2024');
  });
  it('without any other date, a sentence with "Yesterday" gives no publish date at all', () => {
    const a = extract('body-today', (h) => h.replace('<div class="post-meta">Posted on March 3, 2024</div>', '').replace('Today I fixed it.', 'Yesterday the porch light died again.'));
    expect(a.publishedAt).toBeUndefined();
  });
  it('a relative dateline of its own still counts ("Posted yesterday at 9:30")', () => {
    const a = extract('body-today', (h) => h.replace('Posted on March 3, 2024', 'Posted yesterday at 9:30'), 'UTC');
    expect(a.publishedAt).toBe('2026-11-29T09:30:00Z');
  });
});

describe('a day shown without a time', () => {
  it('is midnight in the zone the page\'s own machine dates carry (-05:00), not UTC midnight', () => {
    // the page shows "March 3, 2024" only; its modification time says the site runs at -05:00
    const a = extract('date-only');
    expect(a.publishedAt).toBe('2024-03-03T00:00:00-05:00');
    expect(a.publishedAtText).toBe('March 3, 2024');
  });
  it('is midnight in the spider\'s zone when one is set (DST included)', () => {
    const a = extract('date-only', (h) => h, 'America/New_York');
    expect(a.publishedAt).toBe('2024-03-03T00:00:00-05:00');
    const summer = extract('date-only', (h) => h.replace('March 3, 2024', 'July 3, 2024'), 'America/New_York');
    expect(summer.publishedAt).toBe('2024-07-03T00:00:00-04:00');
  });
  it('stays UTC midnight when nothing tells the zone (a +00:00 value says nothing)', () => {
    const a = extract('date-only', (h) => h.replace('2024-03-05T18:20:00-05:00', '2024-03-05T23:20:00+00:00'));
    expect(a.publishedAt).toBe('2024-03-03T00:00:00Z');
  });
});
