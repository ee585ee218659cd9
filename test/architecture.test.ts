/**
 * The import rules of the layout (issue 10), enforced. Today's exceptions are listed in ALLOWED and
 * may only shrink: an entry that no longer matches a real import fails the test too, so a fixed
 * exception must leave the list.
 *
 * - `src/core/` is the base: it imports only itself and packages, never `middleware/`, `src/` outside
 *   core, or a crawler package.
 * - `middleware/<algorithm>/` imports `src/core/` only from `src/`, other algorithm folders only
 *   through their `index.ts` — the page-type classifier reads list, article and forum code only
 *   through their `signals.ts` — and never a crawler package (extractors run in any crawler).
 * - `middleware/` is imported from `src/` only by the chain, the CLI and the public entries, and
 *   only through each folder's `index.ts`.
 * - Crawler packages (crawlee, playwright, got-scraping) are imported only under `src/crawler/` and
 *   `src/storage/` (Crawlee datasets), and by the public entry that re-exports the crawler. The
 *   Crawlee integration (`src/crawlee/`, entry `src/crawlee.ts`) imports their types only: it reads
 *   the crawling context by duck typing and runs with the user's crawlee.
 * - `gleaner/extract` (`src/extract.ts`) never reaches a crawler package, through any chain of
 *   static imports (test/package checks the built package the same way, and at run time).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAst } from 'rolldown/parseAst';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CRAWLER_PACKAGES = /^(crawlee|@crawlee\/|playwright|got-scraping)/;

/** `from` file → imported path, both relative to the root: exceptions that may only shrink. */
const ALLOWED: Array<[string, string]> = [
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

interface Edge {
  from: string;
  spec: string;
  /** `import type` / `export type`: erased from the JavaScript. */
  typeOnly?: boolean;
  /** `import(...)`: loaded when the code runs, not with the module. */
  dynamic?: boolean;
  /** Resolved path relative to the root (`.js` → `.ts`), or the package name. */
  to: string;
  pkg: boolean;
}

function edges(file: string): Edge[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const out: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith('node:')) continue;
    const typeOnly = /^\s*(?:import|export)\s+type\s/.test(m[0]);
    const dynamic = m[2] !== undefined;
    if (spec.startsWith('.')) {
      const to = path.relative(root, path.resolve(root, path.dirname(file), spec)).replace(/\.js$/, '.ts');
      out.push({ from: file, spec, to, pkg: false, typeOnly, dynamic });
    } else out.push({ from: file, spec, to: spec, pkg: true, typeOnly, dynamic });
  }
  return out;
}

const folderOf = (p: string) => p.split(path.sep).slice(0, 2).join('/');

/** The rule an import breaks, or undefined. */
function violation(e: Edge): string | undefined {
  const from = e.from.split(path.sep).join('/');
  const to = e.to.split(path.sep).join('/');
  if (from.startsWith('src/core/')) {
    if (e.pkg) return CRAWLER_PACKAGES.test(to) ? 'src/core imports a crawler package' : undefined;
    if (!to.startsWith('src/core/')) return 'src/core imports outside src/core';
    return undefined;
  }
  if (from.startsWith('middleware/')) {
    if (e.pkg) return CRAWLER_PACKAGES.test(to) ? 'middleware imports a crawler package' : undefined;
    if (to.startsWith('src/')) return to.startsWith('src/core/') ? undefined : 'middleware imports src/ outside src/core';
    if (!to.startsWith('middleware/')) return 'middleware imports outside src/core and middleware';
    const own = folderOf(from);
    const target = folderOf(to);
    if (own === target) return undefined;
    if (own === 'middleware/classifier' && (target === 'middleware/list' || target === 'middleware/article' || target === 'middleware/forum')) {
      return to === `${target}/signals.ts` ? undefined : 'the classifier reads list/article/forum code only through their signals.ts';
    }
    return to === `${target}/index.ts` ? undefined : 'another algorithm folder imported other than through its index.ts';
  }
  if (from.startsWith('src/')) {
    if (e.pkg) {
      if (!CRAWLER_PACKAGES.test(to)) return undefined;
      if (from.startsWith('src/crawlee/') || from === 'src/crawlee.ts') return e.typeOnly ? undefined : 'the Crawlee integration imports crawler packages for their types only';
      return from.startsWith('src/crawler/') || from.startsWith('src/storage/') || from === 'src/index.ts' ? undefined : 'a crawler package imported outside src/crawler and src/storage';
    }
    if (to.startsWith('middleware/')) {
      const mayImport = from.startsWith('src/chain/') || from.startsWith('src/cli/') || /^src\/[^/]+\.ts$/.test(from);
      if (!mayImport) return 'middleware imported from src/ outside the chain, the CLI and the entries';
      return /^middleware\/[^/]+\/index\.ts$/.test(to) ? undefined : 'middleware imported other than through a folder index.ts';
    }
  }
  return undefined;
}

describe('architecture', () => {
  const files = [...sources('src'), ...sources('middleware')];
  const all = files.flatMap(edges);
  const broken = all.filter((e) => violation(e));
  const norm = (p: string) => p.split(path.sep).join('/');
  const key = (e: Edge) => `${e.from.split(path.sep).join('/')} -> ${e.to.split(path.sep).join('/')}`;
  const allowed = new Set(ALLOWED.map(([a, b]) => `${a} -> ${b}`));

  it('finds the imports it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(all.some((e) => e.from.startsWith('middleware') && e.to.startsWith('src/core'))).toBe(true);
  });

  it('every import follows the layout rules (or is an allowed exception)', () => {
    const unexpected = broken.filter((e) => !allowed.has(key(e))).map((e) => `${key(e)}: ${violation(e)}`);
    expect(unexpected).toEqual([]);
  });

  it('the allowlist only names imports that still exist (it may only shrink)', () => {
    const still = new Set(broken.map(key));
    expect([...allowed].filter((k) => !still.has(k))).toEqual([]);
  });

  /** Crawler packages reachable from `entry` through static, non-type imports, with the path. */
  const crawlerReach = (entry: string): string[] => {
    const byFrom = new Map<string, Edge[]>();
    for (const e of all) byFrom.set(e.from.split(path.sep).join('/'), [...(byFrom.get(e.from.split(path.sep).join('/')) ?? []), e]);
    const found: string[] = [];
    const seen = new Set<string>();
    const walk = (file: string, trail: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const e of byFrom.get(file) ?? []) {
        if (e.typeOnly || e.dynamic) continue;
        const to = e.to.split(path.sep).join('/');
        if (e.pkg) {
          if (CRAWLER_PACKAGES.test(to)) found.push([...trail, file, to].join(' -> '));
        } else walk(to, [...trail, file]);
      }
    };
    walk(entry, []);
    return found;
  };

  it('gleaner/extract and gleaner/crawlee reach no crawler package (static imports, transitively)', () => {
    expect(crawlerReach('src/extract.ts')).toEqual([]);
    expect(crawlerReach('src/crawlee.ts')).toEqual([]);
    // …while the full entry does (the walk finds what it looks for)
    expect(crawlerReach('src/index.ts').length).toBeGreaterThan(0);
  });

  /** A word list longer than this belongs in a table of entries, one group a line (issue 10: regexes
   * of 525-904 characters on one line could not be reviewed or diffed). */
  const MAX_LINE = 450;
  it(`no source line is longer than ${MAX_LINE} characters (long patterns are word tables)`, () => {
    const long = files.flatMap((f) => readFileSync(path.join(root, f), 'utf8').split('\n')
      .map((line, i) => ({ line, at: `${f.split(path.sep).join('/')}:${i + 1}` }))
      .filter(({ line }) => line.length > MAX_LINE).map(({ line, at }) => `${at} (${line.length})`));
    expect(long).toEqual([]);
  });

  /** Module-level caches outside src/core (per-page state goes through `page.memo`, data files through
   * `loadJsonResource`): none left; an entry here would be an exception that may only shrink. */
  const CACHES_ALLOWED: string[] = [];
  it('no module-level Map/WeakMap cache in middleware/ (page.memo, loadJsonResource instead)', () => {
    const caches = files.filter((f) => f.startsWith('middleware')).flatMap((f) => readFileSync(path.join(root, f), 'utf8').split('\n')
      .filter((line) => /^(?:export\s+)?(?:const|let)\s+\w+\s*(?::[^=]+)?=\s*new\s+(?:Weak)?Map\b/.test(line))
      .map(() => f.split(path.sep).join('/')));
    expect([...new Set(caches)].filter((f) => !CACHES_ALLOWED.includes(f))).toEqual([]);
    for (const f of CACHES_ALLOWED) expect(caches, `${f} has no cache left: remove it from CACHES_ALLOWED`).toContain(f);
  });

  /** Import circles between files, as strongly connected components of the import graph (type
   * imports too: a circle of types is a type in the wrong file). Today's may only shrink. */
  const CIRCLES_ALLOWED: string[] = [];
  const circles = (edges: Edge[] = all): string[] => {
    const graph = new Map<string, string[]>();
    for (const e of edges) if (!e.pkg) graph.set(norm(e.from), [...(graph.get(norm(e.from)) ?? []), norm(e.to)]);
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const found: string[] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort().join(' '));
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    return found.sort();
  };

  it('no import circle between files (or an allowed one, which may only shrink)', () => {
    const now = circles();
    expect(now.filter((c) => !CIRCLES_ALLOWED.includes(c))).toEqual([]);
    expect(CIRCLES_ALLOWED.filter((c) => !now.includes(c)), 'a circle was broken: remove it from CIRCLES_ALLOWED').toEqual([]);
    // a circle of three files is found (the walk can fail)
    const e = (from: string, to: string): Edge => ({ from, to, spec: to, pkg: false });
    expect(circles([e('a.ts', 'b.ts'), e('b.ts', 'c.ts'), e('c.ts', 'a.ts'), e('c.ts', 'd.ts')])).toEqual(['a.ts b.ts c.ts']);
  });

  /** Functions longer than this are several functions (issue 22: the crawl was one of 626 lines).
   * Today's longer ones may only shrink. */
  const MAX_FUNCTION_LINES = 200;
  const LONG_FUNCTIONS_ALLOWED: string[] = [];
  const longFunctions = (file: string, text: string): string[] => {
    const lineAt: number[] = [];
    for (let i = 0, line = 1; i <= text.length; i++) {
      lineAt.push(line);
      if (text.charCodeAt(i) === 10) line++;
    }
    const out: string[] = [];
    const walk = (node: unknown, name: string | undefined): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const child of node) walk(child, name);
        return;
      }
      const n = node as { type?: string; start: number; end: number; body?: unknown; id?: { name?: string }; key?: { name?: string } };
      let own = name;
      if (n.type === 'VariableDeclarator' && n.id?.name) own = n.id.name;
      if (n.type === 'MethodDefinition' || n.type === 'Property' || n.type === 'PropertyDefinition') own = n.key?.name ?? own;
      if (n.type && /Function/.test(n.type) && n.body) {
        const lines = lineAt[n.end]! - lineAt[n.start]! + 1;
        if (lines > MAX_FUNCTION_LINES) out.push(`${norm(file)}:${lineAt[n.start]} ${n.id?.name ?? own ?? '(anonymous)'} (${lines} lines)`);
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'type') walk(v, own);
    };
    walk(parseAst(text, { lang: 'ts' }).body, undefined);
    return out;
  };

  it(`no function over ${MAX_FUNCTION_LINES} lines (or an allowed one, which may only shrink)`, () => {
    const long = files.flatMap((f) => longFunctions(f, readFileSync(path.join(root, f), 'utf8')));
    const key = (l: string) => l.replace(/:\d+ /, ' ').replace(/ \(\d+ lines\)$/, '');
    expect(long.filter((l) => !LONG_FUNCTIONS_ALLOWED.includes(key(l)))).toEqual([]);
    expect(LONG_FUNCTIONS_ALLOWED.filter((a) => !long.some((l) => key(l) === a))).toEqual([]);
    // the walk finds functions (a long one made up here is caught)
    expect(longFunctions('x.ts', `function big() {\n${'  f();\n'.repeat(MAX_FUNCTION_LINES)}}\n`)).toHaveLength(1);
  });

  /** The crawl's files stay small enough to read (issue 22). */
  const MAX_CRAWLER_FILE_LINES = 400;
  it(`no file in src/crawler/ over ${MAX_CRAWLER_FILE_LINES} lines`, () => {
    const big = files.filter((f) => norm(f).startsWith('src/crawler/')).map((f) => [norm(f), readFileSync(path.join(root, f), 'utf8').trimEnd().split('\n').length] as const).filter(([, n]) => n > MAX_CRAWLER_FILE_LINES);
    expect(big).toEqual([]);
  });

  it('catches a breach (the rules can fail)', () => {
    expect(violation({ from: 'src/core/page.ts', spec: '../../middleware/list/index.js', to: 'middleware/list/index.ts', pkg: false })).toBeDefined();
    expect(violation({ from: 'middleware/forum/x.ts', spec: 'crawlee', to: 'crawlee', pkg: true })).toBeDefined();
    expect(violation({ from: 'middleware/forum/x.ts', spec: '../list/clusters.js', to: 'middleware/list/clusters.ts', pkg: false })).toBeDefined();
    expect(violation({ from: 'middleware/classifier/f.ts', spec: '../list/index.js', to: 'middleware/list/index.ts', pkg: false })).toBeDefined();
    expect(violation({ from: 'src/crawler/crawl.ts', spec: '../../middleware/list/index.js', to: 'middleware/list/index.ts', pkg: false })).toBeDefined();
    expect(violation({ from: 'middleware/forum/x.ts', spec: '../../src/chain/chain.js', to: 'src/chain/chain.ts', pkg: false })).toBeDefined();
    expect(violation({ from: 'src/crawlee/gleaner.ts', spec: 'crawlee', to: 'crawlee', pkg: true })).toBeDefined();
    expect(violation({ from: 'src/crawlee/gleaner.ts', spec: 'crawlee', to: 'crawlee', pkg: true, typeOnly: true })).toBeUndefined();
  });
});
