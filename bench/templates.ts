/**
 * `npm run bench:templates`: content F1 (bag of tokens, data README) on `sites/manifest.jsonl`
 * (502 pages in same-site groups, plain-text gold) of
 *   (a) single-page extraction, no template (Extractor kind article, template-learner and
 *       set-difference disabled),
 *   (b) template-assisted extraction (Extractor.extractBatch: learns each group's template first),
 *   (c) Readability.js (@mozilla/readability over linkedom) in the same run,
 * plus diagnostic rows: the raw effective text (page − template, rule-filtered, joined) for several
 * template variants, the learning curve (template from the first 2, 3, 5, all pages of each site)
 * and the learner's cost as a share of a page's extraction time.
 *
 * Options: `--quick` (skip the θ / path / link-list sweeps), `--diag` (only the effective-text rows
 * and sweeps, no extractor runs), `--sites a,b` (only these groups; for debugging), `--dump DIR`
 * (write the effective text of every page).
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { readManifest, printTable, median, dataPath } from './lib/data.js';
import { bagF1 } from './lib/metrics.js';
import { createPage, type Page } from '../src/core/page.js';
import { decodeBody } from '../src/core/decode.js';
import type { ExtractInput } from '../src/chain/extractor.js';
import { silentLogger } from '../src/core/middleware.js';
import { TemplateLearner, applyTemplate, uniqueSegments, DEFAULT_SUPPORT_THRESHOLD, type TemplateLearnerOptions } from '../middleware/template/index.js';
import { filterSegments, type FilterOptions } from '../middleware/rule-filters/index.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlySites = args.includes('--sites') ? new Set(args[args.indexOf('--sites') + 1]!.split(',')) : undefined;
const dumpDir = args.includes('--dump') ? args[args.indexOf('--dump') + 1] : undefined;

interface Case {
  id: string;
  site: string;
  url: string;
  body: Buffer;
  gold: string;
  page: Page;
}

const entries = readManifest('sites/manifest.jsonl');
const cases: Case[] = [];
for (const e of entries) {
  if (!e.site || typeof e.gold !== 'string') continue;
  if (onlySites && !onlySites.has(e.site)) continue;
  const body = readFileSync(e.file);
  const url = e.url ?? `http://${e.site}.invalid/${encodeURIComponent(e.id)}`;
  cases.push({ id: e.id, site: e.site, url, body, gold: readFileSync(dataPath('sites', e.gold), 'utf8'), page: createPage({ url, body }) });
}
const sites = new Map<string, Case[]>();
for (const c of cases) {
  let g = sites.get(c.site);
  if (!g) sites.set(c.site, (g = []));
  g.push(c);
}
console.log(`sites/manifest.jsonl: ${cases.length} pages in ${sites.size} site groups (content F1 = bag of tokens, mean over pages)\n`);

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
interface Score {
  p: number;
  r: number;
  f: number;
}
function score(texts: string[]): Score {
  const s = texts.map((t, i) => bagF1(t, cases[i]!.gold));
  return { p: mean(s.map((x) => x.precision)), r: mean(s.map((x) => x.recall)), f: mean(s.map((x) => x.f1)) };
}

/** The effective text of every page: template learned from the first `k` pages of its site
 * (all when undefined), subtracted, rule-filtered. */
function effectiveTexts(opts: TemplateLearnerOptions, k?: number, filters: boolean | FilterOptions = true): { texts: string[]; applied: number } {
  const out = new Map<Case, string>();
  let applied = 0;
  for (const group of sites.values()) {
    const learner = new TemplateLearner(opts);
    for (const c of group.slice(0, k ?? group.length)) learner.observe(c.page);
    for (const c of group) {
      const eff = applyTemplate(c.page.segments, learner);
      if (eff) applied++;
      const segs = eff ? uniqueSegments(eff, learner.pathMode) : c.page.segments;
      out.set(c, (filters ? filterSegments(segs, { ...(filters === true ? {} : filters), lang: c.page.lang(), now: c.page.fetchedAt }) : segs).map((s) => s.text).join('\n'));
    }
  }
  return { texts: cases.map((c) => out.get(c)!), applied };
}

function sweeps(): void {
  console.log('\nθ sweep (effective text + filters):');
  const sweep: (string | number)[][] = [];
  for (const th of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]) {
    const r = effectiveTexts({ threshold: th });
    const s = score(r.texts);
    sweep.push([th, s.p, s.r, s.f, r.applied]);
  }
  printTable(['θ', 'P', 'R', 'F1', 'applied'], sweep);
  console.log('\nPath in the key (effective text + filters, θ default):');
  const pm: (string | number)[][] = [];
  for (const pathMode of ['full', 'collapsed', 'suffix', 'text'] as const) {
    const r = effectiveTexts({ pathMode });
    const s = score(r.texts);
    pm.push([pathMode, s.p, s.r, s.f, r.applied]);
  }
  printTable(['path mode', 'P', 'R', 'F1', 'applied'], pm);
  console.log('\nLink lists (effective text + filters):');
  const ll: (string | number)[][] = [];
  ll.push(['off', '', ...Object.values(score(effectiveTexts({}, undefined, { dropLinkLists: false }).texts))]);
  for (const minLinkRun of [2, 3, 4, 6])
    for (const linkShare of [0.5, 0.75, 0.95]) ll.push([minLinkRun, linkShare, ...Object.values(score(effectiveTexts({}, undefined, { minLinkRun, linkShare }).texts))]);
  printTable(['min run', 'link share', 'P', 'R', 'F1'], ll);
}

function dump(texts: string[]): void {
  if (!dumpDir) return;
  mkdirSync(dumpDir, { recursive: true });
  cases.forEach((c, i) => {
    const m = bagF1(texts[i]!, c.gold);
    writeFileSync(path.join(dumpDir, c.id.replace(/[^\w.-]+/g, '_') + '.txt'), `F1 ${m.f1.toFixed(3)} P ${m.precision.toFixed(3)} R ${m.recall.toFixed(3)}\n\n${texts[i]}`);
  });
}

const rows: (string | number)[][] = [];
const push = (name: string, s: Score, note = '') => rows.push([name, s.p, s.r, s.f, note]);

if (args.includes('--diag')) {
  // diagnostic rows only (no extractor runs): fast iteration on the template and the filters
  const r = effectiveTexts({});
  push('diag: effective text', score(r.texts), `applied ${r.applied}`);
  push('diag: effective text, no filters', score(effectiveTexts({}, undefined, false).texts));
  printTable(['system', 'P', 'R', 'F1', 'note'], rows);
  dump(r.texts);
  if (!quick) sweeps();
  process.exit(0);
}

// The extractor chain imports every middleware; loaded only past the diagnostic-only mode.
const { Extractor } = await import('../src/chain/extractor.js');
const { createContext } = await import('../src/chain/process.js');


// (c) Readability.js
const tRead = performance.now();
const readTexts = cases.map((c) => {
  try {
    const { document } = parseHTML(decodeBody(c.body).text);
    const art = new Readability(document as unknown as Document).parse();
    return art?.textContent ?? '';
  } catch {
    return '';
  }
});
const readMs = (performance.now() - tRead) / cases.length;

// (a) single page, no template
const inputs: ExtractInput[] = cases.map((c) => ({ url: c.url, body: c.body, site: c.site }));
const exA = new Extractor({ kind: 'article', middleware: { 'template-learner': false, 'set-difference': false } });
const tA = performance.now();
const itemsA = [];
const aTimes: number[] = [];
for (const inp of inputs) {
  const t0 = performance.now();
  itemsA.push(await exA.extract(inp));
  aTimes.push(performance.now() - t0);
}
const aMs = (performance.now() - tA) / cases.length;
await exA.close();

// (b) template-assisted, batch: exactly `gleaner extract --batch sites/manifest.jsonl --kind article`
// (extractManifest: the manifest's URLs, or the command's file URLs where a page has none)
const { extractManifest } = await import('../src/cli/extract.js');
const tB = performance.now();
const batch = await extractManifest(dataPath('sites/manifest.jsonl'), { kind: 'article' });
const bMs = (performance.now() - tB) / batch.items.length;
const batchById = new Map(batch.entries.map((e, i) => [e.id, batch.items[i]!]));
const itemsB = cases.map((c) => batchById.get(c.id)!);

// (b') streaming: learn in manifest order
const exS = new Extractor({ kind: 'article' });
const itemsS = await exS.extractBatch(inputs, { stream: true });
await exS.close();

// (b) without the rule filters: their own contribution to template-assisted extraction
const exBF = new Extractor({ kind: 'article', middleware: { 'rule-filters': false } });
const itemsBF = await exBF.extractBatch(inputs);
await exBF.close();

const content = (it: { content?: string; title?: string }) => [it.title, it.content].filter(Boolean).join('\n');
const sA = score(itemsA.map(content));
const sB = score(itemsB.map(content));
push('(a) single page, no template (article)', sA, `${aMs.toFixed(1)} ms/page`);
push('(b) template-assisted, batch (article)', sB, `${bMs.toFixed(1)} ms/page`);
push("(b') template-assisted, --stream (article)", score(itemsS.map(content)));
push('(b) without rule filters', score(itemsBF.map(content)));
push('(c) Readability.js (linkedom)', score(readTexts), `${readMs.toFixed(1)} ms/page`);
const eff = effectiveTexts({});
push(`diag: effective text (support θ=${DEFAULT_SUPPORT_THRESHOLD} + filters)`, score(eff.texts), `template applied on ${eff.applied}/${cases.length}`);
const withText = cases.map((c, i) => (c.page.segments.length ? i : -1)).filter((i) => i >= 0);
{
  const s = withText.map((i) => bagF1(eff.texts[i]!, cases[i]!.gold));
  const sb = withText.map((i) => bagF1(content(itemsB[i]!), cases[i]!.gold));
  rows.push([`diag: same, only the ${withText.length} pages the core parser finds text on`, mean(s.map((x) => x.precision)), mean(s.map((x) => x.recall)), mean(s.map((x) => x.f1)), `(b) on them: ${mean(sb.map((x) => x.f1)).toFixed(3)}`]);
}
const effNoF = effectiveTexts({}, undefined, false);
push('diag: effective text, no rule filters', score(effNoF.texts));
const effStrict = effectiveTexts({ mode: 'strict' });
push('diag: effective text (strict ∩ + filters)', score(effStrict.texts), `applied ${effStrict.applied}`);
push('diag: all page segments + filters (no template)', score(cases.map((c) => filterSegments(c.page.segments, { lang: c.page.lang() }).map((s) => s.text).join('\n'))));
console.log('Content F1, template contribution (b − a) = ' + (sB.f - sA.f).toFixed(3));
printTable(['system', 'P', 'R', 'F1', 'note'], rows);

if (!quick) sweeps();

// Learning curve: the template from the first k pages of each site (frozen), applied to all pages.
console.log('\nLearning curve (template from the first k pages of each site, frozen, applied to all its pages):');
const curve: (string | number)[][] = [];
for (const k of [2, 3, 5, undefined]) {
  const ex = new Extractor({ kind: 'article', middleware: { 'template-learner': { options: { update: false } } } });
  const learnerMw = ex.chain.find((m) => m.name === 'template-learner')!;
  const texts: string[] = new Array(cases.length);
  for (const [site, group] of sites) {
    for (const c of group.slice(0, k ?? group.length)) {
      await learnerMw.learn!(createContext(c.page, { url: c.url }, { spider: 'bench', store: ex.store, log: silentLogger, siteKey: site }));
    }
  }
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    texts[i] = content(await ex.extractPage(c.page, { url: c.url }, c.site));
  }
  await ex.close();
  const sb = score(texts);
  const se = score(effectiveTexts({}, k).texts);
  curve.push([k === undefined ? 'all' : k, se.f, sb.f]);
}
printTable(['pages', 'effective text F1', 'template-assisted (article) F1'], curve);

// Cost: observe + set difference, and the rule filters, per page, against a page's single-page
// extraction (parse + chain).
{
  // Per page, the minimum over three passes (the first also warms up the JIT and the stop-word
  // sets): the CPU is shared, and a load spike or a GC pause belongs to no one stage.
  const PASSES = 3;
  const times = new Array<number>(cases.length).fill(Infinity);
  const ftimes = new Array<number>(cases.length).fill(Infinity);
  for (let rep = 0; rep < PASSES; rep++) {
    for (const group of sites.values()) {
      const learner = new TemplateLearner();
      for (const c of group) {
        const segs = c.page.segments.map((s) => ({ ...s })); // fresh objects: no cached hashes
        const lang = c.page.lang();
        const t0 = performance.now();
        learner.observe({ segments: segs });
        const eff = applyTemplate(segs, learner) ?? segs;
        const t1 = performance.now();
        filterSegments(eff, { lang });
        const t2 = performance.now();
        const k = cases.indexOf(c);
        times[k] = Math.min(times[k]!, t1 - t0);
        ftimes[k] = Math.min(ftimes[k]!, t2 - t1);
      }
    }
  }
  // single-page extraction per page, min over passes as well (pass 1 is the (a) run above)
  const exT = new Extractor({ kind: 'article', middleware: { 'template-learner': false, 'set-difference': false } });
  for (let rep = 1; rep < PASSES; rep++) {
    for (let k = 0; k < cases.length; k++) {
      const t0 = performance.now();
      await exT.extract(inputs[k]!);
      aTimes[k] = Math.min(aTimes[k]!, performance.now() - t0);
    }
  }
  await exT.close();
  console.log(
    `\nCost per page (ms; learner = observe + set difference with uncached hashes, min of ${PASSES} passes): learner mean ${mean(times).toFixed(2)} / median ${median(times).toFixed(2)}; ` +
      `rule filters mean ${mean(ftimes).toFixed(2)} / median ${median(ftimes).toFixed(2)}; single-page extraction (a, min of passes too) mean ${mean(aTimes).toFixed(1)} / median ${median(aTimes).toFixed(1)} ` +
      `\nLearner share of a page's extraction: ${((100 * mean(times)) / mean(aTimes)).toFixed(1)}% (means), ${((100 * median(times)) / median(aTimes)).toFixed(1)}% (medians); ` +
      `filters ${((100 * mean(ftimes)) / mean(aTimes)).toFixed(1)}% / ${((100 * median(ftimes)) / median(aTimes)).toFixed(1)}%. Measured under shared load (2 cores, 5 engineers).`,
  );
}

// Per-site breakdown
console.log('\nPer site (F1):');
const per: (string | number)[][] = [];
for (const [site, group] of sites) {
  const idx = group.map((c) => cases.indexOf(c));
  const f = (texts: string[]) => mean(idx.map((i) => bagF1(texts[i]!, cases[i]!.gold).f1));
  per.push([site, group.length, f(itemsA.map(content)), f(itemsB.map(content)), f(readTexts), f(eff.texts)]);
}
printTable(['site', 'pages', '(a)', '(b)', 'readability', 'effective'], per);

dump(eff.texts);
