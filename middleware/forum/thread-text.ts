/**
 * A thread's main text as read, post after post (each post's own words: quotes of other posts
 * left out, see ownText in src/core/item.ts).
 */
import { ownText, type ForumPost } from '../../src/core/item.js';

/**
 * A thread page's main text: the thread as read, post after post — who wrote it, when (as
 * displayed), and what the post itself says ("\n" between lines, as for articles). Quoted
 * passages of other posts are left out (they repeat floors already in the thread), and so are
 * replies inside posts, as they are of each post's `content`. Measured on the 112 WCXB dev forum
 * pages (the benchmark's whole-thread main text, `npm run bench:forums`): posts' content alone
 * 0.817, without quotes 0.831, with the name and time lines 0.838.
 */
export function threadText(posts: ForumPost[]): string {
  const lines: string[] = [];
  for (const p of posts) {
    const text = ownText(p).trim();
    if (!text) continue;
    if (p.author) lines.push(p.author);
    if (p.publishedAtText) lines.push(p.publishedAtText);
    lines.push(text);
  }
  return lines.join('\n');
}

