/**
 * `npm run bench:site-types`: page types on whole real sites (`../shared/data/sites-crawl`: generated
 * blogs with a true type per URL), as a crawl meets them. Each site's pages go through one
 * `Extractor` (kind auto, one site store: the user's path of `gleaner extract --batch --stream` and
 * of the Crawlee integration) in breadth-first link order from `/`, as a crawl queues them, so the
 * page-type stage's site evidence grows as it would in a crawl. Prints type accuracy per true type
 * (detail / list / other) per site and pooled, the item kind read as the type (article = detail).
 *
 * Leave one site out (the headline): each site is typed with the site-type model trained without it
 * (`bench/site-type-folds/<site>.json`, written by `npm run train:site-types`). `--in-sample` types
 * every site with the shipped model instead (trained on all of them: for debugging). None of these
 * sites is in the page-type classifier's training data.
 *
 * `--jitter N` types each site again in N jittered breadth-first orders (crawlOrder's window 10, seeds
 * 1..N: the order a concurrent crawl met pages in before a site's pages entered the chain in request
 * order, src/crawler/run/sequence.ts; and the order another site's links give) and prints the revised
 * figures per order: how much a site's types hang on the order its pages come in.
 *
 * `--site NAME` types that site only (debugging); `--trace` prints each page as it is typed (path,
 * true type, the type given and its probabilities), in the order met.
 *
 * Usage: npx tsx bench/site-types.ts [--errors] [--in-sample] [--jitter N] [--recheck] [--site NAME] [--trace]
 */
import { Extractor } from '../src/chain/extractor.js';
import { finishItem, processPage } from '../src/chain/process.js';
import { createPage } from '../src/core/page.js';
import { silentLogger } from '../src/core/middleware.js';
import { provisionalPages, takeRevisions } from '../middleware/classifier/index.js';
import { printTable } from './lib/data.js';
import { crawlOrder, foldModel, ORIGIN, sitesOf } from './lib/sites-crawl.js';

const TYPES = ['detail', 'list', 'other'] as const;
const KIND_TYPE: Record<string, string> = { article: 'detail', list: 'list', forum: 'forum', other: 'other' };

const errors = process.argv.includes('--errors');
const jitterAt = process.argv.indexOf('--jitter');
const JITTERS = jitterAt >= 0 ? Number(process.argv[jitterAt + 1] ?? 0) : 0;
const inSample = process.argv.includes('--in-sample');
/** `--recheck`: the page-type stage's `recheck` option on, and the held pages typed again at the end
 * of each site's pages, their item replacing the one stored (what src/crawler/run/revisions.ts does
 * at a crawl's end). */
const recheck = process.argv.includes('--recheck');
const siteAt = process.argv.indexOf('--site');
const onlySite = siteAt >= 0 ? process.argv[siteAt + 1] : undefined;
const trace = process.argv.includes('--trace');
const rows: (string | number)[][] = [];
const total = { emitted: new Map<string, [number, number]>(), revised: new Map<string, [number, number]>() };
const wrong: string[][] = [];
let revisedPages = 0;
const cell = (m: Map<string, [number, number]>, t: string) => (m.get(t) ? `${(m.get(t)![0] / m.get(t)![1]).toFixed(3)} (${m.get(t)![1]})` : '—');
async function typeSites(jitter?: { window: number; seed: number }): Promise<void> {
  for (const site of sitesOf()) {
    if (onlySite && site !== onlySite) continue;
    const siteModel = inSample ? undefined : foldModel(site);
    const options = { ...(siteModel ? { siteModel } : {}), ...(recheck ? { recheck: true } : {}) };
    const extractor = new Extractor({ kind: 'auto', middleware: Object.keys(options).length ? { 'page-type': { options } } : undefined });
    const order = crawlOrder(site, jitter);
    const emitted = new Map<string, string>();
    const revised = new Map<string, string>();
    const pageTypes = new Map<string, string>();
    const siteKey = new URL(ORIGIN).host;
    for (const { key, body } of order) {
      const item = await extractor.extract({ url: ORIGIN + key, body });
      const got = KIND_TYPE[item.kind] ?? item.kind;
      emitted.set(key, got);
      revised.set(key, got);
      pageTypes.set(key, item.pageType ? `${item.pageType.label} ${JSON.stringify(item.pageType.probabilities)}` : '-');
      if (trace) console.log(`  ${jitter ? `order ${jitter.seed} ` : ''}${site} ${decodeURIComponent(key)} true ${order.find((o) => o.key === key)!.type} typed ${got} ${pageTypes.get(key)}`);
      // the hook a crawl wires (issue 23): pages typed again once the site showed evidence are
      // extracted again with their new type, their item replacing the first
      for (const r of takeRevisions(extractor.store.site(siteKey).data)) {
        const k = new URL(r.url).pathname;
        const again = order.find((o) => o.key === k);
        if (!again) continue;
        const ctx = await processPage(createPage({ url: r.url, body: again.body }), { url: r.url, label: r.to }, { spider: 'extract', chain: extractor.chain, store: extractor.store, log: silentLogger, siteKey });
        const it = finishItem(ctx);
        revised.set(k, KIND_TYPE[it.kind] ?? it.kind);
        revisedPages++;
      }
    }
    if (recheck) {
      // the crawl's end: each held page through the chain again with its request as it came
      for (const url of provisionalPages(extractor.store.site(siteKey).data).recheck) {
        const k = new URL(url).pathname;
        const again = order.find((o) => o.key === k);
        if (!again) continue;
        const ctx = await processPage(createPage({ url, body: again.body }), { url }, { spider: 'extract', chain: extractor.chain, store: extractor.store, log: silentLogger, siteKey });
        const it = finishItem(ctx);
        revised.set(k, KIND_TYPE[it.kind] ?? it.kind);
        pageTypes.set(k, it.pageType ? `${it.pageType.label} ${JSON.stringify(it.pageType.probabilities)} (rechecked)` : '-');
      }
    }
    await extractor.close();
    const score = { emitted: new Map<string, [number, number]>(), revised: new Map<string, [number, number]>() };
    for (const { key, type } of order) {
      for (const [name, got] of [['emitted', emitted.get(key)], ['revised', revised.get(key)]] as const) {
        const s = score[name].get(type) ?? [0, 0];
        s[1]++;
        if (got === type) s[0]++;
        score[name].set(type, s);
        const t = total[name].get(type) ?? [0, 0];
        t[1]++;
        if (got === type) t[0]++;
        total[name].set(type, t);
      }
      if (revised.get(key) !== type) wrong.push([jitter ? `${site} (order ${jitter.seed})` : site, key, type, revised.get(key)!, emitted.get(key) !== revised.get(key) ? `revised from ${emitted.get(key)}` : pageTypes.get(key)!]);
    }
    if (!jitter) rows.push([site, order.length, ...TYPES.map((t) => cell(score.emitted, t)), ...TYPES.map((t) => cell(score.revised, t))]);
    else if (errors) console.log(`  jitter ${jitter.seed} ${site}: ${TYPES.map((t) => `${t} ${cell(score.revised, t)}`).join(', ')}`);
  }
}
await typeSites();
rows.push(['all sites', [...total.emitted.values()].reduce((s, v) => s + v[1], 0), ...TYPES.map((t) => cell(total.emitted, t)), ...TYPES.map((t) => cell(total.revised, t))]);
console.log(`\n### Page types on whole sites (sites-crawl, breadth-first from /, item kind as type; ${inSample ? 'IN SAMPLE: the shipped site model, trained on every site' : 'leave one site out: each site typed with the site model trained without it'})\n`);
printTable(['site', 'pages', 'detail (posts)', 'list', 'other', 'revised: detail', 'revised: list', 'revised: other'], rows);
console.log(`\nrevised: with the pages typed again once the site showed evidence (takeRevisions) extracted again, their item replacing the first (${revisedPages} pages) — the hook a crawl needs for it.`);
function printWrong(): void {
  if (!errors || !wrong.length) return;
  console.log('\nWrong types (after revisions):\n');
  printTable(['site', 'path', 'true', 'typed', 'page type'], wrong.map((r) => [r[0]!, decodeURIComponent(r[1]!), r[2]!, r[3]!, r[4]!]));
  wrong.length = 0;
}
printWrong();

if (JITTERS > 0) {
  const TYPES_ = TYPES;
  const perOrder: (string | number)[][] = [];
  const figures: number[][] = [];
  for (let seed = 1; seed <= JITTERS; seed++) {
    total.revised.clear();
    total.emitted.clear();
    await typeSites({ window: 10, seed });
    const f = TYPES_.map((t) => (total.revised.get(t) ? total.revised.get(t)![0] / total.revised.get(t)![1] : NaN));
    figures.push(f);
    perOrder.push([`jittered order ${seed}`, ...f.map((v) => v.toFixed(3))]);
  }
  perOrder.push(['worst', ...TYPES_.map((_, i) => Math.min(...figures.map((f) => f[i]!)).toFixed(3))]);
  perOrder.push(['mean', ...TYPES_.map((_, i) => (figures.reduce((a, f) => a + f[i]!, 0) / figures.length).toFixed(3))]);
  printWrong();
  console.log(`\n### Revised types, all sites, in ${JITTERS} jittered breadth-first orders (window 10)\n`);
  printTable(['order', 'jittered: detail', 'jittered: list', 'jittered: other'], perOrder);
}
