/**
 * Pinned fields (issue 27): a spider's own selectors for the fields the extractor gets wrong on a
 * site, which win over the extractor.
 *
 * ```js
 * fields: { author: '.byline a', publishedAt: 'time@datetime' }          // every page
 * fields: [{ pattern: 'https://bbs.example/thread-*', posts: { root: '.post', author: '.uname', content: '.msg' } }]
 * ```
 * A selector is CSS, optionally `@attr` to read an attribute instead of the text. Rules are scoped
 * by URL glob like follow rules (a rule without `pattern` applies to every page); the first rule
 * that matches the URL and names a field gives it. A pinned selector that matches nothing leaves
 * the extractor's value and logs once per site and field (per chain: once per worker thread).
 *
 * Runs after the extractors and before `main-content`, so a pinned `content` is the item's text.
 * What it pinned, with the element, goes to `ctx.scratch` for provenance (src/inspect).
 */
import { lazyCheerio } from '../inspect/tree.js';
import type { Element, ParentNode } from 'domhandler';
import type { MiddlewareFactory, PageContext } from '../core/middleware.js';
import { NotConfigured } from '../core/middleware.js';
import { collapse, textOf, type Page } from '../core/page.js';
import { normaliseDateValue } from '../core/dates.js';
import type { ForumPost } from '../core/item.js';
import { compilePattern, patternMatches } from '../spider/follow-rules.js';

/** The fields a spider may pin (single values) and the fields of a pinned post. */
export const PINNED_FIELDS = ['title', 'author', 'publishedAt', 'content'] as const;
export const PINNED_POST_FIELDS = ['author', 'publishedAt', 'content'] as const;
export type PinnedField = (typeof PINNED_FIELDS)[number];

export interface PinnedPosts {
  /** One element per post. */
  root: string;
  author?: string;
  publishedAt?: string;
  content?: string;
}

export type PinnedFieldSet = Partial<Record<PinnedField, string>> & { posts?: PinnedPosts };
export type PinnedRule = PinnedFieldSet & { pattern?: string | RegExp };
/** The spider's `fields`: one set for every page, or rules scoped by URL glob. */
export type PinnedFieldsConfig = PinnedFieldSet | PinnedRule[];

/** Key under `ctx.scratch` of what was pinned on the page: field → the element it was read from. */
export const PINNED_SCRATCH = 'gleaner:pinned';
export interface PinnedRecord {
  fields: Partial<Record<PinnedField, { element: Element; selector: string; attr?: string }>>;
  posts?: Array<{ root: Element; fields: Partial<Record<(typeof PINNED_POST_FIELDS)[number], { element: Element; selector: string; attr?: string }>> }>;
}

/** `css@attr` → the CSS and the attribute (an `@` inside the CSS, as in `a[href*="@"]`, stays). */
export function splitSelector(spec: string): { css: string; attr?: string } {
  const m = /^(.*\S)@([A-Za-z_][\w:-]*)$/.exec(spec.trim());
  return m ? { css: m[1]!, attr: m[2]! } : { css: spec.trim() };
}

let probe: ReturnType<typeof import('cheerio').load> | undefined;
/** Why a pinned selector cannot be used (bad CSS), or undefined when it can. */
export function selectorProblem(spec: string): string | undefined {
  const { css } = splitSelector(spec);
  if (!css) return 'empty selector';
  try {
    (probe ??= lazyCheerio()('<p></p>'))(css);
    return undefined;
  } catch (e) {
    return `not a CSS selector (${(e as Error).message})`;
  }
}

interface CompiledRule {
  re?: RegExp;
  set: PinnedFieldSet;
}

function compile(config: PinnedFieldsConfig): CompiledRule[] {
  const rules: PinnedRule[] = Array.isArray(config) ? config : [config];
  return rules.map(({ pattern, ...set }) => ({ re: pattern ? compilePattern(pattern) : undefined, set }));
}

/** The page's text lines (segments) inside `el`, one per block, as `content` is written. */
function linesOf(page: Page, el: Element): string {
  const lines: string[] = [];
  for (const s of page.segments) {
    for (let e: ParentNode | null = s.element; e; e = e.parent) {
      if (e === el) {
        lines.push(s.text);
        break;
      }
    }
  }
  return lines.join('\n');
}

/** The value a selector reads from an element: the attribute, else the text (for `content`, its
 * lines). */
function valueOf(page: Page, el: Element, attr: string | undefined, multiline = false): string | undefined {
  if (attr) return collapse(el.attribs[attr] ?? '') || undefined;
  return (multiline ? linesOf(page, el) || collapse(textOf(el)) : collapse(textOf(el))) || undefined;
}

export interface PinnedOptions {
  fields?: PinnedFieldsConfig;
}

export const pinnedFieldsMiddleware: MiddlewareFactory<PinnedOptions> = (options = {}) => {
  if (!options.fields) throw new NotConfigured('no "fields" in the spider');
  const rules = compile(options.fields);
  const warned = new Set<string>();
  const missed = (ctx: PageContext, field: string, selector: string) => {
    const key = `${ctx.siteKey}\u0000${field}`;
    if (warned.has(key)) return;
    warned.add(key);
    ctx.log.warning(`pinned field "${field}": selector "${selector}" matches nothing on ${ctx.request.url}; the extractor's value is kept (said once for site ${ctx.siteKey})`);
  };
  /** The field's selector from the first rule matching the URL that names it. */
  const pick = <K extends keyof PinnedFieldSet>(url: string, field: K): PinnedFieldSet[K] | undefined => {
    for (const r of rules) if ((!r.re || patternMatches(r.re, url)) && r.set[field] !== undefined) return r.set[field];
    return undefined;
  };
  return {
    name: 'pinned-fields',
    process(ctx) {
      const $ = ctx.page.$();
      const url = ctx.request.url;
      const record: PinnedRecord = { fields: {} };
      const dateOpts = { now: ctx.page.fetchedAt, timezone: ctx.timezone };
      for (const field of PINNED_FIELDS) {
        const spec = pick(url, field);
        if (!spec) continue;
        const { css, attr } = splitSelector(spec);
        const els = $(css).toArray() as Element[];
        const found = els.map((el) => ({ el, v: valueOf(ctx.page, el, attr, field === 'content') })).filter((x) => x.v);
        if (!found.length) {
          missed(ctx, field, spec);
          continue;
        }
        const { el, v } = found[0]!;
        if (field === 'publishedAt') {
          const d = normaliseDateValue(v, dateOpts);
          if (!d) {
            missed(ctx, field, spec);
            continue;
          }
          ctx.item.publishedAt = d.iso;
          ctx.item.publishedAtText = attr ? ctx.item.publishedAtText ?? collapse(textOf(el)) ?? undefined : v;
        } else if (field === 'content') ctx.item.content = found.map((x) => x.v).join('\n');
        else ctx.item[field] = v;
        record.fields[field] = { element: el, selector: spec, ...(attr ? { attr } : {}) };
      }
      const posts = pick(url, 'posts');
      if (posts) pinPosts(ctx, posts, record, dateOpts, missed);
      ctx.scratch[PINNED_SCRATCH] = record;
    },
  };
};

function pinPosts(ctx: PageContext, spec: PinnedPosts, record: PinnedRecord, dateOpts: { now: Date; timezone?: string | undefined }, missed: (ctx: PageContext, field: string, selector: string) => void): void {
  const $ = ctx.page.$();
  const roots = $(spec.root).toArray() as Element[];
  if (!roots.length) {
    missed(ctx, 'posts.root', spec.root);
    return;
  }
  const posts: ForumPost[] = [];
  record.posts = [];
  for (const root of roots) {
    const post: Partial<ForumPost> = {};
    const fields: NonNullable<PinnedRecord['posts']>[number]['fields'] = {};
    for (const f of PINNED_POST_FIELDS) {
      const s = spec[f];
      if (!s) continue;
      const { css, attr } = splitSelector(s);
      const el = ($(root).find(css).toArray() as Element[]).find((e) => valueOf(ctx.page, e, attr));
      if (!el) continue;
      const v = valueOf(ctx.page, el, attr, f === 'content')!;
      if (f === 'publishedAt') {
        const d = normaliseDateValue(v, dateOpts);
        if (!d) continue;
        post.publishedAt = d.iso;
        post.publishedAtText = attr ? collapse(textOf(el)) || undefined : v;
      } else post[f] = v;
      fields[f] = { element: el, selector: s, ...(attr ? { attr } : {}) };
    }
    // A post without its own content selector is the root's text.
    post.content ??= valueOf(ctx.page, root, undefined, true) ?? '';
    posts.push(post as ForumPost);
    record.posts.push({ root, fields });
  }
  for (const f of PINNED_POST_FIELDS) if (spec[f] && !record.posts.some((p) => p.fields[f])) missed(ctx, `posts.${f}`, spec[f]!);
  ctx.item.posts = posts;
  ctx.item.kind = 'forum';
}
