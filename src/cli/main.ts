#!/usr/bin/env node
/**
 * The command line (ARCHITECTURE §5, a contract): crawl, extract, classify, train-classifier;
 * status and export for crawls shared through Redis.
 *
 * Start-up matters (issue 15: `gleaner extract page.html` took 1.6 s, most of it loading crawlee):
 * this file loads only commander; each command imports its own code when it runs, so `extract`
 * and `classify` never load the crawler, and `--version` loads nothing else.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { applyCompilerPolicy } from './compiler-policy.js';
import { prestartBatchWorker } from './batch-prestart.js';
import { UsageError } from './errors.js';
import { packageVersion } from './package-info.js';

/** commander collector for repeatable options (kept here: src/cli/options.ts loads the CSV library). */
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
import type { LogLevelName } from '../crawler/log-levels.js';

/** A commander parser for a positive integer option. */
const positiveInt = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer (got "${v}")`);
  return n;
};
const positiveNumber = (flag: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number (got "${v}")`);
  return n;
};

const program = new Command();
program
  .name('gleaner')
  .description('Crawl sites and turn pages into article, list and forum items without selectors')
  .version(packageVersion(), '-V, --version', 'print the version')
  .exitOverride();

program
  .command('crawl')
  .description('run a spider (default: the bundled demo against the bundled demo site)')
  .argument('[spider]', 'spider name (spiders/<name>.ts) or path to a spider file', 'demo')
  .option('--max-pages <n>', 'stop after N pages', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--max-pages must be a positive integer (got "${v}")`);
    return n;
  })
  .option('--out <file>', 'also export items to FILE[:FORMAT] (.jsonl, .json, .csv); repeat for several', collect)
  .option('--bom', 'CSV outputs start with a UTF-8 byte-order mark (for spreadsheets)')
  .option('--csv-rows <rows>', 'CSV outputs: item (one row per item, default) or entry (one per forum post / list entry)')
  .option('--csv-columns <cols>', 'CSV outputs: these columns, comma-separated (dotted paths: pageType.label, post.author), or all (every field); default url, kind, title, author, publishedAt, content')
  .option('--fresh', 'forget the previous crawl state of this spider (queue, dataset) and start over')
  .option('--ui [port]', 'serve a live monitor of the crawl on 127.0.0.1 (pages/s, items/s, queue, items by kind, latest items); default a free port')
  .option('--recrawl', 'after a finished crawl: keep the dataset, re-visit list and thread pages (conditional requests), store only new pages and changed threads')
  // Checked in src/cli/crawl.ts (the level names live with the logger, not loaded here).
  .option('--log-level <level>', "debug | info | warning | error | off (default: the spider's logLevel, else info; debug shows each middleware decision)")
  .option('--redis <url>', 'be one worker of the crawl shared through Redis (redis://host:port/db); start as many as you like')
  .option('--workers <n>', 'with --redis: start N local worker processes', positiveInt('--workers'))
  .option('--worker-id <id>', 'with --redis: this worker\'s name (a worker started again under its name takes its leases back at once)')
  .option('--lease-secs <s>', 'with --redis: lease length; a killed worker\'s pages go to others after it (default 30)', positiveNumber('--lease-secs'))
  .option('--threads <n>', 'worker threads for the middleware chain (default: one per core; 0: the crawl thread)', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--threads must be a non-negative integer (got "${v}")`);
    return n;
  })
  .action(async (spider: string, opts: { maxPages?: number; out?: string[]; fresh?: boolean; recrawl?: boolean; bom?: boolean; csvRows?: string; csvColumns?: string; logLevel?: LogLevelName; threads?: number; redis?: string; workers?: number; workerId?: string; leaseSecs?: number; ui?: boolean | string }) => {
    const { runCrawlCli } = await import('./crawl.js');
    await runCrawlCli(spider, opts);
  });

program
  .command('status')
  .description('a shared (Redis) crawl: pending, leased, done, failed, items, workers and their rates')
  .argument('<spider>', 'spider name or file (its redis URL is used unless --redis is given)')
  .option('--redis <url>', 'redis://host:port/db')
  .option('--json', 'print the figures as JSON')
  .option('--ui [port]', 'serve the live monitor of crawl --ui on 127.0.0.1, fed from the shared state until the crawl ends; default a free port')
  .action(async (spider: string, opts: { redis?: string; json?: boolean; ui?: boolean | string }) => {
    const { runStatusCli } = await import('./status.js');
    await runStatusCli(spider, opts);
  });

program
  .command('export')
  .description("write a crawl's items once each to FILE[:FORMAT] (.jsonl, .json, .csv): from its local dataset (storage/datasets/<spider>/), or from Redis for a shared crawl")
  .argument('<spider>', 'spider name or file (its redis URL is used unless --redis is given)')
  .option('--redis <url>', 'a crawl shared through Redis: redis://host:port/db (without --out: to storage/datasets/<spider>/)')
  .option('--out <file>', 'write the items to FILE[:FORMAT] (.jsonl, .json, .csv); repeat for several', collect)
  .option('--bom', 'CSV outputs start with a UTF-8 byte-order mark (for spreadsheets)')
  .option('--csv-rows <rows>', 'CSV outputs: item (one row per item, default) or entry (one per forum post / list entry)')
  .option('--csv-columns <cols>', 'CSV outputs: these columns, comma-separated (dotted paths: pageType.label, post.author), or all (every field)')
  .action(async (spider: string, opts: { redis?: string; out?: string[]; bom?: boolean; csvRows?: string; csvColumns?: string }) => {
    const { runExportCli } = await import('./export.js');
    await runExportCli(spider, opts);
  });

program
  .command('genspider')
  .description('write a starter spider file: spiders/<name>.ts')
  .argument('<name>', 'spider name (letters, digits, ".", "_", "-")')
  .argument('<url>', 'start URL')
  .option('--dir <dir>', 'folder to write it in', 'spiders')
  .option('--force', 'overwrite an existing file')
  .action(async (name: string, url: string, opts: { dir?: string; force?: boolean }) => {
    const { runGenspider } = await import('./genspider.js');
    const file = runGenspider(name, url, opts);
    process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}: run it with  npx gleaner crawl ${path.relative(process.cwd(), file) || file}\n`);
  });

program
  .command('extract')
  .description('extract one item per saved page, as JSON lines')
  .argument('[files...]', 'HTML files (- for standard input)')
  .option('--url <url>', 'URL the page was fetched from (resolves links, picks the site)')
  .option('--kind <kind>', 'auto | article | list | forum', 'auto')
  .option('--batch <manifest>', 'manifest.jsonl of {id, path, url?, site?}')
  .option('--out <file>', 'with --batch: write the items to FILE[:FORMAT] (.jsonl, .json, .csv); repeat for several', collect)
  .option('--bom', 'CSV outputs start with a UTF-8 byte-order mark (for spreadsheets)')
  .option('--csv-rows <rows>', 'CSV outputs: item (one row per item, default) or entry (one per forum post / list entry)')
  .option('--csv-columns <cols>', 'CSV outputs: these columns, comma-separated, or all (every field)')
  .option('--stream', 'with --batch: learn site templates in order instead of from all pages first')
  .option('--render', 'render each page in chromium (its CSS from its own folder, no network) and remove what is drawn outside the centre (the layout stage)')
  .option('--explain', 'add "provenance" to each item: a CSS selector and DFS number of the element each field, entry and post came from')
  .option('--timezone <zone>', 'IANA zone for dates shown without one')
  .option('--max-bytes <n>', 'largest input file, bytes (default 10485760); larger files are refused (in a batch: an `other` item with the error)', positiveInt('--max-bytes'))
  .option('--fetched-at <time>', 'when the pages were fetched, ISO 8601 (relative dates like "3 hours ago" resolve against it; default now)', (v) => {
    const t = new Date(v);
    if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t.getTime())) throw new UsageError(`--fetched-at must be an ISO 8601 time (got "${v}")`);
    return t;
  })
  .option('--jobs <n>', 'with --batch: threads to use (default: the idle cores, one per 64 pages at most; a site never spans two)', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--jobs must be a positive integer (got "${v}")`);
    return n;
  })
  .option('--page-budget <secs>', 'with --batch: seconds a page may take (default 10, as in a crawl); a page past it is an `other` item with the error', (v) => {
    const n = Number(v);
    if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--page-budget must be a positive number of seconds (got "${v}")`);
    return n;
  })
  .action(async (files: string[], opts) => {
    // the batch's first worker loads the extractor while this thread loads the command's code
    if (opts.batch) prestartBatchWorker();
    const { runExtract } = await import('./extract.js');
    await runExtract(files, opts);
  });

program
  .command('inspect')
  .description('write one self-contained HTML report of what Gleaner saw on a page: page type, kept and dropped lines, fields, entries, floors, links')
  .argument('<page>', 'page.html, page.html.gz, or an http(s) URL (fetched through the crawler\'s guarded downloader)')
  .option('--url <url>', 'URL the saved page was fetched from (resolves links, picks the site)')
  .option('--kind <kind>', 'auto | article | list | forum', 'auto')
  .option('--out <file>', 'report file (default inspect-report.html)')
  .option('--screenshot <png>', 'also render the report in chromium (Playwright) and save a PNG')
  .option('--site <file>', 'another saved page of the same site: its template is learned first (repeat for several)', collect)
  .option('--allow-private', 'a URL may be on a private or loopback address (your own machine)')
  .option('--timezone <zone>', 'IANA zone for dates shown without one')
  .option('--max-bytes <n>', 'largest page, bytes (default 10485760)', positiveInt('--max-bytes'))
  .action(async (page: string, opts) => {
    // From the extract command's module (which re-exports it): one file less in the package,
    // which is at its file budget (test/package); inspect reads pages as extract does.
    const { runInspect } = await import('./extract.js');
    await runInspect(page, opts);
  });

program
  .command('classify')
  .description('print the page type of saved pages: {label, probabilities}')
  .argument('[files...]', 'HTML files (- for standard input)')
  .option('--url <url>', 'URL the page was fetched from')
  .option('--max-bytes <n>', 'largest input file, bytes (default 10485760)', positiveInt('--max-bytes'))
  .action(async (files: string[], opts) => {
    const { runClassify } = await import('./extract.js');
    await runClassify(files, opts);
  });

program
  .command('train-classifier')
  .description('train the page-type SVM from labelled pages and write the model JSON')
  .option('--labels <file>', 'JSON {manifest id: {label}} (default: ../shared/data/pagetype-labels.json)')
  .option('--data <dir>', 'folder holding the manifests the ids refer to (default: ../shared/data)')
  .option('--out <file>', 'model file to write (default: middleware/classifier/model.json)')
  .option('--no-sets', 'train on the labels file only (not also on the labelled manifests of middleware/classifier/training-sets.ts)')
  .action(async (opts) => {
    try {
      createRequire(import.meta.url).resolve('libsvm-js/asm');
    } catch {
      throw new UsageError('train-classifier needs libsvm-js, an optional peer dependency of gleaner: npm install libsvm-js');
    }
    const { trainClassifierCli } = await import('./train.js');
    await trainClassifierCli(opts);
  });

/** Commander outcomes that are not mistakes. */
const INFO_CODES = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

async function main() {
  // before any command starts a worker thread (V8's flags are per process)
  applyCompilerPolicy();
  // A reader that stops early (`gleaner extract … | head`) closes the pipe: the output is no longer
  // wanted, which is not an error (as for `cat` and `grep`); the process ends quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; every usage mistake (unknown option or command, missing or bad
      // argument) exits 2 like the other usage errors (commander's own default is 1).
      process.exitCode = e.exitCode === 0 || INFO_CODES.has(e.code) ? e.exitCode : 2;
      return;
    }
    if (e instanceof UsageError || ['SpiderConfigError', 'FeedError', 'CrawlLockedError'].includes((e as Error).name)) {
      process.stderr.write(`gleaner: ${(e as Error).message}\n`);
      process.exitCode = (e as UsageError).exitCode ?? 2;
      return;
    }
    process.stderr.write(`gleaner: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  }
}

await main();
