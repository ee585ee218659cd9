import { createContext } from '../../src/chain/process.js';
import { MemorySiteStore } from '../../src/storage/site-store.js';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../../src/core/page.js';
import { classifyPage, loadModel, checkModel, pageTypeMiddleware, LABELS, FEATURES, FEATURE_SPEC } from '../../middleware/classifier/index.js';
import { dataDir } from '../../src/cli/data-dir.js';
import { pageFeatures, bigramSimilarity, urlFeatures } from '../../middleware/classifier/features.js';
import { predict, standardise, STANDARD_CLIP } from '../../middleware/classifier/svm.js';
import { trainModel, groupFolds, siteOf, balancedAccuracy, meanStd, registrableDomain, loadLabelledPages } from '../../middleware/classifier/train.js';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { silentLogger, type PageContext } from '../../src/core/middleware.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (dir: string) => {
  const d = path.join(here, '..', 'fixtures', dir);
  const expected = JSON.parse(readFileSync(path.join(d, 'expected.json'), 'utf8')) as { url: string; label?: string; pageType?: string };
  return { page: createPage({ url: expected.url, body: readFileSync(path.join(d, 'page.html')) }), expected };
};

describe('shipped model', () => {
  it('loads and matches the features this version computes', () => {
    const m = loadModel();
    expect(m.features).toEqual([...FEATURES]);
    expect(m.SV.length).toBeGreaterThan(0);
    expect(m.probA?.length).toBe(m.rho.length);
  });
  it('refuses a model trained with another feature spec, or none, or with damaged arrays, saying to retrain', () => {
    const m = loadModel();
    expect(() => checkModel(m)).not.toThrow();
    expect(() => checkModel({ ...m, spec: { ...FEATURE_SPEC, listSignals: FEATURE_SPEC.listSignals + 1 } })).toThrow(/feature spec.*retrain/);
    expect(() => checkModel({ ...m, spec: undefined })).toThrow(/feature spec "none".*retrain/);
    expect(() => checkModel({ ...m, features: [...m.features].reverse() })).toThrow(/other features/);
    expect(() => checkModel({ ...m, mean: m.mean.slice(1) })).toThrow(/damaged: standardisation/);
    expect(() => checkModel({ ...m, SV: m.SV.slice(1) })).toThrow(/damaged: support vectors/);
    expect(() => checkModel({ ...m, rho: [] })).toThrow(/damaged: 0 rho/);
    expect(() => checkModel({ ...m, format: 'x' as 'gleaner-svm/1' })).toThrow(/not a Gleaner SVM model/);
  });
});

describe('data folder', () => {
  it('is GLEANER_DATA read at call time, else ../shared/data beside the checkout', () => {
    const before = process.env.GLEANER_DATA;
    try {
      delete process.env.GLEANER_DATA;
      expect(dataDir()).toBe(path.resolve(here, '..', '..', '..', 'shared', 'data'));
      process.env.GLEANER_DATA = '/tmp/elsewhere';
      expect(dataDir()).toBe('/tmp/elsewhere');
    } finally {
      if (before === undefined) delete process.env.GLEANER_DATA;
      else process.env.GLEANER_DATA = before;
    }
  });
});

describe('classifyPage', () => {
  const cases: Array<[string, string]> = [
    ['classifier/detail', 'detail'],
    ['classifier/forum-thread', 'forum'],
    ['classifier/forum-board', 'list'],
    ['list/en-blog-index', 'list'],
    ['list/zh-news-gbk', 'list'],
  ];
  for (const [dir, label] of cases) {
    it(`${dir} → ${label}, probabilities summing to 1`, () => {
      const r = classifyPage(fixture(dir).page);
      expect(r.label).toBe(label);
      expect(Object.keys(r.probabilities).sort()).toEqual([...LABELS].sort());
      const sum = Object.values(r.probabilities).reduce((s, v) => s + v, 0);
      expect(sum).toBeGreaterThan(0.99);
      expect(sum).toBeLessThan(1.01);
      expect(r.probabilities[label]).toBe(Math.max(...Object.values(r.probabilities)));
    });
  }
  it('an index far outside the training pages on its raw counts (10,000 links) is a list, not what the bias terms say', () => {
    // (36 standard deviations on the anchor count: unclipped, no support vector of the RBF model is
    // near it and it was typed forum at 0.76)
    const links = Array.from({ length: 10_000 }, (_, k) => `<li><a href="/w/${k}.html">Entry ${k} of /w</a></li>`).join('');
    const page = createPage({ url: 'http://127.0.0.1:8080/', body: `<!DOCTYPE html><html lang="en"><head><title>Index /w</title></head><body><h1>Index /w</h1><ul>${links}</ul></body></html>` });
    expect(classifyPage(page).label).toBe('list');
  });
  it('standardised values are clipped to ±STANDARD_CLIP, a missing one is the mean', () => {
    expect(standardise([100, -100, 1, NaN], [0, 0, 0, 0], [1, 1, 1, 1])).toEqual([STANDARD_CLIP, -STANDARD_CLIP, 1, 0]);
  });
  it('a page without content is "other"', () => {
    expect(classifyPage(createPage({ url: 'http://e.com/', body: '<html><body><div id="app"></div></body></html>' })).label).toBe('other');
    expect(classifyPage(createPage({ url: 'http://e.com/', body: '' })).label).toBe('other');
  });
  it('computes one value per feature name, all finite', () => {
    const f = pageFeatures(fixture('classifier/detail').page);
    expect(f.values.length).toBe(FEATURES.length);
    expect(f.values.every(Number.isFinite)).toBe(true);
  });
});

describe('URL features', () => {
  it('are missing (NaN), not zero, without a public URL, and read the shape of a real one', () => {
    for (const u of ['http://localhost/aeb/abc', 'http://fakehost/test/page.html', 'file:///tmp/page.html', 'not a url']) {
      expect(urlFeatures(u).every(Number.isNaN)).toBe(true);
    }
    const real = urlFeatures('https://news.example.com/2024/05/14/freight-yard-park.html');
    expect(real.every(Number.isFinite)).toBe(true);
    expect(real.some((v) => v !== 0)).toBe(true);
    const names = FEATURES.filter((f) => f.startsWith('url'));
    expect(names).not.toContain('urlKnown');
    const body = readFileSync(path.join(here, '..', 'fixtures', 'classifier', 'detail', 'page.html'));
    const idx = names.map((n) => FEATURES.indexOf(n));
    const onLocalhost = pageFeatures(createPage({ url: 'http://localhost/page', body })).values;
    expect(idx.every((i) => Number.isNaN(onLocalhost[i]!))).toBe(true);
    // the page's other features do not depend on its URL
    const online = pageFeatures(createPage({ url: 'https://news.example.com/city/2024/05/14/freight-yard-park', body })).values;
    expect(onLocalhost.filter((_, i) => !idx.includes(i))).toEqual(online.filter((_, i) => !idx.includes(i)));
  });
  it('a missing value is left out of the mean and standardises to it: the same prediction as the mean', () => {
    expect(meanStd([[1, NaN], [3, 4], [5, 8]])).toEqual({ mean: [3, 6], std: [Math.sqrt(8 / 3), 2] });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const X: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 90; i++) {
      const c = i % 3;
      // feature 3 is missing on every fifth page
      X.push([c * 2 + rnd() * 2.5, rnd(), 150 + c * 40 + rnd() * 60, i % 5 === 0 ? NaN : c + rnd()]);
      y.push(c);
    }
    const { model, agreement } = trainModel(X, y, { kernel: 'rbf', C: 3, gamma: 0.3 }, ['a', 'b', 'chars', 'd']);
    expect(agreement).toBe(1);
    expect(model.mean.every(Number.isFinite)).toBe(true);
    const missing = predict(model, [2, 0.5, 200, NaN]);
    const atMean = predict(model, [2, 0.5, 200, model.mean[3]!]);
    expect(missing.label).toBe(atMean.label);
    for (const l of model.labels) expect(missing.probabilities[l]).toBeCloseTo(atMean.probabilities[l]!, 9);
  });
});

describe('article body vs comment thread', () => {
  const para = (n: number, words: string) => `<p>${Array.from({ length: n }, (_, i) => `${words} sentence ${i + 1}, with a clause, and an end.`).join(' ')}</p>`;
  const post = (user: string, day: number, n: number) =>
    `<div class="post"><div class="meta"><a href="/u/${user}">${user}</a> 2024-03-${String(day).padStart(2, '0')} 10:1${day}</div>${para(n, `Reply from ${user} with a point`)}</div>`;
  const related = Array.from({ length: 12 }, (_, i) => `<li><a href="/news/story-${i}">Another story about the harbour, number ${i}</a></li>`).join('');
  const featuresOf = (body: string, url = 'https://example.org/a/1') => {
    const v = pageFeatures(createPage({ url, body: `<html><head><title>Harbour opens</title></head><body>${body}</body></html>` })).values;
    return (name: string) => v[FEATURES.indexOf(name as (typeof FEATURES)[number])]!;
  };
  const article = featuresOf(`<h1>Harbour opens</h1><div class="story">${para(4, 'The harbour opened today')}${para(4, 'Officials said the works')}${para(4, 'Residents expect the quay')}</div>
    <section class="comments">${post('ann', 1, 1)}${post('bob', 2, 1)}${post('cyd', 3, 1)}</section><ul>${related}</ul>`);
  const thread = featuresOf(`<h1>Harbour opens</h1><div class="thread">${post('ann', 1, 6)}${post('bob', 2, 2)}${post('cyd', 3, 3)}${post('dan', 4, 1)}</div>`);
  it('finds the posts in both', () => {
    expect(Math.round(Math.expm1(article('postLikeBlocks')))).toBe(3);
    expect(Math.round(Math.expm1(thread('postLikeBlocks')))).toBe(4);
  });
  it('an article body before its comments: most prose before the first post, a long run outside the posts', () => {
    expect(article('proseBeforePosts')).toBeGreaterThan(0.6);
    expect(thread('proseBeforePosts')).toBeLessThan(0.1);
    expect(article('runOutsidePosts')).toBeGreaterThan(2);
    expect(thread('runOutsidePosts')).toBeLessThan(0.5);
  });
  it("the floor splitter's view: every floor of the thread authored and dated, most of its text the posts'", () => {
    expect(thread('floorAuthored')).toBe(1);
    expect(thread('floorDated')).toBe(1);
    expect(thread('floorQuoting')).toBe(0);
    expect(thread('floorPostShare')).toBeGreaterThan(0.5);
    expect(Math.expm1(thread('floorMeanPost'))).toBeGreaterThan(80);
  });
  it('no posts: both are 0', () => {
    const plain = featuresOf(`<h1>Harbour opens</h1>${para(5, 'The harbour opened today')}`);
    expect(plain('proseBeforePosts')).toBe(0);
    expect(plain('runOutsidePosts')).toBe(0);
    for (const f of ['floorAuthored', 'floorDated', 'floorQuoting', 'floorPostShare', 'floorMeanPost']) expect(plain(f)).toBe(0);
  });
  it("the article extractor's body holds most of an article's prose (link blocks aside), little of a list's", () => {
    expect(article('bodyShare')).toBeGreaterThan(0.6);
    expect(article('bodyLinkDensity')).toBeLessThan(0.2);
    const teasers = Array.from({ length: 12 }, (_, i) => `<li><h2><a href="/news/story-${i}">Another story about the harbour, number ${i}</a></h2><p>2024-03-0${(i % 9) + 1} A line of teaser text ${i}.</p></li>`).join('');
    const list = featuresOf(`<h1>News</h1><ul class="news">${teasers}</ul>`, 'https://example.org/news/');
    expect(list('bodyShare')).toBeLessThan(0.5);
  });
});

describe('Q&A labels', () => {
  const answers = (body: string) => {
    const v = pageFeatures(createPage({ url: 'https://example.org/q/1', body: `<html><head><title>How to bake</title></head><body>${body}</body></html>` })).values;
    return Math.round(Math.expm1(v[FEATURES.indexOf('answerWords')]!));
  };
  it('counts short answer labels and counts, in the languages seen', () => {
    expect(answers('<h1>How to bake</h1><p>The question, at length, with a clause.</p><h2>3 Answers</h2><div>Use a hot oven.</div><span>Best answer</span><h2>2个回答</h2><a href="#">追问</a>')).toBe(4);
  });
  it('not a sentence that mentions answers, nor a label inside a word', () => {
    expect(answers('<h1>How to bake</h1><p>Answers to the questions readers asked last week follow below.</p><span>Answerphone</span>')).toBe(0);
  });
});

describe('dated segments', () => {
  const share = (body: string) => {
    const page = createPage({ url: 'https://example.org/b/', body: `<html><head><title>Boards</title></head><body>${body}</body></html>` });
    return { share: pageFeatures(page).values[FEATURES.indexOf('datedSegmentShare')]!, segments: page.segments.length };
  };
  it('their share carries a prior of undated segments: a handful of segments is weak evidence', () => {
    // six segments, three of them short dated lines: 3 / (6 + 10), not 3 / 6
    const r = share('<h1>Boards</h1><p>Garden</p><p>Seeds we swap 2024-04-11 08:13</p><p>Kitchen</p><p>Bread that rose 2024-04-12 01:02</p><p>Cellar flood 2024-04-10 18:33</p>');
    expect(r.segments).toBe(6);
    expect(r.share).toBeCloseTo(3 / 16, 6);
  });
  it('a small board index (boards, counts, each board\'s latest threads with poster and date) is a list', () => {
    const board = (name: string, desc: string, n: number, latest: Array<[string, string, string]>) =>
      `<tr><td><h2><a href="/board/${n}/">${name}</a></h2><p>${desc}</p></td><td>Topics ${n * 7}</td><td><ul>${latest.map(([t, u, d], k) => `<li><a href="/topic/${n}${k}/">${t}</a> <span>${u}</span> <em>${d}</em></li>`).join('')}</ul></td></tr>`;
    const body = `<div><a href="/">Commons</a> <a href="/search/">Search</a> <a href="/login/">Log in</a></div><table>${
      board('Allotments', 'Plots, seeds and the shared shed', 1, [['Who borrowed the long ladder?', 'mara', '2024-04-11 20:17'], ['Tomato blight again', 'ken', '2024-04-11 14:31'], ['Water butt rota for May', 'ida', '2024-04-11 08:26']])
    }${board('Repairs', 'Bikes, kettles and everything with a screw loose', 2, [['Rear hub grinding after rain', 'olu', '2024-04-10 18:33'], ['Kettle switch will not stay down', 'bo', '2024-04-09 07:02'], ['Sewing machine tension tips', 'ann', '2024-04-08 21:45']])}</table><div>Powered by a board</div>`;
    const page = createPage({ url: 'http://127.0.0.1:8080/commons/', body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Commons</title></head><body>${body}</body></html>` });
    expect(classifyPage(page).label).toBe('list');
  });
});

describe('article metadata', () => {
  const meta = (head: string) => {
    const v = pageFeatures(createPage({ url: 'https://example.org/a/1', body: `<html><head><title>Harbour opens</title>${head}</head><body><h1>Harbour opens</h1><p>The harbour opened today, officials said, and more.</p></body></html>` })).values;
    return v[FEATURES.indexOf('articleMeta')]!;
  };
  it('is 1 for any of a publish date, og:type article or a JSON-LD Article type, else 0', () => {
    expect(meta('<meta property="article:published_time" content="2024-03-01T10:00:00Z">')).toBe(1);
    expect(meta('<meta property="og:type" content="article">')).toBe(1);
    expect(meta('<script type="application/ld+json">{"@type":"NewsArticle","headline":"Harbour opens"}</script>')).toBe(1);
    expect(meta('<meta property="og:type" content="website">')).toBe(0);
    expect(meta('<script type="application/ld+json">{"@type":"ItemList"}</script>')).toBe(0);
  });
});

describe('pageTypeMiddleware', () => {
  const run = (label?: string) => {
    const { page } = fixture('classifier/forum-thread');
    // createContext applies the request's label (decideLabel), as the chain does
    const ctx: PageContext = createContext(page, { url: page.url, label }, { spider: 'test', store: new MemorySiteStore(), log: silentLogger });
    pageTypeMiddleware({}).process(ctx);
    return ctx;
  };
  it('types pages no follow rule labelled', () => {
    const ctx = run();
    expect(ctx.label).toBe('forum');
    expect(ctx.item.pageType?.label).toBe('forum');
  });
  it('keeps a follow rule label and does not classify', () => {
    const ctx = run('detail');
    expect(ctx.label).toBe('detail');
    expect(ctx.item.pageType).toBeUndefined();
  });
});

/** n points of three classes (i % 3), each drawn by `point` with a seeded generator. */
function clusters(n: number, seed: number, point: (c: number, rnd: () => number) => number[]): { X: number[][]; y: number[] } {
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const X: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    X.push(point(i % 3, rnd));
    y.push(i % 3);
  }
  return { X, y };
}

describe('SVM export', () => {
  it('TypeScript prediction agrees with libsvm-js (RBF, probabilities)', () => {
    // three noisy clusters in 4 dimensions (feature 2 plays the page's character count)
    const { X, y } = clusters(150, 42, (c, rnd) => [c * 2 + rnd() * 2.5, rnd(), 150 + c * 40 + rnd() * 60, (c === 1 ? 1 : 0) + rnd() * 0.8]);
    const { model, agreement } = trainModel(X, y, { kernel: 'rbf', C: 3, gamma: 0.3 }, ['a', 'b', 'chars', 'd']);
    expect(agreement).toBe(1);
    expect(model.labels.sort()).toEqual(['detail', 'forum', 'list']);
    const p = predict(model, [0.5, 0.5, 160, 0.2]);
    expect(p.label).toBe('detail');
    expect(Object.values(p.probabilities).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 5);
  });

  it('a probability model is a function of its data: the same after other probability models were trained in the process', () => {
    // (libsvm's Platt fit shuffles with rand(): on a shared instance the second model differed)
    const { X, y } = clusters(120, 7, (c, rnd) => [c + rnd() * 2, rnd() * 2 - c, 150 + rnd() * 50]);
    const params = { kernel: 'rbf', C: 1, gamma: 0.5 } as const;
    const first = trainModel(X, y, params, ['a', 'b', 'chars']).model;
    const listeners = process.listeners('unhandledRejection').length;
    trainModel(X.slice(0, 90), y.slice(0, 90), params, ['a', 'b', 'chars']);
    const again = trainModel(X, y, params, ['a', 'b', 'chars']).model;
    expect(again.probA).toEqual(first.probA);
    expect(again.probB).toEqual(first.probB);
    // (and no process handler added per model)
    expect(process.listeners('unhandledRejection').length).toBe(listeners);
  });
});

describe('training helpers', () => {
  it('groups by host, else by manifest folder and id prefix', () => {
    expect(siteOf('aeb/abc', 'https://www.example.com/x')).toBe('example.com');
    expect(siteOf('readability/001', 'http://fakehost/test/page.html')).toBe('readability');
    expect(siteOf('gne-zh/163_2', undefined)).toBe('gne-zh/163');
    expect(siteOf('cwce-zh/05e98007-d810', undefined)).toBe('cwce-zh');
  });
  it('groups subdomains of one registrable domain (country second levels kept)', () => {
    expect(registrableDomain('bbs.example.com.cn')).toBe('example.com.cn');
    expect(registrableDomain('math.example.com')).toBe('example.com');
    expect(registrableDomain('jobs.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('example.org')).toBe('example.org');
    expect(siteOf('x/1', 'https://forum.example.de/t/1')).toBe('example.de');
    expect(siteOf('x/1', undefined, 'cn.bbs.example.com')).toBe('example.com');
  });
  it("one page saved in two data sets is loaded once, with the training set's label", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-labels-'));
    const body = '<html><body><p>One page, two data sets: the same bytes saved twice, labelled twice.</p><p>More text here, a second paragraph, to be a page.</p></body></html>';
    for (const set of ['articles/a', 'forums/b']) {
      mkdirSync(path.join(dir, set, 'p'), { recursive: true });
      writeFileSync(path.join(dir, set, 'p', 'page.html'), body);
      writeFileSync(path.join(dir, set, 'manifest.jsonl'), JSON.stringify({ id: `${set.split('/')[1]}/p`, path: 'p/page.html', url: 'https://x.example/p' }) + '\n');
    }
    writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ 'a/p': { label: 'detail' } }));
    const { pages } = loadLabelledPages({ data: dir, labels: path.join(dir, 'labels.json'), sets: [{ manifest: 'forums/b/manifest.jsonl', label: 'forum' }] });
    expect(pages.map((p) => [p.id, p.label])).toEqual([['b/p', 'forum']]);
  });
  it('never splits a site over folds', () => {
    const sites = ['a', 'a', 'b', 'c', 'c', 'c', 'd', 'e', 'e', 'f'];
    const folds = groupFolds(sites, 3);
    for (const s of new Set(sites)) expect(new Set(folds.filter((_, i) => sites[i] === s)).size).toBe(1);
  });
  it('a seed gives another split of the same sites, still whole sites and every fold used', () => {
    const sites = Array.from({ length: 40 }, (_, i) => `s${i % 17}`);
    const base = groupFolds(sites, 5);
    const other = groupFolds(sites, 5, 3);
    expect(other).not.toEqual(base);
    expect(groupFolds(sites, 5, 3)).toEqual(other);
    expect(new Set(other).size).toBe(5);
    for (const s of new Set(sites)) expect(new Set(other.filter((_, i) => sites[i] === s)).size).toBe(1);
  });
  it('balanced accuracy averages per-class recall', () => {
    expect(balancedAccuracy(['detail', 'detail', 'detail', 'list'], ['detail', 'detail', 'detail', 'detail'])).toBe(0.5);
  });
  it('bigram similarity is a similarity (not Gerapy\'s "share one character = 1")', () => {
    expect(bigramSimilarity('abc', 'abc')).toBe(1);
    expect(bigramSimilarity('abcdef', 'azzzzz')).toBe(0);
  });
});
