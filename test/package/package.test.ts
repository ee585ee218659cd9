/**
 * The package as a user installs it (issue 15): build, `npm pack`, install the tarball into a new
 * project in a temp folder (with crawlee and @types/node beside it, as a Crawlee user has them;
 * no playwright, no tsx), then
 * - import `gleaner`, `gleaner/extract` and `gleaner/crawlee` with plain node and extract a page;
 * - check that `gleaner/extract` loads no crawler package (every module node loads is recorded);
 * - type-check a user file with `tsc --noEmit` under the config `tsc --init` writes (NodeNext,
 *   strict, exactOptionalPropertyTypes …), and again without skipLibCheck (gleaner's declarations
 *   must be clean; crawlee's own are not our business);
 * - run the `gleaner` command from node_modules/.bin: --version, extract, classify, the demo crawl,
 *   and the clear errors for the optional peers that are absent.
 *
 * The install takes ~30 s with a warm npm cache (`--prefer-offline`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../setup/build.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(import.meta.dirname, 'fixture');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const page = path.join(root, 'test', 'fixtures', 'article', 'gbk-news', 'page.html');
/** Tarball size limit (issue 15 target). */
const MAX_FILES = 60;

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
let tmp: string;
let project: string;
let packed: { entryCount: number; size: number; files: Array<{ path: string }> };

const run = (cmd: string, args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
  spawnSync(cmd, args, { cwd: project, encoding: 'utf8', env: { ...process.env, ...opts.env }, input: opts.input, timeout: 120_000 });
const gleaner = (...args: string[]) => run(process.execPath, [path.join(project, 'node_modules', 'gleaner', 'bin', 'gleaner.js'), ...args]);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gleaner-package-'));
  // dist/ is built by the crawl project's global setup (test/setup/build.ts), once for every file
  ensureBuilt();
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, encoding: 'utf8' });
  packed = (JSON.parse(out) as (typeof packed)[])[0]!;
  project = path.join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'a-crawlee-project', private: true, type: 'module' }));
  for (const f of readdirSync(fixture)) copyFileSync(path.join(fixture, f), path.join(project, f));
  const tarball = path.join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `crawlee@${pkg.dependencies.crawlee}`, `@types/node@${pkg.devDependencies['@types/node']}`], { cwd: project, stdio: 'pipe', timeout: 280_000 });
}, 300_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the tarball', () => {
  it(`ships dist, the model, README, LICENSE, CHANGELOG and the bin only (≤ ${MAX_FILES} files)`, () => {
    const files = packed.files.map((f) => f.path);
    expect(packed.entryCount).toBeLessThanOrEqual(MAX_FILES);
    expect(files.filter((f) => !/^(dist\/|bin\/gleaner\.js$|README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/.test(f))).toEqual([]);
    for (const f of ['LICENSE', 'CHANGELOG.md', 'README.md', 'dist/model.json', 'dist/index.js', 'dist/index.d.ts', 'dist/extract.js', 'dist/extract.d.ts', 'dist/crawlee.js', 'dist/crawlee.d.ts', 'dist/cli.js', 'dist/spiders/demo.js']) expect(files).toContain(f);
    expect(files.some((f) => /test|bench|\.ts$/.test(f.replace(/\.d\.ts$/, '')))).toBe(false);
  });

  it('leaves the development and training tools out of the runtime dependencies', () => {
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', 'gleaner', 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };
    for (const dev of ['tsx', 'libsvm-js', 'playwright', 'typescript', 'vitest']) expect(installed.dependencies).not.toHaveProperty(dev);
    expect(installed.peerDependenciesMeta.playwright?.optional).toBe(true);
    expect(readdirSync(path.join(project, 'node_modules'))).not.toContain('tsx');
    expect(readdirSync(path.join(project, 'node_modules'))).not.toContain('playwright');
  });
});

describe('plain node', () => {
  it('imports gleaner, gleaner/extract and gleaner/crawlee, and extracts a GBK page with the shipped model', () => {
    const r = run(process.execPath, ['use-plain.mjs', page]);
    expect(r.status, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout) as { extract: number; crawlee: string[]; full: string[]; item: { kind: string; title: string; pageType: string; content: number } };
    expect(o.extract).toBeGreaterThan(30);
    expect(o.crawlee).toEqual(expect.arrayContaining(['createGleaner', 'withGleaner', 'keepRawBody']));
    expect(o.full).toEqual(['Extractor', 'runSpider', 'defineSpider', 'withGleaner', 'startDemoServer']);
    expect(o.item.kind).toBe('article');
    expect(o.item.pageType).toBe('detail');
    expect(o.item.title).toMatch(/[\u4e00-\u9fff]/);
    expect(o.item.content).toBeGreaterThan(100);
  });

  it('gleaner/extract loads no crawler package', () => {
    const r = run(process.execPath, ['use-extract-only.mjs']);
    expect(r.status, r.stderr).toBe(0);
    const loaded = JSON.parse(r.stdout) as string[];
    expect(loaded.filter((u) => u.includes('/node_modules/gleaner/')).length).toBeGreaterThan(2);
    expect(loaded.filter((u) => /\/node_modules\/(crawlee|@crawlee|playwright|playwright-core|got-scraping|puppeteer)\//.test(u))).toEqual([]);
  });
});

describe('tsc --noEmit on a user file (NodeNext, strict, the config tsc --init writes)', () => {
  it('0 errors', () => {
    execFileSync(process.execPath, [tsc, '--init'], { cwd: project, stdio: 'pipe' });
    const config = readFileSync(path.join(project, 'tsconfig.json'), 'utf8');
    expect(config).toMatch(/"module": "nodenext"/);
    expect(config).toMatch(/"strict": true/);
    const r = run(process.execPath, [tsc, '--noEmit', '-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('without skipLibCheck: no error in gleaner’s declarations or the user file', () => {
    const file = path.join(project, 'tsconfig.strict-libs.json');
    writeFileSync(file, JSON.stringify({ extends: './tsconfig.json', compilerOptions: { skipLibCheck: false } }));
    const r = run(process.execPath, [tsc, '--noEmit', '-p', file]);
    const errorFiles = new Set([...r.stdout.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!));
    expect([...errorFiles].filter((f) => f.includes('node_modules/gleaner/') || !f.includes('node_modules/'))).toEqual([]);
  });
});

describe('the gleaner command (plain node, from node_modules/.bin)', () => {
  it('--version', () => {
    const r = gleaner('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('extract and classify a page, a page from standard input', () => {
    const r = gleaner('extract', page, '--url', 'https://news.example.com/2024/05/a.html');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'article', url: 'https://news.example.com/2024/05/a.html' });
    const c = gleaner('classify', page);
    expect(JSON.parse(c.stdout)).toMatchObject({ label: 'detail' });
    const s = run(process.execPath, [path.join(project, 'node_modules', 'gleaner', 'bin', 'gleaner.js'), 'extract', '-'], { input: readFileSync(page, 'latin1') });
    expect(s.status, s.stderr).toBe(0);
  });

  it('extract --batch: worker threads give the items one thread gives (a site never spans two threads)', () => {
    // Every fixture page four times, under four sites: 148 pages, enough for 2 threads and more.
    const pages = readdirSync(path.join(root, 'test', 'fixtures'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !/relative|dates/.test(f));
    const manifest = path.join(tmp, 'manifest.jsonl');
    const lines = [0, 1, 2, 3].flatMap((copy) => pages.map((f) => JSON.stringify({ id: `${copy}/${f}`, path: path.join(root, 'test', 'fixtures', f), url: `https://site${copy % 2}.example.com/${f}`, ...(copy >= 2 ? { site: `group-${copy}` } : {}) })));
    writeFileSync(manifest, lines.join('\n') + '\n');
    const items = (jobs: number) => {
      const out = path.join(tmp, `batch-${jobs}.jsonl`);
      const r = gleaner('extract', '--batch', manifest, '--out', out, '--jobs', String(jobs), '--fetched-at', '2024-05-01T12:00:00+08:00');
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(out, 'utf8').trim().split('\n').map((l) => {
        const { fetchedAt: _f, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return rest;
      });
    };
    const one = items(1);
    expect(one.length).toBe(lines.length);
    // the fetch time given is the items' (relative dates resolve against it, so runs compare)
    expect(one.some((i) => JSON.stringify(i).includes('"publishedAtText":"3小时前"') && JSON.stringify(i).includes('2024-05-01T09:00'))).toBe(true);
    expect(items(3)).toEqual(one);
  }, 120_000);

  it('crawls the bundled demo site (the demo spider from dist/spiders)', () => {
    const storage = path.join(tmp, 'storage');
    const r = run(process.execPath, [path.join(project, 'node_modules', 'gleaner', 'bin', 'gleaner.js'), 'crawl'], { env: { CRAWLEE_STORAGE_DIR: storage, GLEANER_DEMO_URL: '' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/demo: finished/);
    expect(r.stdout).toMatch(/items: +\d+ stored \(article \d+, forum \d+, list \d+\)/);
    expect(r.stdout).toMatch(/failures: 0/);
  }, 120_000);

  it('says how to install an absent optional peer: playwright for render mode, libsvm-js for training', () => {
    writeFileSync(path.join(project, 'render.mjs'), `export default { name: 'render', startUrls: ['https://example.com/'], crawler: { render: true } };\n`);
    const r = gleaner('crawl', 'render.mjs');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/crawler\.render needs playwright.*npm install playwright/);
    const t = gleaner('train-classifier');
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/needs libsvm-js.*npm install libsvm-js/);
  });

  it('a TypeScript spider without tsx: a clear error', () => {
    writeFileSync(path.join(project, 'news.ts'), `export default { name: 'news', startUrls: ['https://example.com/'] };\n`);
    const r = gleaner('crawl', 'news.ts');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/news\.ts: a TypeScript spider needs tsx.*npm install --save-dev tsx/);
  });

  it('a TypeScript spider with tsx in the project: loaded by plain node (the config check runs, no request)', () => {
    // tsx linked in from this checkout (its own dependencies resolve beside its real path)
    const link = path.join(project, 'node_modules', 'tsx');
    symlinkSync(path.join(root, 'node_modules', 'tsx'), link, 'dir');
    try {
      writeFileSync(path.join(project, 'typed.ts'), `const name: string = 'typed';\nexport default { name, startUrls: [] as string[] };\n`);
      const r = gleaner('crawl', 'typed.ts');
      expect(r.stderr).not.toMatch(/needs tsx|cannot load/);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/startUrls/);
    } finally {
      rmSync(link);
    }
  });
});
