/**
 * Forum thread benchmark (issue 18): `npm run bench:forums [-- options]`.
 *
 * Runs the user's path — the `Extractor` that `gleaner extract --batch MANIFEST --kind auto|forum`
 * runs, pages grouped by manifest `site` — on three sets:
 *   - `forums/webforum52` (dev half of fhgr/harvest WEB-FORUM-52): 50 thread pages, 26 forums;
 *   - `forums/real-threads`: 34 real thread / Q&A / comment pages, 16 sites, 12 platforms;
 *   - `wcxb-dev` pages of `type: forum` (112, gzipped): whole-thread main text.
 *
 * Metrics (data README):
 *   - posts (webforum52, real-threads), per page then averaged over pages: count = 1 when the
 *     number of posts equals the gold number; posts aligned in order; text / user / date = share of
 *     aligned positions that match over max(ours, gold) posts. Text: token similarity ≥ 0.95
 *     (1 − token Levenshtein / max tokens; lower-cased `[\p{L}\p{N}]+` runs, each CJK character
 *     one token). User: the name equals the gold, or the profile URL equals it once both are
 *     resolved against the page's base URL. Date: the displayed text equals the gold or one
 *     contains the other. F1: bag-of-tokens F1 of all post texts joined.
 *   - WCXB content F1: the benchmark's own (`\w+` tokens of the lower-cased text, multiset
 *     P/R/F1 per page, mean over pages; an empty gold scores 1 only for an empty prediction). The
 *     item's text is `content` (forum items carry the thread's posts there), else the posts joined.
 *
 * Modes:
 *   (default)          in-sample: the shipped page-type model; each site's floor layout learned
 *                      from all its pages in the batch (the `--batch` default), then extracted.
 *   --leave-site-out   the headline figure: every site is scored with what was learned on the
 *                      other sites only — the page-type model retrained without the site's pages
 *                      (same hyper-parameters as the shipped model) — and every page with the
 *                      floor layout learned from the *other* pages of its site (a crawl that
 *                      reaches the page after those), never from the page itself.
 *   --no-layout        the floor layout learner off (page analysis only), to measure what it adds.
 *   --kind forum|auto|both (default both), --sets webforum52,real-threads,wcxb (default all),
 *   --verbose (rows per platform / forum), --pages (a row per page), --only SUBSTRING (page ids).
 *
 * Also printed: forum extraction time per page (extractForum after parsing, median and p90 on the
 * real-threads pages) and the time on generated threads of 100 and 1,000 posts (linearity).
 *
 * Peers (Python, not on npm, not run here; quoted): Harvest on WEB-FORUM-52 0.833 / 0.824 / 0.746
 * / 0.232; WCXB forum F1 rs-trafilatura 0.808, Trafilatura 0.585 (the release's figures).
 */
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readManifest, readExpected, printTable, median, dataDir, type ManifestEntry } from './lib/data.js';
import { bagF1, bagTokens } from './lib/metrics.js';
import { createPage } from '../src/core/page.js';
import { Extractor, type ExtractInput, type ExtractKind } from '../src/chain/extractor.js';
import type { Item, ForumPost } from '../src/core/item.js';
import type { MiddlewareSetting } from '../src/core/middleware.js';
import { extractForum, ownText } from '../middleware/forum/index.js';
import { FLOOR_MODEL_ENV } from '../middleware/forum/model.js';
import type { FloorFolds } from './train-floors.js';
import type { GoldPost } from './lib/forum-gold.js';

/** Text match threshold of the data README. */
const TEXT_SIMILARITY = 0.95;

// ------------------------------------------------------------------------------------------------
// Metrics

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

const ws = (s: string | undefined | null) => (s ?? '').replace(/\s+/g, ' ').trim();

function resolveLoose(u: string, base: string): string | undefined {
  try {
    const x = new URL(u.trim(), base);
    x.hash = '';
    return x.href;
  } catch {
    return undefined;
  }
}

/** Name equal to the gold name, or profile URL equal to the gold URL (both resolved against the
 * page's base URL: gold links are written as in the page). */
function userMatches(goldName: string | undefined | null, goldUrl: string | undefined | null, name: string | undefined, url: string | undefined, base: string): boolean {
  if (goldName && name && ws(name) === ws(goldName)) return true;
  for (const g of [goldUrl, goldName]) {
    if (!g || !url) continue;
    const a = resolveLoose(g, base);
    const b = resolveLoose(url, base);
    if (a && b && a === b) return true;
  }
  return false;
}

function dateMatches(gold: string | undefined | null, shown: string | undefined): boolean {
  const g = ws(gold);
  const o = ws(shown);
  if (!g || !o) return false;
  return g === o || g.includes(o) || o.includes(g);
}

/** WCXB's evaluate.py: `\w+` of the lower-cased text (Python's \w: letters, digits, underscore). */
function wcxbTokens(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export function wcxbF1(predicted: string, gold: string): number {
  const g = wcxbTokens(gold);
  const p = wcxbTokens(predicted);
  if (!g.size) return p.size ? 0 : 1;
  if (!p.size) return 0;
  let tp = 0;
  let np = 0;
  let ng = 0;
  for (const v of p.values()) np += v;
  for (const [k, v] of g) {
    ng += v;
    tp += Math.min(v, p.get(k) ?? 0);
  }
  if (!tp) return 0;
  const prec = tp / np;
  const rec = tp / ng;
  return (2 * prec * rec) / (prec + rec);
}

// ------------------------------------------------------------------------------------------------
// Data sets

export type { GoldPost } from './lib/forum-gold.js';

export interface Case {
  set: SetName;
  /** The gold's convention for quoted posts: WEB-FORUM-52 keeps them in the post text (as
   * displayed), real-threads leaves them out (the post's own text). */
  quotes: 'kept' | 'dropped';
  id: string;
  site: string;
  platform: string;
  input: ExtractInput;
  /** Per-post gold (thread sets). */
  posts?: GoldPost[];
  /** Whole-thread main text gold (WCXB). */
  text?: string;
}

export type SetName = 'webforum52' | 'real-threads' | 'wcxb';
const ALL_SETS: SetName[] = ['webforum52', 'real-threads', 'wcxb'];

function hostOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').host.replace(/^www\./, '');
  } catch {
    return 'local';
  }
}

function inputOf(e: ManifestEntry, site: string): ExtractInput {
  // As `gleaner extract --batch` builds its inputs: raw bytes, the manifest URL and site.
  // WCXB pages are gzipped: decompressed here (the bytes are the original page).
  const raw = readFileSync(e.file);
  const body = e.file.endsWith('.gz') ? gunzipSync(raw) : raw;
  // (A manifest URL may be empty: a page saved without one.)
  return { url: e.url || `http://localhost/${e.id}`, body, site };
}

export function loadCases(sets: SetName[], only?: string): Case[] {
  const out: Case[] = [];
  if (sets.includes('webforum52')) {
    for (const e of readManifest('forums/webforum52/manifest.jsonl')) {
      if (only && !e.id.includes(only)) continue;
      const gold = readExpected<{ posts: Array<{ post_text: string; user?: string; datetime?: string }> }>(e)?.posts;
      if (!gold) continue;
      const site = e.site ?? hostOf(e.url);
      out.push({
        set: 'webforum52',
        quotes: 'kept',
        id: e.id,
        site,
        platform: site,
        input: inputOf(e, site),
        // WEB-FORUM-52's `user` is the profile link when there is one, else the name.
        posts: gold.map((g) => ({ text: g.post_text, author: g.user, authorUrl: g.user, datetime: g.datetime })),
      });
    }
  }
  if (sets.includes('real-threads')) {
    for (const e of readManifest('forums/real-threads/manifest.jsonl')) {
      if (only && !e.id.includes(only)) continue;
      const x = readExpected<{ platform: string; posts: GoldPost[] }>(e);
      if (!x) continue;
      const site = e.site ?? hostOf(e.url);
      out.push({ set: 'real-threads', quotes: 'dropped', id: e.id, site, platform: x.platform, input: inputOf(e, site), posts: x.posts });
    }
  }
  if (sets.includes('wcxb')) {
    for (const e of readManifest('wcxb-dev/manifest.jsonl') as Array<ManifestEntry & { type?: string }>) {
      if (e.type !== 'forum' || (only && !e.id.includes(only))) continue;
      const site = e.site ?? hostOf(e.url);
      out.push({ set: 'wcxb', quotes: 'kept', id: e.id, site, platform: /stackexchange|stackoverflow|serverfault|superuser|askubuntu|mathoverflow/.test(site) ? 'stackexchange' : 'other', input: inputOf(e, site), text: typeof e.gold === 'string' ? e.gold : '' });
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Scoring

interface Score {
  count: number;
  text: number;
  user: number;
  date: number;
  f1: number;
  /** WCXB content F1 of the item's text. */
  wcxb: number;
  /** The item was typed `forum`. */
  forum: number;
  ours: number;
  gold: number;
}

export { ownText };

function itemText(item: Item): string {
  if (item.content) return item.content;
  return (item.kind === 'forum' ? (item.posts ?? []) : []).map((p) => p.content).join('\n');
}

function baseOf(c: Case): string {
  try {
    return createPage({ url: c.input.url, body: c.input.body }).baseUrl;
  } catch {
    return c.input.url;
  }
}

const bases = new Map<string, string>();

function score(c: Case, item: Item): Score {
  const forum = item.kind === 'forum' ? 1 : 0;
  if (c.text !== undefined) {
    return { count: NaN, text: NaN, user: NaN, date: NaN, f1: NaN, wcxb: wcxbF1(itemText(item), c.text), forum, ours: item.kind === 'forum' ? (item.posts?.length ?? 0) : 0, gold: NaN };
  }
  const gold = c.posts!;
  const posts: ForumPost[] = (item.kind === 'forum' ? (item.posts ?? []) : []).map((p) => (c.quotes === 'dropped' ? { ...p, content: ownText(p) } : p));
  let base = bases.get(c.id);
  if (base === undefined) bases.set(c.id, (base = baseOf(c)));
  const denom = Math.max(posts.length, gold.length);
  let text = 0;
  let user = 0;
  let date = 0;
  for (let i = 0; i < Math.min(posts.length, gold.length); i++) {
    const p = posts[i]!;
    const g = gold[i]!;
    if (textSimilarity(p.content, g.text) >= TEXT_SIMILARITY) text++;
    if (userMatches(g.author, g.authorUrl, p.author, p.authorUrl, base)) user++;
    if (dateMatches(g.datetime, p.publishedAtText)) date++;
  }
  const joinedGold = gold.map((g) => g.text).join('\n');
  return {
    count: posts.length === gold.length ? 1 : 0,
    text: denom ? text / denom : 1,
    user: denom ? user / denom : 1,
    date: denom ? date / denom : 1,
    f1: bagF1(posts.map((p) => p.content).join('\n'), joinedGold).f1,
    wcxb: wcxbF1(posts.map((p) => p.content).join('\n'), joinedGold),
    forum,
    ours: posts.length,
    gold: gold.length,
  };
}

function mean(xs: number[]): number {
  const v = xs.filter((x) => !Number.isNaN(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
}

function fmt(x: number): string | number {
  return Number.isNaN(x) ? '-' : x;
}

// ------------------------------------------------------------------------------------------------
// Runs

interface RunOptions {
  kind: ExtractKind;
  leaveSiteOut: boolean;
  layout: boolean;
}

function settings(o: RunOptions, model?: string): Record<string, MiddlewareSetting> {
  const s: Record<string, MiddlewareSetting> = {};
  if (model) s['page-type'] = { options: { model } };
  if (!o.layout) s.forum = { options: { learnLayout: false } };
  return s;
}

/** Page-type models trained without one site each (leave-site-out for `--kind auto`). */
class HeldOutModels {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'gleaner-forum-bench-'));
  private readonly files = new Map<string, string | undefined>();
  private loaded?: { train: typeof import('../middleware/classifier/train.js'); pages: import('../middleware/classifier/train.js').LabelledPage[]; params: import('../middleware/classifier/train.js').SvmParams; mask: boolean[] };

  /** `folds`: the floor models without each site, for the labelled pages' floor signals. */
  constructor(private readonly folds: FloorFolds) {}

  private async load() {
    if (this.loaded) return this.loaded;
    const train = await import('../middleware/classifier/train.js');
    const { loadModel } = await import('../middleware/classifier/index.js');
    const shipped = loadModel() as { training?: { params?: import('../middleware/classifier/train.js').SvmParams } };
    const params = shipped.training?.params;
    if (!params) throw new Error('the shipped page-type model records no training parameters: cannot retrain it per held-out site');
    process.stderr.write('leave-site-out: reading the labelled pages of the page-type classifier …\n');
    const { TRAINING_SETS } = await import('../middleware/classifier/training-sets.js');
    // The shipped model's training data: the labels file plus the sets labelled by rule.
    // (Each page's floor signals from the floor model that never saw its site, as bench:classify.)
    const env = process.env[FLOOR_MODEL_ENV];
    const { pages } = train.loadLabelledPages({ data: dataDir(), sets: TRAINING_SETS, beforePage: (p) => (process.env[FLOOR_MODEL_ENV] = this.folds.fileFor(p.site)) });
    if (env === undefined) delete process.env[FLOOR_MODEL_ENV];
    else process.env[FLOOR_MODEL_ENV] = env;
    this.loaded = { train, pages, params, mask: train.trainMask(pages) };
    return this.loaded;
  }

  /** Model file trained without the pages whose id, URL host or site is `site`; undefined when
   * no labelled page is from that site (the shipped model already excludes it). */
  async without(site: string, ids: Set<string>): Promise<string | undefined> {
    if (this.files.has(site)) return this.files.get(site);
    const { train, pages, params, mask } = await this.load();
    const bare = site.replace(/^www\./, '');
    // The site, its host, or the owner it is grouped under for training (registrable domain:
    // math.stackexchange.com goes out with every stackexchange.com page).
    const out = pages.map((p) => ids.has(p.id) || hostOf(p.url) === bare || p.site.replace(/^www\./, '') === bare || bare.endsWith(`.${p.site.replace(/^www\./, '')}`));
    let file: string | undefined;
    if (out.some(Boolean)) {
      const keep = pages.map((_, i) => !out[i]);
      const X = pages.filter((_, i) => keep[i]).map((p) => p.x);
      const y = pages.filter((_, i) => keep[i]).map((p) => train.CLASS_NAMES.indexOf(p.label as (typeof train.CLASS_NAMES)[number]));
      const m = mask.filter((_, i) => keep[i]);
      const { FEATURE_SPEC } = await import('../middleware/classifier/index.js');
      const { model } = train.trainModel(X, y, params, train.FEATURES, { heldOutSite: site }, m, FEATURE_SPEC);
      file = path.join(this.dir, `${this.files.size}.json`);
      writeFileSync(file, JSON.stringify(model));
      // A model the page-type stage would refuse must fail here, not score every page as 'other'.
      (await import('../middleware/classifier/index.js')).loadModel(file);
    }
    this.files.set(site, file);
    return file;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function runCases(cases: Case[], o: RunOptions, models?: HeldOutModels, floors?: FloorFolds): Promise<Map<string, Item>> {
  const items = new Map<string, Item>();
  const bySite = new Map<string, Case[]>();
  for (const c of cases) {
    let arr = bySite.get(c.site);
    if (!arr) bySite.set(c.site, (arr = []));
    arr.push(c);
  }
  for (const [site, group] of bySite) {
    const model = o.leaveSiteOut && o.kind === 'auto' && models ? await models.without(site, new Set(group.map((c) => c.id))) : undefined;
    // The floor model the site never trained (the page-type stage's floor signals read it too).
    if (floors) process.env[FLOOR_MODEL_ENV] = floors.fileFor(site);
    if (!o.leaveSiteOut) {
      // `gleaner extract --batch`: learn from every page of the site, then extract each.
      const ex = new Extractor({ kind: o.kind, middleware: settings(o, model) });
      const got = await ex.extractBatch(group.map((c) => c.input));
      await ex.close();
      group.forEach((c, i) => items.set(c.id, got[i]!));
      continue;
    }
    // Each page with the layout learned from the other pages of its site only: a streaming crawl
    // that reaches the page after them (the page itself is observed after it is extracted).
    for (let i = 0; i < group.length; i++) {
      const order = [...group.filter((_, j) => j !== i), group[i]!];
      const ex = new Extractor({ kind: o.kind, middleware: settings(o, model) });
      const got = await ex.extractBatch(order.map((c) => c.input), { stream: true });
      await ex.close();
      items.set(group[i]!.id, got[got.length - 1]!);
    }
  }
  return items;
}

// ------------------------------------------------------------------------------------------------
// Speed

function syntheticThread(n: number): string {
  const posts: string[] = [];
  for (let i = 1; i <= n; i++) {
    const d = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    posts.push(
      `<div class="post" id="post_${1000 + i}"><div class="postinfo"><a href="/space-uid-${i % 37}.html">user${i % 37}</a> <span class="time">发表于 ${d}</span> <em>${i}#</em></div>` +
        `<div class="postbody"><p>这是第${i}楼的回复内容，大家好，今天天气不错。</p><p>Second line of reply ${i}, with some words.</p></div><div class="actions"><a href="#">回复</a> <a href="#">举报</a></div></div>`,
    );
  }
  return `<html><head><title>合成的帖子 - 论坛</title></head><body><h1>合成的帖子</h1><div id="posts">${posts.join('')}</div></body></html>`;
}

function timeForum(html: string | Buffer, url: string, reps: number): number {
  extractForum(createPage({ url, body: html }));
  const ts: number[] = [];
  for (let r = 0; r < reps; r++) {
    // A fresh page each time (the floors are memoised per page); parsing is not timed.
    const page = createPage({ url, body: html });
    const t0 = performance.now();
    extractForum(page);
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

// ------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (k: string) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const verbose = args.includes('--verbose');
  const perPage = args.includes('--pages');
  const leaveSiteOut = args.includes('--leave-site-out');
  const layout = !args.includes('--no-layout');
  const kindArg = arg('--kind') ?? 'both';
  const kinds: ExtractKind[] = kindArg === 'both' ? ['forum', 'auto'] : [kindArg as ExtractKind];
  const sets = (arg('--sets')?.split(',') ?? ALL_SETS) as SetName[];
  const cases = loadCases(sets, arg('--only'));
  // (Loaded on demand: the trainer reads this bench's data loader.)
  const floorModels = leaveSiteOut ? new (await import('./train-floors.js')).FloorFolds() : undefined;
  const models = leaveSiteOut && kinds.includes('auto') && floorModels ? new HeldOutModels(floorModels) : undefined;

  const mode = leaveSiteOut ? 'LEAVE-SITE-OUT (page-type model without the site; floor layout from the other pages of the site)' : 'in-sample (shipped page-type model; layout learned from the whole batch)';
  console.log(`forum bench, ${mode}${layout ? '' : ', layout learner off'}: ${cases.length} pages`);
  console.log(`metric: count exact / text (token similarity ≥ ${TEXT_SIMILARITY}) / user / date / bag F1 of the posts, averaged over pages; WCXB content F1 (\\w+ tokens)\n`);

  const summary: (string | number)[][] = [];
  try {
    for (const kind of kinds) {
      const t0 = performance.now();
      const items = await runCases(cases, { kind, leaveSiteOut, layout }, models, floorModels);
      delete process.env[FLOOR_MODEL_ENV];
      const secs = (performance.now() - t0) / 1000;
      const scores = new Map<string, Score>();
      for (const c of cases) scores.set(c.id, score(c, items.get(c.id) ?? { url: c.input.url, kind: 'other' }));
      for (const set of sets) {
        const sc = cases.filter((c) => c.set === set);
        if (!sc.length) continue;
        const s = sc.map((c) => scores.get(c.id)!);
        summary.push([
          `${set} --kind ${kind}`,
          sc.length,
          fmt(mean(s.map((x) => x.count))),
          fmt(mean(s.map((x) => x.text))),
          fmt(mean(s.map((x) => x.user))),
          fmt(mean(s.map((x) => x.date))),
          fmt(mean(s.map((x) => x.f1))),
          mean(s.map((x) => x.wcxb)),
          mean(s.map((x) => x.forum)),
        ]);
      }
      console.log(`--kind ${kind}: ${secs.toFixed(1)} s`);
      if (verbose) {
        const groups = new Map<string, Case[]>();
        for (const c of cases) {
          if (c.set === 'wcxb') continue;
          const k = `${c.set}: ${c.platform}`;
          groups.set(k, [...(groups.get(k) ?? []), c]);
        }
        const rows = [...groups].map(([k, cs]) => {
          const s = cs.map((c) => scores.get(c.id)!);
          return [k, cs.length, `${s.reduce((a, x) => a + x.ours, 0)}/${s.reduce((a, x) => a + x.gold, 0)}`, mean(s.map((x) => x.count)), mean(s.map((x) => x.text)), mean(s.map((x) => x.user)), mean(s.map((x) => x.date)), mean(s.map((x) => x.f1)), mean(s.map((x) => x.forum))];
        });
        console.log(`\nper platform (real-threads) / forum (webforum52), --kind ${kind}:`);
        printTable(['set: platform', 'pages', 'posts', 'count', 'text', 'user', 'date', 'F1', 'typed forum'], rows);
      }
      if (perPage) {
        const rows = cases.map((c) => {
          const s = scores.get(c.id)!;
          return [c.id.slice(0, 58), items.get(c.id)?.kind ?? '-', `${s.ours}/${Number.isNaN(s.gold) ? '-' : s.gold}`, fmt(s.text), fmt(s.user), fmt(s.date), fmt(s.f1), s.wcxb];
        });
        console.log(`\nper page, --kind ${kind}:`);
        printTable(['page', 'kind', 'posts', 'text', 'user', 'date', 'F1', 'WCXB F1'], rows);
      }
      console.log('');
    }
  } finally {
    models?.dispose();
    floorModels?.dispose();
  }

  printTable(['set and run', 'pages', 'count exact', 'text', 'user', 'date', 'F1', 'WCXB F1', 'typed forum'], summary);
  console.log('peers (quoted, not run): Harvest webforum52 0.833 / 0.824 / 0.746 / 0.232; WCXB forum F1 rs-trafilatura 0.808, Trafilatura 0.585');

  if (sets.includes('real-threads')) {
    const rt = cases.filter((c) => c.set === 'real-threads');
    const ms = rt.map((c) => timeForum(c.input.body as Buffer, c.input.url, 5));
    const sorted = [...ms].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(0.9 * (sorted.length - 1))]!;
    const t100 = timeForum(syntheticThread(100), 'http://localhost/t100', 5);
    const t1000 = timeForum(syntheticThread(1000), 'http://localhost/t1000', 3);
    console.log(`\nforum extraction after parsing (extractForum): real-threads median ${median(ms).toFixed(1)} ms/page, p90 ${p90.toFixed(1)} ms; generated threads: 100 posts ${t100.toFixed(1)} ms, 1,000 posts ${t1000.toFixed(1)} ms (×${(t1000 / t100).toFixed(1)} for ×10 posts)`);
  }
}

// Run only as a script (the similarity function is importable by tools).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
