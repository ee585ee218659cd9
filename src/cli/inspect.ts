/**
 * `gleaner inspect <page.html|page.html.gz|URL>`: one self-contained HTML report of what Gleaner
 * saw on a page (src/inspect/report.ts), and optionally a screenshot of it.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtractKind } from '../chain/extractor.js';
import { UsageError, checkUrlOption } from './errors.js';
import { DEFAULT_MAX_INPUT_BYTES, pageBytes } from './read-input.js';
// Static: this module is itself loaded only by `gleaner inspect` (each dynamic import is one more
// file in the package, which has a file budget: test/package).
import { fetchPage } from '../inspect/fetch.js';
import { tracePage } from '../inspect/trace.js';
import { renderReport } from '../inspect/report.js';
import { classifyPage } from '../../middleware/classifier/index.js';
import { screenshotPage } from '../crawler/screenshot.js';
import { OVERLAY_SCRIPT, overlaySpec } from '../inspect/render-overlay.js';

const KINDS: ExtractKind[] = ['auto', 'article', 'list', 'forum'];

export interface InspectCliOptions {
  url?: string;
  kind?: string;
  out?: string;
  screenshot?: string;
  /** Other saved pages of the same site: the site template is learned from them first. */
  site?: string[];
  allowPrivate?: boolean;
  maxBytes?: number;
  timezone?: string;
}

function readPage(file: string, max: number): Buffer {
  if (!existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`);
  const size = statSync(file).size;
  if (size > max) throw new UsageError(`${file}: ${size} bytes, larger than --max-bytes ${max}`);
  return pageBytes(readFileSync(file), file, max);
}

const localUrl = (file: string) => `http://localhost${pathToFileURL(path.resolve(file)).pathname.replace(/\.gz$/i, '')}`;

/** The report of one page as `gleaner inspect` writes it (the crawl monitor's inspector view). */
export async function inspectReport(url: string, body: Uint8Array, kind: ExtractKind = 'auto'): Promise<string> {
  return renderReport(await tracePage({ url, body, kind, classify: (p) => classifyPage(p) }));
}

export async function runInspect(input: string, o: InspectCliOptions): Promise<void> {
  const kind = (o.kind ?? 'auto') as ExtractKind;
  if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')} (got "${o.kind}")`);
  const max = o.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  checkUrlOption(o.url);
  let url: string;
  let body: Buffer;
  if (/^https?:\/\//i.test(input)) {
    if (!URL.canParse(input)) throw new UsageError(`not a URL: ${input}`);
    try {
      const page = await fetchPage(input, { allowPrivateAddresses: o.allowPrivate, maxBytes: max });
      url = page.url;
      body = Buffer.from(page.html, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot fetch ${input}: ${(e as Error).message}`);
    }
  } else {
    body = readPage(input, max);
    url = o.url ?? localUrl(input);
  }
  const sitePages = (o.site ?? []).map((f) => ({ url: localUrl(f).replace(/^http:\/\/localhost/, new URL(url).origin), body: readPage(f, max) }));
  const trace = await tracePage({ url, body, kind, timezone: o.timezone, sitePages, classify: (p) => classifyPage(p) });
  // the page's HTML for the screenshot, before the report sanitises the tree it shares
  const html = trace.page.html;
  const spec = o.screenshot ? overlaySpec(trace) : undefined;
  const out = o.out ?? 'inspect-report.html';
  writeFileSync(out, renderReport(trace));
  process.stderr.write(`gleaner: report of ${url} (${trace.item.kind}) written to ${out}\n`);
  if (o.screenshot && spec) {
    const drawn = await screenshotPage<number>(html, o.screenshot, OVERLAY_SCRIPT, spec);
    process.stderr.write(`gleaner: the page rendered with ${drawn} of ${spec.boxes.length} boxes written to ${o.screenshot}\n`);
  }
}
