/**
 * The response's own bytes, kept while the crawler reads them: no second request.
 *
 * CheerioCrawler (and JSDOMCrawler, LinkedomCrawler) turn the body into text before the request
 * handler runs: with the charset from the Content-Type header when there is one, else as UTF-8 —
 * which garbles a GBK, Big5 or Shift_JIS page that names its charset only in `<meta>` (issue 15:
 * the old example fetched such pages twice to get the bytes back). HttpCrawler hands over bytes,
 * but transcoded to UTF-8 when the header names a charset Node does not know (gbk …), trusting
 * a header that old Chinese servers often get wrong.
 *
 * A post-navigation hook runs after the response arrives and before the crawler reads its body.
 * `keepRawBody` puts a pass-through stream in the context's `response` (the same response
 * properties, like Crawlee's own response stream) and feeds it from the original response while
 * keeping a copy of every chunk; the crawler reads the pass-through as before, and Gleaner decodes
 * the copy itself (BOM, header, `<meta>`, detection: src/core/decode.ts).
 */
import { PassThrough, type Readable } from 'node:stream';

/** The response properties the crawlers read (Crawlee's `addResponsePropertiesToStream` list,
 * plus what got's responses carry); `complete` and `trailers` are read live. */
const RESPONSE_PROPERTIES = ['statusCode', 'statusMessage', 'headers', 'httpVersion', 'rawHeaders', 'url', 'request', 'redirectUrls', 'timings', 'ip', 'isFromCache', 'ok'];
const LIVE_PROPERTIES = ['complete', 'trailers', 'rawTrailers'];

const RAW = Symbol.for('gleaner.rawBody');

interface RawBody {
  chunks: Buffer[];
  ended: boolean;
}

/** What the hook reads: the context of any HTTP crawler after navigation. */
export interface NavigationContextLike {
  response?: unknown;
}

function isStream(x: unknown): x is Readable & Record<string, unknown> {
  return typeof x === 'object' && x !== null && typeof (x as Readable).on === 'function' && typeof (x as Readable).pipe === 'function';
}

/**
 * Post-navigation hook for HttpCrawler, CheerioCrawler, JSDOMCrawler and LinkedomCrawler: keeps
 * the response's raw bytes for Gleaner. Browser crawlers have no response stream: it does nothing.
 *
 * @example
 * ```ts
 * new CheerioCrawler({ postNavigationHooks: [keepRawBody], requestHandler: gleaner.handler });
 * ```
 */
export function keepRawBody(ctx: NavigationContextLike): void {
  const original = ctx.response;
  const holder = ctx as NavigationContextLike & { [RAW]?: RawBody };
  if (!isStream(original) || holder[RAW]) return;
  const raw: RawBody = { chunks: [], ended: false };
  // No backpressure towards the original: the crawler reads the pass-through only after this
  // hook returns, so the pass-through holds the body meanwhile (the crawler would hold it anyway).
  const through = new PassThrough({ highWaterMark: Number.MAX_SAFE_INTEGER }) as PassThrough & Record<string | symbol, unknown>;
  for (const p of RESPONSE_PROPERTIES) if (p in original) through[p] = original[p];
  for (const p of LIVE_PROPERTIES) Object.defineProperty(through, p, { get: () => original[p], enumerable: true, configurable: true });
  // On the context, not the stream: the crawler may replace the response stream (HttpCrawler
  // pipes it through iconv when the header names a charset Node does not know).
  holder[RAW] = raw;
  original.on('data', (chunk: Buffer | string) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    raw.chunks.push(b);
    through.write(b);
  });
  original.on('end', () => {
    raw.ended = true;
    through.end();
  });
  original.on('error', (e: Error) => through.destroy(e));
  through.on('close', () => {
    if (!raw.ended) original.destroy();
  });
  ctx.response = through;
}

/** The bytes `keepRawBody` kept for this context's response, once the whole body was read. */
export function rawBodyOf(ctx: NavigationContextLike): Buffer | undefined {
  const raw = (ctx as { [RAW]?: RawBody })[RAW];
  return raw?.ended ? Buffer.concat(raw.chunks) : undefined;
}
