/**
 * `gleaner extract` and `gleaner classify`: saved pages → JSON lines.
 */
import { Extractor, type ExtractKind } from '../chain/extractor.js';
import { createPage } from '../core/page.js';
import { classifyPage } from '../../middleware/classifier/index.js';
import { UsageError, checkUrlOption } from './errors.js';
import { feedsFromCli, openFeed } from '../storage/feed-sink.js';
import { DEFAULT_MAX_INPUT_BYTES, fileUrl, readInput } from './read-input.js';
import { extractManifest } from './batch-manifest.js';

export { DEFAULT_MAX_INPUT_BYTES, pageBytes } from './read-input.js';
export { inspectReport, runInspect } from './inspect.js';
export { extractManifest, readManifest, type BatchOptions, type BatchFailure, type BatchRecord, type ManifestLine } from './batch-manifest.js';
import { renderPages } from '../crawler/render-file.js';

const KINDS: ExtractKind[] = ['auto', 'article', 'list', 'forum'];

/** An IANA zone Intl knows (`Asia/Shanghai`, `UTC`; `+08:00` is not one). */
function checkTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new UsageError(`--timezone: unknown IANA time zone "${tz}" (e.g. Asia/Shanghai, Europe/Berlin, UTC)`);
  }
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
  /** Per-page budget of --batch, seconds (default: the crawl's, 10 s). */
  pageBudget?: number;
  bom?: boolean;
  csvRows?: string;
  /** Render the pages in chromium first (src/crawler/render-file.ts): the layout stage reads their boxes. */
  render?: boolean;
  /** Add `provenance` to every item (the `provenance` middleware, src/inspect). */
  explain?: boolean;
}

export async function runExtract(files: string[], o: ExtractCliOptions): Promise<void> {
  const kind = (o.kind ?? 'auto') as ExtractKind;
  if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')} (got "${o.kind}")`);
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  if (o.timezone !== undefined) checkTimezone(o.timezone);
  checkUrlOption(o.url);
  const outs = o.out === undefined ? [] : Array.isArray(o.out) ? o.out : [o.out];
  if (outs.length && !o.batch) throw new UsageError('--out needs --batch MANIFEST.jsonl (without --batch, items go to standard output: redirect it, e.g. > items.jsonl)');
  if (o.stream && !o.batch) throw new UsageError('--stream needs --batch MANIFEST.jsonl');
  if (o.render && o.batch) throw new UsageError('--render renders the files given on the command line, not a --batch manifest');
  const feeds = feedsFromCli(outs, o);
  if (o.batch) {
    if (!outs.length) throw new UsageError('--batch needs --out OUT.jsonl');
    // Each line written when its page is done (the manifest's id first: a key the item schema
    // lets through); a line that gave no page is an error record and a line on stderr.
    const sinks = feeds.map((f) => openFeed(f));
    let failures;
    try {
      ({ failures } = await extractManifest(o.batch, {
        kind,
        stream: o.stream,
        timezone: o.timezone,
        maxBytes,
        fetchedAt: o.fetchedAt,
        jobs: o.jobs,
        pageBudgetSecs: o.pageBudget,
        explain: o.explain,
        onFailure: (f) => process.stderr.write(`gleaner: ${f.message}\n`),
        onItem: async (record) => {
          for (const s of sinks) await s.write(record);
        },
      }));
    } finally {
      for (const s of sinks) await s.close();
    }
    if (failures.length) throw new UsageError(`${failures.length} manifest line${failures.length === 1 ? '' : 's'} of ${o.batch} failed (named above; each is an error record in the output)`, 1);
    return;
  }
  if (!files.length) throw new UsageError('extract needs files (or - for standard input), or --batch MANIFEST.jsonl');
  const extractor = new Extractor({ kind, timezone: o.timezone, middleware: o.render || o.explain ? { ...(o.render ? { layout: true } : {}), ...(o.explain ? { provenance: true } : {}) } : undefined });
  const bodies: Array<[string, Buffer | string]> = [];
  for (const f of files) bodies.push([f, await readInput(f, maxBytes)]);
  if (o.render) {
    const html = await renderPages(bodies.map(([f, body]) => ({ file: f === '-' ? undefined : f, url: o.url ?? fileUrl(f), body: body as Buffer })));
    html.forEach((h, i) => (bodies[i]![1] = h));
  }
  for (const [f, body] of bodies) {
    const item = await extractor.extract({ url: o.url ?? fileUrl(f), body, fetchedAt: o.fetchedAt });
    process.stdout.write(JSON.stringify(item) + '\n');
  }
  await extractor.close();
}

export async function runClassify(files: string[], o: { url?: string; maxBytes?: number }): Promise<void> {
  if (!files.length) throw new UsageError('classify needs files (or - for standard input)');
  checkUrlOption(o.url);
  for (const f of files) {
    const body = await readInput(f, o.maxBytes);
    let result;
    try {
      result = classifyPage(createPage({ url: o.url ?? fileUrl(f), body }));
    } catch (e) {
      result = { label: 'other', probabilities: { other: 1 }, error: (e as Error).message };
    }
    process.stdout.write(JSON.stringify({ file: f, ...result }) + '\n');
  }
}
