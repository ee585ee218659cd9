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
import { createPage, textOf, langTag, collapse } from '../../src/core/page.js';
import type { MiddlewareFactory, PageContext, SiteState } from '../../src/core/middleware.js';
import { extractArticle } from '../article/index.js';
import type { ForumPost } from '../../src/core/item.js';
import { timezoneForLang } from '../../src/core/dates.js';
import { findAnchors, type DateAnchor } from './dates.js';
import { buildIndex, punctMarks, rangeOf, segSpan, type ThreadIndex } from './dom.js';
import type { PostRecord } from './dom.js';
import { chooseRecords, isLaterPage } from './choose.js';
import { decide, floorModel, score, type FloorModel } from './model.js';
import { bodyCandidates } from './body-features.js';
import { chooseAuthors, chooseDates, chooseFloors, contentLines, contentNodes, cutTemplateSignatures, echoBlocks, SIGNATURE_RULE, inlineBodies, isProfileUrl, linesText, MAX_AUTHOR_LENGTH, nameBeforeDateIn, selfNamedLink, peakContent, type AuthorPick, type FloorLine } from './fields.js';
import { lineCandidates, type LineCandidate } from './line-features.js';
import { describeLayout, FloorLayoutLearner, sameLayout, type FloorLayout } from './layout.js';
import { threadText } from '../../src/core/threads.js';
// A post's own text (content without its quotes) is defined with the item shape: the CSV feeds use it too.
export { ownText } from '../../src/core/item.js';
export { threadText, mergeThreadPages, orderThreadPages, pageNumberOf } from '../../src/core/threads.js';
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
  /** Floor layouts learned on other pages of the site (layout.ts), tried as candidates. */
  layouts?: readonly FloorLayout[];
  /** The floor model (model.ts; default: GLEANER_FLOOR_MODEL's file, else the shipped one); `null`
   * for the rules alone. */
  model?: FloorModel | null;
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

/**
 * The floors of a page, computed once per page and set of options (issue 26 item 1): the page-type
 * classifier's floor signals (signals.ts) and the forum extractor ask the same question of the
 * same page, and share the answer when their options agree (the page's own time zone, no learned
 * layout, the model in use). Held in the page's memo; callers must not change what it returns.
 */
export function extractForumDebug(page: Page, options: ForumOptions = {}): ForumDebug | null {
  const model = options.model === null ? null : (options.model ?? floorModel());
  const timezone = options.timezone ?? timezoneForLang(langTag(page)) ?? 'UTC';
  const keyOf = (layouts: readonly FloorLayout[]) => `forum:floors:${timezone}|${options.now?.getTime() ?? ''}|${layouts.map((l) => l.key).join(',')}`;
  const layouts = options.layouts ?? [];
  // Per model object (the shipped model, a fold model, none): a map inside the page's memo.
  const memoOf = (k: string) => page.memo(k, () => new Map<FloorModel | null | undefined, ForumDebug | null>());
  const byModel = memoOf(keyOf(layouts));
  if (byModel.has(model)) return byModel.get(model)!;
  if (layouts.length) {
    // The floors of the page without the site's layouts, when it already has them (the batch's
    // learning pass, the page-type stage's floor signals): where the page alone chose floors of a
    // learned layout, the layouts have nothing left to settle (layout.ts) — the answer stands and
    // the splitter does not run again.
    const plain = memoOf(keyOf([])).get(model);
    const own = plain ? describeLayout(plain.records) : undefined;
    if (plain && own && layouts.some((l) => sameLayout(l.key, own.key))) {
      byModel.set(model, plain);
      return plain;
    }
  }
  const resolved: ForumOptions = { ...options, timezone, model };
  let r = extractFrom(page, resolved);
  if (!r) {
    const inner = noscriptPage(page);
    r = inner ? extractFrom(inner, resolved) : null;
  }
  byModel.set(model, r);
  return r;
}

/** What the splitter reads a page with: its date anchors and the thread index built on them. */
export interface PageAnalysis {
  anchors: DateAnchor[];
  ix: ThreadIndex;
}

export function analysePage(page: Page, options: Pick<ForumOptions, 'timezone' | 'now'> = {}): PageAnalysis {
  const timezone = options.timezone ?? timezoneForLang(langTag(page)) ?? 'UTC';
  // Once per page and time zone: the floors asked for with and without a learned layout (the
  // batch's learning pass and the extraction, the classifier's signals and the extraction) read
  // the same anchors and index. Callers must not change what it returns.
  return page.memo(`forum:analysis:${timezone}|${options.now?.getTime() ?? ''}`, () => analyse(page, timezone, options.now));
}

function analyse(page: Page, timezone: string, now: Date | undefined): PageAnalysis {
  const dateOptions = { now: now ?? page.fetchedAt, timezone };
  // Join dates of user panels are never post times: they take no part in finding floors.
  const anchors = findAnchors(page, dateOptions).filter((a) => !a.joined);
  // Dated label lines ("Ingo78, 10. April 2020"): their commas are metadata, not sentences.
  const labels = anchors.filter((a) => !a.prose && !a.marked && a.line !== undefined && a.line - a.text.length <= DATE_LABEL_EXTRA);
  const ix = buildIndex(page, new Set(labels.map((a) => a.index)));
  return { anchors, ix };
}

/** Runs of the splitter (the floors' choice and reading) in this process: what the memo saves is
 * counted by tests and benches. */
let runs = 0;
export function splitterRuns(): number {
  return runs;
}

function extractFrom(page: Page, options: ForumOptions): ForumDebug | null {
  runs++;
  const { anchors, ix } = analysePage(page, options);
  const model = options.model ?? undefined;
  const choice = chooseRecords(ix, anchors, options.layouts, model);
  const { records } = choice;
  if (!records.length) return null;
  const { pagination } = choice;

  const posts = readFloors(ix, records, anchors, model);
  // The first floor is the thread's main post only on the thread's first page: the pagination
  // bar's current page says so, else the URL (`?page=2`, `/page-3`), else assume the first page.
  const firstPage = !isLaterPage(page, pagination);
  posts.forEach((p, i) => (p.isMain = p.floor !== undefined ? p.floor === 1 : i === 0 && firstPage));
  // Replies inside floors (comments under an answer, 楼中楼): read as floors of their own, by the
  // same position votes across all of them, then handed back to their floor.
  const replyRecs = records.flatMap((r) => r.replies ?? []);
  if (replyRecs.length) {
    const replies = readFloors(ix, replyRecs, anchors, model);
    let k = 0;
    records.forEach((r, i) => {
      if (!r.replies?.length) return;
      posts[i]!.replies = replies.slice(k, k + r.replies.length).map(({ isMain: _m, floor: _f, ...rest }) => rest);
      k += r.replies.length;
    });
  }
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

/** Whether the segment at a DFS index is the first or the last one of the content elements. */
function isEdgeSegment(ix: ThreadIndex, els: Element[], index: number): boolean {
  const first = rangeOf(ix, els[0]!);
  const last = rangeOf(ix, els[els.length - 1]!);
  const [a] = segSpan(ix, first);
  const [, b] = segSpan(ix, last);
  return b > a && (ix.segments[a]!.index === index || ix.segments[b - 1]!.index === index);
}

/** An edit notice is a short line: a name, a date and the label (60 characters, as
 * WEAK_DATE_MAX_SEGMENT). */
const EDIT_NOTICE_MAX = 60;

/** Author, time, content and floor number of each record, by position consistency across them. */
/** What the rules read of each floor: its content element, date, author, floor number, and the
 * lines of its text (with the line indices to leave out: edit notices, a dated signature line). */
export interface FloorParts {
  content: Array<Element[] | undefined>;
  dates: Array<DateAnchor | undefined>;
  authors: AuthorPick[];
  floors: Array<number | undefined>;
  ruleLines: FloorLine[][];
}

export function floorParts(ix: ThreadIndex, records: PostRecord[], anchors: DateAnchor[], model?: FloorModel): FloorParts {
  let content = inlineBodies(ix, contentNodes(ix, records));
  let dates = chooseDates(ix, records, anchors, content);
  // The body of each floor: the rules' element, or a slot the floor model's body scorer prefers.
  if (model?.bodies) {
    const cands = bodyCandidates(ix, records, content, dates);
    const k = cands.length > 1 ? decide(model.bodies, cands.map((c) => c.f), 0) : 0;
    if (k > 0) {
      content = cands[k]!.nodes;
      dates = chooseDates(ix, records, anchors, content);
    }
  }
  const authors = chooseAuthors(ix, records, content, dates);
  const floors = chooseFloors(ix, records, content);
  // Edit notices ("Last edited by X; 12-08-2011", "本帖最后由 X 于 … 编辑"): short lines whose date
  // is an edit time are not what the post says.
  const notices = new Set<number>();
  for (const a of anchors) if (a.edited && !a.marked && (a.line ?? Infinity) <= EDIT_NOTICE_MAX) notices.add(a.index);
  const ruleLines = records.map((rec, i) => {
    const els = content[i];
    if (!els?.length) return [];
    // The floor's own date line inside the body ("〓 发布时间 2005/03/16 01:08:28 by X 〓") is its
    // signature line, not text: a dated label line.
    const d = dates[i];
    // Only at the body's end or start, where a signature line sits.
    const edge = d !== undefined && isEdgeSegment(ix, els, d.index);
    // …and without a sentence of its own ("路人甲：说得对。 2019-3-1 21:30" is a whole reply).
    const label = d && edge && !d.marked && d.line !== undefined && d.line - d.text.length <= DATE_LABEL_EXTRA && punctMarks(ix, { start: d.index, end: d.index }) === 0;
    const skip = label ? new Set([...notices, d!.index]) : notices;
    return contentLines(ix, els, rec, skip);
  });
  return { content, dates, authors, floors, ruleLines };
}

/** The lines the line scorer keeps: those the rules read unless its probability falls below
 * `drop`, and those they did not read where it rises above `add`. */
function keptLines(ix: ThreadIndex, model: FloorModel, cands: LineCandidate[]): FloorLine[] {
  const s = model.lines!;
  return cands
    .filter((c) => {
      // A drawn rule the rules read is kept: it says nothing, and the signature cuts
      // (cutSignature, cutTemplateSignatures) find the signature under it.
      if (c.rule && SIGNATURE_RULE.test(ix.segments[c.line.k]!.text)) return true;
      const p = 1 / (1 + Math.exp(-score(s, c.f)));
      return c.rule ? p >= (s.drop ?? 0.5) : p > (s.add ?? 0.5);
    })
    .map((c) => c.line);
}

/** Author, time, content and floor number of each record, by position consistency across them;
 * the text's lines by the floor model's line scorer where there is one. */
function readFloors(ix: ThreadIndex, records: PostRecord[], anchors: DateAnchor[], model?: FloorModel): ForumPost[] {
  const { content, dates, authors, floors, ruleLines } = floorParts(ix, records, anchors, model);
  const quoted = new Set<string>();
  const quotes: string[][] = records.map(() => []);
  // (A floor the rules read text in keeps their lines where the scorer would leave it empty.)
  const lines = model?.lines ? lineCandidates(ix, records, content, ruleLines, dates, authors).map((cs, i) => {
    const kept = keptLines(ix, model, cs);
    return kept.length || !ruleLines[i]!.length ? kept : ruleLines[i]!;
  }) : ruleLines;
  // Quotes without quote markup: blocks repeating earlier floors' text under a short header.
  const echoes = echoBlocks(ix, lines, authors.map((a) => a?.name));
  const texts = cutTemplateSignatures(dropBoilerplate(
    records.map((rec, i) => (content[i]?.length ? linesText(ix, lines[i]!, quoted, quotes[i], echoes[i]) : peakContent(ix, rec, dates[i]))),
    quoted,
  ));
  return records.map((rec, i) => {
    const d = dates[i];
    const floor = floors[i];
    let text = texts[i]!;
    // A floor cut from the page by position (no element of its own) starts with its header: the
    // author's name and the date on lines of their own are not what the post says.
    if (!rec.roots.length) text = text.split('\n').filter((l) => l !== authors[i]?.name && l !== d?.text).join('\n');
    // "name: what they said" (a comment stream's line), perhaps behind a short tag ("[热门]name :"):
    // the name is who wrote it, not what.
    const who = authors[i]?.name;
    if (who && text.includes(who)) text = text.replace(new RegExp(`^${LINE_TAG}${who.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s?[:：]\\s*`), '');
    const post: ForumPost = { content: text };
    if (quotes[i]!.length) post.quotes = quotes[i];
    if (floor !== undefined) post.floor = floor;
    if (authors[i]?.name) post.author = authors[i]!.name;
    if (authors[i]?.url) post.authorUrl = authors[i]!.url;
    if (d?.iso) post.publishedAt = d.iso;
    if (d?.text) post.publishedAtText = d.text;
    return post;
  });
}

/** A short bracketed tag before a commenter's name ("[热门]", "【置顶】", "[OP]"). */
const LINE_TAG = '(?:[\\[【［][^\\]】］]{1,8}[\\]】］]\\s*)?';

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
    // (A drawn rule stays for cutTemplateSignatures: what follows it in every floor is a signature.)
    const kept = lines.filter((line) => floorsWith.get(line)! < limit || quoted.has(line) || SIGNATURE_RULE.test(line));
    // A floor that is nothing but the repeated line ("+1" under every post) keeps it.
    return kept.length ? kept.join('\n') : t;
  });
}

/** Lines of a one-post page's text searched for the post's byline (its date line). */
const BYLINE_MAX_LINE = 3;
/** Share of the text the lines above the byline hold at most (a notice, the subject). */
const BYLINE_MAX_BEFORE = 0.25;
/** Closing lines of this many characters at most, each with a clock time, … */
const DATED_ENTRY_MAX = 80;
/** … at least this many in a row, are a list of dated entries under a one-post page's text. */
const DATED_LIST_MIN = 3;
const CLOCK = /(?:^|\D)\d{1,2}:\d{2}(?::\d{2})?(?:\D|$)/;

/**
 * A one-post thread read as an article starts with the post's header: a notice or the subject,
 * then the byline (a short line holding the post's date: "来自: 没猫 2021-10-07 20:59:34"). The
 * post is what follows it; the name the byline opens with is its author.
 */
export function postAfterByline(content: string, dateText: string | undefined): { content: string; name?: string } {
  const lines = content.split('\n');
  // A run of short dated lines closing the text is a list under the post (the thread's reply
  // tree, related threads: "title name 22:19:04 8/25/05 (10)"), not what it says.
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.length <= DATED_ENTRY_MAX && CLOCK.test(lines[end - 1]!)) end--;
  if (end > 0 && lines.length - end >= DATED_LIST_MIN) {
    lines.length = end;
    content = lines.join('\n');
  }
  if (!dateText) return { content };
  const k = lines.findIndex((l) => l.includes(dateText));
  if (k < 0 || k > BYLINE_MAX_LINE || k === lines.length - 1) return { content };
  const line = lines[k]!;
  if (line.length - dateText.length > DATE_LABEL_EXTRA || /[。！？!?]/.test(line)) return { content };
  const before = lines.slice(0, k).join('').length;
  if (before > BYLINE_MAX_BEFORE * content.length) return { content };
  return { content: lines.slice(k + 1).join('\n'), name: nameBeforeDateIn(line, dateText) };
}

/** DFS nodes before a one-post page's date searched for its author's profile link (a user panel
 * beside the post). */
const PROFILE_LINK_REACH = 200;

/** The profile link nearest before the first line showing the post's date: a link to a member
 * page (fields.ts PROFILE_HREF) or one that names itself (`people?u=alice` reading "alice"). */
function profileLinkBefore(page: Page, dateText: string | undefined): { name: string; url: string } | undefined {
  if (!dateText) return undefined;
  const seg = page.segments.find((s) => s.text.includes(dateText));
  if (!seg) return undefined;
  for (let i = seg.index - 1; i >= 0 && i >= seg.index - PROFILE_LINK_REACH; i--) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || n.name !== 'a') continue;
    const url = page.resolve(n.attribs.href);
    const name = collapse(textOf(n));
    if (!url || !name || name.length > MAX_AUTHOR_LENGTH) continue;
    // (A profile link's text must read as a name: "看我还写了啥？" in the same panel does not.)
    const nameLike = name.length >= 2 && name.split(/\s+/).length <= 3 && !/^\d+$/.test(name) && !/[。！？!?：:]/.test(name);
    if (nameLike && (selfNamedLink(name, url, page.url) || isProfileUrl(url))) return { name, url };
  }
  return undefined;
}

/** The page's main text as the thread's only post (the article extractor's content, author and
 * time), for forum pages without floors. */
function singlePost(ctx: PageContext): ForumResult | null {
  const a = extractArticle(ctx.page, { segments: ctx.segments, templateApplied: ctx.templateApplied, anchorText: ctx.request.anchorText, timezone: ctx.timezone });
  if (!a?.content) return null;
  const { content, name } = postAfterByline(a.content, a.publishedAtText);
  const post: ForumPost = { content, isMain: true };
  const link = a.author || name ? undefined : profileLinkBefore(ctx.page, a.publishedAtText);
  const author = a.author ?? name ?? link?.name;
  if (author) post.author = author;
  if (link?.url && author === link.name) post.authorUrl = link.url;
  if (a.publishedAt) post.publishedAt = a.publishedAt;
  if (a.publishedAtText) post.publishedAtText = a.publishedAtText;
  return { title: a.title, posts: [post] };
}

/** Key of the floor layout learner in `ctx.site.data`. */
export const LAYOUT_SITE_KEY = 'forumLayout';

export interface ForumMiddlewareOptions extends ForumOptions {
  /** Learn each site's floor layout from its pages and use it on later pages (default true). */
  learnLayout?: boolean;
}

/** The site's floor layout learner: live in `site.data`, or rebuilt from the JSON stored there
 * by a previous crawl (it serialises itself with `toJSON`). */
export function layoutLearnerOf(site: SiteState): FloorLayoutLearner {
  const v = site.data[LAYOUT_SITE_KEY];
  if (v instanceof FloorLayoutLearner) return v;
  const l = new FloorLayoutLearner(v);
  site.data[LAYOUT_SITE_KEY] = l;
  return l;
}

export const forumMiddleware: MiddlewareFactory<ForumMiddlewareOptions> = (options = {}) => {
  const { learnLayout = true, ...forumOptions } = options;
  /** Pages already counted by the batch pre-pass. */
  const learned = new WeakSet<object>();
  const optionsFor = (ctx: PageContext): ForumOptions => ({ ...forumOptions, timezone: forumOptions.timezone ?? ctx.timezone });
  const isForum = (ctx: PageContext): boolean => (ctx.label ?? ctx.request.label) === 'forum';
  return {
    name: 'forum',
    // `gleaner extract --batch --kind forum`: every page of a site teaches its floor layout before
    // any is extracted (pages typed by the classifier are learned as they are processed).
    learn(ctx) {
      if (!learnLayout || !ctx.site || !isForum(ctx)) return;
      const r = extractForumDebug(ctx.page, optionsFor(ctx));
      layoutLearnerOf(ctx.site).observe(r ? describeLayout(r.records) : undefined);
      ctx.site.touch();
      learned.add(ctx.page);
    },
    // Runs on forum pages only (the `kinds` of its entry in the built-in table).
    process(ctx) {
      // (A context without site state — a test double — learns nothing.)
      const learner = learnLayout && ctx.site ? layoutLearnerOf(ctx.site) : undefined;
      const dbg = extractForumDebug(ctx.page, { ...optionsFor(ctx), layouts: learner?.learned() });
      if (learner && !learned.has(ctx.page)) {
        // Streaming (a crawl): the page teaches the layout after it is extracted.
        learner.observe(dbg ? describeLayout(dbg.records) : undefined);
        ctx.site.touch();
      }
      let r: ForumResult | null = null;
      if (dbg) {
        const { records: _records, ...rest } = dbg;
        r = rest;
      }
      if (!r) {
        // No floors: a thread of one post whose markup repeats nothing (issue 18, class 2), or a
        // layout the splitter does not see. The page's main text is then its one post.
        r = singlePost(ctx);
        if (!r) {
          ctx.log.debug('forum: no posts found', { url: ctx.page.url });
          return;
        }
      }
      // The item's main text (issue 11: every item carries it): the posts in page order.
      const content = threadText(r.posts);
      Object.assign(ctx.item, { kind: 'forum', title: r.title, content: content || undefined, posts: r.posts, nextPage: r.nextPage, pages: r.pages });
    },
  };
};
