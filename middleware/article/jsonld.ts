/**
 * JSON-LD for the article fields. `page.jsonLd()` (core) parses plain script bodies; some pages
 * wrap theirs in `<![CDATA[ … ]]>` or an HTML comment, which JSON.parse rejects. This local reader
 * strips those wrappers when the core found nothing (wish for the core: do it there).
 */
import { Element, Text, type AnyNode } from 'domhandler';
import type { Page } from '../../src/page/page.js';

const cache = new WeakMap<Page, Record<string, unknown>[]>();
const WRAPPER = /^\s*(?:<!\[CDATA\[|<!--)|(?:\]\]>|-->)\s*$/g;

export function jsonLdObjects(page: Page): Record<string, unknown>[] {
  const core = page.jsonLd();
  if (core.length) return core;
  const hit = cache.get(page);
  if (hit) return hit;
  const out: Record<string, unknown>[] = [];
  const push = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(push);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      out.push(o);
      if (o['@graph']) push(o['@graph']);
    }
  };
  const stack: AnyNode[] = [...page.document.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element)) continue;
    if (n.name === 'script') {
      if (!(n.attribs.type ?? '').toLowerCase().includes('ld+json')) continue;
      const raw = n.children.map((c) => (c instanceof Text ? c.data : '')).join('').replace(WRAPPER, '').trim();
      if (!raw) continue;
      try {
        push(JSON.parse(raw));
      } catch {
        /* unreadable JSON-LD is ignored, as in the core */
      }
      continue;
    }
    for (const c of n.children) stack.push(c);
  }
  cache.set(page, out);
  return out;
}
