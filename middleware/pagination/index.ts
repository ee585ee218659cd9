/**
 * Pagination (issue 10 item 3): the next-page link and the numbered page links of a list page or a
 * forum thread — one module for both, so a fix to one reaches the other.
 *
 * Evidence, strongest first: `rel=next`; a link text (or a short aria-label/title) that says
 * "next" in some language, or a lone forward arrow; an icon link without words whose classes or
 * icon draw a forward arrow (issue 12); a class/id saying next; the link numbered current+1 in
 * the pager (numbers rising in page order, the current one shown without a link); a URL
 * equal to the page URL except for one number that is one step further. "Next" means the next
 * page of the sequence (page N+1): on blogs that is "Older posts", not "Newer posts".
 *
 * Calendars (next month, next day …) are never pagination: following them never ends.
 */
import { Element, Text } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { anchorText, collapse } from '../../src/core/page.js';
import { type PageIndex, type Range, pageIndex } from '../../src/core/page-index.js';
import { urlPagePosition } from '../../src/core/threads.js';
import { urlParts } from '../../src/core/url.js';

/** "Next" in the languages we see (exact match after trimming arrows and punctuation). */
const NEXT_WORDS = new Set([
  'next', 'next page', 'next »', 'next posts', 'next entries', 'next results', 'next articles', 'older', 'older posts',
  'older entries', 'older articles', 'older stories', 'more posts', 'more articles', 'more stories', 'load more',
  'more results', 'continued', 'continued on next page',
  '下一页', '下一頁', '下页', '下頁', '后页', '後頁', '下一页»',
  '次へ', '次のページ', '次のページへ', '次の記事', '次', '다음', '다음 페이지',
  'weiter', 'nächste', 'nächste seite', 'vorwärts', 'ältere beiträge', 'ältere einträge',
  'suivant', 'suivante', 'page suivante', 'articles plus anciens',
  'siguiente', 'siguientes', 'página siguiente', 'entradas anteriores',
  'successivo', 'successiva', 'avanti', 'pagina successiva', 'articoli meno recenti',
  'próximo', 'próxima', 'seguinte', 'próxima página', 'posts mais antigos',
  'volgende', 'volgende pagina', 'ouder', 'oudere berichten',
  'следующая', 'следующая страница', 'далее', 'вперед', 'вперёд', 'дальше',
  'następna', 'następne', 'następna strona', 'dalej', 'další', 'nästa', 'næste', 'neste', 'seuraava', 'sonraki',
  'ileri', 'tiếp', 'tiếp theo', 'berikutnya', 'selanjutnya', 'επόμενη', 'הבא', 'التالي', 'अगला',
]);
/** "Previous", "first", "last": never the next page. */
const NOT_NEXT_WORDS = new Set([
  'prev', 'previous', 'previous page', 'newer', 'newer posts', 'newer entries', 'first', 'last', 'last page', 'first page',
  '上一页', '上一頁', '上页', '首页', '尾页', '末页', '最后一页', '前へ', '前のページ', '最初', '最後', '이전',
  'zurück', 'vorherige', 'erste', 'letzte', 'précédent', 'précédente', 'première', 'dernière', 'anterior', 'primera',
  'última', 'ultima', 'precedente', 'vorige', 'eerste', 'laatste', 'предыдущая', 'назад', 'первая', 'последняя',
  'poprzednia', 'poprzednie', 'pierwsza', 'ostatnia', 'předchozí',
]);
/** Article-to-article links ("next article"): a detail page's neighbour, not pagination. */
const NOT_PAGINATION = /^(下一篇|上一篇|next (article|post|story)|previous (article|post|story))/;
/** Lone forward arrows (a lone `»` is the commonest next link; `»»`/`>>|` mean "last"). */
const FORWARD_ARROWS = new Set(['›', '»', '>', '→', '⟩', '❯', '▶', '►', '⇒', '〉', '>>', '≫', '⟶']);
const BACKWARD_ARROWS = /^[‹«<←⟨❮◀◄〈≪]+|[‹«<←⟨❮◀◄〈≪]+$/;
/** "Next" followed by a page noun or a count ("Next 10", "next page ›"); not a title that starts
 * with the word ("Next Year 2016"). */
const NEXT_PHRASE = /^(?:next|older)\s*(?:page|pages|\d{1,3}|results?|entries|posts|articles|stories|items|threads|topics)?$/;
/** The same with a count in Japanese and Chinese result pagers: 次の20件, 次の10ページ, 下20条. */
const NEXT_COUNT_PHRASE = /^(?:次の?|下)\s*\d{1,3}\s*(?:件|ページ|条|條|页|頁)$/;
const LAST_MARK = /»»|>>\||>\||⇥|⏭/;
/** Decoration stripped before matching link words. */
const DECOR = /^[\s‹«<←⟨❮◀◄〈≪›»>→⟩❯▶►⇒〉≫⟶|.:·•\-–—\[\](){}]+|[\s‹«<←⟨❮◀◄〈≪›»>→⟩❯▶►⇒〉≫⟶|.:·•\-–—\[\](){}]+$/g;
const NEXT_CLASS = /(?:^|[-_\s])(?:next|nextpage|next-page|pagenext|nextlink|pager-next|pagination-next|next_page|older|nav-previous)(?:[-_\s]|$)/i;
const PREV_CLASS = /(?:^|[-_\s])(?:prev|previous|prevpage|pagination-prev|newer|nav-next|first|last|disabled)(?:[-_\s]|$)/i;
const CALENDAR_HINT = /calendar|(?:^|[-_\s])cal(?:[-_\s]|$)|datepicker/i;
const PAGER_HINT = /pag(?:e|er|es|ing|ination|inator|enav|elist|enumbers?)|(?:^|[-_\s])(?:pages|pgs|pagelink)(?:[-_\s]|$)|wp-pagenavi|page-numbers/i;
/** Weight of the pager's number after the current one when the pager shows the current page: with
 * being in the pager (+1) it reaches NEXT_MIN_SCORE alone, whatever the URLs say (cursor URLs
 * carry no page number). */
const SHOWN_FOLLOWING_WEIGHT = 4;
/** Minimal evidence for a next link (see the weights in `scoreNext`): a rel=next, a next word,
 * a next class, or an arrow/number combined with the pager or the URL step. */
export const NEXT_MIN_SCORE = 5;
/** An icon drawn as a forward arrow or named "next": a next word's weight minus one (an icon is
 * reused more loosely than a word: carousels, "scroll right"), so it needs one more hint (the
 * pager, the URL step) to beat a labelled link. */
const ICON_NEXT_WEIGHT = 5;
/** Ancestors searched for class hints, calendars and pagers. */
const HINT_LEVELS = 4;
/**
 * Icon links (issue 12: prev/next drawn as icons, no text): the direction read from the words of
 * the link's aria-label, title, class and id and those of the elements inside it (`<i class="fa
 * fa-angle-right">`, `<svg class="icon-chevron-right">`, an icon font's ligature text
 * `arrow_forward`). Words split at `-`, `_`, spaces and lower→upper case changes.
 */
const ICON_FORWARD_WORDS = new Set(['next', 'older', 'forward', 'forwards', 'nextpage', 'pagenext']);
const ICON_BACKWARD_WORDS = new Set(['prev', 'previous', 'newer', 'back', 'backward', 'backwards', 'prevpage', 'pageprev']);
/** "right"/"left" say a direction only beside a word that draws an arrow. */
const ICON_SHAPE_WORDS = new Set(['arrow', 'arrows', 'angle', 'chevron', 'caret', 'triangle', 'navigate', 'double']);
/** Words of an end link ("last page", "skip to end"): never the next page. */
const ICON_END_WORDS = new Set(['last', 'first', 'end', 'start', 'double', 'skip']);
/** Words in an aria-label or title that names an icon ("next page", "older posts"), at most. */
const ICON_LABEL_MAX_WORDS = 3;
/** Elements inside a link searched for icon words, at most (a link wrapping a card is no icon). */
const ICON_MAX_ELEMENTS = 6;

function iconWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** +1 forward, -1 backward, 0 no direction; 'end' for first/last links drawn as double arrows. */
function iconDirection(words: string[]): 1 | -1 | 0 | 'end' {
  const set = new Set(words);
  let dir: 1 | -1 | 0 = 0;
  if (words.some((w) => ICON_FORWARD_WORDS.has(w))) dir = 1;
  else if (words.some((w) => ICON_BACKWARD_WORDS.has(w))) dir = -1;
  else if (words.some((w) => ICON_SHAPE_WORDS.has(w))) dir = set.has('right') ? 1 : set.has('left') ? -1 : 0;
  if (dir !== 0 && words.some((w) => ICON_END_WORDS.has(w))) return 'end';
  return dir;
}

/** Words of a link's own attributes and of the (few) elements inside it. */
function linkIconWords(el: Element): string[] {
  // a label of a few words names the icon; a longer one describes the target ("Next level …")
  const short = (v: string | undefined) => (v && iconWords(v).length <= ICON_LABEL_MAX_WORDS ? v : '');
  const parts = [short(el.attribs['aria-label']), short(el.attribs.title), el.attribs.class ?? '', el.attribs.id ?? ''];
  const stack = [...el.children];
  let seen = 0;
  while (stack.length && seen < ICON_MAX_ELEMENTS) {
    const c = stack.pop()!;
    if (c instanceof Element) {
      seen++;
      parts.push(c.attribs.class ?? '', short(c.attribs['aria-label']), c.name === 'use' ? (c.attribs.href ?? c.attribs['xlink:href'] ?? '') : '');
      stack.push(...c.children);
    }
  }
  return iconWords(parts.join(' '));
}

/** Page numbers written as text: up to 5 digits (beyond that it is an id). */
const PAGE_NUMBER = /^\d{1,5}$/;

export interface Pagination {
  nextPage?: string;
  /** Numbered page links (other than this page), in page order as they appear. */
  pages?: string[];
  /** The current page number, when the pager shows it. */
  current?: number;
}

export interface PaginationOptions {
  /** DFS ranges whose links are content, not pagination (a thread's posts: a number linked in a
   * post is a quote or a footnote), sorted by start, disjoint. */
  exclude?: Range[];
}

/** Whether i lies in one of the ranges (sorted by start, disjoint): binary search. */
function inRanges(i: number, ranges: Range[]): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (i < r.start) hi = mid - 1;
    else if (i > r.end) lo = mid + 1;
    else return true;
  }
  return false;
}


interface Candidate {
  index: number;
  url: string;
  text: string;
  score: number;
}

function sameHost(a: string, b: string): boolean {
  const ha = urlParts(a)?.hostname.replace(/^www\./, '');
  const hb = urlParts(b)?.hostname.replace(/^www\./, '');
  if (ha === undefined || hb === undefined) return false;
  return ha === hb || ha.endsWith('.' + hb) || hb.endsWith('.' + ha);
}

function normUrl(u: string): string {
  return u.replace(/#.*$/, '').replace(/\/$/, '');
}

/** The numbers in a URL with their positions, for the "one number one step further" test. */
function urlNumbers(u: string): { prefix: string[]; nums: number[] } {
  const prefix: string[] = [];
  const nums: number[] = [];
  const re = /\d+/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(u))) {
    prefix.push(u.slice(last, m.index));
    nums.push(Number(m[0]));
    last = m.index + m[0].length;
  }
  prefix.push(u.slice(last));
  return { prefix, nums };
}

/** Step from the page URL to a link URL: +1/-1 (or one consistent stride) when exactly one
 * number differs; 'added' when the link only adds a page parameter/segment (page 1 → 2). */
export function urlStep(pageUrl: string, linkUrl: string): number | 'added' | undefined {
  const a = urlNumbers(normUrl(pageUrl));
  const b = urlNumbers(normUrl(linkUrl));
  if (a.prefix.length === b.prefix.length && a.prefix.every((p, i) => p === b.prefix[i])) {
    let diff: number | undefined;
    for (let i = 0; i < a.nums.length; i++) {
      if (a.nums[i] !== b.nums[i]) {
        if (diff !== undefined) return undefined;
        diff = b.nums[i]! - a.nums[i]!;
      }
    }
    return diff;
  }
  // page 1 often has no page number: /news → /news/page/2, /list.html → /list_2.html, ?x → ?x&page=2
  if (b.nums.length === a.nums.length + 1) {
    const pn = normUrl(pageUrl);
    const ln = normUrl(linkUrl);
    const added = /(?:[?&](?:page|p|pg|paged|pagina|seite|start|offset|pn|pageno|pagenum|page_no|currentpage)=|\/page\/|\/page|\/p|[_-])(\d{1,4})(?=$|[/&.?])/i.exec(ln);
    if (added && Number(added[1]) <= 2) {
      const without = ln.slice(0, added.index) + ln.slice(added.index + added[0].length);
      const base = pn.replace(/\.(html?|php|aspx?)$/, '');
      if (without.replace(/\.(html?|php|aspx?)$/, '').replace(/[?&]$/, '') === base.replace(/[?&]$/, '')) return 'added';
    }
  }
  return undefined;
}

function hintOf(el: Element): string {
  return `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
}

/** Numeric text of a node subtree if it is a lone page number. */
function pageNumberText(text: string): number | undefined {
  const t = text.replace(DECOR, '').trim();
  return PAGE_NUMBER.test(t) ? Number(t) : undefined;
}

/**
 * The current page number shown by a pager: a lone number in the pager that is not a link (or a
 * link marked current/active/aria-current).
 */
function currentPageNumber(dom: PageIndex, pager: number): number | undefined {
  const nodes = dom.page.nodes;
  const e = dom.end[pager]!;
  for (let k = pager + 1; k <= e; k++) {
    const n = nodes[k];
    if (n instanceof Text && !dom.inAnchor[k]) {
      const v = pageNumberText(n.data);
      if (v !== undefined) return v;
    } else if (n instanceof Element && (n.name === 'a' || n.name === 'li' || n.name === 'span')) {
      const cls = hintOf(n);
      if (/(?:^|[-_\s])(?:current|active|selected|on|cur|thispage)(?:[-_\s]|$)/i.test(cls) || n.attribs['aria-current']) {
        const v = pageNumberText(collapse(n.children.map((c) => (c instanceof Text ? c.data : c instanceof Element ? anchorText(c) : '')).join('')));
        if (v !== undefined) return v;
      }
    }
  }
  return undefined;
}

/** Find `<link rel=next>` in the head (head content is not numbered in page.nodes). */
function headRelNext(page: Page): string | undefined {
  const stack = [...page.document.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    if (n.name === 'link' && /(?:^|\s)next(?:\s|$)/i.test(n.attribs.rel ?? '')) return page.resolve(n.attribs.href);
    if (n.name === 'body') continue;
    if (n.name === 'html' || n.name === 'head') stack.push(...n.children);
  }
  return undefined;
}

/** Elements that show the current page's number without a link (`<strong>3</strong>`,
 * `<span class="current">3</span>`). */
const CURRENT_TAGS = new Set(['strong', 'b', 'span', 'em']);
const CURRENT_HINT = /(?:^|[-_\s])(?:current|active|selected|on|cur|thispage)(?:[-_\s]|$)/i;
/** Levels above a numbered item searched for its pager container. */
const PAGER_LEVELS = 3;

/**
 * Pager containers, best first: containers holding at least two numbered links, or one numbered
 * link next to the current page's number (a two-page thread: "1 [2]"), whose numbers rise in page
 * order (a column of vote counts or reply counts does not), outside calendars. A container whose
 * class says pager comes first, then the deepest.
 */
function findPagers(dom: PageIndex, numbered: Array<{ index: number; num: number }>, shown: Array<{ index: number; num: number }>): number[] {
  const items = new Map<number, Array<{ index: number; num: number; link: boolean }>>();
  const vote = (x: { index: number; num: number }, link: boolean) => {
    for (let k = dom.parent[x.index]!, lvl = 0; k >= 0 && lvl < PAGER_LEVELS; k = dom.parent[k]!, lvl++) {
      let arr = items.get(k);
      if (!arr) items.set(k, (arr = []));
      arr.push({ index: x.index, num: x.num, link });
    }
  };
  for (const x of numbered) vote(x, true);
  for (const x of shown) vote(x, false);
  const calendar = (k: number) => {
    for (let j = k, lvl = 0; j >= 0 && lvl <= HINT_LEVELS; j = dom.parent[j]!, lvl++) if (CALENDAR_HINT.test(hintOf(dom.page.nodes[j] as Element))) return true;
    return false;
  };
  const qualifies = (arr: Array<{ index: number; num: number; link: boolean }>) => {
    const links = arr.filter((x) => x.link);
    if (links.length < 2) {
      if (links.length !== 1) return false;
      const cur = arr.find((x) => !x.link);
      if (!cur || Math.abs(cur.num - links[0]!.num) !== 1) return false;
    }
    const sorted = [...arr].sort((a, b) => a.index - b.index);
    for (let i = 1; i < sorted.length; i++) if (sorted[i]!.num <= sorted[i - 1]!.num) return false;
    return true;
  };
  const found: Array<{ k: number; links: number; hint: boolean }> = [];
  for (const [k, arr] of items) {
    if (!qualifies(arr) || calendar(k)) continue;
    found.push({ k, links: arr.filter((x) => x.link).length, hint: PAGER_HINT.test(hintOf(dom.page.nodes[k] as Element)) });
  }
  // a container that says it is a pager first, then the deepest, then the one with more links
  found.sort((a, b) => (a.hint !== b.hint ? (a.hint ? -1 : 1) : dom.depth[b.k]! - dom.depth[a.k]! || b.links - a.links || a.k - b.k));
  return found.map((f) => f.k);
}

export function findPagination(page: Page, options: PaginationOptions = {}): Pagination {
  const dom = pageIndex(page);
  const exclude = options.exclude ?? [];
  const nodes = page.nodes;
  const pageUrl = normUrl(page.url);
  const cands: Candidate[] = [];
  // Pager containers: parents/grandparents of links whose text is a page number, and of the
  // current page's number (a link to this page, or a number shown without a link).
  const numbered: Array<{ index: number; num: number; url: string }> = [];
  const shown: Array<{ index: number; num: number }> = [];
  for (const a of dom.anchors) {
    if (exclude.length && inRanges(a, exclude)) continue;
    const el = nodes[a] as Element;
    const url = page.resolve(el.attribs.href);
    if (!url || !sameHost(url, page.url)) continue;
    const text = anchorText(el);
    const num = text.length <= 7 ? pageNumberText(text) : undefined;
    if (normUrl(url) === pageUrl) {
      if (num !== undefined) shown.push({ index: a, num });
      continue;
    }
    if (num !== undefined) numbered.push({ index: a, num, url });
    cands.push({ index: a, url, text, score: 0 });
  }
  for (let k = 0; k < dom.size; k++) {
    const n = nodes[k];
    if (!(n instanceof Text) || dom.inAnchor[k] || dom.textLen[k]! === 0 || dom.textLen[k]! > 7) continue;
    if (exclude.length && inRanges(k, exclude)) continue;
    const p = n.parent;
    if (!(p instanceof Element) || !(CURRENT_TAGS.has(p.name) || CURRENT_HINT.test(hintOf(p)) || p.attribs['aria-current'])) continue;
    const num = pageNumberText(n.data);
    if (num !== undefined) shown.push({ index: k, num });
  }
  const pagers = findPagers(dom, numbered, shown);
  let pager = pagers[0] ?? -1;  const inPager = (i: number) => pager >= 0 && i >= pager && i <= dom.end[pager]!;
  const current = pager >= 0 ? currentPageNumber(dom, pager) : undefined;
  const currentFromUrl = (() => {
    const m = /(?:[?&](?:page|p|pg|paged|pagina|seite|pn|pageno|pagenum|page_no|currentpage)=|\/page\/|\/page|\/p)(\d{1,5})(?=$|[/&.?#])/i.exec(page.url);
    return m ? Number(m[1]) : undefined;
  })();
  const cur = current ?? currentFromUrl ?? 1;

  // URL of the link numbered current+1 in the pager: a forward link to the same URL is confirmed.
  const following = numbered.find((n) => n.num === cur + 1 && inPager(n.index))?.url;
  for (const c of cands) {
    const el = nodes[c.index] as Element;
    const raw = c.text.toLowerCase();
    const word = raw.replace(DECOR, '').trim();
    const label = collapse(`${el.attribs['aria-label'] ?? ''} ${el.attribs.title ?? ''}`.replace(/[-_]+/g, ' ')).toLowerCase().replace(DECOR, '');
    let s = 0;
    let calendar = false;
    let hints = '';
    for (let k = c.index, lvl = 0; k >= 0 && lvl <= HINT_LEVELS; k = dom.parent[k]!, lvl++) {
      const n = nodes[k] as Element;
      const h = hintOf(n);
      if (CALENDAR_HINT.test(h)) calendar = true;
      if (lvl <= 1) hints += ' ' + h;
    }
    if (calendar) continue;
    if (NOT_PAGINATION.test(word) || NOT_PAGINATION.test(label)) continue;
    if (/(?:^|\s)next(?:\s|$)/i.test(el.attribs.rel ?? '')) s += 10;
    if (/(?:^|\s)prev(?:ious)?(?:\s|$)/i.test(el.attribs.rel ?? '')) s -= 10;
    const nextWord = NEXT_WORDS.has(word) || NEXT_WORDS.has(label) || NEXT_PHRASE.test(word) || NEXT_COUNT_PHRASE.test(word);
    if (nextWord) s += 6;
    if (NOT_NEXT_WORDS.has(word) || NOT_NEXT_WORDS.has(label) || /^(prev|newer|上一|前の)/.test(word)) s -= 8;
    const arrow = raw.replace(/\s+/g, '');
    if (FORWARD_ARROWS.has(arrow)) s += 3;
    // an icon link (no words of its own, or an icon font's ligature): the icon's direction
    const ligature = /^[a-z_]+$/.test(word) && word.includes('_') ? iconWords(word) : undefined;
    if (!word || ligature) {
      const dir = iconDirection([...linkIconWords(el), ...(ligature ?? [])]);
      if (dir === 1) s += ICON_NEXT_WEIGHT;
      else if (dir === -1) s -= ICON_NEXT_WEIGHT;
      else if (dir === 'end') s -= 4;
    }
    if (LAST_MARK.test(raw) || BACKWARD_ARROWS.test(raw.trim())) s -= 4;
    // A next class on a link whose text says something else ("Show all") is a styling reuse.
    const arrowOnly = FORWARD_ARROWS.has(raw.replace(/\s+/g, '')) || !word;
    if (NEXT_CLASS.test(hints)) s += nextWord || arrowOnly ? 5 : 2;
    if (PREV_CLASS.test(hints)) s -= 3;
    const step = urlStep(page.url, c.url);
    if (step === 1 || step === 'added') s += 3;
    else if (typeof step === 'number' && step > 1 && step <= 100 && inPager(c.index)) s += 1; // offset strides (start=10)
    else if (typeof step === 'number' && step < 0) s -= 3;
    const num = pageNumberText(c.text);
    // the number after the current one in the pager: the next page of a numbered pager without a
    // "next" link (issue 23), surely so when the pager shows which page this is (not guessed from
    // the URL or taken as page 1)
    if (num !== undefined && num === cur + 1 && inPager(c.index)) s += current !== undefined ? SHOWN_FOLLOWING_WEIGHT : 3;
    if (inPager(c.index) || PAGER_HINT.test(hints)) s += 1;
    if (following && c.url === following && num === undefined) s += 2;
    c.score = s;
  }
  let best: Candidate | undefined;
  for (const c of cands) if (c.score >= NEXT_MIN_SCORE && (!best || c.score > best.score)) best = c;
  let nextPage = best?.url;
  if (!nextPage) {
    const rel = headRelNext(page);
    if (rel && normUrl(rel) !== pageUrl) nextPage = rel;
  }
  // The numbered pages come from the pager that holds the next link when one does (a thread page
  // shows its own pager and its board's).
  if (best && !inPager(best.index)) {
    const holder = pagers.find((k) => best!.index >= k && best!.index <= dom.end[k]!);
    if (holder !== undefined) pager = holder;
  }
  const pages: string[] = [];
  const seen = new Set<string>([pageUrl]);
  for (const n of numbered) {
    if (!inPager(n.index) || seen.has(normUrl(n.url))) continue;
    seen.add(normUrl(n.url));
    pages.push(n.url.replace(/#.*$/, ''));
  }
  // a pager's links often jump to the list's column (`/page/2/#content-inner`): the page is the URL
  // without its fragment
  if (nextPage) nextPage = nextPage.replace(/#.*$/, '');
  return { nextPage, pages: pages.length ? pages : undefined, current };
}

/**
 * Whether a URL names a later page (`?page=3`, `&pn=2`, `&start=20`, `/page-2`, `/page/2`);
 * undefined when the URL does not say (a `-3.html` suffix is too weak a sign here).
 */
export function laterPageInUrl(url: string): boolean | undefined {
  const at = urlPagePosition(url);
  if (!at || at.by === 'suffix') return undefined;
  return at.by === 'offset' ? at.n > 0 : at.n > 1;
}
