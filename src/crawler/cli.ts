/** `gleaner crawl`. PLACEHOLDER until the crawler lands (issue 2). */
import { UsageError } from '../cli/errors.js';

export async function runCrawlCli(spider: string, _opts: { maxPages?: number; out?: string; fresh?: boolean }): Promise<void> {
  throw new UsageError(`crawl is not built yet (spider "${spider}")`);
}
