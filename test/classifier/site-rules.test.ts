import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { classifyPage, pageTypeMiddleware } from '../../middleware/classifier/index.js';
import { documentKind } from '../../middleware/classifier/documents.js';
import { applySiteEvidence, emptySiteTypeState, observePage, urlShape, MIN_SITE_DETAILS } from '../../middleware/classifier/site-rules.js';
import { silentLogger, type PageContext } from '../../src/core/middleware.js';

const page = (url: string, body: string) => createPage({ url, body });
const detail = { label: 'detail', probabilities: { detail: 0.9, list: 0.05, forum: 0.05, other: 0 } };
const list = { label: 'list', probabilities: { detail: 0.3, list: 0.6, forum: 0.1, other: 0 } };

describe('feeds, sitemaps and JSON are other by rule', () => {
  const rss = '<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><item><title>A post</title><link>https://b.example/p/1</link><description>Some text of the post that goes on for a while, long enough to look like content.</description></item></channel></rss>';
  const atom = '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><entry><title>A post</title><content>Text of the post, long enough to be read as page content by a classifier that looks at text.</content></entry></feed>';
  const sitemap = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://b.example/p/1</loc></url></urlset>';
  const json = '{"version":"https://jsonfeed.org/version/1.1","title":"Blog","items":[{"id":"1","content_text":"A post with enough text to count as content for the page model, and then some more."}]}';
  it('reads the document kind from the root element (or a JSON body)', () => {
    expect(documentKind(page('https://b.example/feed.xml', rss))).toBe('feed');
    expect(documentKind(page('https://b.example/atom.xml', atom))).toBe('feed');
    expect(documentKind(page('https://b.example/sitemap.xml', sitemap))).toBe('sitemap');
    expect(documentKind(page('https://b.example/feed.json', json))).toBe('json');
    expect(documentKind(page('https://b.example/', '<html><body><p>Hello there, this is a page.</p></body></html>'))).toBeUndefined();
  });
  it('classifyPage types them other, with probability 1', () => {
    for (const body of [rss, atom, sitemap, json]) expect(classifyPage(page('https://b.example/f', body))).toEqual({ label: 'other', probabilities: { detail: 0, list: 0, forum: 0, other: 1 } });
  });
});

describe('URL shapes', () => {
  it('numbers as N, the last segment as *, no shape for the root', () => {
    expect(urlShape('https://b.example/2022/05/04/canvas-svg/')?.shape).toBe('N/N/N/*');
    expect(urlShape('https://b.example/posts/my-post/')).toEqual({ shape: 'posts/*', depth: 2 });
    expect(urlShape('https://b.example/about/')).toEqual({ shape: '*', depth: 1 });
    expect(urlShape('https://b.example/about/index.html')).toEqual({ shape: '*', depth: 1 });
    expect(urlShape('https://b.example/')).toBeUndefined();
  });
});

describe('site evidence', () => {
  const posts = Array.from({ length: MIN_SITE_DETAILS + 1 }, (_, i) => `https://b.example/posts/post-${i}/`);
  const learned = () => {
    const s = emptySiteTypeState();
    observePage(s, 'https://b.example/', list, posts);
    return s;
  };
  it("a top-level page typed detail in a shape none of the site's posts has is other", () => {
    expect(applySiteEvidence(learned(), 'https://b.example/about/', detail).label).toBe('other');
    expect(applySiteEvidence(learned(), 'https://b.example/posts/another/', detail).label).toBe('detail');
    // deeper pages are left alone
    expect(applySiteEvidence(learned(), 'https://b.example/docs/setup/', detail).label).toBe('detail');
  });
  it('no evidence yet, or posts in many shapes: the classifier stands', () => {
    expect(applySiteEvidence(emptySiteTypeState(), 'https://b.example/about/', detail).label).toBe('detail');
    const mixed = emptySiteTypeState();
    observePage(mixed, 'https://b.example/', list, posts.map((u, i) => u.replace('/posts/', `/s${i}/`)));
    expect(applySiteEvidence(mixed, 'https://b.example/about/', detail).label).toBe('detail');
  });
  it("a page in the posts' shape typed list, where no list page has that shape, is a post (or a thread)", () => {
    expect(applySiteEvidence(learned(), 'https://b.example/posts/my-tools/', list).label).toBe('detail');
    const threadish = { label: 'list', probabilities: { detail: 0.1, list: 0.5, forum: 0.4, other: 0 } };
    expect(applySiteEvidence(learned(), 'https://b.example/posts/my-tools/', threadish).label).toBe('forum');
    const s = learned();
    observePage(s, 'https://b.example/posts/page-2/', list, []);
    expect(applySiteEvidence(s, 'https://b.example/posts/my-tools/', list).label).toBe('list');
  });
  it("a top-level list page whose list is the site menu, or links off the site, is other", () => {
    const menu = ['https://b.example/', 'https://b.example/tags/', 'https://b.example/archives/', 'https://b.example/about/'];
    expect(applySiteEvidence(emptySiteTypeState(), 'https://b.example/about/', list, menu).label).toBe('other');
    const blogroll = ['https://a.example/', 'https://c.example/blog/', 'https://d.example/'];
    expect(applySiteEvidence(emptySiteTypeState(), 'https://b.example/links/', list, blogroll).label).toBe('other');
    expect(applySiteEvidence(emptySiteTypeState(), 'https://b.example/archives/', list, posts).label).toBe('list');
  });
});

describe('the page-type stage keeps the evidence in the site state', () => {
  const para = (n: number) => Array.from({ length: n }, (_, i) => `<p>This is sentence ${i} of a long post about gardens, with a clause, and an end. It goes on to say more things.</p>`).join('');
  const index = `<html><head><title>Garden notes</title></head><body><nav><a href="/">Home</a> <a href="/about/">About</a></nav><main>${posts()}</main></body></html>`;
  function posts() {
    return Array.from({ length: 8 }, (_, i) => `<article class="summary"><h2><a href="/notes/note-number-${i}/">Notes from the garden, week number ${i} of the year</a></h2><time datetime="2024-0${(i % 9) + 1}-01">2024-0${(i % 9) + 1}-01</time><p>A short teaser of the note, one line.</p></article>`).join('');
  }
  const about = `<html><head><title>About me</title></head><body><nav><a href="/">Home</a> <a href="/about/">About</a></nav><main><h1>About me</h1>${para(6)}</main></body></html>`;
  it('an About page after the index is other; the state is JSON and persisted', () => {
    const site = { key: 'b.example', data: {} as Record<string, unknown>, touched: 0, touch() { this.touched++; } };
    const mw = pageTypeMiddleware({});
    const run = (url: string, body: string) => {
      const p = page(url, body);
      const ctx = { page: p, request: { url }, item: { url }, follow: [], site, siteKey: site.key, log: silentLogger } as unknown as PageContext;
      mw.process(ctx);
      return ctx;
    };
    const first = run('https://b.example/', index);
    expect(first.label).toBe('list');
    expect(site.touched).toBeGreaterThan(0);
    expect(classifyPage(page('https://b.example/about/', about)).label).toBe('detail');
    expect(run('https://b.example/about/', about).label).toBe('other');
    expect(JSON.parse(JSON.stringify(site.data))).toEqual(site.data);
  });
});
