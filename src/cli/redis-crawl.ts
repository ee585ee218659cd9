/**
 * `gleaner crawl <spider> --redis URL [--workers N] [--worker-id ID] [--lease-secs S]`: this
 * process as one worker of the spider's crawl shared through Redis, or N local worker processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { SpiderConfig } from '../spider/config.js';
import { feedSpecs, type CrawlProgress } from '../crawler/crawl.js';
import type { FeedSpec } from '../storage/feed-sink.js';
import { connectRedis, redactRedisUrl, runRedisSpider, type RedisCrawlSummary } from '../crawler/redis/run.js';
import { prepareGeneration, parseState } from '../crawler/redis/state.js';
import { withScripts } from '../crawler/redis/scripts.js';
import { exportItems } from '../storage/redis-item-sink.js';
import { summaryText, type CrawlCliOptions } from './crawl-report.js';
import { UsageError } from './errors.js';

export interface RedisCliOptions extends CrawlCliOptions {
  redis: string;
  workers?: number;
  workerId?: string;
  leaseSecs?: number;
  /** `--out` with `--bom` / `--csv-rows` applied (src/cli/options.ts); used instead of `out`. */
  feeds?: FeedSpec[];
}

/** Set in `--workers` children: their parent exports the items. */
const CHILD_ENV = 'GLEANER_WORKER_CHILD';

function progressLine(p: CrawlProgress, worker: string): string {
  return `${p.spider} [${worker}]: ${p.pages} pages here, ${p.queued} pending in the shared crawl, ${p.failed} failed · ${p.items} items · ${p.pagesPerSec.toFixed(1)} pages/s`;
}

export function redisSummaryText(s: RedisCrawlSummary, child = false): string {
  const sh = s.shared;
  const lines = [summaryText(s).replace(/\n {2}dataset: .*$/, '')];
  lines.push(`  worker:   ${s.worker} (crawl generation ${s.generation}${s.reclaimedOnStart ? `, ${s.reclaimedOnStart} of its leases from before a restart handed back` : ''}${s.refused ? `, ${s.refused} late results refused` : ''})`);
  lines.push(`  shared:   ${sh.ok} pages ok, ${sh.failed} failed, ${sh.skipped} skipped, ${sh.queued} queued, ${sh.leased} leased · ${sh.items} items (${sh.duplicateItems} duplicates refused) · ${sh.seen} URLs seen · ${sh.requeued} leases requeued`);
  if (s.lost) lines.push(`  stopped:  ${s.lost}`);
  if (s.exported?.datasetDir) lines.push(`  dataset:  ${path.relative(process.cwd(), s.exported.datasetDir) || s.exported.datasetDir} (${s.exported.items} items from Redis)`);
  else if (s.finished && child) lines.push('  dataset:  written by the --workers process')
  else if (s.finished) lines.push(`  dataset:  in Redis (another worker wrote the dataset; gleaner export ${s.spider} --redis … --out items.jsonl)`);
  if (s.exported?.out) lines.push(`  export:   ${s.exported.out} (${s.exported.items} items)`);
  return lines.join('\n');
}

export async function runRedisCrawlCli(spiderArg: string, spider: SpiderConfig, url: string, opts: RedisCliOptions): Promise<void> {
  if (opts.workers && opts.workers > 1) return runWorkers(spiderArg, spider, url, opts);
  const child = process.env[CHILD_ENV] === '1';
  const summary = await runRedisSpider(spider, {
    redis: url,
    maxPages: opts.maxPages,
    logLevel: opts.logLevel,
    out: opts.out,
    feeds: opts.feeds,
    fresh: opts.fresh,
    storageDir: opts.storageDir,
    workerId: opts.workerId,
    leaseSecs: opts.leaseSecs,
    exportOnFinish: !child,
    handleSignals: true,
    onProgress: (p) => process.stderr.write(progressLine(p, opts.workerId ?? `${os.hostname()}:${process.pid}`) + '\n'),
  });
  process.stdout.write(redisSummaryText(summary, child) + '\n');
  if (!summary.finished) process.exitCode = summary.lost ? 1 : 130;
}

/** Start N worker processes of this command on this machine, prefix their output, forward
 * signals; on the global finish export the items (dataset + `--out`) once. */
async function runWorkers(spiderArg: string, spider: SpiderConfig, url: string, opts: RedisCliOptions): Promise<void> {
  const n = opts.workers!;
  if (opts.workerId) throw new UsageError('--worker-id names one worker: use it without --workers (children are named <id>-w<i>)');
  // The generation is settled once here (--fresh, or starting over after a finished crawl), so
  // the children all join the same crawl.
  const redis = await connectRedis(url);
  try {
    const { mode, keys } = await prepareGeneration(redis, spider.name, { fresh: opts.fresh });
    process.stderr.write(`${spider.name}: ${n} workers on ${redactRedisUrl(url)} (crawl generation ${keys.gen}, ${mode})\n`);
    const base = os.hostname().replace(/[\s#]/g, '_');
    const script = process.argv[1]!;
    const children: ChildProcess[] = [];
    const exits: Array<Promise<number>> = [];
    for (let i = 1; i <= n; i++) {
      const args = [...process.execArgv, script, 'crawl', spiderArg, '--redis', url, '--worker-id', `${base}-w${i}`];
      if (opts.maxPages) args.push('--max-pages', String(opts.maxPages));
      if (opts.leaseSecs) args.push('--lease-secs', String(opts.leaseSecs));
      if (opts.logLevel) args.push('--log-level', opts.logLevel);
      const p = spawn(process.execPath, args, { env: { ...process.env, [CHILD_ENV]: '1', ...(opts.storageDir ? { CRAWLEE_STORAGE_DIR: opts.storageDir } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
      const tag = `[w${i}] `;
      for (const [from, to] of [
        [p.stdout!, process.stdout],
        [p.stderr!, process.stderr],
      ] as const) {
        let buf = '';
        from.on('data', (d: Buffer) => {
          buf += d;
          const lines = buf.split('\n');
          buf = lines.pop()!;
          for (const l of lines) to.write(tag + l + '\n');
        });
        from.on('end', () => buf && to.write(tag + buf + '\n'));
      }
      children.push(p);
      exits.push(new Promise((resolve) => p.on('exit', (code, sig) => resolve(code ?? (sig ? 128 : 1)))));
    }
    const forward = (sig: NodeJS.Signals) => () => {
      for (const c of children) if (c.exitCode === null) c.kill(sig);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const codes = await Promise.all(exits);
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    const st = parseState((await withScripts(redis).glState(keys.meta, opts.maxPages ?? spider.maxPages ?? 0, '', '', 1)) as number[]);
    if (st.finished) {
      const storageDir = path.resolve(opts.storageDir ?? process.env.CRAWLEE_STORAGE_DIR ?? 'storage');
      const ex = await exportItems(redis, keys.items, { name: spider.name, feeds: feedSpecs(spider, { out: opts.out, feeds: opts.feeds }), storageDir });
      process.stdout.write(`${spider.name}: finished by ${n} workers · ${st.ok} pages ok, ${st.failed} failed · ${ex.items} items → ${path.relative(process.cwd(), ex.datasetDir!) || ex.datasetDir}${ex.out ? ` and ${ex.out}` : ''}\n`);
    } else {
      process.stdout.write(`${spider.name}: stopped (workers exited ${codes.join(', ')}); ${st.queued} queued, ${st.leased} leased — run again to rejoin\n`);
      process.exitCode = codes.find((c) => c !== 0) ?? 130;
    }
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
