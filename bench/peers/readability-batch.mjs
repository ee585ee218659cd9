#!/usr/bin/env node
/**
 * The peer of `gleaner extract --batch` in `npm run bench:cli`: Readability.js on linkedom over a
 * manifest, as a user would write it in a few lines — plain JavaScript run by plain node, read the
 * bytes, decode them (the `<meta>` charset, else UTF-8: Readability takes text, not bytes), parse,
 * extract, one JSON line per page.
 *
 *   node bench/peers/readability-batch.mjs MANIFEST.jsonl OUT.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const [manifest, out] = process.argv.slice(2);
if (!manifest || !out) {
  process.stderr.write('usage: readability-batch.mjs MANIFEST.jsonl OUT.jsonl\n');
  process.exit(2);
}

/** The charset a page declares in its first bytes (the HTML spec's prescan looks at 1,024). */
function declaredCharset(bytes) {
  const head = bytes.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}

function decode(bytes) {
  try {
    return new TextDecoder(declaredCharset(bytes) ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const dir = path.dirname(path.resolve(manifest));
const lines = [];
for (const line of readFileSync(manifest, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const e = JSON.parse(line);
  const { document } = parseHTML(decode(readFileSync(path.resolve(dir, e.path))));
  const r = new Readability(document).parse();
  lines.push(JSON.stringify({ id: e.id, url: e.url, title: r?.title ?? undefined, author: r?.byline ?? undefined, publishedAt: r?.publishedTime ?? undefined, content: r?.textContent ?? undefined }));
}
writeFileSync(out, lines.join('\n') + '\n');
