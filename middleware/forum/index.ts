/**
 * Forum threads: split a thread page into floors (main post and replies) and read each floor's
 * author, time and content (seeds 000 and 003; sources §3–4).
 *
 * Crawl output: **one item per thread page**. A thread of N pages gives N items of kind `forum`,
 * each with the floors of that page, its `nextPage` and the thread's numbered `pages`; the follow
 * middleware queues those (label `forum`), so the crawl walks the whole thread. Items of one
 * thread share the thread `title`; consumers merge them by title/URL if they want one thread
 * record. One item per page keeps a crawl streaming (no page waits for another) and a failed page
 * costs only its own floors.
 *
 * Stages (each in its own module):
 *  1. dates.ts      — date anchors (footer clocks dropped first).
 *  2. records.ts    — floors: repeated sibling structures holding dates, id clustering, periodic
 *                     rows, differential peak clustering as the fallback.
 *  3. fields.ts     — per floor, by position consistency across floors: content (punctuation),
 *                     date, author (+ profile URL), floor number.
 *  4. ../pagination — next page and numbered pages of the thread (shared with lists).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element } from 'domhandler';
import render from 'dom-serializer';
import type { Page } from '../../src/core/page.js';
import { createPage, textOf, langTag } from '../../src/core/page.js';
import type { MiddlewareFactory } from '../../src/core/middleware.js';
import type { ForumPost } from '../../src/core/item.js';
import { timezoneForLang } from '../../src/core/dates.js';
import { findAnchors } from './dates.js';
import { buildIndex } from './dom.js';
import { findRecords, type PostRecord } from './records.js';
import { chooseAuthors, chooseDates, chooseFloors, contentNodes, contentText, peakContent } from './fields.js';
import { findPagination, laterPageInUrl } from '../pagination/index.js';
import { threadTitle } from './title.js';

export interface ForumResult {
  title?: string;
  posts: ForumPost[];
  nextPage?: string;
  pages?: string[];
}

export interface ForumOptions {
  /** IANA zone for displayed times without an offset (default: the page language's, else UTC). */
  timezone?: string;
  /** Reference time for relative dates ("3小时前", "yesterday"); default `page.fetchedAt`. */
  now?: Date;
}

/** Internal view for tests and the bench: the floors as found, before field extraction. */
export interface ForumDebug extends ForumResult {
  records: PostRecord[];
}

/**
 * Floors of a thread page, or null when the page has no posts (no dated repeated structure and
 * no single dated post with text).
 * @example
 *   const page = createPage({ url, body: html });
 *   extractForum(page)?.posts.map((p) => [p.floor, p.author, p.publishedAt]);
 */
export function extractForum(page: Page, options: ForumOptions = {}): ForumResult | null {
  const r = extractForumDebug(page, options);
  if (!r) return null;
  const { records: _records, ...result } = r;
  return result;
}

/** A dated line is a label (a name and a date) when, besides the date, it holds at most this many
 * characters; a longer line is a sentence that happens to start with a date. */
export const DATE_LABEL_EXTRA = 30;

/** A `<noscript>` holding at least this much text is a server-rendered copy of the page for
 * clients without script (Discourse's crawler view), not a tracking pixel. */
export const NOSCRIPT_MIN_TEXT = 200;

/**
 * Thread pages rendered by script keep a complete server-rendered view inside `<noscript>`
 * (Discourse). The page model skips `<noscript>` text (it is hidden when script runs), so when
 * the visible page has no posts, the largest such block is read as a page of its own.
 */
function noscriptPage(page: Page): Page | undefined {
  let best: Element | undefined;
  let bestLen = NOSCRIPT_MIN_TEXT - 1;
  for (const n of page.nodes) {
    if (!(n instanceof Element) || n.name !== 'noscript') continue;
    const len = textOf(n).replace(/\s+/g, ' ').length;
    if (len > bestLen) [best, bestLen] = [n, len];
  }
  if (!best) return undefined;
  const html = `<html><head><title>${escapeHtml(page.title)}</title></head><body>${render(best.children, { encodeEntities: 'utf8' })}</body></html>`;
  return createPage({ url: page.url, body: html, fetchedAt: page.fetchedAt });
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

export function extractForumDebug(page: Page, options: ForumOptions = {}): ForumDebug | null {
  const r = extractFrom(page, options);
  if (r) return r;
  const inner = noscriptPage(page);
  return inner ? extractFrom(inner, { ...options, timezone: options.timezone ?? timezoneForLang(langTag(page)) }) : null;
}

function extractFrom(page: Page, options: ForumOptions): ForumDebug | null {
  const timezone = options.timezone ?? timezoneForLang(langTag(page)) ?? 'UTC';
  const dateOptions = { now: options.now ?? page.fetchedAt, timezone };
  // Join dates of user panels are never post times: they take no part in finding floors.
  const anchors = findAnchors(page, dateOptions).filter((a) => !a.joined);
  // Dated label lines ("Ingo78, 10. April 2020"): their commas are metadata, not sentences.
  const labels = anchors.filter((a) => !a.prose && !a.marked && a.line !== undefined && a.line - a.text.length <= DATE_LABEL_EXTRA);
  const ix = buildIndex(page, new Set(labels.map((a) => a.index)));
  const records = findRecords(ix, anchors);
  if (!records.length) return null;

  const content = contentNodes(ix, records);
  const dates = chooseDates(ix, records, anchors, content);
  const authors = chooseAuthors(ix, records, content);
  const floors = chooseFloors(ix, records, content);
  const pagination = findPagination(page, { exclude: records.map((r) => r.range) });
  // The first floor is the thread's main post only on the thread's first page: the pagination
  // bar's current page says so, else the URL (`?page=2`, `/page-3`), else assume the first page.
  const firstPage = pagination.current !== undefined ? pagination.current === 1 : laterPageInUrl(page.url) !== true;

  const quoted = new Set<string>();
  const texts = dropBoilerplate(
    records.map((rec, i) => {
      const els = content[i];
      return els && els.length ? contentText(ix, els, quoted) : peakContent(ix, rec, dates[i]);
    }),
    quoted,
  );
  const posts: ForumPost[] = records.map((_rec, i) => {
    const text = texts[i]!;
    const d = dates[i];
    const floor = floors[i];
    const isMain = floor !== undefined ? floor === 1 : i === 0 && firstPage;
    const post: ForumPost = { content: text, isMain };
    if (floor !== undefined) post.floor = floor;
    if (authors[i]?.name) post.author = authors[i]!.name;
    if (authors[i]?.url) post.authorUrl = authors[i]!.url;
    if (d?.iso) post.publishedAt = d.iso;
    if (d?.text) post.publishedAtText = d.text;
    return post;
  });
  // A "thread" whose floors hold no text at all is not one (a dated link list).
  if (!posts.some((p) => p.content.trim())) return null;
  return {
    title: threadTitle(page, records[0]!.range.start),
    posts,
    nextPage: pagination.nextPage,
    pages: pagination.pages,
    records,
  };
}

/** A line repeated in at least this share of the floors (and in BOILERPLATE_MIN_FLOORS) is part of
 * the template inside every post ("Share this post"), not content. High, because UI text inside
 * the body that only some floors show ("Click to expand..." under quotes) belongs to the post as
 * displayed. */
export const BOILERPLATE_SHARE = 0.9;
const BOILERPLATE_MIN_FLOORS = 3;

function dropBoilerplate(texts: string[], quoted: Set<string>): string[] {
  if (texts.length < BOILERPLATE_MIN_FLOORS) return texts;
  const floorsWith = new Map<string, number>();
  for (const t of texts) for (const line of new Set(t.split('\n'))) floorsWith.set(line, (floorsWith.get(line) ?? 0) + 1);
  const limit = Math.max(BOILERPLATE_MIN_FLOORS, BOILERPLATE_SHARE * texts.length);
  return texts.map((t) => {
    const lines = t.split('\n');
    const kept = lines.filter((line) => floorsWith.get(line)! < limit || quoted.has(line));
    // A floor that is nothing but the repeated line ("+1" under every post) keeps it.
    return kept.length ? kept.join('\n') : t;
  });
}

export const forumMiddleware: MiddlewareFactory<ForumOptions> = (options = {}) => ({
  name: 'forum',
  // Runs on forum pages only (the `kinds` of its entry in the built-in table).
  process(ctx) {
    const r = extractForum(ctx.page, { ...options, timezone: options.timezone ?? ctx.timezone });
    if (!r) {
      ctx.log.debug('forum: no posts found', { url: ctx.page.url });
      return;
    }
    Object.assign(ctx.item, { kind: 'forum', title: r.title, posts: r.posts, nextPage: r.nextPage, pages: r.pages });
  },
});
