/**
 * `gleaner extract` and `gleaner classify`: saved pages → JSON lines.
 */
import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { Extractor, type ExtractKind } from '../chain/extractor.js';
import type { Item } from '../core/item.js';
import { createPage } from '../core/page.js';
import { classifyPage } from '../../middleware/classifier/index.js';
import { UsageError } from './errors.js';
import type { BatchPage } from './batch.js';
import { feedsFromCli, openFeed } from '../storage/feed-sink.js';

const KINDS: ExtractKind[] = ['auto', 'article', 'list', 'forum'];

/** An IANA zone Intl knows (`Asia/Shanghai`, `UTC`; `+08:00` is not one). */
function checkTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new UsageError(`--timezone: unknown IANA time zone "${tz}" (e.g. Asia/Shanghai, Europe/Berlin, UTC)`);
  }
}

/** Largest input file read (`--max-bytes`): the crawler's `maxResponseBytes` default, for the same
 * reason — a page this big is not one we can extract, and a 60 MB file took 1 GB RSS (issue 14). */
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;

class InputTooLarge extends UsageError {
  constructor(file: string, size: number | undefined, max: number) {
    super(`${file}: ${size !== undefined ? `${size} bytes, ` : ''}larger than --max-bytes ${max} (raise the limit with --max-bytes N)`);
  }
}

/** Read standard input up to `max` bytes (one more byte means too large). */
async function readStdin(max: number): Promise<Buffer> {
  // A stream, not readSync(0): a non-blocking stdin (a pipe from a busy producer) would spin on
  // EAGAIN, and nothing else waits while a large page arrives.
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > max) {
      process.stdin.destroy();
      throw new InputTooLarge('standard input', undefined, max);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, total);
}

export interface ExtractCliOptions {
  url?: string;
  kind?: string;
  batch?: string;
  /** One or more `FILE[:FORMAT]` (.jsonl, .json, .csv). */
  out?: string | string[];
  stream?: boolean;
  timezone?: string;
  /** Largest input read, bytes (default DEFAULT_MAX_INPUT_BYTES). */
  maxBytes?: number;
  /** When the pages were fetched (relative dates resolve against it); default now. */
  fetchedAt?: Date;
  /** Threads for --batch (default: the idle cores, see src/cli/batch.ts). */
  jobs?: number;
  bom?: boolean;
  csvRows?: string;
}

/** A gzip stream starts with these two bytes (RFC 1952 §2.3.1); no HTML page does. */
function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** The page's bytes, gunzipped when the file is gzip-compressed (`page.html.gz`, or a gzip body
 * saved under any name: detected by its magic bytes, not its extension). The unpacked page obeys
 * the same `max` as a plain one. */
export function pageBytes(raw: Buffer, file: string, max = DEFAULT_MAX_INPUT_BYTES): Buffer {
  if (!isGzip(raw)) return raw;
  try {
    return gunzipSync(raw, { maxOutputLength: max });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new InputTooLarge(`${file} (unpacked)`, undefined, max);
    throw new UsageError(`cannot read ${file}: not a valid gzip file (${(e as Error).message})`);
  }
}

async function readInput(file: string, max = DEFAULT_MAX_INPUT_BYTES): Promise<Buffer> {
  if (file === '-') return pageBytes(await readStdin(max), 'standard input', max);
  if (!existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`);
  const size = statSync(file).size;
  if (size > max) throw new InputTooLarge(file, size, max);
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  return pageBytes(raw, file, max);
}

function defaultUrl(file: string): string {
  return file === '-' ? 'http://localhost/stdin' : `http://localhost${pathToFileURL(path.resolve(file)).pathname.replace(/\.gz$/i, '')}`;
}

export interface ManifestLine {
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
      // "url" is optional (ARCHITECTURE §5): absent or empty, the page gets a local URL for its file;
      // one that is there must be absolute, said before any page is read
      const url = typeof e.url === 'string' && e.url.trim() ? e.url.trim() : undefined;
      if (url !== undefined && !URL.canParse(url)) throw new UsageError(`${manifest}:${n + 1}: "url" must be an absolute URL (got ${JSON.stringify(url.slice(0, 80))})`);
      entries.push({ id: e.id, path: e.path, url, site: typeof e.site === 'string' ? e.site : undefined });
    });
  return { entries, dir };
}

export interface BatchOptions {
  kind?: ExtractKind;
  stream?: boolean;
  timezone?: string;
  /** Fetch time of every page (relative dates resolve against it); default now. */
  fetchedAt?: Date;
  /** Largest input read, bytes (default DEFAULT_MAX_INPUT_BYTES). */
  maxBytes?: number;
  /** Threads (default: the idle cores, see src/cli/batch.ts). */
  jobs?: number;
}

/**
 * `gleaner extract --batch`: every page of a manifest through one Extractor (site templates
 * learned per group unless `stream`), items in manifest order. The benches call this, so their
 * figures are what a user of the command gets. An oversized file does not stop the batch: it
 * becomes an `other` item with the error, in its place (and its message is in `tooLarge`).
 */
export async function extractManifest(manifest: string, o: BatchOptions = {}): Promise<{ entries: ManifestLine[]; items: Item[]; tooLarge: string[] }> {
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const { entries, dir } = readManifest(manifest);
  const tooLarge = new Map<number, string>();
  const inputs: BatchPage[] = [];
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
      body = pageBytes(readFileSync(file), file, maxBytes);
    } catch (err) {
      if (err instanceof InputTooLarge) {
        tooLarge.set(i, err.message);
        return;
      }
      if (err instanceof UsageError) throw new UsageError(`${err.message} (manifest id ${e.id})`);
      throw new UsageError(`cannot read ${file} (manifest id ${e.id}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    inputIndex.push(i);
    inputs.push({ url: e.url ?? defaultUrl(file), body, site: e.site });
  });
  // One Extractor per thread, site groups never split: the items one Extractor.extractBatch gives.
  const { extractPages } = await import('./batch.js');
  const extracted = await extractPages(inputs, { kind: o.kind ?? 'auto', stream: o.stream, timezone: o.timezone, fetchedAt: o.fetchedAt, jobs: o.jobs });
  const items: Item[] = new Array(entries.length);
  inputIndex.forEach((i, k) => (items[i] = extracted[k]!));
  for (const [i, msg] of tooLarge) items[i] = { url: entries[i]!.url ?? defaultUrl(path.resolve(dir, entries[i]!.path)), kind: 'other', error: msg };
  return { entries, items, tooLarge: [...tooLarge].map(([i, msg]) => `manifest id ${entries[i]!.id}: ${msg}`) };
}

export async function runExtract(files: string[], o: ExtractCliOptions): Promise<void> {
  const kind = (o.kind ?? 'auto') as ExtractKind;
  if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')} (got "${o.kind}")`);
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  if (o.timezone !== undefined) checkTimezone(o.timezone);
  const outs = o.out === undefined ? [] : Array.isArray(o.out) ? o.out : [o.out];
  if (outs.length && !o.batch) throw new UsageError('--out needs --batch MANIFEST.jsonl (without --batch, items go to standard output: redirect it, e.g. > items.jsonl)');
  if (o.stream && !o.batch) throw new UsageError('--stream needs --batch MANIFEST.jsonl');
  const feeds = feedsFromCli(outs, o);
  if (o.batch) {
    if (!outs.length) throw new UsageError('--batch needs --out OUT.jsonl');
    const { entries, items, tooLarge } = await extractManifest(o.batch, { kind, stream: o.stream, timezone: o.timezone, maxBytes, fetchedAt: o.fetchedAt, jobs: o.jobs });
    for (const msg of tooLarge) process.stderr.write(`gleaner: ${msg}\n`);
    const sinks = feeds.map((f) => openFeed(f));
    for (let i = 0; i < items.length; i++) {
      // The manifest's id first, as before (an unknown key the item schema lets through).
      const line = { id: entries[i]!.id, ...items[i]! } as Item & { id: string };
      for (const s of sinks) await s.write(line);
    }
    for (const s of sinks) await s.close();
    return;
  }
  if (!files.length) throw new UsageError('extract needs files (or - for standard input), or --batch MANIFEST.jsonl');
  const extractor = new Extractor({ kind, timezone: o.timezone });
  const bodies: Array<[string, Buffer]> = [];
  for (const f of files) bodies.push([f, await readInput(f, maxBytes)]);
  for (const [f, body] of bodies) {
    const item = await extractor.extract({ url: o.url ?? defaultUrl(f), body, fetchedAt: o.fetchedAt });
    process.stdout.write(JSON.stringify(item) + '\n');
  }
  await extractor.close();
}

export async function runClassify(files: string[], o: { url?: string; maxBytes?: number }): Promise<void> {
  if (!files.length) throw new UsageError('classify needs files (or - for standard input)');
  for (const f of files) {
    const body = await readInput(f, o.maxBytes);
    let result;
    try {
      result = classifyPage(createPage({ url: o.url ?? defaultUrl(f), body }));
    } catch (e) {
      result = { label: 'other', probabilities: { other: 1 }, error: (e as Error).message };
    }
    process.stdout.write(JSON.stringify({ file: f, ...result }) + '\n');
  }
}
