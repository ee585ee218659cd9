/**
 * `npm run bench:site-types`: page types on whole real sites (`../shared/data/sites-crawl`: three
 * generated blogs with a true type per URL), as a crawl meets them. Each site's pages go through
 * one `Extractor` (kind auto, one site store: the user's path of `gleaner extract --batch` and of
 * the Crawlee integration) in breadth-first link order from `/`, as a crawl queues them, so the
 * page-type stage's site evidence grows as it would in a crawl. Prints type accuracy per true type
 * (detail / list / other) per site and overall, the item kind read as the type (article = detail).
 *
 * None of these sites is in the classifier's training data, and the site rules are fixed
 * constants (site-rules.ts), not fitted here: every figure is leave-site-out.
 *
 * Usage: npx tsx bench/site-types.ts [--errors]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Element } from 'domhandler';
import { createPage } from '../src/core/page.js';
import { Extractor } from '../src/chain/extractor.js';
import { dataPath, printTable } from './lib/data.js';

/** Origin the pages are given (nothing is fetched: bytes are read from disk). */
const ORIGIN = 'http://127.0.0.1:8000';
const TYPES = ['detail', 'list', 'other'] as const;
const KIND_TYPE: Record<string, string> = { article: 'detail', list: 'list', forum: 'forum', other: 'other' };

interface Truth {
  pages: Record<string, { type: string }>;
}

function fileOf(root: string, key: string): string {
  const f = path.join(root, decodeURIComponent(key));
  return key.endsWith('/') ? path.join(f, 'index.html') : f;
}

/** Same-origin link targets of a page, as truth keys, in document order. */
function links(body: Buffer, url: string, truth: Truth): string[] {
  const page = createPage({ url, body });
  const out: string[] = [];
  for (const n of page.nodes) {
    if (!(n instanceof Element) || n.name !== 'a' || !n.attribs.href) continue;
    const abs = page.resolve(n.attribs.href);
    if (!abs || !abs.startsWith(ORIGIN + '/')) continue;
    const key = new URL(abs).pathname;
    if (truth.pages[key]) out.push(key);
    else if (truth.pages[key + '/']) out.push(key + '/');
  }
  return out;
}

const errors = process.argv.includes('--errors');
const root = dataPath('sites-crawl');
if (!existsSync(root)) {
  console.error(`data set not found: ${root}`);
  process.exit(2);
}
const rows: (string | number)[][] = [];
const total = new Map<string, [number, number]>();
const wrong: string[][] = [];
for (const site of readdirSync(root).filter((d) => existsSync(path.join(root, d, 'truth.json'))).sort()) {
  const truth = JSON.parse(readFileSync(path.join(root, site, 'truth.json'), 'utf8')) as Truth;
  const pub = path.join(root, site, 'public');
  const extractor = new Extractor({ kind: 'auto' });
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  const score = new Map<string, [number, number]>();
  while (queue.length) {
    const key = queue.shift()!;
    const file = fileOf(pub, key);
    if (!existsSync(file)) continue;
    const body = readFileSync(file);
    const item = await extractor.extract({ url: ORIGIN + key, body });
    const want = truth.pages[key]!.type;
    const got = KIND_TYPE[item.kind] ?? item.kind;
    const s = score.get(want) ?? [0, 0];
    s[1]++;
    if (got === want) s[0]++;
    else wrong.push([site, key, want, got]);
    score.set(want, s);
    for (const k of links(body, ORIGIN + key, truth)) if (!seen.has(k)) (seen.add(k), queue.push(k));
  }
  const unreached = Object.keys(truth.pages).filter((k) => !seen.has(k)).length;
  rows.push([site, Object.keys(truth.pages).length - unreached, ...TYPES.map((t) => (score.get(t) ? `${(score.get(t)![0] / score.get(t)![1]).toFixed(3)} (${score.get(t)![1]})` : '—'))]);
  for (const [t, [ok, n]] of score) {
    const v = total.get(t) ?? [0, 0];
    total.set(t, [v[0] + ok, v[1] + n]);
  }
}
rows.push(['all sites', [...total.values()].reduce((s, v) => s + v[1], 0), ...TYPES.map((t) => (total.get(t) ? `${(total.get(t)![0] / total.get(t)![1]).toFixed(3)} (${total.get(t)![1]})` : '—'))]);
console.log('\n### Page types on whole sites (sites-crawl, breadth-first from /, item kind as type)\n');
printTable(['site', 'pages', 'detail (posts)', 'list', 'other'], rows);
if (errors && wrong.length) {
  console.log('\nWrong types:\n');
  printTable(['site', 'path', 'true', 'typed'], wrong.map((r) => [r[0]!, decodeURIComponent(r[1]!), r[2]!, r[3]!]));
}
