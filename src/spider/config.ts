/**
 * Spider configs: one small file per site (`spiders/<name>.ts`), validated on load with zod strict
 * objects so a misspelt field is named instead of silently ignored. ARCHITECTURE §5 fixes the
 * fields every spider understands (`name`, `startUrls`, `allowedDomains`, `allowPrivateAddresses`,
 * `maxPages`); the rest (follow rules, middleware settings, crawler options) is ours.
 */
import { z } from 'zod';
import type { Middleware, MiddlewareSetting } from '../core/middleware.js';
import { BUILTIN_MIDDLEWARE } from '../chain/builtins.js';
import { followRuleWarnings, globToRegExp, type FollowRule } from './follow-rules.js';
import { suggest } from './suggest.js';
import { selectorProblem, type PinnedFieldsConfig } from '../chain/pinned.js';

export { suggest } from './suggest.js';

export type { FollowRule } from './follow-rules.js';
import type { PipelineSpec } from '../crawler/pipeline.js';
import { parseDuration, type RecrawlOptions } from '../crawler/recrawl.js';
import type { SessionOptions } from '../crawler/sessions.js';
import { LOG_LEVELS, type LogLevelName } from '../crawler/log-levels.js';
import { checkFeed, CSV_ROWS, FEED_FORMATS, type FeedOptions } from '../storage/feed-sink.js';
import { ITEM_KINDS } from '../core/item.js';

export interface CookieSpec {
  name: string;
  value: string;
  /** Send only to this domain (and subdomains); default: every allowed domain. */
  domain?: string;
  path?: string;
}

export interface CrawlerOptions {
  /** Parallel requests, ceiling (default 10; autoscaled between `minConcurrency` and this). */
  maxConcurrency?: number;
  /** Parallel requests, floor (default 5, or `maxConcurrency` if lower). */
  minConcurrency?: number;
  /** Per host (default: unlimited). */
  maxRequestsPerMinute?: number;
  /** Fetch with a browser (Playwright + Debian chromium) and extract from the rendered DOM. */
  render?: boolean;
  headers?: Record<string, string>;
  cookies?: CookieSpec[];
  proxyUrls?: string[];
  /** Responses larger than this are cut off and counted as failures (default 10 MB). */
  maxResponseBytes?: number;
  /** Link depth from the start URLs beyond which links are not followed. */
  maxDepth?: number;
  /** Obey robots.txt (default true). */
  robotsTxt?: boolean;
  /** Per request (default 30). */
  timeoutSecs?: number;
  /** Crawlee's SessionPool: a cookie jar per session, sessions blocked (401/403/429) retired and
   * the request retried with another. `true` or options. Not with `render`. */
  sessions?: boolean | SessionOptions;
  /** Longest robots.txt Crawl-delay honoured, seconds (default 30, Nutch's). */
  maxCrawlDelaySecs?: number;
  /** Retries of a request that failed with a network error, a timeout or a 5xx/429 (default 2). */
  maxRetries?: number;
  /** First retry pause in seconds; doubles per retry, plus up to 25 % jitter (default 1). */
  retryBackoffSecs?: number;
  /** Longest retry pause in seconds; a Retry-After asking for more fails the request (default 60). */
  maxRetryDelaySecs?: number;
  /** Stop the crawl after this many failed requests (default: no limit; failures do not count
   * towards `maxPages`). */
  maxFailedPages?: number;
  /** Requests waiting in the frontier at most (default 1,000,000); links found beyond are dropped
   * and said once. The queue keeps a bounded part in memory and the rest on disk. */
  maxQueued?: number;
  /** Worker threads the middleware chain runs in (default: one per core); 0 runs it on the
   * crawl's own thread. */
  threads?: number;
  /** Time budget per page through the chain, in seconds (default 10): a page that overruns it
   * becomes an `other` item with error `timeout in <middleware>`. */
  pageBudgetSecs?: number;
}

export interface SiteRule {
  pattern: string | RegExp;
  /** Site key for URLs matching the pattern (pages of one site share a learned template). */
  key: string;
}

export interface SpiderConfig {
  name: string;
  startUrls: string[];
  /** Hosts (and their subdomains) links may lead to. Default: the start URLs' hosts. */
  allowedDomains?: string[];
  /** Allow requests to private and loopback addresses (the demo and tests do). Default false. */
  allowPrivateAddresses?: boolean;
  maxPages?: number;
  /** Follow rules, first match wins. Without rules every link within the allowed domains is
   * followed; with rules only links matching a rule are. */
  follow?: FollowRule[];
  /** Per-middleware settings by name: `false` disables, `{priority, options}` reorders/configures. */
  middleware?: Record<string, MiddlewareSetting>;
  /** Your own middleware, slotted into the chain by their priority. */
  extraMiddleware?: Middleware[];
  /** Pinned field selectors that win over the extractor (`{ author: '.byline a', publishedAt:
   * 'time@datetime', posts: { root, author, content } }`), or rules of them scoped by URL glob
   * (`[{ pattern, ...fields }]`): src/chain/pinned.ts. */
  fields?: PinnedFieldsConfig;
  crawler?: CrawlerOptions;
  /** IANA zone for dates shown without an offset (default: from the page language). */
  timezone?: string;
  /** Site key of a URL (pages of a site share learned state): a function or URL-pattern rules.
   * Default: the URL host. */
  siteKey?: ((url: string) => string) | SiteRule[];
  /** `redis://host:port/db`: run every crawl of this spider as one worker of a crawl shared
   * through Redis (as `--redis`, which overrides it). */
  redis?: string;
  /** Keep `#fragment` in URLs (one page per fragment, for sites that route by hash). Default false. */
  keepUrlFragment?: boolean;
  /** Query parameters (name globs or RegExps) dropped from URLs before the seen-set, besides the
   * tracking ones (`utm_*`, `fbclid`, `gclid` …). The rest of the query is sorted by name. */
  ignoreQueryParams?: Array<string | RegExp>;
  /** Item pipeline stages, in order (Scrapy's ITEM_PIPELINES): functions `(item, ctx) => item |
   * undefined | null` (async allowed) or `{ name, open?, process, close? }`. `null` or
   * `ctx.drop(reason)` drops the item, counted in the summary. */
  pipelines?: PipelineSpec[];
  /** Feeds (Scrapy's FEEDS): file path → options; several at once. `{spider}` in a path is the
   * spider's name. Relative paths are relative to the working directory. */
  feeds?: Record<string, FeedOptions>;
  /** Incremental recrawl: after a finished crawl, the next run keeps the dataset, re-visits list
   * and thread pages with conditional requests and stores only new pages and changed threads. */
  recrawl?: RecrawlOptions;
  /** Log level of the crawl (`debug` adds a line at each middleware decision). Default info;
   * `--log-level` overrides it. */
  logLevel?: LogLevelName;
  /** Start from sitemaps too: `true` reads the `Sitemap:` lines of the start URLs' robots.txt (else
   * `/sitemap.xml`); or a list of sitemap (or robots.txt) URLs. Their URLs pass the follow rules. */
  sitemaps?: boolean | string[];
  /** Forum threads of several pages (page 1 … N, found through the thread's pagination): `merge`
   * (default) stores one item per thread — the posts of all its pages in order, none twice, the
   * main post once (`mergeThreadPages` in middleware/forum) — `pages` one item per page. */
  thread?: 'merge' | 'pages';
}

/** Types only: returns its argument. A spider file may as well `export default` a plain object. */
export function defineSpider<T extends SpiderConfig>(config: T): T {
  return config;
}

/** A spider config that cannot run. The CLI prints the message and exits 2. */
export class SpiderConfigError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'SpiderConfigError';
  }
}

const httpUrl = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}, 'Invalid URL (expected an absolute http(s) URL)');

const pattern = z.union([
  z.string().min(1).superRefine((g, ctx) => {
    try {
      globToRegExp(g);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
    }
  }),
  z.instanceof(RegExp),
]);
const positiveInt = z.number().int().positive();

const middlewareSetting = z.union([
  z.boolean(),
  z.strictObject({ priority: z.number().optional(), options: z.record(z.string(), z.unknown()).optional() }),
]);

const middlewareInstance = z.custom<Middleware>(
  (v) => typeof v === 'object' && v !== null && typeof (v as Middleware).name === 'string' && typeof (v as Middleware).process === 'function' && typeof (v as Middleware).priority === 'number',
  'expected a middleware object {name, priority, process(ctx)}',
);

const crawlerSchema = z.strictObject({
  maxConcurrency: positiveInt.optional(),
  minConcurrency: positiveInt.optional(),
  maxRequestsPerMinute: positiveInt.optional(),
  render: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  cookies: z.array(z.strictObject({ name: z.string().min(1), value: z.string(), domain: z.string().optional(), path: z.string().optional() })).optional(),
  proxyUrls: z.array(httpUrl).optional(),
  maxResponseBytes: positiveInt.optional(),
  maxDepth: z.number().int().nonnegative().optional(),
  robotsTxt: z.boolean().optional(),
  timeoutSecs: z.number().positive().optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  maxCrawlDelaySecs: z.number().nonnegative().optional(),
  sessions: z
    .union([
      z.boolean(),
      z.strictObject({ maxPoolSize: positiveInt.optional(), maxUsageCount: positiveInt.optional(), maxErrorScore: z.number().positive().optional(), blockedStatusCodes: z.array(z.number().int().min(400).max(599)).optional() }),
    ])
    .optional(),
  retryBackoffSecs: z.number().nonnegative().optional(),
  maxRetryDelaySecs: z.number().nonnegative().optional(),
  maxFailedPages: positiveInt.optional(),
  maxQueued: positiveInt.optional(),
  threads: z.number().int().nonnegative().optional(),
  pageBudgetSecs: z.number().positive().optional(),
}).refine((c) => c.minConcurrency === undefined || c.maxConcurrency === undefined || c.minConcurrency <= c.maxConcurrency, { message: 'minConcurrency must not exceed maxConcurrency', path: ['minConcurrency'] });

const pipelineStage = z.custom<PipelineSpec>(
  (v) => typeof v === 'function' || (typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { process?: unknown }).process === 'function'),
  'expected a function (item, ctx) => item | undefined | null, or {name, open?, process, close?}',
);

const feedOptions = z.strictObject({
  format: z.enum(FEED_FORMATS).optional(),
  fields: z.union([z.array(z.string().min(1)).min(1), z.literal('all')]).optional(),
  rows: z.enum(CSV_ROWS).optional(),
  bom: z.boolean().optional(),
  kinds: z.array(z.enum(ITEM_KINDS)).optional(),
});

const timezone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'unknown IANA time zone');

const pinnedSelector = z.string().superRefine((v, c) => {
  const p = selectorProblem(v);
  if (p) c.addIssue({ code: 'custom', message: p });
});
const pinnedFieldSet = {
  title: pinnedSelector.optional(),
  author: pinnedSelector.optional(),
  publishedAt: pinnedSelector.optional(),
  content: pinnedSelector.optional(),
  posts: z.strictObject({ root: pinnedSelector, author: pinnedSelector.optional(), publishedAt: pinnedSelector.optional(), content: pinnedSelector.optional() }).optional(),
};
const pinnedFieldsObject = z.strictObject(pinnedFieldSet);
const pinnedFieldsRules = z.array(z.strictObject({ pattern, ...pinnedFieldSet })).min(1);
/** One set of fields, or rules of them: checked by the form it has (a union would report only
 * "Invalid input" for a misspelt field), problems named by their path with a suggestion. */
const pinnedFields = z.unknown().superRefine((v, ctx) => {
  const r = (Array.isArray(v) ? pinnedFieldsRules : pinnedFieldsObject).safeParse(v);
  if (r.success) return;
  for (const issue of r.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = Array.isArray(v) ? ['pattern', ...Object.keys(pinnedFieldSet)] : Object.keys(pinnedFieldSet);
      const inPosts = issue.path[issue.path.length - 1] === 'posts';
      for (const key of issue.keys) {
        const hint = suggest(key, inPosts ? ['root', 'author', 'publishedAt', 'content'] : known);
        ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}` });
      }
    } else ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }
});

export const spiderSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only (it names storage folders)'),
  startUrls: z.array(httpUrl).min(1, 'at least one start URL'),
  allowedDomains: z.array(z.string().min(1)).optional(),
  allowPrivateAddresses: z.boolean().optional(),
  maxPages: positiveInt.optional(),
  follow: z.array(z.strictObject({ pattern, label: z.string().min(1).optional(), follow: z.boolean().optional() })).optional(),
  middleware: z.record(z.string(), middlewareSetting).optional(),
  extraMiddleware: z.array(middlewareInstance).optional(),
  fields: pinnedFields.optional(),
  crawler: crawlerSchema.optional(),
  timezone: timezone.optional(),
  siteKey: z.union([z.custom<(url: string) => string>((v) => typeof v === 'function', 'expected a function'), z.array(z.strictObject({ pattern, key: z.string().min(1) }))]).optional(),
  redis: z.string().regex(/^rediss?:\/\/\S+$/, 'expected a redis:// or rediss:// URL').optional(),
  keepUrlFragment: z.boolean().optional(),
  ignoreQueryParams: z.array(pattern).optional(),
  pipelines: z.array(pipelineStage).optional(),
  feeds: z.record(z.string().min(1), feedOptions).optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  sitemaps: z.union([z.boolean(), z.array(httpUrl).min(1)]).optional(),
  thread: z.enum(['merge', 'pages']).optional(),
  recrawl: z
    .strictObject({
      every: z
        .union([z.string(), z.number().nonnegative()])
        .refine((v) => {
          try {
            parseDuration(v);
            return true;
          } catch {
            return false;
          }
        }, "a duration: '30m', '1h', '1d', or milliseconds")
        .optional(),
      lists: z.boolean().optional(),
      threads: z.boolean().optional(),
      listItems: z.boolean().optional(),
    })
    .optional(),
});

/** The object keys the schema allows at a path (for suggestions). */
function keysAt(schema: z.ZodType, path: PropertyKey[]): string[] {
  let s: any = schema;
  const unwrap = () => {
    for (let i = 0; i < 10 && s; i++) {
      const def = s._zod?.def;
      if (def?.type === 'optional' || def?.type === 'nullable' || def?.type === 'default') s = def.innerType;
      else if (def?.type === 'union') s = def.options.find((o: any) => o._zod?.def?.type === 'object' || o._zod?.def?.type === 'array') ?? def.options[0];
      else break;
    }
  };
  unwrap();
  for (const p of path) {
    const def = s?._zod?.def;
    if (!def) return [];
    if (def.type === 'object') s = def.shape[p as string];
    else if (def.type === 'array') s = def.element;
    else if (def.type === 'record') s = def.valueType;
    else return [];
    unwrap();
  }
  const def = s?._zod?.def;
  return def?.type === 'object' ? Object.keys(def.shape) : [];
}

export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(root)';
}

/** Validate a raw spider object. Every problem is reported, with its path, in one error. */
export function validateSpider(raw: unknown, source = 'spider'): SpiderConfig {
  const problems: string[] = [];
  const result = spiderSchema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        const known = keysAt(spiderSchema, issue.path);
        for (const key of issue.keys) {
          const hint = suggest(key, known);
          problems.push(`${formatPath([...issue.path, key])}: unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`);
        }
      } else if (issue.code === 'invalid_union' && issue.path.length && typeof issue.path[issue.path.length - 1] === 'string' && (issue.path[0] === 'middleware')) {
        problems.push(`${formatPath(issue.path)}: expected false, true or {priority?, options?}`);
      } else {
        problems.push(`${formatPath(issue.path)}: ${issue.message}`);
      }
    }
  }
  const obj = raw as Partial<SpiderConfig> | undefined;
  // Feeds: the format from the extension, CSV-only options on CSV feeds (per file, unless the
  // schema already found a problem in that feed's options).
  if (obj && typeof obj === 'object' && obj.feeds && typeof obj.feeds === 'object') {
    const flagged = new Set((result.success ? [] : result.error.issues).filter((i) => i.path[0] === 'feeds').map((i) => String(i.path[1])));
    for (const [file, o] of Object.entries(obj.feeds)) {
      if (flagged.has(file) || !o || typeof o !== 'object') continue;
      try {
        checkFeed({ ...o, path: file });
      } catch (e) {
        problems.push(`${formatPath(['feeds', file])}: ${(e as Error).message.replace(/^feed [^:]*: /, '')}`);
      }
    }
  }
  // Middleware names must exist: a typo would otherwise silently keep the default.
  if (obj && typeof obj === 'object' && obj.middleware && typeof obj.middleware === 'object') {
    const known = new Set(Object.keys(BUILTIN_MIDDLEWARE));
    for (const m of Array.isArray(obj.extraMiddleware) ? obj.extraMiddleware : []) if (m && typeof m.name === 'string') known.add(m.name);
    for (const name of Object.keys(obj.middleware)) {
      if (known.has(name)) continue;
      const hint = suggest(name, known);
      problems.push(`middleware.${name}: unknown middleware${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${[...known].join(', ')}`);
    }
  }
  if (problems.length) throw new SpiderConfigError(`${source}: ${problems.join('; ')}`, problems);
  const spider = result.data as SpiderConfig;
  // Pinned fields run as the `pinned-fields` middleware: its settings carry them to every chain
  // (worker threads included), unless the spider turned it off.
  const pin = spider.middleware?.['pinned-fields'];
  if (spider.fields && pin !== false) spider.middleware = { ...spider.middleware, 'pinned-fields': { ...(typeof pin === 'object' ? pin : {}), options: { fields: spider.fields } } };
  for (const w of followRuleWarnings(spider.follow)) warnOnce(spider.name, `${source}: ${w}`, w);
  return spider;
}

/** Warnings already given, by spider: a spider validated twice (the CLI loads it, then runs it)
 * warns once. */
const warned = new Set<string>();

/** A config that runs, but probably not as meant (a follow rule's `label: 'details'`): said once
 * on standard error. */
function warnOnce(spider: string, message: string, key: string): void {
  const k = `${spider}\0${key}`;
  if (warned.has(k)) return;
  warned.add(k);
  process.stderr.write(`gleaner: warning: ${message}\n`);
}
