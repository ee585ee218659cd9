/**
 * The wire: one HTTP exchange, no redirects followed, no decompression, no retries (those are
 * downloader steps). got-scraping sends browser-like headers and speaks HTTP/2; the body is left as
 * a stream so the size limit can stop it (see body.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { gotScraping } from 'got-scraping';
import { guardedLookup } from '../net-guard.js';
import { readBoundedBody, type BodyLimit, type ReadBody } from './body.js';

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  proxyUrl?: string;
  /** Aborts the exchange (timeout, or the crawl stopping). */
  signal: AbortSignal;
  /** Refuse private answers at DNS time (unless the spider allows private addresses). */
  guardDns: boolean;
}

export interface ResponseHead {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
}

export interface OpenResponse extends ResponseHead {
  /** Read the body within the limit (decompressed). */
  read(limit: BodyLimit): Promise<ReadBody>;
  /** Drop the body unread (redirects, errors, refused types). */
  discard(): void;
}

export type Transport = (req: TransportRequest) => Promise<OpenResponse>;

/** One browser identity per proxy: got-scraping generates a browser's header set once per session
 * token and sends it with every request made with that token, as one browser would (and as
 * Crawlee's HTTP crawlers do per session). Without a token it sampled a new set for every request:
 * ~5 % of the crawl's main-thread CPU on the realistic bench site. */
const identities = new Map<string, object>();
function identityFor(proxyUrl: string | undefined): object {
  let token = identities.get(proxyUrl ?? '');
  if (!token) identities.set(proxyUrl ?? '', (token = {}));
  return token;
}

/** The default transport: got-scraping in stream mode. */
export const gotTransport: Transport = (req) =>
  new Promise<OpenResponse>((resolve, reject) => {
    const stream = (gotScraping as any).stream({
      url: req.url,
      headers: req.headers,
      proxyUrl: req.proxyUrl,
      sessionToken: identityFor(req.proxyUrl),
      decompress: false,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      signal: req.signal,
      dnsLookup: req.guardDns ? guardedLookup : undefined,
    }) as Readable & { once(ev: 'response', cb: (r: any) => void): void };
    let responded = false;
    stream.on('error', (e: Error) => {
      if (!responded) reject(e);
    });
    stream.once('response', (r: any) => {
      responded = true;
      resolve({
        url: req.url,
        status: r.statusCode as number,
        headers: r.headers as IncomingHttpHeaders,
        read: (limit) => readBoundedBody(stream, r.headers['content-encoding'], limit),
        discard: () => stream.destroy(),
      });
    });
  });
