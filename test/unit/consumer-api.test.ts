/**
 * The public API as a consumer meets it (issue 25): follow-rule labels typed as the built-in ones
 * plus your own, with a warning for a near miss; every error class importable from the entry that
 * throws it; the HTTP status read from any crawler's response.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as full from 'gleaner';
import * as extract from 'gleaner/extract';
import * as crawlee from 'gleaner/crawlee';
import type { FollowRule, PageLabel } from 'gleaner';
import { followRuleWarnings, nearMissLabel } from '../../src/spider/follow-rules.js';
import { validateSpider } from '../../src/spider/config.js';
import { statusOf } from '../../src/crawlee/gleaner.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('follow-rule labels', () => {
  it('are typed as the built-in labels, or a string of your own', () => {
    expectTypeOf<NonNullable<FollowRule['label']>>().toExtend<string>();
    expectTypeOf<PageLabel>().toExtend<NonNullable<FollowRule['label']>>();
    expectTypeOf<'my-label'>().toExtend<NonNullable<FollowRule['label']>>();
  });

  it('a near miss of a built-in label is named, with the label meant; built-in and distinct labels are not', () => {
    expect(['details', 'lists', 'Detail', 'forums', 'others', 'article', 'articles', 'detial'].map(nearMissLabel)).toEqual(['detail', 'list', 'detail', 'forum', 'other', 'detail', 'detail', 'detail']);
    expect(['detail', 'list', 'forum', 'other', 'product', 'category', 'tag-page'].map(nearMissLabel)).toEqual(Array(7).fill(undefined));
    expect(followRuleWarnings([{ pattern: '**/a/*', label: 'detail' }, { pattern: '**/b/*', label: 'lists' }])).toEqual([
      'follow[1].label "lists" is not a page label (did you mean "list"?): it is kept as a label of your own, and the page type is left to the classifier',
    ]);
  });

  it('a spider warns once on standard error (the CLI validates a spider twice); createGleaner through its logger', () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
    const raw = { name: 'near-miss-warn', startUrls: ['https://example.com/'], follow: [{ pattern: '**/news/*', label: 'details' }] };
    validateSpider(raw, 'spiders/a.ts');
    validateSpider(raw, 'spider near-miss-warn');
    expect(writes).toEqual(['gleaner: warning: spiders/a.ts: follow[0].label "details" is not a page label (did you mean "detail"?): it is kept as a label of your own, and the page type is left to the classifier\n']);
    const warnings: string[] = [];
    crawlee.createGleaner({ follow: [{ pattern: '**/x/*', label: 'Lists' }], log: { debug() {}, info() {}, error() {}, warning: (m: string) => warnings.push(m) } });
    expect(warnings).toEqual([expect.stringMatching(/^gleaner: follow\[0\]\.label "Lists" is not a page label \(did you mean "list"\?\)/)]);
  });
});

describe('every error class is importable from the entry that throws it', () => {
  it('gleaner/extract: what Extractor and the chain throw', async () => {
    for (const name of ['ExtractInputError', 'MiddlewareError', 'NotConfigured', 'BinaryContentError']) expect(typeof (extract as Record<string, unknown>)[name], name).toBe('function');
    await expect(new extract.Extractor().extract({ url: 'not a url', body: 1 } as never)).rejects.toBeInstanceOf(extract.ExtractInputError);
  });

  it('gleaner/crawlee: the error status a handler fails a page with, a bad glob', () => {
    expect(crawlee.HttpStatusError).toBe(full.HttpStatusError);
    expect(() => crawlee.createGleaner({ follow: [{ pattern: '#x' }] })).toThrow(crawlee.GlobError);
  });

  it('gleaner: every one of them, and the crawl’s own', () => {
    const names = ['ExtractInputError', 'MiddlewareError', 'NotConfigured', 'BinaryContentError', 'SpiderConfigError', 'FeedError', 'DropItem', 'GlobError', 'FetchError', 'HttpStatusError', 'BlockedError', 'TooLargeError', 'NotAPageError', 'TimeoutError', 'NetworkError', 'RedirectError', 'DecodingError', 'AbortedError', 'SessionBlockedError', 'NotModifiedError'];
    for (const name of names) expect(typeof (full as Record<string, unknown>)[name], name).toBe('function');
    expect(full.ExtractInputError).toBe(extract.ExtractInputError);
  });
});

describe('statusOf: the HTTP status of any crawler’s response', () => {
  it('HTTP crawlers (statusCode), playwright (status()), none', () => {
    expect(statusOf({ statusCode: 404 })).toBe(404);
    expect(statusOf({ status: () => 503 })).toBe(503);
    expect(statusOf({ status: 200 })).toBe(200);
    expect(statusOf(undefined)).toBeUndefined();
    expect(statusOf({ statusCode: '404' })).toBeUndefined();
  });
});
