/**
 * `gleaner crawl [spider] [--max-pages N] [--out FILE.jsonl|FILE.csv] [--fresh]` (ARCHITECTURE §5).
 * Without a spider it serves the bundled demo site on 127.0.0.1 and runs the demo spider on it.
 */
import path from 'node:path';
import { loadSpider, resolveSpiderFile, PACKAGE_ROOT } from '../spider/load.js';
import { runSpider, type CrawlProgress, type CrawlSummary } from '../crawler/crawl.js';
import { UsageError } from './errors.js';
import { preferSmallHeap } from '../crawler/memory.js';

export interface CrawlCliOptions {
  maxPages?: number;
  out?: string;
  fresh?: boolean;
  storageDir?: string;
}

function progressLine(p: CrawlProgress): string {
  return `${p.spider}: ${p.pages} pages done, ${p.queued} queued, ${p.failed} failed · ${p.items} items · ${p.pagesPerSec.toFixed(1)} pages/s`;
}

const fmt = (o: Record<string, number>) =>
  Object.entries(o)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

export function summaryText(s: CrawlSummary): string {
  const lines = [
    `${s.spider}: ${s.finished ? 'finished' : 'stopped (run again to resume)'} in ${s.elapsedSecs.toFixed(1)} s${s.resumed ? ' (resumed)' : ''}`,
    `  pages:    ${s.pages} (${s.pagesPerSec.toFixed(1)} pages/s), ${s.queued} still queued`,
    `  items:    ${s.items} stored (${fmt(s.itemsByKind)})${s.duplicates ? `, ${s.duplicates} duplicates skipped` : ''}`,
    `  failures: ${s.failed} — by middleware: ${fmt(s.failuresByMiddleware)}; fetch: ${fmt(s.failuresByReason)}`,
  ];
  if (Object.keys(s.dropped).length) lines.push(`  dropped by middleware: ${fmt(s.dropped)}`);
  if (Object.keys(s.invalidItems).length) lines.push(`  invalid items: ${fmt(s.invalidItems)}`);
  if (s.skippedByRobots) lines.push(`  skipped by robots.txt: ${s.skippedByRobots}`);
  lines.push(`  dataset:  ${path.relative(process.cwd(), s.datasetDir) || s.datasetDir}`);
  return lines.join('\n');
}

export async function runCrawlCli(spiderArg: string, opts: CrawlCliOptions): Promise<void> {
  if (opts.out && !/\.(jsonl|ndjson|csv)$/i.test(opts.out)) throw new UsageError(`--out must name a .jsonl or .csv file (got ${opts.out})`);
  preferSmallHeap();
  let demo: { url: string; close(): Promise<void> } | undefined;
  // The demo spider crawls the bundled demo site: serve it first, on a free loopback port.
  const file = resolveSpiderFile(spiderArg);
  if (file && path.resolve(file) === path.join(PACKAGE_ROOT, 'spiders', 'demo.ts') && !process.env.GLEANER_DEMO_URL) {
    const { startDemoServer } = await import('../demo/server.js');
    demo = await startDemoServer();
    process.env.GLEANER_DEMO_URL = demo.url;
    process.stderr.write(`demo site at ${demo.url}/ (news in GBK, blog, forum)\n`);
  }
  try {
    // Validation happens here, before any request.
    const { spider } = await loadSpider(spiderArg);
    const summary = await runSpider(spider, {
      maxPages: opts.maxPages,
      out: opts.out,
      fresh: opts.fresh,
      storageDir: opts.storageDir,
      handleSignals: true,
      onProgress: (p) => process.stderr.write(progressLine(p) + '\n'),
    });
    process.stdout.write(summaryText(summary) + '\n');
    if (!summary.finished && summary.queued > 0) process.exitCode = 130;
  } finally {
    await demo?.close();
  }
}
