/**
 * What `gleaner crawl` prints: the progress line and the summary, and the command's options. Shared by
 * the local crawl (`crawl.ts`) and the Redis workers (`redis-crawl.ts`).
 */
import path from 'node:path';
import type { CrawlProgress, CrawlSummary } from '../crawler/crawl.js';
import type { LogLevelName } from '../crawler/log.js';

export interface CrawlCliOptions {
  maxPages?: number;
  out?: string | string[];
  bom?: boolean;
  csvRows?: string;
  csvColumns?: string;
  fresh?: boolean;
  recrawl?: boolean;
  logLevel?: LogLevelName;
  storageDir?: string;
  threads?: number;
  /** One worker of a crawl shared through Redis (overrides the spider's `redis`). */
  redis?: string;
  /** Local worker processes (with --redis). */
  workers?: number;
  workerId?: string;
  leaseSecs?: number;
  /** `--ui [PORT]`: the live monitor (true: a free port). */
  ui?: boolean | string;
}

/** `h:mm:ss` or `m:ss`. */
export function clock(secs: number): string {
  const t = Math.max(0, Math.round(secs));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The progress line: elapsed time, pages (of the budget) and rate, queue, items, errors, ETA. */
export function progressLine(p: CrawlProgress): string {
  const of = p.maxPages !== undefined ? `/${p.maxPages}` : '';
  const eta = p.etaSecs !== undefined ? ` · ETA ${clock(p.etaSecs)}` : '';
  const mem = p.rssMb !== undefined ? ` · ${p.rssMb} MB` : '';
  return `${clock(p.elapsedSecs)} elapsed · ${p.pages}${of} pages (${p.pagesPerSec.toFixed(1)}/s) · ${p.queued} queued · ${p.items} items · ${p.failed} errors${mem}${eta}`;
}

const fmt = (o: Record<string, number>) =>
  Object.entries(o)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** Fetch failures with a few example URLs each: `http 404 261 (e.g. /a, /b, /c)`. */
const fmtFailures = (s: CrawlSummary) =>
  Object.entries(s.failuresByReason)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}${s.failureExamples[k]?.length ? ` (e.g. ${s.failureExamples[k]!.join(', ')})` : ''}`)
    .join('; ') || 'none';

export function summaryText(s: CrawlSummary): string {
  const state = s.finished ? (s.unvisitedByBudget ? `finished (${s.stoppedBy})` : 'finished') : `stopped${s.stoppedBy ? ` (${s.stoppedBy})` : ''} (run again to resume)`;
  const queued = s.unvisitedByBudget ? `${s.unvisitedByBudget} URLs left unvisited by the page budget` : `${s.queued} still queued`;
  const lines = [
    `${s.spider}: ${state} in ${s.elapsedSecs.toFixed(1)} s${s.resumed ? ' (resumed)' : ''}`,
    `  pages:    ${s.pages} (${s.pagesPerSec.toFixed(1)} pages/s), ${queued}`,
    `  items:    ${s.items} stored (${fmt(s.itemsByKind)})${s.duplicates ? `, ${s.duplicates} duplicates skipped` : ''}`,
    `  failures: ${s.failed} — by middleware: ${fmt(s.failuresByMiddleware)}; fetch: ${fmtFailures(s)}${s.retries ? ` (${s.retries} retries)` : ''}`,
  ];
  if (s.peakRssMb) lines.push(`  memory:   peak ${s.peakRssMb} MB resident (the process, every thread)`);
  if (s.directoryTwins) lines.push(`  one URL per page: ${s.directoryTwins} links to a directory-index twin (…/ and …/index.html) not queued`);
  if (Object.keys(s.dropped).length) lines.push(`  dropped by middleware: ${fmt(s.dropped)}`);
  if (Object.keys(s.timeouts ?? {}).length) lines.push(`  over the page budget (stored as "other" items): ${fmt(s.timeouts)}`);
  if (Object.keys(s.invalidItems).length) lines.push(`  invalid items: ${fmt(s.invalidItems)}`);
  if (Object.keys(s.droppedByPipeline).length) lines.push(`  dropped by pipelines: ${fmt(s.droppedByPipeline)}`);
  if (Object.keys(s.pipelineErrors).length) lines.push(`  pipeline errors: ${fmt(s.pipelineErrors)}`);
  if (s.recrawl) lines.push(`  recrawl:  pass ${s.recrawl.pass}: ${s.recrawl.revisited} pages re-visited, ${s.recrawl.notModified} not modified (304), ${s.recrawl.unchanged} unchanged, ${s.recrawl.changed} changed`);
  if (s.sitemapUrls) lines.push(`  sitemaps: ${s.sitemapUrls} URLs queued`);
  if (s.robotsUnavailable) lines.push(`  robots.txt unavailable (5xx or unreachable): ${s.robotsUnavailable} hosts, every URL of theirs refused (RFC 9309)`);
  if (s.linksDroppedByQueueLimit) lines.push(`  frontier full: ${s.linksDroppedByQueueLimit} links not queued (crawler.maxQueued)`);
  if (s.skippedByRobots) lines.push(`  skipped by robots.txt: ${s.skippedByRobots}`);
  lines.push(`  dataset:  ${path.relative(process.cwd(), s.datasetDir) || s.datasetDir}`);
  if (s.feeds.length) lines.push(`  feeds:    ${s.feeds.join(', ')}`);
  return lines.join('\n');
}
