/**
 * Start URLs from sitemaps (issue 16 item 3; Scrapy's SitemapSpider, Crawlee's Sitemap): the
 * `Sitemap:` lines of the start URLs' robots.txt (else `/sitemap.xml`), or the spider's own list
 * (sitemap URLs, or robots.txt URLs whose lines are read). Sitemaps are fetched through the
 * crawl's downloader — the address guard, robots.txt, the rate limit and size limit apply as to
 * any request — and parsed by Crawlee's sitemap parser (`parseSitemap`, from crawlee's @crawlee/utils: urlset
 * and sitemapindex, `lastmod`); gzip bodies are inflated, plain-text sitemaps read a URL a line.
 */
import { gunzipSync } from 'node:zlib';
import { parseSitemap } from '@crawlee/utils';
import type { Logger } from '../core/middleware.js';

/** Sitemap files read at most per crawl (an index of indexes of a large site): each may list
 * 50,000 URLs (sitemaps.org protocol), so this bounds the seeds at a few million. */
export const MAX_SITEMAPS = 100;
/** Index nesting followed (index → index → urlset is the deepest real sites use). */
export const MAX_SITEMAP_DEPTH = 3;
/** Largest sitemap body, uncompressed (the protocol's limit is 50 MB). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  url: string;
  lastmod?: Date;
}

export type SitemapFetch = (url: string) => Promise<{ body: Buffer } | undefined>;

const isRobots = (u: string) => /\/robots\.txt$/i.test(new URL(u).pathname);

/** The URLs of one sitemap body and the sitemaps it points to. */
export async function readSitemap(body: Buffer): Promise<{ urls: SitemapEntry[]; sitemaps: string[] }> {
  let buf = body;
  if (buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf, { maxOutputLength: SITEMAP_MAX_BYTES });
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const urls: SitemapEntry[] = [];
  const sitemaps: string[] = [];
  if (!/^\s*</.test(text)) {
    // sitemaps.org: a text file of URLs, one a line.
    for (const line of text.split(/\r?\n/)) if (/^https?:\/\//i.test(line.trim())) urls.push({ url: line.trim() });
    return { urls, sitemaps };
  }
  for await (const e of parseSitemap([{ type: 'raw', content: text }], undefined, { emitNestedSitemaps: true, maxDepth: 0, reportNetworkErrors: false })) {
    if (e.originSitemapUrl === null) sitemaps.push(e.loc);
    else urls.push({ url: e.loc, lastmod: (e as { lastmod?: Date }).lastmod });
  }
  return { urls, sitemaps };
}

/**
 * Every page URL the sitemaps list. `sources`: sitemap or robots.txt URLs; `robotsSitemaps`
 * gives an origin's `Sitemap:` lines.
 */
export async function loadSitemaps(sources: string[], fetch: SitemapFetch, robotsSitemaps: (origin: string) => Promise<string[]>, log: Logger): Promise<{ urls: SitemapEntry[]; sitemaps: number }> {
  const queue: Array<{ url: string; depth: number }> = [];
  for (const s of sources) {
    if (isRobots(s)) for (const m of await robotsSitemaps(new URL(s).origin)) queue.push({ url: m, depth: 0 });
    else queue.push({ url: s, depth: 0 });
  }
  const seen = new Set<string>();
  const urls: SitemapEntry[] = [];
  let read = 0;
  while (queue.length && read < MAX_SITEMAPS) {
    const { url, depth } = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    let res;
    try {
      res = await fetch(url);
    } catch (e) {
      log.warning(`sitemap ${url}: ${(e as Error).message}`);
      continue;
    }
    if (!res) continue;
    read++;
    try {
      const found = await readSitemap(res.body);
      urls.push(...found.urls);
      for (const m of found.sitemaps) if (depth < MAX_SITEMAP_DEPTH) queue.push({ url: m, depth: depth + 1 });
      log.info(`sitemap ${url}: ${found.urls.length} URLs${found.sitemaps.length ? `, ${found.sitemaps.length} sitemaps` : ''}`);
    } catch (e) {
      log.warning(`sitemap ${url}: not a sitemap (${(e as Error).message})`);
    }
  }
  if (queue.length) log.warning(`sitemaps: stopped after ${MAX_SITEMAPS} files (${queue.length} more listed)`);
  return { urls, sitemaps: read };
}

/** The sitemap sources of a spider: its own list, or (`true`) each start URL origin's robots.txt
 * `Sitemap:` lines, falling back to `/sitemap.xml` where robots.txt lists none. */
export async function sitemapSources(setting: true | string[], startUrls: string[], robotsSitemaps: ((origin: string) => Promise<string[]>) | undefined): Promise<string[]> {
  if (setting !== true) return setting;
  const out: string[] = [];
  for (const origin of new Set(startUrls.map((u) => new URL(u).origin))) {
    const listed = robotsSitemaps ? await robotsSitemaps(origin) : [];
    out.push(...(listed.length ? listed : [`${origin}/sitemap.xml`]));
  }
  return out;
}
