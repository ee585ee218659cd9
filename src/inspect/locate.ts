/**
 * Provenance by locating (issue 27): where in the page each field of an item came from.
 *
 * The extractors return values, not nodes (they are being reworked on their own schedule, and a
 * value may be assembled from several nodes), so this is a *locate step* run after extraction:
 * for each field, the smallest element whose text (or, for `<meta>`/`<time>`, whose
 * `content`/`datetime`) holds the value, chosen the way the extractor reads the page:
 *   - title: a heading first (h1–h3), then any element of the body, then og:title / `<title>`;
 *   - author, dates: an element of the body, then a `<meta>`; author cues (class/rel/itemprop
 *     with "author", "byline", "user", "name") break ties, else the first in document order;
 *   - posts, in order: each post's author and its first line of text are searched from where the
 *     previous post's were found, so floor k points into floor k's block, not floor 1's; a post's
 *     root is the smallest element holding both;
 *   - list entries and the next page: the first `<a href>` resolving to the URL, in order.
 * Values are compared with white space removed (an extractor joins inline pieces with a space
 * the page does not have: `LV. 14` from `LV.<b>14</b>`). Each value is located in the page's tree
 * (its DFS number) and in the HTML standard's tree of the same HTML (its selector, which resolves
 * in a browser): src/inspect/tree.ts. A value found only inside a `<noscript>` (JavaScript forums
 * render their posts there for crawlers) gets the selector of the scripting-off tree, marked
 * `noscript: true`.
 * A field whose value cannot be found gets no entry (it is omitted, never guessed). Pinned fields
 * (src/inspect/pinned.ts) know their element and record it directly (`source: "pinned"`).
 */
import type { AnyNode, Element, Text } from 'domhandler';
import { collapse, type Page } from '../core/page.js';
import { hasNoscriptElements, isElement, isTextNode, pageTree, scriptingOffTree, standardTree, type DomTree } from './tree.js';
import type { ItemDraft } from '../core/item.js';
import { cssSelector } from './selector.js';

/** Where one value came from: a selector a user can copy, and the element's DFS number. */
export interface Origin {
  selector: string;
  /** DFS number in the page model (`page.nodes`); -1 when the value was found only in the
   * browser's tree. */
  dfs: number;
  /** `pinned`: a spider's `fields` selector gave the value; `located`: found after extraction. */
  source: 'pinned' | 'located';
  /** For a pinned field: the spider's selector that gave it. */
  pinned?: string;
  /** The attribute the value was read from (`content`, `datetime`), when not the text. */
  attr?: string;
  /** The value is inside a `<noscript>`: the selector resolves in the page parsed with scripting
   * off (a browser with JavaScript disabled); with it on, that content is text. */
  noscript?: true;
}

export interface PostOrigin {
  root?: Origin;
  author?: Origin;
  publishedAt?: Origin;
  content?: Origin;
}

export interface Provenance {
  title?: Origin;
  author?: Origin;
  publishedAt?: Origin;
  content?: Origin;
  nextPage?: Origin;
  items?: Array<Origin | null>;
  posts?: PostOrigin[];
}

/** Characters of a post's first line searched for (a long first line is cut: the start locates it). */
const CONTENT_PROBE_CHARS = 40;
/** Ancestors climbed from a text node that holds the start of a value to one that holds all of it. */
const MAX_CLIMB = 8;
const AUTHOR_CUE = /author|byline|user|name|poster|writer|uname/i;
const HEADINGS = new Set(['h1', 'h2', 'h3']);
/** Elements too wide to be where a value is: holding it is no evidence. */
const TOO_WIDE = new Set(['html', 'head', 'body']);

/** Text with white space removed: what values are compared by. */
const squash = (s: string) => s.replace(/\s+/g, '');

/** Per tree: every text node's squashed text, and every element's (computed on demand). */
class TextIndex {
  readonly texts: Array<{ node: Text; i: number; text: string }> = [];
  private readonly elementText = new Map<Element, string>();

  constructor(readonly tree: DomTree) {
    for (const n of tree.nodes) if (isTextNode(n)) this.texts.push({ node: n, i: tree.indexOf(n), text: squash(n.data) });
  }

  textOf(el: Element): string {
    let t = this.elementText.get(el);
    if (t === undefined) {
      const parts: string[] = [];
      const stack: AnyNode[] = [el];
      while (stack.length) {
        const n = stack.pop()!;
        if (isTextNode(n)) parts.push(n.data);
        else if (isElement(n) && n.name !== 'script' && n.name !== 'style') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
      }
      t = squash(parts.join(''));
      this.elementText.set(el, t);
    }
    return t;
  }

  /** Elements holding `value`, in document order: above each text node (at DFS ≥ `from`) where
   * the value starts — the node holds it whole, or ends with its start and the following text
   * nodes go on with the rest — the smallest ancestor that holds all of it. */
  find(value: string, from = 0): Element[] {
    const v = squash(value);
    if (!v) return [];
    const out: Element[] = [];
    const seen = new Set<Element>();
    for (let j = 0; j < this.texts.length; j++) {
      const t = this.texts[j]!;
      if (t.i < from) continue;
      if (!t.text.includes(v) && !this.startsHere(j, v)) continue;
      let el: AnyNode | null = t.node.parent;
      for (let k = 0; isElement(el) && k < MAX_CLIMB && !TOO_WIDE.has(el.name); k++, el = el.parent) {
        if (el.name === 'script' || el.name === 'style') break;
        if (this.textOf(el).includes(v)) {
          if (!seen.has(el)) {
            seen.add(el);
            out.push(el);
          }
          break;
        }
      }
    }
    return out;
  }

  /** Whether `v` starts inside text node `j` (its end is the start of `v`) and runs on through
   * the next text nodes. */
  private startsHere(j: number, v: string): boolean {
    const text = this.texts[j]!.text;
    for (let k = Math.min(v.length - 1, text.length); k >= 1; k--) {
      if (!text.endsWith(v.slice(0, k))) continue;
      let rest = v.slice(k);
      for (let n = j + 1; n < this.texts.length && rest; n++) {
        const next = this.texts[n]!.text;
        if (rest.length <= next.length) {
          if (next.startsWith(rest)) return true;
          break;
        }
        if (!rest.startsWith(next)) break;
        rest = rest.slice(next.length);
      }
    }
    return false;
  }

  /** DFS index of the last node inside `el`. */
  endOf(el: Element): number {
    let last: AnyNode = el;
    for (;;) {
      const kids: AnyNode[] = (last as Element).children ?? [];
      let next: AnyNode | undefined;
      for (let i = kids.length - 1; i >= 0; i--) if (this.tree.indexOf(kids[i]!) >= 0) {
        next = kids[i];
        break;
      }
      if (!next) return this.tree.indexOf(last);
      last = next;
    }
  }
}

/** An element, with the attribute the value was read from when not its text. */
interface Hit {
  el: Element;
  attr?: string;
}

function cueScore(el: Element): number {
  for (let e: Element | null = el, k = 0; e && k < 3; e = isElement(e.parent) ? e.parent : null, k++) {
    const a = e.attribs;
    if (AUTHOR_CUE.test(`${a.class ?? ''} ${a.rel ?? ''} ${a.itemprop ?? ''} ${a.id ?? ''}`)) return 1;
  }
  return 0;
}

/** The first element whose attribute (one of `attrs`) holds `value`. */
function attributeMatch(tree: DomTree, value: string, attrs: string[]): Hit | undefined {
  const v = squash(value);
  for (const n of tree.nodes) {
    if (!(isElement(n))) continue;
    for (const attr of attrs) {
      const a = n.attribs[attr];
      if (a && squash(a).includes(v)) return { el: n, attr };
    }
  }
  return undefined;
}

/** The JSON-LD block (`<script type="application/ld+json">`) whose text holds `value`: where an
 * extractor read a field the page does not show. */
function jsonLdMatch(tree: DomTree, value: string): Hit | undefined {
  const v = squash(value);
  for (const n of tree.nodes) {
    if (!(isElement(n)) || n.name !== 'script' || !/ld\+json/i.test(n.attribs.type ?? '')) continue;
    const text = n.children.map((c) => (isTextNode(c) ? c.data : '')).join('');
    if (squash(text).includes(v)) return { el: n };
  }
  return undefined;
}

function firstElement(tree: DomTree, name: string): Element | undefined {
  return tree.nodes.find((n): n is Element => isElement(n) && n.name === name);
}

function locateTitle(tree: DomTree, ix: TextIndex, title: string): Hit | undefined {
  const found = ix.find(title);
  const heading = found.find((el) => HEADINGS.has(el.name)) ?? found.find((el) => el.name !== 'title');
  if (heading) return { el: heading };
  const meta = attributeMatch(tree, title, ['content']);
  if (meta) return meta;
  const t = firstElement(tree, 'title');
  return t && ix.textOf(t).includes(squash(title)) ? { el: t } : jsonLdMatch(tree, title);
}

function locateAuthor(tree: DomTree, ix: TextIndex, author: string, from = 0): Hit | undefined {
  const found = ix.find(author, from).filter((el) => el.name !== 'title');
  const best = found.find((el) => cueScore(el) > 0) ?? found[0];
  if (best) return { el: best };
  // a <meta name="author">: what an extractor read when the page shows no name (a post's too)
  return attributeMatch(tree, author, ['content']) ?? (from === 0 ? jsonLdMatch(tree, author) : undefined);
}

/** The date shown (`publishedAtText`), else the ISO value in a `<time datetime>` / `<meta content>`
 * (its day at least). */
function locateDate(tree: DomTree, ix: TextIndex, text: string | undefined, iso: string | undefined, from = 0): Hit | undefined {
  if (text) {
    const el = ix.find(text, from).find((e) => e.name !== 'title');
    if (el) return { el };
  }
  if (from > 0) return undefined;
  if (iso) {
    const m = attributeMatch(tree, iso, ['datetime', 'content']) ?? attributeMatch(tree, iso.slice(0, 10), ['datetime', 'content']);
    if (m) return m;
  }
  return (text ? attributeMatch(tree, text, ['datetime', 'content']) : undefined) ?? (iso ? (jsonLdMatch(tree, iso) ?? jsonLdMatch(tree, iso.slice(0, 10))) : undefined);
}

function firstLine(content: string): string {
  const line = content.split('\n').find((l) => l.trim().length > 0) ?? '';
  return collapse(line).slice(0, CONTENT_PROBE_CHARS);
}

/** The smallest element holding both `a` and `b`. */
function commonAncestor(a: Element, b: Element): Element | undefined {
  const up = new Set<Element>();
  for (let e: Element | null = a; e; e = isElement(e.parent) ? e.parent : null) up.add(e);
  for (let e: Element | null = b; e; e = isElement(e.parent) ? e.parent : null) if (up.has(e)) return e;
  return undefined;
}

type Post = NonNullable<ItemDraft['posts']>[number];
interface PostHits {
  root?: Hit;
  author?: Hit;
  publishedAt?: Hit;
  content?: Hit;
}

function locatePosts(tree: DomTree, ix: TextIndex, posts: Post[]): PostHits[] {
  const out: PostHits[] = [];
  let from = 0;
  for (const p of posts) {
    const o: PostHits = {};
    const probe = firstLine(p.content);
    const contentEl = probe ? ix.find(probe, from)[0] : undefined;
    // Searched from where the previous post was found: floor k points into floor k's block.
    const authorHit = p.author ? locateAuthor(tree, ix, p.author, Math.max(from, 1)) : undefined;
    // a <meta> (read from an attribute) is no element of the post
    const authorEl = authorHit && !authorHit.attr ? authorHit.el : undefined;
    if (contentEl) o.content = { el: contentEl };
    if (authorHit) o.author = authorHit;
    if (p.publishedAtText) o.publishedAt = locateDate(tree, ix, p.publishedAtText, undefined, Math.max(from, 1));
    const root = contentEl && authorEl ? commonAncestor(contentEl, authorEl) : contentEl;
    if (root && !TOO_WIDE.has(root.name)) o.root = { el: root };
    // The next post starts after this one's author (the whole element) and its text's start.
    if (authorEl) from = Math.max(from, ix.endOf(authorEl) + 1);
    if (contentEl) from = Math.max(from, tree.indexOf(contentEl) + 1);
    out.push(o);
  }
  return out;
}

function locateLink(page: Page, tree: DomTree, url: string, from = 0): Element | undefined {
  const byUrl = tree.memo('inspect:anchors', () => {
    const m = new Map<string, Element[]>();
    for (const n of tree.nodes) {
      if (!(isElement(n)) || n.name !== 'a') continue;
      const u = page.resolve(n.attribs.href);
      if (!u) continue;
      let l = m.get(u);
      if (!l) m.set(u, (l = []));
      l.push(n);
    }
    return m;
  });
  return byUrl.get(url)?.find((a) => tree.indexOf(a) >= from);
}

/** What one tree says: the element of each field. */
interface Hits {
  title?: Hit;
  author?: Hit;
  publishedAt?: Hit;
  content?: Hit;
  nextPage?: Hit;
  items?: Array<Hit | undefined>;
  posts?: PostHits[];
}

function locateIn(page: Page, tree: DomTree, item: ItemDraft, known: Provenance): Hits {
  const ix = new TextIndex(tree);
  const out: Hits = {};
  if (item.title && !known.title) out.title = locateTitle(tree, ix, item.title);
  if (item.author && !known.author) out.author = locateAuthor(tree, ix, item.author);
  if ((item.publishedAt || item.publishedAtText) && !known.publishedAt) out.publishedAt = locateDate(tree, ix, item.publishedAtText, item.publishedAt);
  if (item.content && !known.content && item.kind === 'article') {
    const el = ix.find(firstLine(item.content))[0];
    if (el) out.content = { el };
  }
  if (item.items?.length && !known.items) {
    let from = 0;
    out.items = item.items.map((e) => {
      const a = locateLink(page, tree, e.url, from);
      if (a) from = tree.indexOf(a) + 1;
      return a ? { el: a } : undefined;
    });
  }
  if (item.nextPage && !known.nextPage) {
    const a = locateLink(page, tree, item.nextPage);
    if (a) out.nextPage = { el: a };
  }
  if (item.posts?.length && !known.posts) out.posts = locatePosts(tree, ix, item.posts);
  return out;
}

/** The trees a value is looked for in: the page model's (its DFS number), the standard one with
 * scripting on (its selector), and with scripting off for what only a `<noscript>` holds. */
interface Trees {
  std: DomTree;
  off?: DomTree;
}

/** One origin from the trees' hits: the browser tree's selector, the page tree's DFS number. */
function merge(page: Page, t: Trees, a: Hit | undefined, b: Hit | undefined, c: Hit | undefined): Origin | undefined {
  let selector = b && cssSelector(t.std, b.el);
  let noscript = false;
  if (!selector && c && t.off) {
    selector = cssSelector(t.off, c.el);
    noscript = !!selector;
  }
  selector ??= a && cssSelector(pageTree(page), a.el);
  if (!selector) return undefined;
  const attr = b?.attr ?? c?.attr ?? a?.attr;
  return { selector, dfs: a ? page.indexOf(a.el) : -1, source: 'located', ...(attr ? { attr } : {}), ...(noscript ? { noscript: true as const } : {}) };
}

function mergePost(page: Page, t: Trees, a: PostHits | undefined, b: PostHits | undefined, c: PostHits | undefined): PostOrigin {
  const o: PostOrigin = {};
  for (const k of ['root', 'author', 'publishedAt', 'content'] as const) {
    const m = merge(page, t, a?.[k], b?.[k], c?.[k]);
    if (m) o[k] = m;
  }
  return o;
}

/** Where each field of `item` is in `page` (fields already known, e.g. pinned, are kept). */
export function locateProvenance(page: Page, item: ItemDraft, known: Provenance = {}): Provenance {
  const t: Trees = { std: standardTree(page), off: hasNoscriptElements(page) ? scriptingOffTree(page) : undefined };
  const a = locateIn(page, pageTree(page), item, known);
  const b = locateIn(page, t.std, item, known);
  const c: Hits = t.off ? locateIn(page, t.off, item, known) : {};
  const out: Provenance = { ...known };
  for (const k of ['title', 'author', 'publishedAt', 'content', 'nextPage'] as const) {
    const m = merge(page, t, a[k], b[k], c[k]);
    if (m) out[k] = m;
  }
  if (a.items || b.items) out.items = (item.items ?? []).map((_, i) => merge(page, t, a.items?.[i], b.items?.[i], c.items?.[i]) ?? null);
  if (a.posts || b.posts) out.posts = (item.posts ?? []).map((_, i) => mergePost(page, t, a.posts?.[i], b.posts?.[i], c.posts?.[i]));
  return out;
}
