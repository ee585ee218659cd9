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
 * Usage: npx tsx bench/site-types.ts [--errors] [--in-sample]
 */
import { Extractor } from '../src/chain/extractor.js';
import { printTable } from './lib/data.js';
import { crawlOrder, foldModel, ORIGIN, sitesOf } from './lib/sites-crawl.js';

const TYPES = ['detail', 'list', 'other'] as const;
const KIND_TYPE: Record<string, string> = { article: 'detail', list: 'list', forum: 'forum', other: 'other' };

const errors = process.argv.includes('--errors');
const inSample = process.argv.includes('--in-sample');
const rows: (string | number)[][] = [];
const total = new Map<string, [number, number]>();
const wrong: string[][] = [];
for (const site of sitesOf()) {
  const siteModel = inSample ? undefined : foldModel(site);
  const extractor = new Extractor({ kind: 'auto', middleware: siteModel ? { 'page-type': { options: { siteModel } } } : undefined });
  const score = new Map<string, [number, number]>();
  const order = crawlOrder(site);
  for (const { key, body, type } of order) {
    const item = await extractor.extract({ url: ORIGIN + key, body });
    const got = KIND_TYPE[item.kind] ?? item.kind;
    const s = score.get(type) ?? [0, 0];
    s[1]++;
    if (got === type) s[0]++;
    else wrong.push([site, key, type, got, item.pageType ? `${item.pageType.label} ${JSON.stringify(item.pageType.probabilities)}` : '-']);
    score.set(type, s);
  }
  await extractor.close();
  rows.push([site, order.length, ...TYPES.map((t) => (score.get(t) ? `${(score.get(t)![0] / score.get(t)![1]).toFixed(3)} (${score.get(t)![1]})` : '—'))]);
  for (const [t, [ok, n]] of score) {
    const v = total.get(t) ?? [0, 0];
    total.set(t, [v[0] + ok, v[1] + n]);
  }
}
rows.push(['all sites', [...total.values()].reduce((s, v) => s + v[1], 0), ...TYPES.map((t) => (total.get(t) ? `${(total.get(t)![0] / total.get(t)![1]).toFixed(3)} (${total.get(t)![1]})` : '—'))]);
console.log(`\n### Page types on whole sites (sites-crawl, breadth-first from /, item kind as type; ${inSample ? 'IN SAMPLE: the shipped site model, trained on every site' : 'leave one site out: each site typed with the site model trained without it'})\n`);
printTable(['site', 'pages', 'detail (posts)', 'list', 'other'], rows);
if (errors && wrong.length) {
  console.log('\nWrong types:\n');
  printTable(['site', 'path', 'true', 'typed', 'page type'], wrong.map((r) => [r[0]!, decodeURIComponent(r[1]!), r[2]!, r[3]!, r[4]!]));
}
