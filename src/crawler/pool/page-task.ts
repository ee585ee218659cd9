/**
 * One fetched page through the chain: decode + parse once, the middleware chain, the item
 * finished and checked against the item shape, the links it found filtered (`candidateLinks`).
 * The same function runs in a pool worker thread and, with `--threads 0`, on the crawl's own
 * thread: both give the same outcome for the same page and site state.
 */
import { createPage } from '../../core/page.js';
import { BinaryContentError } from '../../core/decode.js';
import { clockStage, MiddlewareError, stageClock, stageNow } from '../../chain/chain.js';
import { finishItem, processPage } from '../../chain/process.js';
import { problemOf } from '../pipeline.js';
import { candidateLinks } from '../links.js';
import { errorItem, type PageEnv, type PageOutcome, type PageTask } from './outcome.js';

export { errorItem, PARSE_STAGE, type PageEnv, type PageOutcome, type PageTask } from './outcome.js';

export async function runPageTask(task: PageTask, env: PageEnv): Promise<PageOutcome> {
  const fetchedAt = new Date(task.fetchedAt);
  let page;
  let t0 = stageClock ? stageNow() : 0;
  try {
    page = createPage({ url: task.url, body: task.body, contentType: task.contentType, fetchedAt });
  } catch (e) {
    if (!(e instanceof BinaryContentError)) throw e;
    return { type: 'binary', item: errorItem(task, env.spider, e.message) };
  }
  if (stageClock) clockStage('parse', t0);
  let ctx;
  try {
    ctx = await processPage(page, task.request, { spider: env.spider, chain: env.chain, store: env.store, log: env.log, siteKey: task.siteKey, timezone: env.timezone });
  } catch (e) {
    if (!(e instanceof MiddlewareError)) throw e;
    // With the stack of what the middleware threw (its first frames): where to look.
    const stack = e.cause instanceof Error && e.cause.stack ? e.cause.stack.split('\n').slice(1, 9).join('\n') : '';
    return { type: 'middleware-error', middleware: e.middleware, message: stack ? `${e.message}\n${stack}` : e.message };
  }
  t0 = stageClock ? stageNow() : 0;
  const links = candidateLinks(ctx.follow, task.request, task.url, env.links);
  if (stageClock) clockStage('links', t0);
  if (ctx.drop) return { type: 'page', drop: ctx.drop, links };
  t0 = stageClock ? stageNow() : 0;
  const item = finishItem(ctx, env.spider);
  if (stageClock) clockStage('finish', t0);
  return { type: 'page', item, invalid: problemOf(item), links };
}
