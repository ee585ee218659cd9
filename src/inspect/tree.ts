/**
 * The trees provenance is located in (issue 27).
 *
 * The page model parses with htmlparser2 (fast, and the tree every middleware reads: DFS numbers
 * are its). A browser builds a different tree from the same bytes — the HTML standard's, with an
 * implicit `<tbody>`, unclosed `<a>`/`<font>` closed and re-opened, stray elements moved — so a
 * selector computed on htmlparser2's tree can miss in the browser (a `body > a > a > table` path of
 * an old board). Provenance therefore locates each value twice: in the page's tree (its DFS number)
 * and in a standard parse of the same decoded HTML (parse5, through cheerio: its selector, which a
 * user pastes into the browser's console and the report resolves).
 */
import { createRequire } from 'node:module';
import { isTag, isText, type AnyNode, type Document, type Element, type Text } from 'domhandler';
import type { Page } from '../core/page.js';

/** A parsed document with its nodes in depth-first pre-order (elements and non-blank text). */
export interface DomTree {
  root: Document;
  nodes: AnyNode[];
  indexOf(node: AnyNode): number;
  /** Per-tree memo (unique ids, anchors by URL …). */
  memo<T>(key: string, build: () => T): T;
}

/**
 * Node tests by the node's `type`, never `instanceof`: the standard tree is built by cheerio
 * loaded through `require` (lazyCheerio below), whose nodes are instances of domhandler's CommonJS
 * classes, while this module's `import` gets its ES module classes — two sets of classes, so
 * `instanceof Element` was false for every node of that tree, the tree came out empty, and every
 * selector silently fell back to htmlparser2's tree (which a browser's differs from).
 */
export const isElement = (n: AnyNode | null | undefined): n is Element => !!n && isTag(n);
export const isTextNode = (n: AnyNode | null | undefined): n is Text => !!n && isText(n);

/** Elements whose content is never page text (a `<noscript>`'s is, with scripting off). */
const RAW = new Set(['script', 'style', 'noscript', 'template']);
const RAW_SCRIPTING_OFF = new Set(['script', 'style', 'template']);

export function domTree(root: Document, indexOf?: (n: AnyNode) => number, nodes?: AnyNode[], raw = RAW): DomTree {
  let list = nodes;
  let index: Map<AnyNode, number> | undefined;
  if (!list) {
    list = [];
    index = new Map();
    const stack: AnyNode[] = [...root.children].reverse();
    while (stack.length) {
      const n = stack.pop()!;
      if (isElement(n)) {
        index.set(n, list.length);
        list.push(n);
        if (raw.has(n.name)) continue;
        for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
      } else if (isTextNode(n) && n.data.trim()) {
        index.set(n, list.length);
        list.push(n);
      }
    }
  }
  const memo = new Map<string, unknown>();
  return {
    root,
    nodes: list,
    indexOf: indexOf ?? ((n) => index!.get(n) ?? -1),
    memo<T>(key: string, build: () => T): T {
      if (!memo.has(key)) memo.set(key, build());
      return memo.get(key) as T;
    },
  };
}

/** The page's own tree (htmlparser2; DFS numbers are the page's). */
export function pageTree(page: Page): DomTree {
  return page.memo('inspect:page-tree', () => domTree(page.document, (n) => page.indexOf(n), page.nodes));
}

/** cheerio, loaded on first use as src/core/page.ts does (~120 ms of start-up that a chain which
 * never explains or pins a field should not pay: these modules are in every chain's imports). */
let cheerioLoad: typeof import('cheerio').load | undefined;
export function lazyCheerio(): typeof import('cheerio').load {
  return (cheerioLoad ??= (createRequire(import.meta.url)('cheerio') as typeof import('cheerio')).load);
}

/** The HTML standard's tree of the page's decoded HTML (a browser's, scripting on: a
 * `<noscript>`'s content is text). */
export function standardTree(page: Page): DomTree {
  return page.memo('inspect:standard-tree', () => domTree(lazyCheerio()(page.html).root()[0] as unknown as Document));
}

/** The same with scripting off (a browser with JavaScript disabled, jsdom by default): a
 * `<noscript>`'s content is elements. Forum engines that render with JavaScript (Discourse, Flarum)
 * put the server-rendered posts there, which is where the extractor read them. */
export function scriptingOffTree(page: Page): DomTree {
  return page.memo('inspect:scripting-off-tree', () => domTree(lazyCheerio()(page.html, { scriptingEnabled: false }).root()[0] as unknown as Document, undefined, undefined, RAW_SCRIPTING_OFF));
}

/** Whether the page has a `<noscript>` with elements in it (htmlparser2 parses them). */
export function hasNoscriptElements(page: Page): boolean {
  return page.memo('inspect:noscript', () => page.nodes.some((n) => isElement(n) && n.name === 'noscript' && n.children.some((c) => isElement(c))));
}
