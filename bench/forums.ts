/**
 * Forum thread benchmark (`npm run bench:forums [-- --verbose] [--pages] [--only SUBSTRING]`):
 * `--verbose` adds a row per forum (URL host), `--pages` a row per page.
 *
 * Data: `forums/webforum52` (fhgr/harvest WEB-FORUM-52): 50 thread pages from 26 forums, gold
 * `posts[]` with `post_text`, `user` (profile URL if any, else the name) and `datetime` (as
 * displayed). Metric (data README "Forum posts"), per page, then averaged over pages:
 *   - count: 1 when the number of posts equals the gold number exactly, else 0;
 *   - posts are aligned in order (ours i ↔ gold i); each of text / user / date is the share of
 *     aligned positions that match, over max(ours, gold) posts (missing and extra posts count as
 *     misses);
 *   - text: normalised similarity ≥ 0.95, where similarity = 1 − (token-level Levenshtein
 *     distance) / max(token counts); tokens are lower-cased `[\p{L}\p{N}]+` runs, each CJK
 *     character one token (the bag-F1 tokeniser of bench/lib/metrics.ts, kept in order);
 *   - user: the author name equals the gold (whitespace-normalised), or the author URL equals the
 *     gold once both are resolved against the page URL (fragment dropped);
 *   - date: the displayed date equals the gold, or one contains the other.
 * Also printed: content F1 (bag of tokens) of all post texts of a page joined, the measure GNE's
 * figure is given in.
 *
 * Peers (measured elsewhere; both are Python and not on npm, so not run here): Harvest
 * 0.833 / 0.824 / 0.746 / 0.232; GNE content F1 0.34 (it returns one post).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readManifest, readExpected, printTable } from './lib/data.js';
import { bagF1, bagTokens } from './lib/metrics.js';
import { createPage } from '../src/core/page.js';
import { extractForum } from '../middleware/forum/index.js';

/** Text match threshold of the data README. */
const TEXT_SIMILARITY = 0.95;

interface GoldPost {
  post_text: string;
  user?: string;
  datetime?: string;
}

function levenshtein(a: string[], b: string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const cost = ai === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** Normalised token-sequence similarity in [0, 1]. */
export function textSimilarity(a: string, b: string): number {
  const ta = bagTokens(a);
  const tb = bagTokens(b);
  const max = Math.max(ta.length, tb.length);
  if (max === 0) return 1;
  // Upper bound from the length difference: skip the quadratic part when it cannot reach the bar.
  if (Math.min(ta.length, tb.length) / max < TEXT_SIMILARITY) return Math.min(ta.length, tb.length) / max;
  return 1 - levenshtein(ta, tb) / max;
}

const ws = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

function resolveLoose(u: string, base: string): string | undefined {
  try {
    const x = new URL(u.trim(), base);
    x.hash = '';
    return x.href;
  } catch {
    return undefined;
  }
}

/** `base` = the page's base URL (`<base href>` when present, else the page URL): gold profile
 * links are written as in the page, so they resolve the way the browser resolves them. */
function userMatches(gold: string | undefined, name: string | undefined, url: string | undefined, base: string): boolean {
  if (!gold) return false;
  if (name && ws(name) === ws(gold)) return true;
  if (url) {
    const g = resolveLoose(gold, base);
    const o = resolveLoose(url, base);
    if (g && o && g === o) return true;
  }
  return false;
}

function dateMatches(gold: string | undefined, shown: string | undefined): boolean {
  const g = ws(gold);
  const o = ws(shown);
  if (!g || !o) return false;
  return g === o || g.includes(o) || o.includes(g);
}

function main(): void {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const perPage = args.includes('--pages');
  const onlyIdx = args.indexOf('--only');
  const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;

  const entries = readManifest('forums/webforum52/manifest.jsonl').filter((e) => !only || e.id.includes(only));
  const rows: (string | number)[][] = [];
  // Per forum (URL host): sums of the page scores.
  const forums = new Map<string, { pages: number; posts: number; gold: number; count: number; text: number; user: number; date: number; f1: number }>();
  const sums = { count: 0, text: 0, user: 0, date: 0, f1: 0, ms: 0 };
  let n = 0;
  for (const e of entries) {
    const gold = readExpected<{ posts: GoldPost[] }>(e)?.posts;
    if (!gold) continue;
    const url = e.url ?? 'http://localhost/';
    const t0 = performance.now();
    let posts: Array<{ content: string; author?: string; authorUrl?: string; publishedAtText?: string }> = [];
    let base = url;
    try {
      const page = createPage({ url, body: readFileSync(e.file) });
      base = page.baseUrl;
      posts = extractForum(page)?.posts ?? [];
    } catch (err) {
      console.error(`${e.id}: ${(err as Error).message}`);
    }
    const ms = performance.now() - t0;
    const denom = Math.max(posts.length, gold.length);
    let text = 0;
    let user = 0;
    let date = 0;
    for (let i = 0; i < Math.min(posts.length, gold.length); i++) {
      const p = posts[i]!;
      const g = gold[i]!;
      if (textSimilarity(p.content, g.post_text) >= TEXT_SIMILARITY) text++;
      if (userMatches(g.user, p.author, p.authorUrl, base)) user++;
      if (dateMatches(g.datetime, p.publishedAtText)) date++;
    }
    const f1 = bagF1(posts.map((p) => p.content).join('\n'), gold.map((g) => g.post_text).join('\n')).f1;
    const row = {
      count: posts.length === gold.length ? 1 : 0,
      text: denom ? text / denom : 1,
      user: denom ? user / denom : 1,
      date: denom ? date / denom : 1,
    };
    sums.count += row.count;
    sums.text += row.text;
    sums.user += row.user;
    sums.date += row.date;
    sums.f1 += f1;
    sums.ms += ms;
    n++;
    if (perPage) rows.push([e.id.replace(/^webforum52\//, '').slice(0, 60), `${posts.length}/${gold.length}`, row.text, row.user, row.date, f1, Math.round(ms)]);
    const host = new URL(url).host;
    const fr = forums.get(host) ?? { pages: 0, posts: 0, gold: 0, count: 0, text: 0, user: 0, date: 0, f1: 0 };
    fr.pages++;
    fr.posts += posts.length;
    fr.gold += gold.length;
    fr.count += row.count;
    fr.text += row.text;
    fr.user += row.user;
    fr.date += row.date;
    fr.f1 += f1;
    forums.set(host, fr);
  }

  console.log(`forums/webforum52: ${n} pages. Metric: count exact / text (token similarity ≥ ${TEXT_SIMILARITY}) / user / date, averaged over pages.`);
  console.log('Peers measured elsewhere (Python, not on npm, not run here): Harvest 0.833 / 0.824 / 0.746 / 0.232; GNE content F1 0.34.\n');
  if (perPage) {
    printTable(['page', 'posts', 'text', 'user', 'date', 'F1', 'ms'], rows);
    console.log('');
  }
  if (verbose) {
    const frows = [...forums].map(([host, f]) => [host, f.pages, `${f.posts}/${f.gold}`, f.count / f.pages, f.text / f.pages, f.user / f.pages, f.date / f.pages, f.f1 / f.pages]);
    printTable(['forum', 'pages', 'posts', 'count exact', 'text', 'user', 'date', 'F1'], frows);
    console.log('');
  }
  printTable(
    ['system', 'count exact', 'text', 'user', 'date', 'content F1', 'ms/page'],
    [
      ['Gleaner forum', sums.count / n, sums.text / n, sums.user / n, sums.date / n, sums.f1 / n, Math.round(sums.ms / n)],
      ['Harvest (quoted)', 0.833, 0.824, 0.746, 0.232, '-', '-'],
      ['GNE (quoted)', '-', '-', '-', '-', 0.34, '-'],
    ],
  );
}

// Run only as a script (the similarity function is importable by tools).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
