import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/index.js';
import { extractArticle } from '../../middleware/article/index.js';

const body = '<p>' + 'This paragraph is long enough to be the body of a blog post about self hosting. '.repeat(5) + '</p>';
const post = (byline: string) =>
  createPage({
    url: 'http://127.0.0.1/posts/self-hosting/',
    body: `<html><head><title>Self Hosting Notes | ~jdoe42~</title></head><body><main><h1>Self Hosting Notes</h1>
      <div class="meta"><span>By <em>${byline}</em></span></div>${body}${body}</main></body></html>`,
  });

describe('a byline naming an account handle', () => {
  it('is the writer when the handle links to its own profile, even on a site named after it', () => {
    expect(extractArticle(post('<a href="https://code.example/jdoe42">jdoe42</a>'))?.author).toBe('jdoe42');
  });
  it('is no writer when the link goes elsewhere (a section, a tag)', () => {
    expect(extractArticle(post('<a href="/category/notes/">notes</a>'))?.author).toBeUndefined();
  });
});
