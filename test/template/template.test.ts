import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage, type Page } from '../../src/core/page.js';
import {
  TemplateLearner,
  subtractTemplate,
  applyTemplate,
  templateLearnerMiddleware,
  setDifferenceMiddleware,
  learnerOf,
  normalisePath,
  segmentKey,
  SITE_DATA_KEY,
} from '../../middleware/template/index.js';
import { filterSegments } from '../../middleware/rule-filters/index.js';
import { MemorySiteStore, LowdbSiteStore } from '../../src/storage/site-store.js';
import { createContext } from '../../src/chain/process.js';
import { silentLogger, type PageContext } from '../../src/core/middleware.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'template');

interface Expected {
  file: string;
  content: string[];
  boilerplate: string[];
  code?: string;
}

function loadSite(name: string): { pages: Page[]; expected: Expected[] } {
  const expected = JSON.parse(readFileSync(path.join(fixtures, name, 'expected.json'), 'utf8')) as Expected[];
  const pages = expected.map((e, i) => createPage({ url: `http://${name}.test/${i + 1}`, body: readFileSync(path.join(fixtures, name, e.file)) }));
  return { pages, expected };
}

const texts = (segs: { text: string }[]) => segs.map((s) => s.text);

describe('TemplateLearner', () => {
  it('has no template after one page, a template from two pages (the seed intersection)', () => {
    const { pages } = loadSite('en-site');
    const t = new TemplateLearner();
    t.observe(pages[0]!);
    expect(t.ready).toBe(false);
    expect(applyTemplate(pages[0]!.segments, t)).toBeUndefined();
    t.observe(pages[1]!);
    expect(t.ready).toBe(true);
    expect(t.has('html/body/nav/ul/li', 'Home')).toBe(true);
    expect(t.has('html/body/footer/p', '© 2024 The Daily Lantern. All rights reserved.')).toBe(true);
    // the article of page 1 is not template
    expect(t.has('html/body/div/main/article/h1', 'River town votes to rebuild its old stone bridge')).toBe(false);
  });

  it('set difference keeps the article and drops header, nav, footer, sidebar and repeated ads', () => {
    const { pages, expected } = loadSite('en-site');
    const t = new TemplateLearner();
    for (const p of pages) t.observe(p);
    pages.forEach((p, i) => {
      const eff = texts(subtractTemplate(p.segments, t));
      for (const line of expected[i]!.content) expect(eff, `page ${i + 1} keeps "${line}"`).toContain(line);
      for (const line of expected[i]!.boilerplate) expect(eff, `page ${i + 1} drops "${line}"`).not.toContain(line);
    });
  });

  it('keeps DFS indices and order of the effective segments', () => {
    const { pages } = loadSite('en-site');
    const t = new TemplateLearner();
    for (const p of pages) t.observe(p);
    const eff = subtractTemplate(pages[2]!.segments, t);
    for (const s of eff) expect(pages[2]!.segments).toContain(s);
    for (let i = 1; i < eff.length; i++) expect(eff[i]!.index).toBeGreaterThan(eff[i - 1]!.index);
  });

  it('refines with every page: the support template tolerates a nav item missing on one page, the strict one does not', () => {
    const { pages } = loadSite('en-site');
    const support = new TemplateLearner();
    const strict = new TemplateLearner({ mode: 'strict' });
    for (const p of pages) {
      support.observe(p);
      strict.observe(p);
    }
    // "Elections" is only on page 3: never template
    expect(support.has('html/body/nav/ul/li', 'Elections')).toBe(false);
    // an ad shown on 2 of 4 pages: template with support, not in the strict intersection
    const ad = 'Visit Harbor Motors for spring deals on family cars.';
    expect(support.has('html/body/div/aside/div/p', ad)).toBe(true);
    expect(strict.has('html/body/div/aside/div/p', ad)).toBe(false);
    expect(strict.has('html/body/nav/ul/li', 'Home')).toBe(true);
    expect(support.template().size).toBeGreaterThan(strict.template().size);
  });

  it('learns a Chinese site and keeps the article, date and author line', () => {
    const { pages, expected } = loadSite('zh-site');
    const t = new TemplateLearner();
    for (const p of pages) t.observe(p);
    pages.forEach((p, i) => {
      const eff = texts(subtractTemplate(p.segments, t));
      for (const line of expected[i]!.content) expect(eff).toContain(line);
      for (const line of expected[i]!.boilerplate) expect(eff).not.toContain(line);
      expect(eff.some((x) => x.includes(expected[i]!.content[0]!) || x.includes('作者'))).toBe(true);
    });
  });

  it('ignores the same page seen twice', () => {
    const { pages } = loadSite('en-site');
    const t = new TemplateLearner();
    expect(t.observe(pages[0]!).skipped).toBeUndefined();
    expect(t.observe(pages[0]!).skipped).toBe('duplicate');
    // a re-fetch of the same bytes is the same page too
    const again = createPage({ url: 'http://en-site.test/1?again', body: readFileSync(path.join(fixtures, 'en-site', 'page1.html')) });
    expect(t.observe(again).skipped).toBe('duplicate');
    expect(t.pageCount).toBe(1);
    expect(t.ready).toBe(false);
  });

  it('counts nothing for pages with no text', () => {
    const t = new TemplateLearner();
    const empty = createPage({ url: 'http://x.test/', body: '<html><body><img src="a.png"><div> </div></body></html>' });
    expect(empty.segments).toHaveLength(0);
    expect(t.observe(empty).skipped).toBe('empty');
    expect(t.observe(createPage({ url: 'http://x.test/2', body: '' })).skipped).toBe('empty');
    expect(t.pageCount).toBe(0);
    expect(subtractTemplate([], t)).toEqual([]);
    expect(applyTemplate([], t)).toBeUndefined();
  });

  it('notices a redesign mid-crawl and learns the new layout (the old one still serves old pages)', () => {
    const old = loadSite('en-site');
    const { pages: fresh, expected } = loadSite('redesign');
    const t = new TemplateLearner();
    for (const p of old.pages) t.observe(p);
    // the old template does not fit a new-layout page: no narrowing (fall back)
    expect(t.coverage(fresh[0]!)).toBeLessThan(0.2);
    expect(applyTemplate(fresh[0]!.segments, t)).toBeUndefined();
    const r1 = t.observe(fresh[0]!);
    expect(r1.coverage).toBeUndefined(); // started a new layout
    expect(t.layoutCount).toBe(2);
    const r2 = t.observe(fresh[1]!);
    expect(r2.relearned).toBe(true);
    expect(t.relearnedCount).toBe(1);
    t.observe(fresh[2]!);
    // the current template holds the new chrome and none of the old
    expect(t.hasSegment(fresh[0]!.segments[0]!)).toBe(true);
    expect(fresh[0]!.segments[0]!.text).toBe('LANTERN Subscribe for 1 a week Sign in');
    expect(t.has('html/body/nav/ul/li', 'Home')).toBe(false);
    const eff = texts(applyTemplate(fresh[3]!.segments, t) ?? []);
    for (const line of expected[3]!.content) expect(eff).toContain(line);
    for (const line of expected[3]!.boilerplate) expect(eff).not.toContain(line);
    // a page in the old look (still in the frontier) is narrowed by the old template
    const oldEff = texts(applyTemplate(old.pages[0]!.segments, t) ?? []);
    expect(oldEff).toContain(old.expected[0]!.content[0]);
    expect(oldEff).not.toContain('Most read');
  });

  it('learns a new layout even when the layout slots are full', () => {
    const t = new TemplateLearner({ maxLayouts: 2 });
    const page = (look: string, i: number) => ({ segments: [{ path: 'nav', text: `${look} home` }, { path: 'nav', text: `${look} news` }, { path: 'p', text: `${look} story ${i}` }] });
    for (const look of ['a', 'b']) for (let i = 0; i < 3; i++) t.observe(page(look, i));
    expect(t.layoutCount).toBe(2);
    t.observe(page('c', 0));
    const r = t.observe(page('c', 1));
    expect(r.relearned).toBe(true);
    expect(t.layoutCount).toBe(2);
    expect(t.has('nav', 'c home')).toBe(true);
    // the least recently used layout ('a') made room
    expect(t.coverage(page('a', 9))).toBe(0);
    expect(t.coverage(page('b', 9))).toBe(1);
  });

  it('forgets a layout no page has matched for a long while', () => {
    const t = new TemplateLearner({ staleAfter: 10 });
    const page = (look: string, i: number) => ({ segments: [{ path: 'nav', text: `${look} home` }, { path: 'nav', text: `${look} news` }, { path: 'p', text: `${look} story ${i}` }] });
    for (let i = 0; i < 5; i++) t.observe(page('old', i));
    for (let i = 0; i < 5; i++) t.observe(page('new', i));
    expect(t.layoutCount).toBe(2);
    for (let i = 5; i < 20; i++) t.observe(page('new', i));
    expect(t.layoutCount).toBe(1);
    expect(t.has('nav', 'new home')).toBe(true);
  });

  it('does not re-learn on a single odd page', () => {
    const old = loadSite('en-site').pages;
    const odd = loadSite('redesign').pages[0]!;
    const t = new TemplateLearner();
    for (const p of old.slice(0, 3)) t.observe(p);
    t.observe(odd);
    t.observe(old[3]!);
    expect(t.relearnedCount).toBe(0);
    expect(t.has('html/body/nav/ul/li', 'Home')).toBe(true);
  });

  it('round-trips through JSON with the same template', () => {
    const { pages } = loadSite('en-site');
    const t = new TemplateLearner();
    for (const p of pages.slice(0, 3)) t.observe(p);
    const json = JSON.parse(JSON.stringify(t));
    const u = TemplateLearner.fromJSON(json)!;
    expect(u).toBeDefined();
    expect([...u.template()].sort()).toEqual([...t.template()].sort());
    expect(u.pageCount).toBe(t.pageCount);
    // it still knows page 1 (duplicate) and keeps learning
    expect(u.observe(pages[0]!).skipped).toBe('duplicate');
    u.observe(pages[3]!);
    expect(u.pageCount).toBe(4);
    expect(TemplateLearner.fromJSON({ v: 99 })).toBeUndefined();
    expect(TemplateLearner.fromJSON('nonsense')).toBeUndefined();
    // damaged state: unreadable parts are skipped, never thrown
    const damaged = TemplateLearner.fromJSON({ v: 2, layouts: [{ pages: 2, keys: '!!:x,zz:,:3' }, { pages: 'x' }, null], fingerprints: [1] })!;
    expect(damaged.ready).toBe(false);
    expect(damaged.layoutCount).toBe(1);
  });

  it('stores compactly (one string of base-36 keys per layout)', () => {
    const t = new TemplateLearner();
    for (let i = 0; i < 40; i++) t.observe({ segments: Array.from({ length: 100 }, (_, j) => ({ path: 'p', text: j < 20 ? `nav ${j}` : `page ${i} line ${j}` })) });
    expect(t.keyCount).toBeGreaterThan(2000);
    const bytes = JSON.stringify(t, null, 2).length;
    expect(bytes / t.keyCount).toBeLessThan(20);
  });

  it('keeps memory bounded', () => {
    const t = new TemplateLearner({ maxKeys: 200, window: 8 });
    for (let i = 0; i < 60; i++) {
      const segs = [{ path: 'html/body/nav', text: 'Home' }, { path: 'html/body/footer', text: '© Site' }];
      for (let j = 0; j < 50; j++) segs.push({ path: 'html/body/p', text: `page ${i} line ${j}` });
      t.observe({ segments: segs });
      expect(t.keyCount).toBeLessThanOrEqual(200);
      expect(t.pageCount).toBeLessThan(16);
    }
    expect(t.has('html/body/nav', 'Home')).toBe(true);
    expect(t.has('html/body/p', 'page 59 line 3')).toBe(false);
  });

  it('copes with huge and deeply nested pages', () => {
    const t = new TemplateLearner({ maxKeys: 1000 });
    const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `<p>${tag} row ${i}</p>`).join('');
    const big = (tag: string) => createPage({ url: 'http://big.test/', body: `<html><body><nav>Home</nav><nav>News</nav>${rows(30000, tag)}</body></html>` });
    const a = big('a');
    t.observe(a);
    t.observe(big('b'));
    expect(t.keyCount).toBeLessThanOrEqual(2 * 1000);
    expect(t.has('html/body/nav', 'Home')).toBe(true);
    const eff = applyTemplate(a.segments, t);
    expect(eff?.length).toBe(30000);
    const deep = createPage({ url: 'http://big.test/d', body: '<div>'.repeat(10000) + 'deep text' + '</div>'.repeat(10000) });
    expect(() => t.observe(deep)).not.toThrow();
  });

  it('a line added to the template late still becomes template (decay)', () => {
    const t = new TemplateLearner({ window: 8 });
    const page = (i: number, extra: boolean) => ({ segments: [{ path: 'nav', text: 'Home' }, ...(extra ? [{ path: 'nav', text: 'New section' }] : []), { path: 'p', text: `story ${i}` }] });
    for (let i = 0; i < 100; i++) t.observe(page(i, false));
    for (let i = 100; i < 112; i++) t.observe(page(i, true));
    expect(t.has('nav', 'New section')).toBe(true);
  });

  it('tag paths: collapsed mode tolerates an extra wrapper div', () => {
    expect(normalisePath('html/body/div/div/div/ul/li', 'collapsed')).toBe('html/body/div/ul/li');
    expect(segmentKey('html/body/div/ul/li', 'Jobs')).toBe(segmentKey('html/body/div/div/ul/li', 'Jobs'));
    expect(segmentKey('html/body/div/ul/li', 'Jobs', 'full')).not.toBe(segmentKey('html/body/div/div/ul/li', 'Jobs', 'full'));
    expect(segmentKey('html/body/ul/li', 'Jobs')).not.toBe(segmentKey('html/body/ol/li', 'Jobs'));
  });
});

describe('template middleware', () => {
  function chainRun(store: MemorySiteStore, page: Page, site = 'en-site'): PageContext {
    const ctx = createContext(page, { url: page.url }, { spider: 't', store, log: silentLogger, siteKey: site });
    learner.process(ctx);
    diff.process(ctx);
    return ctx;
  }
  const learner = templateLearnerMiddleware({});
  const diff = setDifferenceMiddleware({});

  it('streams: first page falls back, later pages are narrowed', () => {
    const store = new MemorySiteStore();
    const { pages, expected } = loadSite('en-site');
    const first = chainRun(store, pages[0]!);
    expect(first.templateApplied).toBe(false);
    expect(first.segments).toBe(pages[0]!.segments);
    const second = chainRun(store, pages[1]!);
    expect(second.templateApplied).toBe(true);
    expect(texts(second.segments)).toContain(expected[1]!.content[2]);
    expect(texts(second.segments)).not.toContain('Home');
  });

  it('a single-page site falls back to single-page extraction', () => {
    const store = new MemorySiteStore();
    const ctx = chainRun(store, loadSite('zh-site').pages[0]!, 'lonely');
    expect(ctx.templateApplied).toBe(false);
  });

  it('batch: learn() sees every page first; process() does not count them again', () => {
    const store = new MemorySiteStore();
    const mw = templateLearnerMiddleware({});
    const { pages } = loadSite('en-site');
    for (const p of pages) mw.learn!(createContext(p, { url: p.url }, { spider: 't', store, log: silentLogger, siteKey: 'en-site' }));
    const t = learnerOf(store.site('en-site'));
    expect(t.pageCount).toBe(4);
    const ctx = createContext(pages[0]!, { url: pages[0]!.url }, { spider: 't', store, log: silentLogger, siteKey: 'en-site' });
    mw.process(ctx);
    diff.process(ctx);
    expect(t.pageCount).toBe(4);
    // page 1 is narrowed using what pages 2–4 taught
    expect(ctx.templateApplied).toBe(true);
    expect(texts(ctx.segments)).not.toContain('Most read');
  });

  it('persists the learner through a lowdb store and reloads it in the next crawl', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gleaner-tpl-'));
    try {
      const file = path.join(dir, 'state.json');
      const { pages } = loadSite('en-site');
      const s1 = await LowdbSiteStore.open(file);
      for (const p of pages.slice(0, 3)) chainRun(s1, p);
      await s1.flush();
      const before = learnerOf(s1.site('en-site'));
      const raw = JSON.parse(readFileSync(file, 'utf8'));
      expect(raw.sites['en-site'][SITE_DATA_KEY].v).toBe(2);
      const s2 = await LowdbSiteStore.open(file);
      const ctx = chainRun(s2, pages[3]!);
      expect(ctx.templateApplied).toBe(true); // template from the previous crawl applies at once
      const after = learnerOf(s2.site('en-site'));
      expect(after.pageCount).toBe(before.pageCount + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats the page as a set: a line repeated within the page is kept once (not on list pages)', () => {
    const chrome = '<nav><p>Home</p><p>World</p></nav><footer><p>© Site</p></footer>';
    const mk = (i: number, extra = '') => createPage({ url: `http://set.test/${i}`, body: `<html><body>${chrome}<h1>Story ${i}</h1><p>Body text of story number ${i}, told at length.</p>${extra}</body></html>` });
    const gallery = '<div><p>Slide title</p><p>First caption.</p></div><div><p>Slide title</p><p>Second caption.</p></div><div><p>Slide title</p><p>Third caption.</p></div>';
    const run = (label?: 'detail' | 'list') => {
      const store = new MemorySiteStore();
      for (const i of [1, 2, 3]) chainRun(store, mk(i), 'set');
      const page = mk(4, gallery);
      const ctx = createContext(page, { url: page.url }, { spider: 't', store, log: silentLogger, siteKey: 'set' });
      ctx.label = label;
      learner.process(ctx);
      diff.process(ctx);
      return texts(ctx.segments);
    };
    expect(run('detail')).toEqual(['Story 4', 'Body text of story number 4, told at length.', 'Slide title', 'First caption.', 'Second caption.', 'Third caption.']);
    expect(run('list').filter((t) => t === 'Slide title')).toHaveLength(3);
  });

  it('a near-duplicate pair does not erase the article (falls back instead)', () => {
    const store = new MemorySiteStore();
    const body = readFileSync(path.join(fixtures, 'en-site', 'page1.html'), 'utf8');
    const a = createPage({ url: 'http://d.test/a', body });
    const b = createPage({ url: 'http://d.test/b', body: body.replace('Advertisement', 'Sponsored') });
    chainRun(store, a, 'dup');
    const ctx = chainRun(store, b, 'dup');
    expect(ctx.templateApplied).toBe(false);
    expect(texts(ctx.segments)).toContain('River town votes to rebuild its old stone bridge');
  });
});

describe('set difference + rule filters on the fixtures', () => {
  it('drops embedded code and keeps the article (English and Chinese)', () => {
    for (const site of ['en-site', 'zh-site']) {
      const { pages, expected } = loadSite(site);
      const t = new TemplateLearner();
      for (const p of pages) t.observe(p);
      pages.forEach((p, i) => {
        const eff = texts(filterSegments(subtractTemplate(p.segments, t), { lang: p.lang() }));
        for (const line of expected[i]!.content) expect(eff).toContain(line);
        if (expected[i]!.code) {
          expect(texts(p.segments)).toContain(expected[i]!.code);
          expect(eff).not.toContain(expected[i]!.code);
        }
      });
    }
  });
});

describe('Extractor batch and stream (the learn hook)', () => {
  async function run(stream: boolean) {
    const { Extractor } = await import('../../src/chain/extractor.js');
    const seen = new Map<string, { applied: boolean; texts: string[] }>();
    const probe = {
      name: 'probe',
      priority: 550,
      process(ctx: PageContext) {
        seen.set(ctx.request.url, { applied: ctx.templateApplied, texts: texts(ctx.segments) });
      },
    };
    const ex = new Extractor({ kind: 'article', middleware: { article: false, 'page-type': false }, extra: [probe] });
    const { expected } = loadSite('en-site');
    const inputs = expected.map((e, i) => ({ url: `http://lantern.test/${i + 1}`, body: readFileSync(path.join(fixtures, 'en-site', e.file)) }));
    await ex.extractBatch(inputs, { stream });
    await ex.close();
    return { seen, expected };
  }

  it('batch: every page of the site, the first included, is narrowed by the template of all pages', async () => {
    const { seen, expected } = await run(false);
    expect([...seen.values()].map((v) => v.applied)).toEqual([true, true, true, true]);
    const first = seen.get('http://lantern.test/1')!.texts;
    for (const line of expected[0]!.content) expect(first).toContain(line);
    for (const line of expected[0]!.boilerplate) expect(first).not.toContain(line);
  });

  it('--stream: the first page falls back, the template is learned in order', async () => {
    const { seen } = await run(true);
    expect([...seen.values()].map((v) => v.applied)).toEqual([false, true, true, true]);
    expect(seen.get('http://lantern.test/1')!.texts).toContain('News that lights the way since 1911');
    expect(seen.get('http://lantern.test/2')!.texts).not.toContain('News that lights the way since 1911');
  });
});

describe('segmentKey', () => {
  // the key as first written: both FNV-1a hashes of `normalisedPath + '\u0000' + text`
  const fnv1a = (s: string, seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  };
  it('is the two FNV-1a hashes of path and text folded into a safe integer (one pass, same keys)', async () => {
    const { segmentKey, normalisePath } = await import('../../middleware/template/learner.js');
    for (const [path, text] of [['html/body/div/div/div/p', 'Hello, world'], ['', ''], ['body/ul/li/a', '中文 標題 𠀀 \u0000 end'], ['div/div', 'x'.repeat(500)]] as const) {
      const s = `${normalisePath(path, 'collapsed')}\u0000${text}`;
      expect(segmentKey(path, text, 'collapsed')).toBe(fnv1a(s, 0x811c9dc5) * 0x200000 + (fnv1a(s, 0x2545f491) & 0x1fffff));
    }
    expect(normalisePath('html/body/div/div/div/p', 'collapsed')).toBe('html/body/div/p');
  });
});
