import { describe, expect, it } from 'vitest';
import { normaliseUrl, urlNormalisation } from '../../src/crawler/normalise-url.js';

const norm = (href: string, o = {}) => normaliseUrl(new URL(href), urlNormalisation(o));

describe('URL normalisation (as Crawlee: sorted query, tracking parameters dropped)', () => {
  it('sorts the query by name, keeps repeated names in order, never re-encodes', () => {
    expect(norm('http://h/a?b=2&a=1')).toBe('http://h/a?a=1&b=2');
    expect(norm('http://h/a?a=1&b=2')).toBe('http://h/a?a=1&b=2');
    expect(norm('http://h/a?t=2&t=1&s')).toBe('http://h/a?s&t=2&t=1');
    expect(norm('http://h/a?q=a%20b&p=x+y')).toBe('http://h/a?p=x+y&q=a%20b');
    expect(norm('http://h/a?&&b=1&')).toBe('http://h/a?b=1');
  });

  it('drops utm_* and click identifiers, and the parameters the spider names', () => {
    expect(norm('http://h/a?utm_source=x&id=3&UTM_Medium=y&fbclid=z&gclid=1')).toBe('http://h/a?id=3');
    expect(norm('http://h/a?utm_source=x')).toBe('http://h/a');
    expect(norm('http://h/a?sid=9&ref_x=1&id=3', { ignoreQueryParams: ['sid', /^ref_/] })).toBe('http://h/a?id=3');
  });

  it('drops the fragment unless keepUrlFragment; an empty query is no query', () => {
    expect(norm('http://h/a#top')).toBe('http://h/a');
    expect(norm('http://h/a?#top')).toBe('http://h/a');
    expect(norm('http://h/a?b=1&a=2#/route', { keepUrlFragment: true })).toBe('http://h/a?a=2&b=1#/route');
    expect(norm('http://h/a?')).toBe('http://h/a');
  });

  it('keeps the path as it is (a trailing slash is another resource)', () => {
    expect(norm('http://h/news/')).toBe('http://h/news/');
    expect(norm('http://h/news')).toBe('http://h/news');
  });
});
