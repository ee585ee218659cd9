/**
 * A CSS selector a user can copy for an element of a parsed page (issue 27, provenance).
 *
 * The selector is unique by construction: a chain of child steps (`tag`, `:nth-of-type(k)` when
 * the parent has several children of that tag) from the nearest ancestor with an id that is
 * unique in the page, else from `body` (or from `head` for `<title>`/`<meta>`). It must resolve
 * in a browser's parse of the same bytes too (the report and `document.querySelector`), whose
 * tree differs from htmlparser2's in two known places, handled here:
 *   - browsers insert `<tbody>` between `<table>` and `<tr>`: the step under a table is a
 *     descendant step (` `) rather than a child step (`>`);
 *   - htmlparser2 may leave `<body>` inside an unclosed `<head>`: the chain starts at `body`, not
 *     `html > body`.
 * Classes are kept (two at most) on the last step only, so a user reads what the element is.
 */
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { isElement, type DomTree } from './tree.js';

/** An identifier CSS accepts as written (no escaping needed). */
const PLAIN_IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;
/** Classes shown on the last step of a selector (readability; uniqueness never depends on them). */
const MAX_CLASSES = 2;

/** Ids that occur once in the page (an id anchor must be unique to be one). */
function uniqueIds(page: DomTree): Set<string> {
  return page.memo('inspect:unique-ids', () => {
    const seen = new Map<string, number>();
    for (const n of page.nodes) {
      if (!(isElement(n))) continue;
      const id = n.attribs.id;
      if (id) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    return new Set([...seen].filter(([id, k]) => k === 1 && PLAIN_IDENT.test(id)).map(([id]) => id));
  });
}

function elementChildren(p: ParentNode): Element[] {
  return p.children.filter((c): c is Element => isElement(c));
}

/** `tag` or `tag:nth-of-type(k)` for `el` among its parent's children. */
function step(el: Element): string {
  const parent = el.parent;
  if (!parent) return el.name;
  const same = elementChildren(parent).filter((c) => c.name === el.name);
  return same.length > 1 ? `${el.name}:nth-of-type(${same.indexOf(el) + 1})` : el.name;
}

function classSuffix(el: Element): string {
  const classes = (el.attribs.class ?? '').split(/\s+/).filter((c) => PLAIN_IDENT.test(c));
  return classes.slice(0, MAX_CLASSES).map((c) => `.${c}`).join('');
}

const HEAD_TAGS = new Set(['title', 'meta', 'link', 'base']);

/** A selector for a `<meta>`: by its name/property/itemprop when that is unique in the page. */
function metaSelector(page: DomTree, el: Element): string | undefined {
  for (const attr of ['property', 'name', 'itemprop']) {
    const v = el.attribs[attr];
    if (!v || /["\\\n]/.test(v)) continue;
    const same = page.nodes.filter((n) => isElement(n) && n.name === 'meta' && n.attribs[attr] === v);
    if (same.length === 1) return `meta[${attr}="${v}"]`;
  }
  return undefined;
}

/** A CSS selector that resolves to `node` (its parent element for a text node) in `page`'s tree. */
export function cssSelector(page: DomTree, node: AnyNode): string | undefined {
  let el: AnyNode | null = node;
  while (el && !(isElement(el))) el = el.parent;
  if (!el) return undefined;
  const target = el;
  if (target.name === 'meta') {
    const s = metaSelector(page, target);
    if (s) return s;
  }
  if (target.name === 'title' && page.nodes.filter((n) => isElement(n) && n.name === 'title').length === 1) return 'title';
  if (target.name === 'html' || target.name === 'body' || target.name === 'head') return target.name;
  const ids = uniqueIds(page);
  // From the target up: each step with the combinator that joins it to the step above.
  const steps: Array<{ sel: string; joint: string }> = [];
  let cur: Element = target;
  let anchor: string;
  for (;;) {
    const id = cur.attribs.id;
    if (id && ids.has(id)) {
      anchor = `#${id}${cur === target ? classSuffix(cur) : ''}`;
      break;
    }
    const parent: ParentNode | null = cur.parent;
    // A step under a table: browsers put rows in an implicit <tbody> (see the header).
    steps.push({ sel: step(cur) + (cur === target ? classSuffix(cur) : ''), joint: isElement(parent) && parent.name === 'table' ? ' ' : ' > ' });
    if (!(isElement(parent))) {
      // Stray content outside <html> (htmlparser2 keeps it at the root): the path from the root.
      return steps.reverse().map((s) => s.sel).join(' > ');
    }
    if (parent.name === 'body' || (parent.name === 'head' && HEAD_TAGS.has(cur.name))) {
      anchor = parent.name;
      break;
    }
    cur = parent;
  }
  let out = anchor;
  for (let i = steps.length - 1; i >= 0; i--) out += steps[i]!.joint + steps[i]!.sel;
  return out;
}
