/**
 * `npm run bench:lists`: list items and pagination, through the user's path.
 *
 * Every figure is measured twice: through `gleaner extract --batch MANIFEST --kind list` (the same
 * code: `extractManifest`, one batch per data set, pages of one host sharing their site state — the
 * list shapes learned from the batch's earlier pages — as a user's batch does) and, beside it, by
 * calling `extractList(page)` on each page alone (the pure function, no site state). The first is
 * the headline; the two must agree (issue 23: per-site shapes must never hurt a page whose own
 * evidence is clear). A third check runs every page alone through the extractor with an empty site
 * store and counts the pages whose items or next page differ from `extractList(page)` (must be 0).
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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPage } from '../src/core/page.js';
import { extractList, type ListResult } from '../middleware/list/index.js';
import { urlStep } from '../middleware/pagination/index.js';
import { extractManifest } from '../src/cli/extract.js';
import { Extractor } from '../src/chain/extractor.js';
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
/** The direct call: `extractList(page)` on the page alone. */
function direct(e: ManifestEntry, g: Gold | undefined): ListResult & { pageUrl: string } {
  const page = createPage({ url: pageUrl(e, g), body: readFileSync(e.file) });
  const t0 = performance.now();
  const r = extractList(page);
  times.push(performance.now() - t0);
  return { ...r, pageUrl: page.url };
}

/** The user's path: `gleaner extract --batch MANIFEST --kind list` on a data set, one batch per set
 * (the manifest as given, each page with the URL the scoring resolves its gold against). */
const work = mkdtempSync(path.join(tmpdir(), 'gleaner-bench-lists-'));
const batchItems = new Map<string, ListResult>();
async function runBatch(set: string): Promise<void> {
  const entries = readManifest(`lists/${set}/manifest.jsonl`);
  const manifest = path.join(work, `${set.replace(/\W+/g, '_')}.jsonl`);
  writeFileSync(manifest, entries.map((e) => JSON.stringify({ id: e.id, path: e.file, url: pageUrl(e, readExpected<Gold>(e)), ...(e.site ? { site: e.site } : {}) })).join('\n') + '\n');
  const { items } = await extractManifest(manifest, { kind: 'list', jobs: 1 });
  entries.forEach((e, i) => {
    const it = items[i]!;
    batchItems.set(e.id, it.kind === 'list' ? { items: it.items ?? [], nextPage: it.nextPage, pages: it.pages } : { items: [] });
  });
}

/** One page alone through the extractor (`gleaner extract FILE --kind list`, an empty site store). */
const alone: Array<[string, boolean]> = [];
async function runAlone(e: ManifestEntry, g: Gold | undefined, d: ListResult): Promise<void> {
  const ex = new Extractor({ kind: 'list' });
  const it = await ex.extract({ url: pageUrl(e, g), body: readFileSync(e.file) });
  await ex.close();
  const list = it.kind === 'list' ? it : { items: [], nextPage: undefined };
  const same = JSON.stringify((list.items ?? []).map((i) => i.url)) === JSON.stringify(d.items.map((i) => i.url)) && list.nextPage === d.nextPage;
  alone.push([e.id, same]);
}

function run(e: ManifestEntry, g: Gold | undefined): { user: ListResult & { pageUrl: string }; direct: ListResult & { pageUrl: string } } {
  const d = direct(e, g);
  const b = batchItems.get(e.id);
  if (!b) throw new Error(`no batch item for ${e.id}`);
  return { user: { ...b, pageUrl: d.pageUrl }, direct: d };
}

// ---- the runs: every data set once through the user's path, then page by page
const ITEM_SETS = ['aile', 'rss-proxy', 'se-scraper', 'go-crawler-tests', 'html2rss', 'websearcher', 'gerapy'];
const COUNT_SETS = ['mdr', 'gerapy'];
const NEXT_SETS = ['autopager'];
const PATHS = ['user', 'direct'] as const;
type PathName = (typeof PATHS)[number];
const PATH_LABEL: Record<PathName, string> = { user: 'gleaner extract --batch --kind list', direct: 'extractList(page)' };
try {
  for (const set of new Set([...ITEM_SETS, ...COUNT_SETS, ...NEXT_SETS])) await runBatch(set);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// ---- 1. items
const rows: (string | number)[][] = [];
const perSet = new Map<string, Record<PathName, number[][]>>();
const countRows: (string | number)[][] = [];
const partialRows: (string | number)[][] = [];
const peerGold = new Set<string>();
const humanF1: Record<PathName, number[]> = { user: [], direct: [] };
const itemSetNext: string[][] = [];
let titleTotal = 0;
let titleExact = 0;
let titleContains = 0;
const titleMisses: string[][] = [];
const normTitle = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();
for (const set of ITEM_SETS) {
  for (const e of readManifest(`lists/${set}/manifest.jsonl`)) {
    const g = readExpected<Gold>(e);
    const goldItems = g?.items ?? g?.expected_items;
    if (!goldItems?.length) continue;
    const base = pageUrl(e, g);
    // Gold URLs are written as in the page (some relative): resolve them against the page URL.
    const gold = new Set(goldItems.filter((i) => i.url).map((i) => normUrl(new URL(i.url!, base).href)));
    if (!gold.size) continue;
    const both = run(e, g);
    await runAlone(e, g, both.direct);
    const r = both.user;
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
    const scores = Object.fromEntries(PATHS.map((k) => [k, prf(new Set(both[k].items.map((i) => normUrl(i.url))), gold)])) as Record<PathName, [number, number, number]>;
    const peer = !g?.items && !!g?.expected_items; // a peer's own output, not a human label
    if (peer) peerGold.add(e.id);
    else for (const k of PATHS) humanF1[k].push(scores[k][2]);
    // titles of the items found, against gold titles (whitespace-normalised, case-insensitive)
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
    if (!perSet.has(set)) perSet.set(set, { user: [], direct: [] });
    for (const k of PATHS) perSet.get(set)![k].push(scores[k]);
    rows.push([e.id, gold.size, pred.size, ...scores.user, scores.direct[2]]);
    if (verbose && (scores.user[2] < 0.9 || scores.user[2] !== scores.direct[2])) {
      console.log(`\n## ${e.id}  F1 ${scores.user[2].toFixed(3)} (direct ${scores.direct[2].toFixed(3)})`);
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
    const both = run(e, g);
    await runAlone(e, g, both.direct);
    const k = both.user.items.length;
    const p = k ? Math.min(k, n) / k : 0;
    const rc = Math.min(k, n) / n;
    countRows.push([e.id, n, k, p, rc, p + rc ? (2 * p * rc) / (p + rc) : 0, both.direct.items.length]);
  }
}
const meanOf = (xs: number[][], i: number) => xs.reduce((s, x) => s + x[i]!, 0) / xs.length;
console.log(`\n### Item URLs (per-page set P/R/F1): ${PATH_LABEL.user} (one batch per data set), and ${PATH_LABEL.direct}\n`);
if (verbose) printTable(['page', 'gold', 'found', 'P', 'R', 'F1', `F1, ${PATH_LABEL.direct}`], rows);
const setRows: (string | number)[][] = [];
const all: Record<PathName, number[][]> = { user: [], direct: [] };
for (const [set, xs] of perSet) {
  for (const k of PATHS) all[k].push(...xs[k]);
  setRows.push([set, xs.user.length, meanOf(xs.user, 0), meanOf(xs.user, 1), meanOf(xs.user, 2), meanOf(xs.direct, 2)]);
}
setRows.push(['all pages', all.user.length, meanOf(all.user, 0), meanOf(all.user, 1), meanOf(all.user, 2), meanOf(all.direct, 2)]);
const m1 = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
setRows.push(['all, without peer-output gold', humanF1.user.length, '', '', m1(humanF1.user), m1(humanF1.direct)]);
printTable(['data set', 'pages', 'P', 'R', 'F1', `F1, ${PATH_LABEL.direct}`], setRows);
console.log(`\nItem titles (items found whose gold has a title): ${titleTotal}; equal ${(titleExact / titleTotal).toFixed(3)}, holding the gold title ${((titleExact + titleContains) / titleTotal).toFixed(3)}`);
if (verbose && titleMisses.length) printTable(['page', 'gold title', 'title'], titleMisses.slice(0, 40));
if (partialRows.length) {
  console.log('\n### Partial gold (items that must be found, URLs that must not be items)\n');
  printTable(['page', 'must find', 'found', 'must not', 'wrongly found', 'items'], partialRows);
}
console.log('\n### Record counts (gold = a count only: mdr test counts; Gerapy regression counts, not independent labels)\n');
printTable(['page', 'gold n', 'found', 'P', 'R', 'F1', `found, ${PATH_LABEL.direct}`], countRows);

// ---- 2. next page
// Scored on the pages autopager labelled (hasPaginationLabel): right when the prediction is one of
// the NEXT links, or when neither gold nor prediction has one. Unlabelled pages are not negatives
// (several show a real next link), so they are reported apart. Pages where the prediction is the
// link labelled PREV and that link says "older …" are counted too: autopager's labellers call
// "Newer posts" NEXT on some blogs, Gleaner follows the page sequence (page N → N+1 = older).
interface ApGold {
  paginationLinks?: Record<string, Array<{ url: string | null; text?: string }>>;
}
const apRows: (string | number)[][] = [];
const nextRows: (string | number)[][] = [];
const apPages = readManifest('lists/autopager/manifest.jsonl').map((e) => {
  const g = readExpected<Gold & ApGold>(e);
  return { e, g, both: run(e, g) };
});
for (const { e, g, both } of apPages) await runAlone(e, g, both.direct);
for (const k of PATHS) {
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
  for (const { e, g, both } of apPages) {
    const r = both[k];
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
    if (!ok && verbose && k === 'user') apRows.push([e.id, [...gold][0] ?? '-', pred ?? '-', seqOk ? 'yes' : 'no']);
  }
  nextRows.push([PATH_LABEL[k], total, right / total, seqRight / total, withNext, withNextRight / withNext, noNext, falseNext, olderAsNext, unlabelled, unlabelledWithNext]);
}
console.log('\n### Next page (lists/autopager, pages with hand-labelled pagination)\n');
if (verbose) printTable(['page', 'gold next', 'predicted', 'right under page N+1'], apRows);
printTable(
  ['path', 'labelled pages', 'accuracy', 'accuracy, page N+1 convention', 'with NEXT', 'NEXT found', 'without NEXT', 'false next', 'wrong = "older" link labelled PREV', 'unlabelled pages', 'with a next found'],
  nextRows,
);
const nextRight = itemSetNext.filter((r) => r[3] === 'yes').length;
console.log(`\n### Next page on the item sets with a labelled pager (${PATH_LABEL.user}): ${nextRight}/${itemSetNext.length} right\n`);
if (verbose) printTable(['page', 'gold next', 'predicted', 'right'], itemSetNext);
const differ = alone.filter(([, same]) => !same).map(([id]) => id);
console.log('\n### One page alone through the extractor (`gleaner extract FILE --kind list`, empty site store) vs extractList(page)\n');
printTable(['pages', 'same items and next page', 'differ', 'share the same'], [[alone.length, alone.length - differ.length, differ.length, (alone.length - differ.length) / alone.length]]);
if (differ.length) console.log(`differ: ${differ.join(' ')}`);
console.log(`\nextractList time per page (after parsing): median ${median(times).toFixed(2)} ms over ${times.length} pages (shared CPU)`);
