/**
 * `npm run bench:lists`: list items and pagination.
 *
 * 1. Item-URL F1 (set of item URLs vs gold, per page, averaged) on pages with labelled items:
 *    lists/aile, rss-proxy, se-scraper, go-crawler-tests, html2rss, websearcher, and Gerapy's README
 *    pair (`expected_items`). Pages whose gold is a record count only (lists/mdr, the other Gerapy
 *    samples) are scored on counts: P = min(n, g)/n, R = min(n, g)/g — reported apart.
 * 2. Next-page URL accuracy on lists/autopager (hand-labelled NEXT links): a page is right when the
 *    predicted next page is one of the labelled NEXT URLs, or when both are absent. Also the
 *    next-page gold that some item sets carry (se-scraper, go-crawler-tests, html2rss, rss-proxy).
 *
 * Usage: npx tsx bench/lists.ts [--verbose]
 */
import { readFileSync } from 'node:fs';
import { createPage } from '../src/core/page.js';
import { extractList } from '../middleware/list/index.js';
import { urlStep } from '../middleware/pagination/index.js';
import { readManifest, readExpected, printTable, median, type ManifestEntry } from './lib/data.js';

const verbose = process.argv.includes('--verbose');

interface Gold {
  url?: string | null;
  urlGuess?: string;
  base_url_used_in_test?: string | null;
  items?: Array<{ url: string | null; title?: string | null }> | null;
  itemsComplete?: boolean;
  notItems?: string[];
  expected_items?: Array<{ url: string; title?: string | null }>;
  expected_item_count?: number;
  expected_record_count_from_test?: number;
  pagination?: { next?: (string | null)[] };
  hasPaginationLabel?: boolean;
}

/** URL identity for scoring: no fragment, no trailing slash, scheme-less, host lower-case. */
function normUrl(u: string): string {
  try {
    const x = new URL(u);
    x.hash = '';
    return (x.host.toLowerCase().replace(/^www\./, '') + x.pathname.replace(/\/+$/, '') + x.search).replace(/%20/g, ' ');
  } catch {
    return u.trim();
  }
}

function pageUrl(e: ManifestEntry, g: Gold | undefined): string {
  return e.url ?? g?.url ?? g?.urlGuess ?? g?.base_url_used_in_test ?? `http://localhost/${e.id}`;
}

function prf(pred: Set<string>, gold: Set<string>): [number, number, number] {
  let tp = 0;
  for (const p of pred) if (gold.has(p)) tp++;
  const p = pred.size ? tp / pred.size : gold.size ? 0 : 1;
  const r = gold.size ? tp / gold.size : 1;
  return [p, r, p + r ? (2 * p * r) / (p + r) : 0];
}

const times: number[] = [];
function run(e: ManifestEntry, g: Gold | undefined) {
  const page = createPage({ url: pageUrl(e, g), body: readFileSync(e.file) });
  const t0 = performance.now();
  const r = extractList(page);
  times.push(performance.now() - t0);
  return { ...r, pageUrl: page.url };
}

// ---- 1. items
const ITEM_SETS = ['aile', 'rss-proxy', 'se-scraper', 'go-crawler-tests', 'html2rss', 'websearcher', 'gerapy'];
const COUNT_SETS = ['mdr', 'gerapy'];
const rows: (string | number)[][] = [];
const perSet = new Map<string, number[][]>();
const countRows: (string | number)[][] = [];
const partialRows: (string | number)[][] = [];
const peerGold = new Set<string>();
const itemSetNext: string[][] = [];
let titleTotal = 0;
let titleExact = 0;
let titleContains = 0;
const titleMisses: string[][] = [];
for (const set of ITEM_SETS) {
  for (const e of readManifest(`lists/${set}/manifest.jsonl`)) {
    const g = readExpected<Gold>(e);
    const goldItems = g?.items ?? g?.expected_items;
    if (!goldItems?.length) continue;
    const base = pageUrl(e, g);
    // Gold URLs are written as in the page (some relative): resolve them against the page URL.
    const gold = new Set(goldItems.filter((i) => i.url).map((i) => normUrl(new URL(i.url!, base).href)));
    if (!gold.size) continue;
    const r = run(e, g);
    const pred = new Set(r.items.map((i) => normUrl(i.url)));
    if (g?.pagination) {
      // next-page gold of the item sets (search engines' own pagers, HN's "More", GitHub's "Next")
      const goldNext = (g.pagination.next ?? []).filter((u): u is string => !!u && !u.startsWith('javascript:')).map((u) => normUrl(new URL(u, base).href));
      const ok = goldNext.length ? r.nextPage !== undefined && goldNext.includes(normUrl(r.nextPage)) : r.nextPage === undefined;
      itemSetNext.push([e.id, goldNext[0] ?? '-', r.nextPage ? normUrl(r.nextPage) : '-', ok ? 'yes' : 'no']);
    }
    if (g?.itemsComplete === false) {
      // A partial gold (some items that must be found, some URLs that must not): recall only.
      const found = [...gold].filter((u) => pred.has(u)).length;
      const wrong = (g.notItems ?? []).filter((u) => pred.has(normUrl(new URL(u, base).href))).length;
      partialRows.push([e.id, gold.size, found, (g.notItems ?? []).length, wrong, pred.size]);
      continue;
    }
    const [p, rc, f] = prf(pred, gold);
    if (!g?.items && g?.expected_items) peerGold.add(e.id); // a peer's own output, not a human label
    // titles of the items found, against gold titles (whitespace-normalised, case-insensitive)
    const normTitle = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();
    const predTitle = new Map(r.items.map((i) => [normUrl(i.url), normTitle(i.title ?? '')]));
    for (const gi of goldItems) {
      if (!gi.url || !gi.title) continue;
      const t = predTitle.get(normUrl(new URL(gi.url, base).href));
      if (t === undefined) continue;
      titleTotal++;
      if (t === normTitle(gi.title)) titleExact++;
      else if (t.includes(normTitle(gi.title))) titleContains++;
      else if (verbose) titleMisses.push([e.id, gi.title.slice(0, 60), t.slice(0, 80)]);
    }
    if (!perSet.has(set)) perSet.set(set, []);
    perSet.get(set)!.push([p, rc, f]);
    rows.push([e.id, gold.size, pred.size, p, rc, f]);
    if (verbose && f < 0.9) {
      console.log(`\n## ${e.id}  F1 ${f.toFixed(3)}`);
      for (const i of r.items.slice(0, 8)) console.log(`  + ${gold.has(normUrl(i.url)) ? '✓' : '✗'} ${i.url}  ${i.title ?? ''}`);
      const missed = [...gold].filter((u) => !pred.has(u)).slice(0, 5);
      for (const m of missed) console.log(`  - missed ${m}`);
    }
  }
}
for (const set of COUNT_SETS) {
  for (const e of readManifest(`lists/${set}/manifest.jsonl`)) {
    const g = readExpected<Gold>(e);
    if (g?.expected_items?.length) continue; // scored on URLs above
    const n = g?.expected_record_count_from_test ?? g?.expected_item_count;
    if (!n) continue;
    const r = run(e, g);
    const k = r.items.length;
    const p = k ? Math.min(k, n) / k : 0;
    const rc = Math.min(k, n) / n;
    countRows.push([e.id, n, k, p, rc, p + rc ? (2 * p * rc) / (p + rc) : 0]);
  }
}
console.log('\n### Item URLs (per-page set P/R/F1)\n');
if (verbose) printTable(['page', 'gold', 'found', 'P', 'R', 'F1'], rows);
const setRows: (string | number)[][] = [];
const all: number[][] = [];
for (const [set, xs] of perSet) {
  all.push(...xs);
  setRows.push([set, xs.length, ...[0, 1, 2].map((i) => xs.reduce((s, x) => s + x[i]!, 0) / xs.length)]);
}
setRows.push(['all pages', all.length, ...[0, 1, 2].map((i) => all.reduce((s, x) => s + x[i]!, 0) / all.length)]);
const human = rows.filter((r) => !peerGold.has(String(r[0])));
setRows.push(['all, without peer-output gold', human.length, ...[3, 4, 5].map((i) => human.reduce((s, x) => s + (x[i] as number), 0) / human.length)]);
printTable(['data set', 'pages', 'P', 'R', 'F1'], setRows);
console.log(`\nItem titles (items found whose gold has a title): ${titleTotal}; equal ${(titleExact / titleTotal).toFixed(3)}, holding the gold title ${((titleExact + titleContains) / titleTotal).toFixed(3)}`);
if (verbose && titleMisses.length) printTable(['page', 'gold title', 'title'], titleMisses.slice(0, 40));
if (partialRows.length) {
  console.log('\n### Partial gold (items that must be found, URLs that must not be items)\n');
  printTable(['page', 'must find', 'found', 'must not', 'wrongly found', 'items'], partialRows);
}
console.log('\n### Record counts (gold = a count only: mdr test counts; Gerapy regression counts, not independent labels)\n');
printTable(['page', 'gold n', 'found', 'P', 'R', 'F1'], countRows);

// ---- 2. next page
// Scored on the pages autopager labelled (hasPaginationLabel): right when the prediction is one of
// the NEXT links, or when neither gold nor prediction has one. Unlabelled pages are not negatives
// (several show a real next link), so they are reported apart. Pages where the prediction is the
// link labelled PREV and that link says "older …" are counted too: autopager's labellers call
// "Newer posts" NEXT on some blogs, Gleaner follows the page sequence (page N → N+1 = older).
const apRows: (string | number)[][] = [];
let right = 0;
let total = 0;
let withNext = 0;
let withNextRight = 0;
let noNext = 0;
let falseNext = 0;
let olderAsNext = 0;
let seqRight = 0;
let unlabelled = 0;
let unlabelledWithNext = 0;
interface ApGold {
  paginationLinks?: Record<string, Array<{ url: string | null; text?: string }>>;
}
for (const e of readManifest('lists/autopager/manifest.jsonl')) {
  const g = readExpected<Gold & ApGold>(e);
  const r = run(e, g);
  const pred = r.nextPage ? normUrl(r.nextPage) : undefined;
  if (!g?.hasPaginationLabel) {
    unlabelled++;
    if (pred) unlabelledWithNext++;
    continue;
  }
  const gold = new Set((g?.pagination?.next ?? []).filter((u): u is string => !!u && !u.startsWith('javascript:')).map(normUrl));
  const ok = gold.size ? pred !== undefined && gold.has(pred) : pred === undefined;
  total++;
  if (ok) right++;
  else if (pred && (g.paginationLinks?.PREV ?? []).some((l) => l.url && normUrl(l.url) === pred && /older|ouder|ältere|anciens|antigu/i.test(l.text ?? ''))) olderAsNext++;
  // Page N+1 convention (Gleaner's): also right when the prediction is the page one step further
  // in the sequence and the labellers called it PREV (a blog's "← Older posts": autopager labels
  // by arrow, so "Newer posts →" is their NEXT; "one step further" is read from the URL's page
  // number, or from the link's "older" wording when the URL has none), or when the page has no next button and the
  // prediction is the pager's page 2 (labelled PAGE) on page 1, or the pager's link
  // to the page one step further on a later page.
  let seqOk = ok;
  if (!ok && pred) {
    const prevLink = (g.paginationLinks?.PREV ?? []).find((l) => l.url && normUrl(l.url) === pred);
    const step = prevLink ? urlStep(r.pageUrl, prevLink.url!) : undefined;
    const goldStep = gold.size ? urlStep(r.pageUrl, (g.pagination?.next ?? []).find((u) => u && normUrl(u) === [...gold][0]) ?? '') : undefined;
    const saysOlder = /older|ouder|ältere|anciens|antigu/i.test(prevLink?.text ?? '');
    if (prevLink && (step === 'added' || (typeof step === 'number' && step > 0)) && (goldStep === undefined || (typeof goldStep === 'number' && goldStep < 0) || saysOlder)) seqOk = true;
    // URLs without a page number (Blogger's updated-max=<date>): the link's own words say it is
    // the next page of the sequence
    if (prevLink && step === undefined && saysOlder) seqOk = true;
    const pageLinks = (g.paginationLinks?.PAGE ?? []).filter((l) => l.url && /^\d+$/.test((l.text ?? '').trim()));
    const lowest = Math.min(...pageLinks.map((l) => Number(l.text!.trim())));
    if (!gold.size && lowest === 2 && pageLinks.some((l) => Number(l.text!.trim()) === 2 && normUrl(l.url!) === pred)) seqOk = true;
    // (or, on a later page, the pager's link one page further: `?page=9` on `?page=8`)
    if (!gold.size && pageLinks.some((l) => normUrl(l.url!) === pred && urlStep(r.pageUrl, l.url!) === 1)) seqOk = true;
  }
  if (seqOk) seqRight++;
  if (gold.size) {
    withNext++;
    if (ok) withNextRight++;
  } else {
    noNext++;
    if (pred) falseNext++;
  }
  if (!ok && verbose) apRows.push([e.id, [...gold][0] ?? '-', pred ?? '-', seqOk ? 'yes' : 'no']);
}
console.log('\n### Next page (lists/autopager, pages with hand-labelled pagination)\n');
if (verbose) printTable(['page', 'gold next', 'predicted', 'right under page N+1'], apRows);
printTable(
  ['labelled pages', 'accuracy', 'accuracy, page N+1 convention', 'with NEXT', 'NEXT found', 'without NEXT', 'false next', 'wrong = "older" link labelled PREV', 'unlabelled pages', 'with a next found'],
  [[total, right / total, seqRight / total, withNext, withNextRight / withNext, noNext, falseNext, olderAsNext, unlabelled, unlabelledWithNext]],
);
const nextRight = itemSetNext.filter((r) => r[3] === 'yes').length;
console.log(`\n### Next page on the item sets with a labelled pager: ${nextRight}/${itemSetNext.length} right\n`);
if (verbose) printTable(['page', 'gold next', 'predicted', 'right'], itemSetNext);
console.log(`\nextractList time per page (after parsing): median ${median(times).toFixed(2)} ms over ${times.length} pages (shared CPU)`);
