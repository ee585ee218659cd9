/**
 * `gleaner extract` and `gleaner classify`: saved pages → JSON lines.
 */
import { readFileSync, createWriteStream, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Extractor, type ExtractInput, type ExtractKind } from '../chain/extractor.js';
import { createPage } from '../core/page.js';
import { classifyPage } from '../../middleware/classifier/index.js';
import { UsageError } from './errors.js';

const KINDS: ExtractKind[] = ['auto', 'article', 'list', 'forum'];

export interface ExtractCliOptions {
  url?: string;
  kind?: string;
  batch?: string;
  out?: string;
  stream?: boolean;
  timezone?: string;
}

function readInput(file: string): Buffer {
  if (file === '-') return readFileSync(0);
  if (!existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`);
  try {
    return readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

function defaultUrl(file: string): string {
  return file === '-' ? 'http://localhost/stdin' : `http://localhost${pathToFileURL(path.resolve(file)).pathname}`;
}

interface ManifestLine {
  id: string;
  path: string;
  url?: string;
  site?: string;
}

export function readManifest(manifest: string): { entries: ManifestLine[]; dir: string } {
  if (!existsSync(manifest)) throw new UsageError(`cannot read manifest ${manifest}: no such file`);
  const dir = path.dirname(path.resolve(manifest));
  const entries: ManifestLine[] = [];
  readFileSync(manifest, 'utf8')
    .split('\n')
    .forEach((line, n) => {
      if (!line.trim()) return;
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch {
        throw new UsageError(`${manifest}:${n + 1}: not a JSON object`);
      }
      const e = o as Partial<ManifestLine>;
      if (typeof e.id !== 'string') throw new UsageError(`${manifest}:${n + 1}: "id" must be a string`);
      if (typeof e.path !== 'string') throw new UsageError(`${manifest}:${n + 1}: "path" must be a string`);
      entries.push({ id: e.id, path: e.path, url: typeof e.url === 'string' ? e.url : undefined, site: typeof e.site === 'string' ? e.site : undefined });
    });
  return { entries, dir };
}

export async function runExtract(files: string[], o: ExtractCliOptions): Promise<void> {
  const kind = (o.kind ?? 'auto') as ExtractKind;
  if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')} (got "${o.kind}")`);
  const extractor = new Extractor({ kind, timezone: o.timezone });
  if (o.batch) {
    if (!o.out) throw new UsageError('--batch needs --out OUT.jsonl');
    const { entries, dir } = readManifest(o.batch);
    const inputs: ExtractInput[] = entries.map((e) => {
      const file = path.resolve(dir, e.path);
      let body: Buffer;
      try {
        body = readFileSync(file);
      } catch (err) {
        throw new UsageError(`cannot read ${file} (manifest id ${e.id}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      return { url: e.url ?? defaultUrl(file), body, site: e.site };
    });
    const out = createWriteStream(o.out);
    const items = await extractor.extractBatch(inputs, { stream: o.stream });
    for (let i = 0; i < items.length; i++) out.write(JSON.stringify({ id: entries[i]!.id, ...items[i] }) + '\n');
    await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
    await extractor.close();
    return;
  }
  if (!files.length) throw new UsageError('extract needs files (or - for standard input), or --batch MANIFEST.jsonl');
  const bodies = files.map((f) => [f, readInput(f)] as const);
  for (const [f, body] of bodies) {
    const item = await extractor.extract({ url: o.url ?? defaultUrl(f), body });
    process.stdout.write(JSON.stringify(item) + '\n');
  }
  await extractor.close();
}

export async function runClassify(files: string[], o: { url?: string }): Promise<void> {
  if (!files.length) throw new UsageError('classify needs files (or - for standard input)');
  for (const f of files) {
    const body = readInput(f);
    let result;
    try {
      result = classifyPage(createPage({ url: o.url ?? defaultUrl(f), body }));
    } catch (e) {
      result = { label: 'other', probabilities: { other: 1 }, error: (e as Error).message };
    }
    process.stdout.write(JSON.stringify({ file: f, ...result }) + '\n');
  }
}
