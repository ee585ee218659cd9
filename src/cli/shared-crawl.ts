/** What `gleaner status` and `gleaner export` share: which spider, and which Redis if any. */
import { SpiderConfigError } from '../spider/config.js';
import { loadSpider, resolveSpiderFile } from '../spider/load.js';
import { UsageError } from './errors.js';

const SPIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The spider's name and Redis URL (when it has one): from its file when there is one (a machine
 * that only reads the crawl may not have it: then the argument is the name). Given by name, a
 * spider whose file does not load as a crawl would (the bundled demo outside `gleaner crawl`, which
 * gives it its site's address) is that name: reading a crawl's items needs no config. */
export async function crawlTarget(arg: string, redis?: string): Promise<{ name: string; redis?: string | undefined }> {
  if (resolveSpiderFile(arg)) {
    try {
      const { spider } = await loadSpider(arg);
      return { name: spider.name, redis: redis ?? spider.redis };
    } catch (e) {
      if (!(e instanceof SpiderConfigError) || !SPIDER_NAME.test(arg)) throw e;
    }
  }
  if (!SPIDER_NAME.test(arg)) throw new UsageError(`spider "${arg}" not found`);
  return { name: arg, redis };
}

/** As crawlTarget, for a command that needs the Redis of a shared crawl. */
export async function sharedCrawlTarget(arg: string, redis?: string): Promise<{ name: string; redis: string }> {
  const t = await crawlTarget(arg, redis);
  if (!t.redis) throw new UsageError(`${t.name}: no Redis given (--redis redis://host:port/db, or redis: '…' in the spider)`);
  return { name: t.name, redis: t.redis };
}
