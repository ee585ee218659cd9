/**
 * Feeds (Scrapy's FEEDS): item exports beside the dataset, several at once — JSON Lines, JSON, CSV
 * (csv-stringify). Each feed is rewritten on open with the items the crawl already stored (an
 * interrupted run resuming), then written as items arrive, so it mirrors the dataset.
 *
 * CSV (issue 25): by default the few columns a reader of a spreadsheet wants, per kind
 * (`CSV_COLUMNS`: url, kind, title, author, publishedAt, content — no HTML, no nested arrays).
 * With `rows: 'entry'` a forum item is one row per post and a list item one row per entry: the
 * thread's or list's url, kind and title, then the post's own fields (`post.*`, its own text
 * without the passages it quotes) or the entry's (`entry.*`). `fields` chooses the columns
 * (dotted paths); `fields: 'all'` is every field, nested values flattened to dotted columns
 * (`pageType.label`, `items.1.url`, `posts.2.author`), lists of strings one cell, one per line.
 * Unless `fields` lists them, the columns are known only at the end (the kinds met, the fields
 * met), so the rows are kept in a spool file beside the feed and the CSV is written when the
 * crawl closes; with a list of `fields` rows are written as they come.
 */
import { closeSync, createReadStream, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { stringify } from 'csv-stringify/sync';
import { ITEM_KINDS, ownText, type Item, type ItemKind } from '../core/item.js';
import type { ItemSink } from './sink.js';

export const FEED_FORMATS = ['jsonl', 'json', 'csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];
export const CSV_ROWS = ['item', 'entry'] as const;
export type CsvRows = (typeof CSV_ROWS)[number];

/** File extensions → formats (`.jl` and `.ndjson` are Scrapy's and the NDJSON spec's names). */
const EXTENSIONS: Record<string, FeedFormat> = { '.jsonl': 'jsonl', '.jl': 'jsonl', '.ndjson': 'jsonl', '.json': 'json', '.csv': 'csv' };

export interface FeedOptions {
  /** Default: from the file extension (.jsonl/.jl/.ndjson, .json, .csv). */
  format?: FeedFormat;
  /** Only these fields (CSV: these columns, in this order; dotted paths allowed, `post.author`
   * with entry rows). CSV without it: the lean columns of each kind (`CSV_COLUMNS`); `'all'`:
   * every field, nested ones flattened (JSON: `'all'` is the default, the whole item). */
  fields?: string[] | 'all';
  /** CSV: one row per item (default), or per forum post / list entry. */
  rows?: CsvRows;
  /** CSV: start with a UTF-8 byte-order mark (Excel then reads the file as UTF-8). */
  bom?: boolean;
  /** Only items of these kinds. */
  kinds?: ItemKind[];
}

export interface FeedSpec extends FeedOptions {
  path: string;
}

/** A feed that cannot be opened as asked. The CLI prints it and exits 2. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

/** The format of a feed: its own `format`, else its extension. */
export function feedFormat(spec: FeedSpec): FeedFormat {
  if (spec.format !== undefined) {
    if (!(FEED_FORMATS as readonly string[]).includes(spec.format)) throw new FeedError(`feed ${spec.path}: unknown format "${spec.format}" (known: ${FEED_FORMATS.join(', ')})`);
    return spec.format;
  }
  const f = EXTENSIONS[path.extname(spec.path).toLowerCase()];
  if (!f) throw new FeedError(`feed ${spec.path}: cannot tell the format from the extension (use .jsonl, .json or .csv, or FILE:FORMAT with FORMAT one of ${FEED_FORMATS.join(', ')})`);
  return f;
}

/** `--out FILE[:FORMAT]` (Scrapy's `-o items.json:jsonlines` form). A colon followed by a path
 * separator (`C:\…`) is part of the file name. */
export function parseOutArg(arg: string): FeedSpec {
  const m = /^(.*):([a-z]+)$/i.exec(arg);
  if (m && m[1] && !/[\\/]/.test(m[2]!)) {
    const format = m[2]!.toLowerCase();
    if (!(FEED_FORMATS as readonly string[]).includes(format)) throw new FeedError(`--out ${arg}: unknown format "${m[2]}" (known: ${FEED_FORMATS.join(', ')})`);
    return { path: m[1], format: format as FeedFormat };
  }
  const spec = { path: arg };
  feedFormat(spec);
  return spec;
}

/** Check a feed spec (format, rows, kinds) without opening anything. */
export function checkFeed(spec: FeedSpec): FeedFormat {
  if (!spec.path) throw new FeedError('feed: empty file name');
  const format = feedFormat(spec);
  if (spec.rows !== undefined && !(CSV_ROWS as readonly string[]).includes(spec.rows)) throw new FeedError(`feed ${spec.path}: rows must be one of ${CSV_ROWS.join(', ')} (got "${spec.rows}")`);
  if ((spec.rows !== undefined || spec.bom) && format !== 'csv') throw new FeedError(`feed ${spec.path}: rows and bom apply to CSV feeds only (this one is ${format})`);
  for (const k of spec.kinds ?? []) if (!(ITEM_KINDS as readonly string[]).includes(k)) throw new FeedError(`feed ${spec.path}: unknown kind "${k}" (known: ${ITEM_KINDS.join(', ')})`);
  return format;
}

/** Open a feed, rewritten with `existing` items (already stored by this crawl). */
export function openFeed(spec: FeedSpec, existing: Item[] = []): ItemSink & { readonly path: string } {
  const format = checkFeed(spec);
  const sink = format === 'csv' ? new CsvFeed(spec) : format === 'json' ? new JsonFeed(spec) : new JsonLinesFeed(spec);
  for (const item of existing) sink.writeSync(item);
  return sink;
}

function pick(item: Item, fields: string[] | 'all' | undefined): Record<string, unknown> {
  if (!fields || fields === 'all') return item as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = f.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), item);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

abstract class FeedBase implements ItemSink {
  protected fd: number;
  readonly path: string;
  private readonly kinds?: Set<string>;
  constructor(protected readonly spec: FeedSpec) {
    this.path = spec.path;
    mkdirSync(path.dirname(path.resolve(spec.path)), { recursive: true });
    this.fd = openSync(spec.path, 'w');
    if (spec.kinds?.length) this.kinds = new Set(spec.kinds);
  }
  protected wanted(item: Item): boolean {
    return !this.kinds || this.kinds.has(item.kind);
  }
  abstract writeSync(item: Item): void;
  async write(item: Item): Promise<void> {
    this.writeSync(item);
  }
  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

class JsonLinesFeed extends FeedBase {
  writeSync(item: Item): void {
    if (this.wanted(item)) writeSync(this.fd, JSON.stringify(pick(item, this.spec.fields)) + '\n');
  }
}

/** A JSON array, valid once closed (as Scrapy's JSON exporter). */
class JsonFeed extends FeedBase {
  private n = 0;
  constructor(spec: FeedSpec) {
    super(spec);
    writeSync(this.fd, '[');
  }
  writeSync(item: Item): void {
    if (!this.wanted(item)) return;
    writeSync(this.fd, (this.n++ ? ',\n' : '\n') + JSON.stringify(pick(item, this.spec.fields)));
  }
  override async close(): Promise<void> {
    writeSync(this.fd, this.n ? '\n]\n' : ']\n');
    await super.close();
  }
}

/** Preferred column order of `fields: 'all'`: a batch line's id, the item shape's fields (ARCHITECTURE §4), then the rest as met. The
 * per-post and per-entry columns stand where `posts` and `items` would. */
const COLUMN_ORDER = ['id', 'url', 'kind', 'spider', 'fetchedAt', 'lang', 'title', 'author', 'publishedAt', 'publishedAtText', 'content', 'contentHtml', 'images', 'items', 'entry', 'nextPage', 'pages', 'posts', 'post', 'pageType', 'status', 'error'];

/**
 * The default CSV columns of each kind (issue 25: the every-field default had 120 columns, HTML
 * and `items.1.url …` among them). A file holding several kinds has the union, in this order.
 */
export const CSV_COLUMNS: Readonly<Record<ItemKind, readonly string[]>> = {
  article: ['url', 'kind', 'title', 'author', 'publishedAt', 'content'],
  list: ['url', 'kind', 'title', 'content'],
  forum: ['url', 'kind', 'title', 'content'],
  other: ['url', 'kind', 'title', 'content'],
};
/** The default columns of entry rows (`rows: 'entry'`): the thread's or list's own fields, then
 * the post's (its own text: `post.content` without the passages it quotes) or the entry's. */
export const CSV_ENTRY_COLUMNS = {
  forum: ['url', 'kind', 'title', 'post.floor', 'post.author', 'post.publishedAt', 'post.content'],
  list: ['url', 'kind', 'title', 'entry.url', 'entry.title', 'entry.publishedAt'],
} as const;
/** Default columns added when an item has them: a batch line's id (first), a page's error (last). */
const CSV_EXTRA_COLUMNS = ['id', 'error'];
/** The order of the default columns in a file. */
const LEAN_ORDER = [...new Set(['id', ...CSV_COLUMNS.article, ...CSV_ENTRY_COLUMNS.list, ...CSV_ENTRY_COLUMNS.forum, 'error'])];

function flattenInto(out: Record<string, string>, prefix: string, v: unknown): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'object') {
    out[prefix] = String(v);
    return;
  }
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) {
      if (v.length) out[prefix] = v.map((x) => String(x ?? '')).join('\n');
      return;
    }
    v.forEach((x, i) => flattenInto(out, `${prefix}.${i + 1}`, x));
    return;
  }
  for (const [k, x] of Object.entries(v)) flattenInto(out, prefix ? `${prefix}.${k}` : k, x);
}

/** The entries an item is split into with `rows: 'entry'` (a forum's posts, a list's entries),
 * with the prefix of their columns; undefined when it is one row. */
function entriesOf(item: Item, rows: CsvRows): { field: 'posts' | 'items'; prefix: 'post' | 'entry'; children: object[] } | undefined {
  if (rows !== 'entry') return undefined;
  // a post's own text: the thread's text and the quoted passages are in other rows already
  if (item.kind === 'forum' && item.posts?.length) return { field: 'posts', prefix: 'post', children: item.posts.map((p) => ({ ...p, content: ownText(p) })) };
  if (item.kind === 'list' && item.items?.length) return { field: 'items', prefix: 'entry', children: item.items };
  return undefined;
}

/** The CSV rows of one item with every field (`fields: 'all'`): flattened records, column → text.
 * With `rows: 'entry'` a row per post (`post.*`, its own text) or list entry (`entry.*`), the
 * page's other fields repeated on each. */
export function csvRecords(item: Item, rows: CsvRows = 'item'): Array<Record<string, string>> {
  const nested = entriesOf(item, rows);
  if (!nested) {
    const r: Record<string, string> = {};
    flattenInto(r, '', item);
    return [r];
  }
  const base: Record<string, string> = {};
  const { [nested.field]: _children, ...rest } = item as unknown as Record<string, unknown>;
  flattenInto(base, '', rest);
  return nested.children.map((c) => {
    const r = { ...base };
    flattenInto(r, nested.prefix, c);
    return r;
  });
}

/** The default columns of an item's rows (see CSV_COLUMNS, CSV_ENTRY_COLUMNS), without the
 * extra ones. */
export function leanCsvColumns(item: Item, rows: CsvRows = 'item'): readonly string[] {
  return entriesOf(item, rows) ? CSV_ENTRY_COLUMNS[item.kind as 'forum' | 'list'] : (CSV_COLUMNS[item.kind] ?? CSV_COLUMNS.other);
}

/** The CSV rows of one item in the default columns (see CSV_COLUMNS, CSV_ENTRY_COLUMNS). */
export function leanCsvRecords(item: Item, rows: CsvRows = 'item'): Array<Record<string, string>> {
  const nested = entriesOf(item, rows);
  const columns = leanCsvColumns(item, rows);
  const own = (c: string) => !c.startsWith('post.') && !c.startsWith('entry.');
  const base: Record<string, string> = {};
  const fields = item as unknown as Record<string, unknown>;
  for (const c of [...columns.filter(own), ...CSV_EXTRA_COLUMNS]) {
    const v = fields[c];
    if (v !== undefined && v !== null && typeof v !== 'object') base[c] = String(v);
  }
  if (!nested) return [base];
  const prefix = `${nested.prefix}.`;
  return nested.children.map((child) => {
    const r = { ...base };
    for (const c of columns) {
      if (!c.startsWith(prefix)) continue;
      const v = (child as Record<string, unknown>)[c.slice(prefix.length)];
      if (v !== undefined && v !== null && typeof v !== 'object') r[c] = String(v);
    }
    return r;
  });
}

class CsvFeed extends FeedBase {
  private readonly rows: CsvRows;
  /** The columns when the feed lists them; else they are known at the end. */
  private readonly columns?: string[];
  private readonly all: boolean;
  private spoolFd?: number;
  private readonly spool: string;
  private readonly seen = new Map<string, number>();
  private headerDone = false;

  constructor(spec: FeedSpec) {
    super(spec);
    this.rows = spec.rows ?? 'item';
    this.all = spec.fields === 'all';
    if (Array.isArray(spec.fields)) this.columns = spec.fields;
    this.spool = path.join(path.dirname(path.resolve(spec.path)), `.${path.basename(spec.path)}.rows.tmp`);
    if (!this.columns) this.spoolFd = openSync(this.spool, 'w');
  }

  private header(columns: string[]): void {
    writeSync(this.fd, stringify([columns], { bom: !!this.spec.bom }));
    this.headerDone = true;
  }

  writeSync(item: Item): void {
    if (!this.wanted(item)) return;
    if (this.columns) {
      // columns of your choice: from every field (any dotted path may be asked for)
      const records = csvRecords(item, this.rows);
      if (!this.headerDone) this.header(this.columns);
      writeSync(this.fd, stringify(records.map((r) => this.columns!.map((c) => r[c] ?? ''))));
      return;
    }
    // the default columns: every column of the kinds met, filled or not (the extra ones when filled)
    if (!this.all) for (const c of leanCsvColumns(item, this.rows)) if (!this.seen.has(c)) this.seen.set(c, this.seen.size);
    for (const r of this.all ? csvRecords(item, this.rows) : leanCsvRecords(item, this.rows)) {
      for (const c of Object.keys(r)) if (!this.seen.has(c)) this.seen.set(c, this.seen.size);
      writeSync(this.spoolFd!, JSON.stringify(r) + '\n');
    }
  }

  /** Columns: the preferred order by root field, then first seen; numbered children in order.
   * The default columns: those of the kinds met, in the order of LEAN_ORDER. */
  private orderedColumns(): string[] {
    if (!this.all) return LEAN_ORDER.filter((c) => this.seen.has(c));
    const rank = (c: string) => {
      const root = c.split('.')[0]!;
      const r = COLUMN_ORDER.indexOf(root);
      return r >= 0 ? r : COLUMN_ORDER.length;
    };
    return [...this.seen.keys()].sort((a, b) => rank(a) - rank(b) || this.seen.get(a)! - this.seen.get(b)!);
  }

  override async close(): Promise<void> {
    if (this.columns) {
      if (!this.headerDone) this.header(this.columns);
      await super.close();
      return;
    }
    closeSync(this.spoolFd!);
    const columns = this.orderedColumns();
    this.header(columns.length ? columns : ['url', 'kind']);
    const lines = readline.createInterface({ input: createReadStream(this.spool, 'utf8'), crlfDelay: Infinity });
    let batch: string[][] = [];
    for await (const line of lines) {
      if (!line) continue;
      const r = JSON.parse(line) as Record<string, string>;
      batch.push(columns.map((c) => r[c] ?? ''));
      if (batch.length >= 500) {
        writeSync(this.fd, stringify(batch));
        batch = [];
      }
    }
    if (batch.length) writeSync(this.fd, stringify(batch));
    rmSync(this.spool, { force: true });
    await super.close();
  }
}

/** `--csv-columns url,title,post.author` (or `all`) → a feed's `fields`. */
export function parseCsvColumns(arg: string): string[] | 'all' {
  if (arg.trim() === 'all') return 'all';
  const columns = arg.split(',').map((c) => c.trim());
  if (!columns.length || columns.some((c) => !c)) throw new FeedError(`--csv-columns takes column names separated by commas, or all (got "${arg}")`);
  return columns;
}

/** The command line's `--out FILE[:FORMAT]` (repeatable) with `--bom`, `--csv-rows` and
 * `--csv-columns` → feed specs, checked: every mistake is a FeedError (one line, exit code 2 in
 * src/cli/main.ts). */
export function feedsFromCli(outs: string[], o: { bom?: boolean; csvRows?: string; csvColumns?: string }): FeedSpec[] {
  if (o.csvRows !== undefined && !(CSV_ROWS as readonly string[]).includes(o.csvRows)) throw new FeedError(`--csv-rows must be one of ${CSV_ROWS.join(', ')} (got "${o.csvRows}")`);
  const columns = o.csvColumns === undefined ? undefined : parseCsvColumns(o.csvColumns);
  const specs: FeedSpec[] = [];
  try {
    for (const arg of outs) {
      const spec = parseOutArg(arg);
      const csv = checkFeed(spec) === 'csv';
      if (csv && o.bom) spec.bom = true;
      if (csv && o.csvRows) spec.rows = o.csvRows as CsvRows;
      if (csv && columns) spec.fields = columns;
      specs.push(spec);
    }
  } catch (e) {
    if (e instanceof FeedError) throw new FeedError(e.message.replace(/^feed /, '--out '));
    throw e;
  }
  const csvOnly = o.bom ? '--bom' : o.csvRows ? '--csv-rows' : columns ? '--csv-columns' : undefined;
  if (csvOnly && !specs.some((s) => checkFeed(s) === 'csv')) throw new FeedError(`${csvOnly} applies to CSV outputs, and no --out names a .csv file`);
  return specs;
}
