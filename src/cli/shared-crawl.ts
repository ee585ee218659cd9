/** What `gleaner status` and `gleaner export` share: which spider and which Redis. */
import { loadSpider, resolveSpiderFile } from '../spider/load.js';
import { UsageError } from './errors.js';

/** The spider's name and Redis URL: from its file when there is one (a machine that only reads
 * the crawl may not have it: then the argument is the name and `--redis` is needed). */
export async function sharedCrawlTarget(arg: string, redis?: string): Promise<{ name: string; redis: string }> {
  let name = arg;
  let url = redis;
  if (resolveSpiderFile(arg)) {
    const { spider } = await loadSpider(arg);
    name = spider.name;
    url ??= spider.redis;
  } else if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(arg)) {
    throw new UsageError(`spider "${arg}" not found`);
  }
  if (!url) throw new UsageError(`${name}: no Redis given (--redis redis://host:port/db, or redis: '…' in the spider)`);
  return { name, redis: url };
}
