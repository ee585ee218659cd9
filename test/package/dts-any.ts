/**
 * `any` in the package's public declarations (issue 25: "no any in public signatures"): every
 * `any` type node in dist/*.d.ts — the bundled declarations of the three public entries and the
 * chunks they share, which hold only what the entries export or reach. Parsed (rolldown's oxc
 * parser), not grepped: a comment saying "if any" is not a type.
 *
 *   npx tsx test/package/dts-any.ts      # prints the count and where each one is
 *
 * test/package asserts the count is 0 on the built package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

export interface AnyUse {
  file: string;
  line: number;
  text: string;
}

export function anyInDeclarations(dist: string): AnyUse[] {
  const out: AnyUse[] = [];
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.d.ts')).sort()) {
    const text = readFileSync(path.join(dist, file), 'utf8');
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const n = node as { type?: string; start?: number };
      if (n.type === 'TSAnyKeyword' && n.start !== undefined) {
        const line = text.slice(0, n.start).split('\n').length;
        out.push({ file, line, text: text.split('\n')[line - 1]!.trim() });
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'parent') walk(v);
    };
    walk(parseAst(text, { lang: 'dts' }));
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const dist = path.resolve(import.meta.dirname, '..', '..', 'dist');
  const uses = anyInDeclarations(dist);
  console.log(`any in dist/*.d.ts public signatures: ${uses.length}`);
  for (const u of uses) console.log(`  ${u.file}:${u.line}  ${u.text}`);
  process.exitCode = uses.length ? 1 : 0;
}
