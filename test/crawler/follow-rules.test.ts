import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Minimatch } from 'minimatch';
import { compileRules, compileSiteKeys, decideFollow, globToRegExp } from '../../src/spider/follow-rules.js';

describe('follow rules', () => {
  it("compiles URL globs with Crawlee's semantics: * and ? within a segment, ** across, [..] classes, {a,b}", () => {
    const re = globToRegExp('https://ex.com/news/*.html');
    expect(re.test('https://ex.com/news/a-1.html')).toBe(true);
    expect(re.test('https://ex.com/news/2024/a.html')).toBe(false);
    expect(re.test('https://ex.com/news/aXhtml')).toBe(false);
    expect(globToRegExp('**/news/**').test('https://ex.com/news/2024/05/a.html')).toBe(true);
    expect(globToRegExp('**/list{,_*}.html').test('http://h/list.html')).toBe(true);
    expect(globToRegExp('**/list{,_*}.html').test('http://h/list_3.html')).toBe(true);
    // `?` is one character (as in Crawlee); `[?]` is a literal question mark.
    expect(globToRegExp('**/search?q=*').test('http://h/search?q=x')).toBe(true);
    expect(globToRegExp('**/search?q=*').test('http://h/searchXq=x')).toBe(true);
    expect(globToRegExp('**/search[?]q=*').test('http://h/searchXq=x')).toBe(false);
    expect(globToRegExp('**/search[?]q=*').test('http://h/search?q=x')).toBe(true);
    // Character classes (the README example: the old hand-written globs read them literally).
    const year = globToRegExp('**/20[0-9][0-9]/**/*.html');
    expect(year.test('http://127.0.0.1:8080/news/2024/05/art_1000.html')).toBe(true);
    expect(year.test('http://127.0.0.1:8080/news/1999/05/art_1000.html')).toBe(false);
    // Case-insensitive, as Crawlee's { nocase: true }.
    expect(globToRegExp('**/News/*.HTML').test('http://h/news/a.html')).toBe(true);
    expect(() => globToRegExp('  ')).toThrow(/empty/);
  });

  it('matches exactly what minimatch.match() matches (the function Crawlee calls), on generated URLs and globs', () => {
    const seg = fc.constantFrom('news', 'list_2.html', 'art_1.html', '2024', '05', 'a-b', 'page', 'Thread-1-1.html', 'x.html?p=2', 'q', '');
    const url = fc.tuple(fc.constantFrom('http://h', 'https://ex.com', 'http://127.0.0.1:8080'), fc.array(seg, { maxLength: 5 })).map(([o, s]) => `${o}/${s.join('/')}`);
    const gseg = fc.constantFrom('**', '*', 'news', '*.html', 'art_*.html', '20[0-9][0-9]', '{,list_*.html}', 'page', '?5', '*-1.html', 'x.html[?]p=*', 'thread-*');
    const glob = fc.oneof(
      fc.array(gseg, { minLength: 1, maxLength: 4 }).map((s) => `**/${s.join('/')}`),
      fc.tuple(fc.constantFrom('http://h', 'https://ex.com', 'http://127.0.0.1:8080'), fc.array(gseg, { minLength: 1, maxLength: 4 })).map(([o, s]) => `${o}/${s.join('/')}`),
    );
    fc.assert(
      fc.property(glob, url, (g, u) => {
        expect(globToRegExp(g).test(u)).toBe(new Minimatch(g, { nocase: true }).match(u));
      }),
      { numRuns: 3000 },
    );
  });

  it('first matching rule wins; follow:false excludes; RegExp patterns work', () => {
    const rules = compileRules([
      { pattern: '**/admin/**', follow: false },
      { pattern: /\/article\/\d+$/, label: 'detail' },
      { pattern: '**/list/*', label: 'list' },
    ]);
    expect(decideFollow('https://e.com/article/12', rules)).toEqual({ follow: true, label: 'detail' });
    expect(decideFollow('https://e.com/list/2', rules)).toEqual({ follow: true, label: 'list' });
    expect(decideFollow('https://e.com/admin/list/2', rules)).toEqual({ follow: false });
    // Links matching no rule are skipped, unless an extractor labelled them.
    expect(decideFollow('https://e.com/about', rules)).toEqual({ follow: false });
    expect(decideFollow('https://e.com/about', rules, 'detail')).toEqual({ follow: true, label: 'detail' });
    // A rule's label beats the extractor's.
    expect(decideFollow('https://e.com/list/3', rules, 'detail')).toEqual({ follow: true, label: 'list' });
  });

  it('a global RegExp matches every time (lastIndex reset)', () => {
    const rules = compileRules([{ pattern: /\/a\//g, label: 'detail' }]);
    for (let i = 0; i < 3; i++) expect(decideFollow('http://h/a/1', rules).label).toBe('detail');
  });

  it('compiled rules survive structured cloning (worker threads)', () => {
    const rules = structuredClone(compileRules([{ pattern: 'http://h/news/*', label: 'detail' }]));
    expect(decideFollow('http://h/news/1.html', rules)).toEqual({ follow: true, label: 'detail' });
  });

  it('without rules every link is followed', () => {
    expect(decideFollow('https://e.com/anything', [])).toEqual({ follow: true, label: undefined });
  });

  it('site keys: globs or RegExps, first match wins, else the fallback', () => {
    const key = compileSiteKeys([{ pattern: '**/bbs/**', key: 'forum' }, { pattern: /\/news\//, key: 'news' }], () => 'host');
    expect(key('http://h/bbs/thread-1.html')).toBe('forum');
    expect(key('http://h/news/a.html')).toBe('news');
    expect(key('http://h/about')).toBe('host');
  });
});
