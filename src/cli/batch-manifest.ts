/**
 * `gleaner extract --batch`: a manifest of pages → items, losing nothing (issue 24 item 6).
 *
 * A line that cannot be used — not JSON, not an object, no id or path, a URL that is not absolute,
 * a file that is missing, a directory, a FIFO or device, too large, a damaged gzip — becomes an
 * error record `{id, url?, kind: 'other', error}` with the manifest's line named in `error`, and
 * the batch goes on. Each record is handed on (`onItem`) as soon as its page is done: in manifest
 * order with `stream`, else in the order pages finish (a part's read failures before its pages;
 * see BATCH_PART_BYTES). A page that runs
 * past the page budget is an `other` item with the error, and a failure too. A UTF-8 BOM at the
 * start of the manifest is skipped.
 */
import path from 'node:path';
import type { ExtractKind } from '../chain/extractor.js';
import type { Item } from '../core/item.js';
import { UsageError } from './errors.js';
import { DEFAULT_MAX_INPUT_BYTES, fileUrl, pageBytes, readRegularFile } from './read-input.js';
import type { BatchPage } from './batch.js';

export interface ManifestLine {
  id: string;
  path: string;
  url?: string | undefined;
  site?: string | undefined;
  /** 1-based line of the manifest. */
  line: number;
}

/** A manifest line that gave no page: its line, its id when it had one, and why. */
export interface BatchFailure {
  line: number;
  id: string | null;
  /** `MANIFEST:LINE: reason` (read failures: `… (manifest id ID)`). */
  message: string;
}

/**
 * Page bytes held at once: a manifest whose pages hold more is extracted in parts of whole sites
 * (a site's pages stay in one part, so its items are those of one pass), each part read when its
 * turn comes. A batch's pages sit in one shared buffer while they are extracted (src/cli/batch.ts):
 * without parts a batch needed memory for all of its pages' bytes at once.
 */
export const BATCH_PART_BYTES = 256 * 1024 * 1024;

/** Largest manifest read (a line per page: a million pages of ~200 bytes). */
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** Check one parsed manifest line: the entry, or the reason it is refused. */
function entryOf(o: unknown, line: number): ManifestLine | string {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return `not a JSON object (got ${describe(o)})`;
  const e = o as Record<string, unknown>;
  if (typeof e.id !== 'string' || !e.id) return `"id" must be a non-empty string (got ${describe(e.id)})`;
  if (typeof e.path !== 'string' || !e.path) return `"path" must be a non-empty string (got ${describe(e.path)})`;
  // "url" is optional (ARCHITECTURE §5): absent or empty, the page gets its file's URL; one that
  // is there must be absolute
  const url = typeof e.url === 'string' && e.url.trim() ? e.url.trim() : undefined;
  if (e.url !== undefined && e.url !== null && typeof e.url !== 'string') return `"url" must be a string (got ${describe(e.url)})`;
  if (url !== undefined && !URL.canParse(url)) return `"url" must be an absolute URL (got ${JSON.stringify(url.slice(0, 80))})`;
  return { id: e.id, path: e.path, url, site: typeof e.site === 'string' ? e.site : undefined, line };
}

/** The manifest's usable lines, and a failure for each line that is not (blank lines skipped). */
export function readManifest(manifest: string): { entries: ManifestLine[]; failures: BatchFailure[]; dir: string } {
  let text: string;
  try {
    text = readRegularFile(manifest, MAX_MANIFEST_BYTES).toString('utf8');
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^cannot read /, 'cannot read manifest '));
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const dir = path.dirname(path.resolve(manifest));
  const entries: ManifestLine[] = [];
  const failures: BatchFailure[] = [];
  text.split('\n').forEach((raw, n) => {
    if (!raw.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      failures.push({ line: n + 1, id: null, message: `${manifest}:${n + 1}: not a JSON object` });
      return;
    }
    const e = entryOf(o, n + 1);
    if (typeof e === 'string') {
      const id = typeof (o as { id?: unknown } | null)?.id === 'string' ? (o as { id: string }).id : null;
      failures.push({ line: n + 1, id, message: `${manifest}:${n + 1}: ${e}` });
    } else entries.push(e);
  });
  return { entries, failures, dir };
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
  /** Per-page budget, seconds (default: the crawl's, 10 s; see src/cli/batch.ts). */
  pageBudgetSecs?: number;
  /** Add `provenance` to every item (`--explain`). */
  explain?: boolean;
  /** Page bytes one part of the batch holds (default BATCH_PART_BYTES). */
  partBytes?: number;
  /** Each record as soon as it is done (see the file's comment for the order), with its id. */
  onItem?: (record: BatchRecord) => void | Promise<void>;
  /** Each failed line, when it is found (before the pages are extracted). */
  onFailure?: (failure: BatchFailure) => void;
}

/** An output line: the manifest's id first, then the item (or the error record of a failed line). */
export type BatchRecord = Item & { id: string | null };

/** The error record of a line that gave no page. */
function errorRecord(f: BatchFailure, url?: string): BatchRecord {
  return { id: f.id, ...(url ? { url } : {}), kind: 'other', error: f.message } as BatchRecord;
}

/**
 * Every page of a manifest through the extractor threads (src/cli/batch.ts; site templates learned
 * per group unless `stream`). The benches call this, so their figures are what a user of the
 * command gets. Returns the usable lines with their items (in manifest order; a line whose file
 * could not be read has its error record as item) and every failure; `onItem` gets every record,
 * the failed lines' included, as each is done.
 */
export async function extractManifest(manifest: string, o: BatchOptions = {}): Promise<{ entries: ManifestLine[]; items: Item[]; failures: BatchFailure[] }> {
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const partBytes = o.partBytes ?? BATCH_PART_BYTES;
  const { entries, failures, dir } = readManifest(manifest);
  const emit = o.onItem ?? (() => {});
  // Lines with no usable entry: first (with --stream too: they have no place among the pages)
  for (const f of failures) {
    o.onFailure?.(f);
    await emit(errorRecord(f));
  }
  const items: Item[] = new Array(entries.length);
  // Records out: as each is done, or in manifest order with --stream (held until those before it
  // are out). One queue, so a slow sink never interleaves two lines.
  let next = 0;
  let queue = Promise.resolve();
  const out = (i: number) => emit({ id: entries[i]!.id, ...items[i]! } as BatchRecord);
  const done = (i?: number) => {
    queue = queue.then(async () => {
      if (!o.stream) return i === undefined ? undefined : out(i);
      while (next < entries.length && items[next]) await out(next++);
    });
  };
  if (o.stream) done();
  const { extractPages, siteKeyOf } = await import('./batch.js');
  const fileOf = (e: ManifestLine) => path.resolve(dir, e.path);
  const urlOf = (e: ManifestLine) => e.url ?? fileUrl(fileOf(e));

  /** The pages of one part (whole sites), read; its read failures handed on. */
  let inputs: BatchPage[] = [];
  let inputIndex: number[] = [];
  let bytes = 0;
  const extractPart = async () => {
    if (!inputs.length) return;
    const index = inputIndex;
    const part = inputs;
    inputs = [];
    inputIndex = [];
    bytes = 0;
    await extractPages(part, {
      kind: o.kind ?? 'auto',
      stream: o.stream,
      timezone: o.timezone,
      fetchedAt: o.fetchedAt,
      jobs: o.jobs,
      pageBudgetSecs: o.pageBudgetSecs,
      explain: o.explain,
      onTimeout: (k, message) => {
        const e = entries[index[k]!]!;
        const f: BatchFailure = { line: e.line, id: e.id, message: `${manifest}:${e.line}: ${message} (manifest id ${e.id})` };
        failures.push(f);
        o.onFailure?.(f);
      },
      onItem: (k, item) => {
        const i = index[k]!;
        items[i] = item;
        done(i);
      },
    });
  };
  // Sites in first-seen order, each read whole when its turn comes; a part is extracted once the
  // next site would take it past partBytes (a site larger than that is a part of its own).
  const sites = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const key = e.site ?? siteKeyOf(urlOf(e));
    let g = sites.get(key);
    if (!g) sites.set(key, (g = []));
    g.push(i);
  });
  for (const group of sites.values()) {
    const read: Array<{ i: number; page: BatchPage }> = [];
    let groupBytes = 0;
    for (const i of group) {
      const e = entries[i]!;
      const file = fileOf(e);
      try {
        const page = { url: urlOf(e), body: pageBytes(readRegularFile(file, maxBytes), file, maxBytes), site: e.site };
        read.push({ i, page });
        groupBytes += page.body.length;
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        const f: BatchFailure = { line: e.line, id: e.id, message: `${manifest}:${e.line}: ${err.message} (manifest id ${e.id})` };
        failures.push(f);
        o.onFailure?.(f);
        items[i] = errorRecord(f, urlOf(e));
        done(i);
      }
    }
    if (inputs.length && bytes + groupBytes > partBytes) await extractPart();
    for (const { i, page } of read) {
      inputs.push(page);
      inputIndex.push(i);
    }
    bytes += groupBytes;
  }
  await extractPart();
  await queue;
  failures.sort((a, b) => a.line - b.line);
  return { entries, items, failures };
}
