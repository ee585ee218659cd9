/**
 * `gleaner extract` and `gleaner classify`: saved pages → JSON lines.
 */
import { readFileSync, createWriteStream, existsSync, statSync, readSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Extractor, type ExtractInput, type ExtractKind } from '../chain/extractor.js';
import type { Item } from '../core/item.js';
import { createPage } from '../core/page.js';
import { classifyPage } from '../../middleware/classifier/index.js';
import { UsageError } from './errors.js';

const KINDS: ExtractKind[] = ['auto', 'article', 'list', 'forum'];

/** Largest input file read (`--max-bytes`): the crawler's `maxResponseBytes` default, for the same
 * reason — a page this big is not one we can extract, and a 60 MB file took 1 GB RSS (issue 14). */
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;

class InputTooLarge extends UsageError {
  constructor(file: string, size: number | undefined, max: number) {
    super(`${file}: ${size !== undefined ? `${size} bytes, ` : ''}larger than --max-bytes ${max} (raise the limit with --max-bytes N)`);
  }
}

/** Read standard input up to `max` bytes (one more byte means too large). */
function readStdin(max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      if ((e as NodeJS.ErrnoException).code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > max) throw new InputTooLarge('standard input', undefined, max);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

export interface ExtractCliOptions {
  url?: string;
  kind?: string;
  batch?: string;
  out?: string;
  stream?: boolean;
  timezone?: string;
  /** Largest input read, bytes (default DEFAULT_MAX_INPUT_BYTES). */
  maxBytes?: number;
}

function readInput(file: string, max = DEFAULT_MAX_INPUT_BYTES): Buffer {
  if (file === '-') return readStdin(max);
  if (!existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`);
  const size = statSync(file).size;
  if (size > max) throw new InputTooLarge(file, size, max);
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
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const extractor = new Extractor({ kind, timezone: o.timezone });
  if (o.batch) {
    if (!o.out) throw new UsageError('--batch needs --out OUT.jsonl');
    const { entries, dir } = readManifest(o.batch);
    // An oversized file does not stop the batch: it becomes an `other` item with the error, in its place.
    const tooLarge = new Map<number, string>();
    const inputs: ExtractInput[] = [];
    const inputIndex: number[] = [];
    entries.forEach((e, i) => {
      const file = path.resolve(dir, e.path);
      let body: Buffer;
      try {
        const size = statSync(file).size;
        if (size > maxBytes) {
          tooLarge.set(i, new InputTooLarge(file, size, maxBytes).message);
          return;
        }
        body = readFileSync(file);
      } catch (err) {
        throw new UsageError(`cannot read ${file} (manifest id ${e.id}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      inputIndex.push(i);
      inputs.push({ url: e.url ?? defaultUrl(file), body, site: e.site });
    });
    for (const [i, msg] of tooLarge) process.stderr.write(`gleaner: manifest id ${entries[i]!.id}: ${msg}\n`);
    const out = createWriteStream(o.out);
    const extracted = await extractor.extractBatch(inputs, { stream: o.stream });
    const items: Item[] = new Array(entries.length);
    inputIndex.forEach((i, k) => (items[i] = extracted[k]!));
    for (const [i, msg] of tooLarge) items[i] = { url: entries[i]!.url ?? defaultUrl(path.resolve(dir, entries[i]!.path)), kind: 'other', error: msg };
    for (let i = 0; i < items.length; i++) out.write(JSON.stringify({ id: entries[i]!.id, ...items[i] }) + '\n');
    await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
    await extractor.close();
    return;
  }
  if (!files.length) throw new UsageError('extract needs files (or - for standard input), or --batch MANIFEST.jsonl');
  const bodies = files.map((f) => [f, readInput(f, maxBytes)] as const);
  for (const [f, body] of bodies) {
    const item = await extractor.extract({ url: o.url ?? defaultUrl(f), body });
    process.stdout.write(JSON.stringify(item) + '\n');
  }
  await extractor.close();
}

export async function runClassify(files: string[], o: { url?: string; maxBytes?: number }): Promise<void> {
  if (!files.length) throw new UsageError('classify needs files (or - for standard input)');
  for (const f of files) {
    const body = readInput(f, o.maxBytes);
    let result;
    try {
      result = classifyPage(createPage({ url: o.url ?? defaultUrl(f), body }));
    } catch (e) {
      result = { label: 'other', probabilities: { other: 1 }, error: (e as Error).message };
    }
    process.stdout.write(JSON.stringify({ file: f, ...result }) + '\n');
  }
}
