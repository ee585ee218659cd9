/**
 * Type tests of the public API (issue 15 item 3), checked by `tsc --noEmit -p .` (the assertions
 * are types; vitest runs the few runtime ones). test/package checks the same API from a user's
 * project against the built declarations.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { CheerioCrawler, HttpCrawler, PlaywrightCrawler, type CheerioCrawlerOptions, type HttpCrawlerOptions, type PlaywrightCrawlerOptions } from 'crawlee';
import { Extractor, itemSchema, itemUnionSchema, articleItemSchema, listItemSchema, forumItemSchema, otherItemSchema, type Item, type ArticleItem, type ListItem, type ForumItem, type OtherItem, type ItemKind, type ItemDraft, type ItemOfKind, type ExtractInput } from 'gleaner/extract';
import { createGleaner, withGleaner, type GleanerOptions, type Gleaner } from 'gleaner/crawlee';
import type { SpiderConfig } from 'gleaner';

describe('Item: a union discriminated by kind, inferred from the zod schemas', () => {
  it('narrows by kind', () => {
    expectTypeOf<Item['kind']>().toEqualTypeOf<ItemKind>();
    expectTypeOf<Extract<Item, { kind: 'article' }>>().toEqualTypeOf<ArticleItem>();
    expectTypeOf<Extract<Item, { kind: 'list' }>>().toEqualTypeOf<ListItem>();
    expectTypeOf<Extract<Item, { kind: 'forum' }>>().toEqualTypeOf<ForumItem>();
    expectTypeOf<Extract<Item, { kind: 'other' }>>().toEqualTypeOf<OtherItem>();
    const describe = (i: Item): string => {
      switch (i.kind) {
        case 'article':
          expectTypeOf(i).toEqualTypeOf<ArticleItem>();
          return i.content ?? '';
        case 'list':
          expectTypeOf(i).toEqualTypeOf<ListItem>();
          return i.items?.map((e) => e.url).join(' ') ?? '';
        case 'forum':
          expectTypeOf(i).toEqualTypeOf<ForumItem>();
          return i.posts?.map((p) => p.content).join('\n') ?? '';
        case 'other':
          return i.url;
        default: {
          // exhaustive: nothing is left
          const never: never = i;
          return never;
        }
      }
    };
    expect(describe({ url: 'https://example.com/', kind: 'other' })).toBe('https://example.com/');
  });

  it('is the schemas’ type: every contract field on its kind, the other kinds’ fields a compile error (issue 25)', () => {
    expectTypeOf<ArticleItem>().toEqualTypeOf<z.infer<typeof articleItemSchema>>();
    expectTypeOf<Item>().toEqualTypeOf<z.infer<typeof itemUnionSchema>>();
    // what the validator returns is a draft of an item (every field, plus the keys it lets through)
    expectTypeOf<z.infer<typeof itemSchema>>().toExtend<ItemDraft>();
    // ARCHITECTURE §4: extend, never break — every contract field is still there, on its kind
    for (const key of ['url', 'kind', 'spider', 'fetchedAt', 'lang', 'title', 'content', 'contentHtml', 'pageType', 'status'] as const) {
      expectTypeOf<Item>().toHaveProperty(key);
    }
    for (const key of ['author', 'publishedAt', 'publishedAtText', 'images'] as const) expectTypeOf<ArticleItem>().toHaveProperty(key);
    for (const key of ['items', 'nextPage', 'pages'] as const) expectTypeOf<ListItem>().toHaveProperty(key);
    for (const key of ['posts', 'nextPage', 'pages'] as const) expectTypeOf<ForumItem>().toHaveProperty(key);
    for (const key of ['author', 'publishedAt', 'publishedAtText', 'images', 'items', 'nextPage', 'pages', 'posts'] as const) expectTypeOf<ItemDraft>().toHaveProperty(key);
    expectTypeOf<ArticleItem>().not.toHaveProperty('posts');
    expectTypeOf<ArticleItem>().not.toHaveProperty('items');
    expectTypeOf<ForumItem>().not.toHaveProperty('items');
    expectTypeOf<ForumItem>().not.toHaveProperty('author');
    expectTypeOf<ListItem>().not.toHaveProperty('posts');
    expectTypeOf<OtherItem>().not.toHaveProperty('author');
    expectTypeOf<ListItem['items']>().toEqualTypeOf<Array<{ url: string; title?: string | undefined; publishedAt?: string | undefined }> | undefined>();
    expectTypeOf<ForumItem['posts']>().toExtend<Array<{ content: string }> | undefined>();
    expectTypeOf<Item['url']>().toEqualTypeOf<string>();
    expectTypeOf<ItemOfKind<'forum'>>().toEqualTypeOf<ForumItem>();
  });

  it('validates by kind at run time, unknown keys passing through', () => {
    for (const [kind, schema] of [['article', articleItemSchema], ['list', listItemSchema], ['forum', forumItemSchema], ['other', otherItemSchema]] as const) {
      expect(schema.safeParse({ url: 'https://example.com/', kind }).success).toBe(true);
      expect(schema.safeParse({ url: 'https://example.com/', kind: kind === 'other' ? 'article' : 'other' }).success).toBe(false);
    }
    expect(itemSchema.safeParse({ url: 'https://example.com/', kind: 'article', title: 'T', extra: 1 }).data).toEqual({ url: 'https://example.com/', kind: 'article', title: 'T', extra: 1 });
    expect(itemSchema.safeParse({ url: 'https://example.com/', kind: 'video' }).success).toBe(false);
    expect(itemSchema.safeParse({ url: 'https://example.com/', kind: 'article', publishedAt: '2024-05-01' }).success).toBe(false);
    // the union keeps a kind's own fields and drops another kind's (the validator lets them through)
    expect(itemUnionSchema.parse({ url: 'https://example.com/', kind: 'forum', posts: [{ content: 'x' }], author: 'A' })).toEqual({ url: 'https://example.com/', kind: 'forum', posts: [{ content: 'x' }] });
    expect(itemUnionSchema.safeParse({ url: 'https://example.com/', kind: 'forum', posts: [{}] }).success).toBe(false);
  });
});

describe('Extractor', () => {
  it('takes bytes or text and returns an Item', () => {
    expectTypeOf(Extractor.prototype.extract).parameter(0).toEqualTypeOf<ExtractInput>();
    expectTypeOf(Extractor.prototype.extract).returns.toEqualTypeOf<Promise<Item>>();
    expectTypeOf<{ url: string; body: Buffer }>().toExtend<ExtractInput>();
    expectTypeOf<{ url: string; body: string; contentType: string }>().toExtend<ExtractInput>();
  });
});

describe('gleaner/crawlee fits every Crawlee crawler', () => {
  it('the handler and the hook are accepted by Http/Cheerio/Playwright crawlers', () => {
    const g: Gleaner = createGleaner();
    expectTypeOf(g.handler).toExtend<NonNullable<CheerioCrawlerOptions['requestHandler']>>();
    expectTypeOf(g.handler).toExtend<NonNullable<HttpCrawlerOptions['requestHandler']>>();
    expectTypeOf(g.handler).toExtend<NonNullable<PlaywrightCrawlerOptions['requestHandler']>>();
    expectTypeOf(g.keepRawBody).toExtend<NonNullable<CheerioCrawlerOptions['postNavigationHooks']>[number]>();
    expectTypeOf(g.keepRawBody).toExtend<NonNullable<HttpCrawlerOptions['postNavigationHooks']>[number]>();
  });

  it('withGleaner keeps the crawler’s options and context types (your own handler is typed)', () => {
    // Types only: constructing the crawlers is enough to check them, nothing runs.
    const make = () => {
      new CheerioCrawler(
        withGleaner({
          maxRequestsPerCrawl: 5,
          async requestHandler(ctx) {
            expectTypeOf(ctx.$).not.toBeAny();
            expectTypeOf(ctx.body).toEqualTypeOf<string | Buffer>();
          },
        }),
      );
      new HttpCrawler(withGleaner({ maxConcurrency: 2 }, { kind: 'article' }));
      new PlaywrightCrawler(
        withGleaner({
          async requestHandler(ctx) {
            expectTypeOf(ctx.page).not.toBeAny();
          },
        }),
      );
      // @ts-expect-error a misspelt crawler option is still caught
      new CheerioCrawler(withGleaner({ maxRequestsPerCrawll: 5 }));
    };
    expectTypeOf(make).toBeFunction();
  });

  it('a spider config’s fields fit the options', () => {
    expectTypeOf<Pick<SpiderConfig, 'name' | 'follow' | 'siteKey' | 'middleware' | 'extraMiddleware' | 'timezone'>>().toExtend<GleanerOptions>();
  });
});
