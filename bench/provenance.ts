/**
 * Provenance bench (issue 27): `npm run bench:provenance [-- --sets wcxb,aeb,real-threads] [--limit N] [--verbose]`.
 *
 * Runs the user's path — `gleaner extract --batch MANIFEST --explain` (extractManifest with
 * `explain`) — and checks, for every `title`, `author`, `publishedAt` and post `author` an item
 * has, that the selector its provenance gives resolves in the page to an element holding the value:
 *   - browser: `document.querySelector` in jsdom's parse of the decoded page (parse5, the HTML
 *     standard's tree: a browser's, with its implicit `<tbody>` and moved elements), as a browser
 *     with scripting on parses it (see noscriptEmptied); for a value the provenance marks
 *     `noscript` (inside a `<noscript>`: JavaScript forums' server-rendered posts), with it off;
 *   - same tree: the selector in the tree the extractor read (htmlparser2, through cheerio).
 * "Holding the value": the element's text (white space removed, as in src/inspect/locate.ts) (for a `<meta>`/`<time>` with `attr`, that
 * attribute) contains the value; for `publishedAt` the value shown (`publishedAtText`), else the
 * ISO day. A field without provenance counts as a miss. Target: ≥ 99% (issue 27).
 *
 * Nothing is trained or tuned here (the locate step has no parameters fitted to these pages), so
 * there is no held-out split to report: every figure is over all pages of the set.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { extractManifest, pageBytes } from '../src/cli/extract.js';
import { createPage } from '../src/core/page.js';
import type { Item } from '../src/core/item.js';
import type { Origin, Provenance } from '../src/inspect/locate.js';
import { dataPath, printTable, readManifest } from './lib/data.js';

const SETS: Record<string, string> = {
  wcxb: 'wcxb-dev/manifest.jsonl',
  aeb: 'articles/aeb/manifest.jsonl',
  'real-threads': 'forums/real-threads/manifest.jsonl',
};

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sets = (opt('--sets') ?? Object.keys(SETS).join(',')).split(',');
const limit = opt('--limit') ? Number(opt('--limit')) : Infinity;
const verbose = args.includes('--verbose');

/** White space removed: the comparison provenance locates by (src/inspect/locate.ts). */
const squash = (s: string) => s.replace(/\s+/g, '');

interface Check {
  field: string;
  value: string;
  origin: Origin | undefined;
}

function checks(item: Item): Check[] {
  const prov = (item as Item & { provenance?: Provenance }).provenance ?? {};
  const out: Check[] = [];
  const it = item as Item & { author?: string; publishedAt?: string; publishedAtText?: string; posts?: Array<{ author?: string }> };
  if (it.title) out.push({ field: 'title', value: it.title, origin: prov.title });
  if (it.author) out.push({ field: 'author', value: it.author, origin: prov.author });
  if (it.publishedAt) out.push({ field: 'publishedAt', value: it.publishedAtText ?? it.publishedAt.slice(0, 10), origin: prov.publishedAt });
  it.posts?.forEach((p, i) => {
    if (p.author) out.push({ field: 'post author', value: p.author, origin: prov.posts?.[i]?.author });
  });
  return out;
}

interface ElementLike {
  textContent: string | null;
  getAttribute(name: string): string | null;
}

function holds(el: ElementLike | null | undefined, c: Check): boolean {
  if (!el || !c.origin) return false;
  const v = squash(c.value);
  const text = c.origin.attr ? (el.getAttribute(c.origin.attr) ?? '') : (el.textContent ?? '');
  if (squash(text).includes(v)) return true;
  // an ISO value read from an attribute: its day is what the attribute shows
  return c.field === 'publishedAt' && !!c.origin.attr && squash(text).includes(v.slice(0, 10));
}

/**
 * The page as a browser with scripting on parses it, for jsdom, which parses with scripting off
 * unless it runs the page's scripts: with scripting on, a `<noscript>`'s content is raw text; with it
 * off, the content is parsed, and an `<img>` or `<div>` inside a `<noscript>` of the head closes the
 * head — every later head element (a JSON-LD `<script>`) moves into the body. Emptying each
 * `<noscript>` gives jsdom the element tree of scripting on (noscript contents are never located:
 * src/inspect/tree.ts). Comments and the raw text of script, style, textarea, title and xmp are
 * skipped as the tokenizer skips them, so a "<noscript>" inside them is left alone.
 */
function noscriptEmptied(html: string): string {
  const open = /<(?:(!--)|(script|style|textarea|title|xmp|noscript)\b[^>]*>)/gi;
  let out = '';
  let at = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const tag = (m[1] ?? m[2]!).toLowerCase();
    const contentAt = m.index + m[0].length;
    const close = new RegExp(tag === '!--' ? '-->' : `</${tag}`, 'gi');
    close.lastIndex = contentAt;
    const end = close.exec(html);
    if (!end) break;
    if (tag === 'noscript') {
      out += html.slice(at, contentAt);
      at = end.index;
    }
    open.lastIndex = end.index + end[0].length;
  }
  return out + html.slice(at);
}

const virtualConsole = new VirtualConsole();
const rows: (string | number)[][] = [];
const totals = new Map<string, { n: number; browser: number; same: number }>();
for (const set of sets) {
  const rel = SETS[set];
  if (!rel) throw new Error(`unknown set ${set} (known: ${Object.keys(SETS).join(', ')})`);
  let entries = readManifest(rel);
  let manifest = dataPath(rel);
  if (Number.isFinite(limit)) {
    // The first N pages: a manifest in a temporary folder, with absolute paths (nothing is
    // written beside the data, nothing copied).
    entries = entries.slice(0, limit);
    manifest = path.join(mkdtempSync(path.join(tmpdir(), 'gleaner-prov-')), 'manifest.jsonl');
    writeFileSync(manifest, entries.map(({ file, dir: _d, gold: _g, ...e }) => JSON.stringify({ ...e, path: file })).join('\n') + '\n');
  }
  const t0 = Date.now();
  const { items } = await extractManifest(manifest, { explain: true, kind: 'auto' });
  const extractMs = Date.now() - t0;
  const per = new Map<string, { n: number; browser: number; same: number }>();
  for (const [i, e] of entries.entries()) {
    const item = items[i]!;
    const cs = checks(item);
    if (!cs.length) continue;
    const page = createPage({ url: item.url, body: pageBytes(readFileSync(e.file), e.file) });
    // jsdom parses CSS as it builds the tree, and some pages' CSS (SCSS left in a style) crashed
    // it: only then are style sheets emptied and style attributes dropped (a regex, which can also
    // cut elements when a script holds "<style": so never by default).
    const parse = (html: string): JSDOM => {
      try {
        return new JSDOM(html, { url: item.url, virtualConsole });
      } catch {
        try {
          const dom = new JSDOM(html.replace(/(<style\b[^>]*>)[\s\S]*?(<\/style>)/gi, '$1$2').replace(/\sstyle\s*=\s*("[^"]*"|'[^']*')/gi, ''), { url: item.url, virtualConsole });
          console.error(`${e.id}: jsdom could not parse the page's CSS; checked with style sheets emptied`);
          return dom;
        } catch (err) {
          console.error(`${e.id}: jsdom could not parse the page (${(err as Error).message}); its fields count as browser misses`);
          return new JSDOM('', { url: item.url, virtualConsole });
        }
      }
    };
    // a browser with scripting on; a value inside a <noscript> (origin.noscript) in one with it off
    const dom = parse(noscriptEmptied(page.html));
    let domOff: JSDOM | undefined;
    const doc = dom.window.document;
    const $ = page.$();
    for (const c of cs) {
      const sel = c.origin?.selector;
      let b: ElementLike | null = null;
      let s: ElementLike | null = null;
      if (sel) {
        try {
          b = (c.origin!.noscript ? (domOff ??= parse(page.html)).window.document : doc).querySelector(sel);
        } catch {
          b = null;
        }
        const el = $(sel).first();
        s = el.length ? { textContent: el.text(), getAttribute: (n) => el.attr(n) ?? null } : null;
      }
      const okB = holds(b, c);
      const okS = holds(s, c);
      for (const key of [c.field, 'all']) {
        const r = per.get(key) ?? { n: 0, browser: 0, same: 0 };
        r.n++;
        if (okB) r.browser++;
        if (okS) r.same++;
        per.set(key, r);
      }
      if (verbose && !okB) console.log(`miss ${e.id} ${c.field} ${JSON.stringify(c.value.slice(0, 60))} → ${sel ?? '(no provenance)'}${okS ? ' (same tree: ok)' : ''}`);
    }
    dom.window.close();
    domOff?.window.close();
    // jsdom frees a closed window's tree only once the event loop turns: without this the 1,358
    // WCXB windows piled up and the run died of heap (V8 OOM at 4 GB).
    await new Promise((r) => setImmediate(r));
    if (verbose && i % 200 === 199) console.error(`${set}: ${i + 1} pages checked, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`);
  }
  for (const [field, r] of per) {
    rows.push([set, field, r.n, r.browser / r.n, r.same / r.n]);
    const t = totals.get(field) ?? { n: 0, browser: 0, same: 0 };
    t.n += r.n;
    t.browser += r.browser;
    t.same += r.same;
    totals.set(field, t);
  }
  console.error(`${set}: ${items.length} pages extracted with --explain in ${(extractMs / 1000).toFixed(1)} s`);
}
for (const [field, t] of totals) rows.push(['(all sets)', field, t.n, t.browser / t.n, t.same / t.n]);
console.log('Provenance: share of fields whose selector resolves to an element holding the value (gleaner extract --batch --explain)');
printTable(['set', 'field', 'fields', 'browser (jsdom querySelector)', 'same tree (cheerio)'], rows);
