/** CrawlStats (src/crawler/run/stats.ts): the progress figures, the summary, and the stats file
 * under Scrapy's names. Time is given (`now`), never waited for. */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CrawlStats, bump, countLines, statsRecord, type PipelineCounts, type SummaryParts } from '../../../src/crawler/run/stats.js';
import { recordingLogger } from './fakes.js';

const noPipeline: PipelineCounts = { storedCount: 0, stored: {}, invalid: {}, dropped: {}, errors: {}, duplicates: 0 };

function parts(over: Partial<SummaryParts> = {}): SummaryParts {
  return { queued: 0, pipeline: noPipeline, stoppedBy: undefined, byBudget: false, startUrls: 1, feeds: [], recrawlPass: undefined, sessions: undefined, resumed: false, finished: true, datasetDir: '/data/news', ...over };
}

describe('CrawlStats: progress', () => {
  it('pages per second over the elapsed time, and the ETA to the page budget (earlier runs counted)', () => {
    const stats = new CrawlStats(recordingLogger(), 'news');
    stats.pages = 20;
    stats.failed = 2;
    const p = stats.progress(15, 18, { maxPages: 100, previousPages: 30 }, stats.started + 10_000);
    expect(p).toEqual({ spider: 'news', pages: 20, queued: 15, failed: 2, items: 18, pagesPerSec: 2, elapsedSecs: 10, maxPages: 100, etaSecs: 25, rssMb: expect.any(Number), peakRssMb: expect.any(Number), failuresByReason: {} });
    // the process's memory: resident now, and its peak (never below it)
    expect(p.rssMb).toBeGreaterThan(0);
    expect(p.peakRssMb).toBeGreaterThanOrEqual(p.rssMb! - 1);
  });

  it('no ETA without a budget, nor before the first page; 0 s left once the budget is spent', () => {
    const stats = new CrawlStats(recordingLogger(), 'news');
    const at = stats.started + 4_000;
    expect(stats.progress(3, 0, { maxPages: 10, previousPages: 0 }, at).etaSecs).toBeUndefined();
    expect(stats.progress(3, 0, { maxPages: 10, previousPages: 0 }, stats.started).pagesPerSec).toBe(0);
    stats.pages = 8;
    expect(stats.progress(3, 0, { maxPages: undefined, previousPages: 0 }, at).etaSecs).toBeUndefined();
    expect(stats.progress(3, 0, { maxPages: 10, previousPages: 0 }, at).etaSecs).toBe(1);
    expect(stats.progress(3, 0, { maxPages: 10, previousPages: 5 }, at).etaSecs).toBe(0);
  });
});

describe('CrawlStats: summary', () => {
  it('every counter of the run and of the parts, copied (later counting does not change it)', () => {
    const stats = new CrawlStats(recordingLogger(), 'news');
    stats.pages = 6;
    stats.failed = 3;
    stats.retries = 4;
    stats.startUrlsFailed = 1;
    stats.skippedByRobots = 2;
    stats.sitemapUrls = 9;
    stats.directoryTwins.add('http://a.example/x/index.html');
    stats.robotsUnavailable.add('http://b.example');
    stats.robotsUnavailable.add('http://c.example');
    bump(stats.failuresByMiddleware, 'forum');
    bump(stats.failuresByMiddleware, 'forum');
    bump(stats.dropped, 'login page');
    bump(stats.timeouts, 'template');
    stats.failures.record('http 404', 'http://a.example/%E6%A0%87%E7%AD%BE/', 'HTTP 404');
    stats.failures.record('timeout', 'http://a.example/slow', 'timeout');
    stats.recrawl.revisited = 3;
    stats.recrawl.changed = 1;
    const pipeline: PipelineCounts = { storedCount: 5, stored: { article: 4, list: 1 }, invalid: { 'url: Invalid URL': 1 }, dropped: { 'no date': 2 }, errors: { enrich: 1 }, duplicates: 3 };
    const s = stats.summary(
      parts({ queued: 12, pipeline, stoppedBy: 'maxPages (6) reached', byBudget: true, startUrls: 2, feeds: ['out.jsonl'], recrawlPass: 2, sessions: { used: 3, retired: 1 }, resumed: true, finished: true }),
      { maxPages: 6, previousPages: 0 },
      stats.started + 3_000,
    );
    expect(s).toEqual({
      spider: 'news',
      pages: 6,
      queued: 12,
      failed: 3,
      items: 5,
      pagesPerSec: 2,
      elapsedSecs: 3,
      rssMb: expect.any(Number),
      peakRssMb: expect.any(Number),
      maxPages: 6,
      etaSecs: 0,
      itemsByKind: { article: 4, list: 1 },
      failuresByMiddleware: { forum: 2 },
      failuresByReason: { 'http 404': 1, timeout: 1 },
      failureExamples: { 'http 404': ['http://a.example/标签/'], timeout: ['http://a.example/slow'] },
      retries: 4,
      unvisitedByBudget: 12,
      stoppedBy: 'maxPages (6) reached',
      startUrls: 2,
      startUrlsFailed: 1,
      directoryTwins: 1,
      dropped: { 'login page': 1 },
      timeouts: { template: 1 },
      invalidItems: { 'url: Invalid URL': 1 },
      droppedByPipeline: { 'no date': 2 },
      pipelineErrors: { enrich: 1 },
      feeds: ['out.jsonl'],
      duplicates: 3,
      recrawl: { pass: 2, revisited: 3, notModified: 0, unchanged: 0, changed: 1 },
      sitemapUrls: 9,
      sessions: { used: 3, retired: 1 },
      robotsUnavailable: 2,
      skippedByRobots: 2,
      resumed: true,
      finished: true,
      datasetDir: '/data/news',
    });
    bump(stats.failuresByMiddleware, 'forum');
    bump(stats.dropped, 'login page');
    stats.recrawl.changed++;
    expect(s.failuresByMiddleware).toEqual({ forum: 2 });
    expect(s.dropped).toEqual({ 'login page': 1 });
    expect(s.recrawl?.changed).toBe(1);
  });

  it('the queue left is "unvisited by budget" only when the budget stopped the crawl; no recrawl block outside a pass', () => {
    const stats = new CrawlStats(recordingLogger(), 'news');
    const s = stats.summary(parts({ queued: 7, byBudget: false, stoppedBy: 'SIGINT', finished: false }), { maxPages: undefined, previousPages: 0 });
    expect(s.unvisitedByBudget).toBe(0);
    expect(s.queued).toBe(7);
    expect(s.recrawl).toBeUndefined();
    expect(s.sessions).toBeUndefined();
  });
});

describe('CrawlStats: log lines and the stats file', () => {
  it('the crawl logger passes every line on and counts them by level', () => {
    const inner = recordingLogger();
    const stats = new CrawlStats(inner, 'news');
    stats.log.info('one');
    stats.log.warning('two');
    stats.log.warning('three');
    stats.failures.record('http 500', 'http://a.example/', 'HTTP 500'); // logs a warning through the same logger
    expect(inner.lines.map((l) => l.msg)).toEqual(['one', 'two', 'three', 'failed http://a.example/: HTTP 500']);
    expect(stats.logCounts).toEqual({ info: 1, warning: 3 });
    const counts: Record<string, number> = {};
    const wrapped = countLines({ ...inner, debugEnabled: true }, counts);
    expect(wrapped.debugEnabled).toBe(true);
    wrapped.debug('d');
    expect(counts).toEqual({ debug: 1 });
  });

  it('writes <spider>.stats.json with Scrapy-like names, replacing the last one without leaving a temporary file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-stats-'));
    const file = path.join(dir, 'news.stats.json');
    writeFileSync(file, '{"old": true}\n');
    const stats = new CrawlStats(recordingLogger(), 'news');
    stats.pages = 10;
    stats.failed = 1;
    stats.retries = 2;
    stats.bytesDownloaded = 12_345;
    stats.skippedByRobots = 1;
    stats.log.info('a line');
    stats.failures.record('http 404', 'http://a.example/gone', 'HTTP 404');
    const pipeline: PipelineCounts = { storedCount: 9, stored: { article: 9 }, invalid: {}, dropped: { 'no date': 2, short: 1 }, errors: {}, duplicates: 1 };
    const finishedAt = new Date(stats.started + 4_000);
    const s = stats.summary(parts({ queued: 0, pipeline, feeds: ['items.csv'] }), { maxPages: undefined, previousPages: 0 }, finishedAt.getTime());
    stats.writeFile(file, s, finishedAt);
    expect(readdirSync(dir)).toEqual(['news.stats.json']);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const rec = JSON.parse(text);
    expect(rec).toMatchObject({
      spider: 'news',
      start_time: new Date(stats.started).toISOString(),
      finish_time: finishedAt.toISOString(),
      elapsed_time_seconds: 4,
      finish_reason: 'finished',
      resumed: false,
      pages: 10,
      pages_per_second: 2.5,
      queued: 0,
      'downloader/response_bytes': 12_345,
      'downloader/retries': 2,
      item_scraped_count: 9,
      items_by_kind: { article: 9 },
      item_dropped_count: 3,
      item_dropped_reasons: { 'no date': 2, short: 1 },
      item_duplicates: 1,
      failures: 1,
      failures_by_reason: { 'http 404': 1 },
      failure_examples: { 'http 404': ['http://a.example/gone'] },
      robots_skipped: 1,
      log_count: { info: 1, warning: 1 },
      feeds: ['items.csv'],
      dataset: '/data/news',
    });
    expect(rec.old).toBeUndefined();
  });

  it('finish_reason: the stop reason, else "finished" or "stopped"', () => {
    const stats = new CrawlStats(recordingLogger(), 'news');
    const extra = { startedAt: new Date(0), finishedAt: new Date(1_000), bytes: 0, logCounts: {} };
    const reason = (o: Partial<SummaryParts>) => statsRecord(stats.summary(parts(o), { maxPages: undefined, previousPages: 0 }), extra).finish_reason;
    expect(reason({ finished: true })).toBe('finished');
    expect(reason({ finished: true, stoppedBy: 'maxPages (5) reached' })).toBe('maxPages (5) reached');
    expect(reason({ finished: false })).toBe('stopped');
    expect(reason({ finished: false, stoppedBy: 'SIGINT' })).toBe('SIGINT');
  });

  it('a stats file that cannot be written is a warning, not an error', () => {
    const log = recordingLogger();
    const stats = new CrawlStats(log, 'news');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gleaner-stats-')), 'no-such-dir', 'news.stats.json');
    const s = stats.summary(parts(), { maxPages: undefined, previousPages: 0 });
    expect(() => stats.writeFile(file, s)).not.toThrow();
    expect(existsSync(file)).toBe(false);
    expect(log.at('warning')).toHaveLength(1);
    expect(log.at('warning')[0]).toMatch(/^cannot write .*news\.stats\.json: ENOENT/);
    expect(stats.logCounts.warning).toBe(1);
  });
});
