import { describe, expect, it } from 'vitest';
import { compileRules, decideFollow, globToRegExp } from '../../src/spider/follow-rules.js';

describe('follow rules', () => {
  it('compiles URL globs: * within a segment, ** across, {a,b}, literal ? and .', () => {
    const re = globToRegExp('https://ex.com/news/*.html');
    expect(re.test('https://ex.com/news/a-1.html')).toBe(true);
    expect(re.test('https://ex.com/news/2024/a.html')).toBe(false);
    expect(re.test('https://ex.com/news/aXhtml')).toBe(false);
    expect(globToRegExp('**/news/**').test('https://ex.com/news/2024/05/a.html')).toBe(true);
    expect(globToRegExp('**/list{,_*}.html').test('http://h/list.html')).toBe(true);
    expect(globToRegExp('**/list{,_*}.html').test('http://h/list_3.html')).toBe(true);
    expect(globToRegExp('**/search?q=*').test('http://h/search?q=x')).toBe(true);
    expect(globToRegExp('**/search?q=*').test('http://h/searchXq=x')).toBe(false);
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

  it('without rules every link is followed', () => {
    expect(decideFollow('https://e.com/anything', [])).toEqual({ follow: true, label: undefined });
  });
});
