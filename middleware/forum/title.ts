/**
 * Thread title. Seed 000 takes `<title>`; boards append the forum and site name to it
 * ("Thread – Subforum | Site"), so a heading of the page that the `<title>` contains is preferred
 * (the heading closest before the first post wins), then `og:title`, then the longest part of the
 * `<title>` split at the usual separators.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { collapse, textOf } from '../../src/core/page.js';

const HEADINGS = new Set(['h1', 'h2', 'h3']);
/** Titles longer than this are paragraphs, not headings. */
const MAX_TITLE_LENGTH = 300;
const TITLE_SEPARATORS = /\s+[|\-–—»:·•]\s+|\s*[|»·•]\s*|\s+::\s+|_/;

function norm(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function threadTitle(page: Page, firstPostIndex?: number): string | undefined {
  const full = norm(page.title);
  // The thread title comes first in `<title>` ("Thread - Forum - Site"), the site name last: the
  // heading found earliest in `<title>` wins, then the longer one.
  let best: { text: string; at: number; level: number } | undefined;
  for (let i = 0; i < page.nodes.length; i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || !HEADINGS.has(n.name)) continue;
    if (firstPostIndex !== undefined && i > firstPostIndex) break;
    const text = collapse(textOf(n));
    if (!text || text.length > MAX_TITLE_LENGTH) continue;
    const at = full ? full.indexOf(norm(text)) : 0;
    if (at < 0) continue;
    const level = Number(n.name[1]);
    if (!best || at < best.at || (at === best.at && text.length > best.text.length)) best = { text, at, level };
  }
  if (best && best.text.length >= 2) return best.text;
  const og = page.meta.get('og:title');
  if (og) return collapse(og);
  if (!page.title) return undefined;
  return titleCore(page.title) ?? page.title;
}

/** The longest part of a `<title>` split at the usual separators (the thread's own title without
 * the forum and site names). */
export function titleCore(title: string): string | undefined {
  const parts = title.split(TITLE_SEPARATORS).map((s) => s.trim()).filter(Boolean);
  return parts.sort((a, b) => b.length - a.length)[0];
}
