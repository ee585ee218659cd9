/**
 * The item pipeline (Scrapy's ITEM_PIPELINES): validate against the item shape (ARCHITECTURE §4),
 * de-duplicate by url + kind, run the spider's own stages in order (each may transform the item,
 * drop it with a reason, or be async), validate what they return, export to every sink. Every
 * item not stored is counted with its reason.
 */
import { itemSchema, type Item } from '../core/item.js';
import type { ItemMeta, ItemSink } from '../storage/item-sink.js';
import type { Logger } from '../core/middleware.js';
import { silentLogger } from '../core/middleware.js';

export type PipelineOutcome = 'stored' | 'duplicate' | 'invalid' | 'dropped';

/** What a pipeline stage is given besides the item. */
export interface PipelineContext {
  spider: string;
  log: Logger;
  /** `return drop('no date')`: drop the item, counted under this reason in the summary. */
  drop(reason: string): null;
}

/**
 * What a stage returns: the item to pass on (the same object changed, or a new one), `undefined`
 * (the item, changed in place), or `null` (drop it: counted under the stage's name, or the reason
 * given to `drop`). Throwing `DropItem` drops with its message as the reason (Scrapy's way);
 * throwing anything else drops the item as a pipeline error, logged with its stack.
 */
export type PipelineResult = Item | null | undefined | void;
export type PipelineFunction = (item: Item, ctx: PipelineContext) => PipelineResult | Promise<PipelineResult>;

/** A stage with set-up and tear-down (Scrapy's open_spider / close_spider): a database client,
 * a file, a counter. */
export interface PipelineStage {
  name: string;
  open?(ctx: PipelineContext): void | Promise<void>;
  process(item: Item, ctx: PipelineContext): PipelineResult | Promise<PipelineResult>;
  close?(ctx: PipelineContext): void | Promise<void>;
}

export type PipelineSpec = PipelineFunction | PipelineStage;

/** Scrapy's DropItem: `throw new DropItem('duplicate title')` inside a stage. */
export class DropItem extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DropItem';
  }
}

/** A returned `drop(reason)` is this marker until the pipeline reads it. */
const DROP = Symbol('drop');

function stageOf(spec: PipelineSpec, i: number): PipelineStage {
  if (typeof spec === 'function') return { name: spec.name || `pipelines[${i}]`, process: spec };
  return spec;
}

/** The first problem the item shape finds, as `path: message`, or undefined. */
export function problemOf(item: Item): string | undefined {
  const check = itemSchema.safeParse(item);
  if (check.success) return undefined;
  const first = check.error.issues[0]!;
  return `${first.path.join('.') || '(item)'}: ${first.message}`;
}

export function itemKey(item: Pick<Item, 'url' | 'kind'>): string {
  return `${item.kind} ${item.url}`;
}

export interface ItemPipelineOptions {
  /** The spider's own stages (`pipelines` in the spider), in order. */
  stages?: PipelineSpec[];
  spider?: string;
}

export class ItemPipeline {
  private readonly seen = new Set<string>();
  readonly stored: Record<string, number> = {};
  duplicates = 0;
  /** Invalid items by first problem ("publishedAt: ISO 8601 with offset"). */
  readonly invalid: Record<string, number> = {};
  /** Items the spider's stages dropped, by reason (the reason given, or the stage's name). */
  readonly dropped: Record<string, number> = {};
  /** Items dropped because a stage threw, by stage name. */
  readonly errors: Record<string, number> = {};
  private readonly stages: PipelineStage[];
  private readonly ctx: PipelineContext;
  private dropReason: string | undefined;
  private opened = false;

  constructor(
    private readonly sinks: ItemSink[],
    private readonly log: Logger = silentLogger,
    /** Items stored by an earlier run of the same crawl (resume): never written twice. */
    previous: Iterable<Pick<Item, 'url' | 'kind'>> = [],
    options: ItemPipelineOptions = {},
  ) {
    for (const it of previous) this.seen.add(itemKey(it));
    this.stages = (options.stages ?? []).map(stageOf);
    this.ctx = {
      spider: options.spider ?? '',
      log,
      drop: (reason: string) => {
        this.dropReason = String(reason);
        return DROP as unknown as null;
      },
    };
  }

  get storedCount(): number {
    return Object.values(this.stored).reduce((a, b) => a + b, 0);
  }

  /** Run the stages' `open` (once, before the first item; `process` calls it if needed). */
  async open(): Promise<void> {
    if (this.opened) return;
    this.opened = true;
    for (const s of this.stages) await s.open?.(this.ctx);
  }

  private reject(item: Item, reason: string): 'invalid' {
    this.invalid[reason] = (this.invalid[reason] ?? 0) + 1;
    this.log.warning(`item dropped (invalid) ${item.url}: ${reason}`);
    return 'invalid';
  }

  /** `meta`: where the item comes from, passed on to the sinks (the Redis sink commits the item
   * with its page's lease). `update`: a page stored before whose content changed (a recrawl's
   * thread page with new floors): stored again. `checked`: the item was already checked against
   * the item shape where it was made (a chain worker thread), with this first problem (none:
   * valid); the check is not repeated here. */
  async process(item: Item, meta?: ItemMeta, opts: { update?: boolean; checked?: { problem?: string } } = {}): Promise<PipelineOutcome> {
    const reason = opts.checked ? opts.checked.problem : problemOf(item);
    if (reason) return this.reject(item, reason);
    const key = itemKey(item);
    if (this.seen.has(key) && !opts.update) {
      this.duplicates++;
      return 'duplicate';
    }
    this.seen.add(key);
    if (this.stages.length) {
      if (!this.opened) await this.open();
      let current: Item = item;
      for (const stage of this.stages) {
        let out: PipelineResult;
        this.dropReason = undefined;
        try {
          out = await stage.process(current, this.ctx);
        } catch (e) {
          if (e instanceof DropItem || (e as Error)?.name === 'DropItem') {
            const why = (e as DropItem).reason ?? (e as Error).message;
            this.dropped[why] = (this.dropped[why] ?? 0) + 1;
            return 'dropped';
          }
          this.errors[stage.name] = (this.errors[stage.name] ?? 0) + 1;
          this.log.error(`pipeline ${stage.name} failed on ${current.url}: ${(e as Error)?.stack ?? e}`);
          return 'dropped';
        }
        if ((out as unknown) === DROP || out === null) {
          const why = (out as unknown) === DROP && this.dropReason !== undefined ? this.dropReason : stage.name;
          this.dropped[why] = (this.dropped[why] ?? 0) + 1;
          this.log.debug(`item dropped by pipeline ${stage.name} ${current.url}: ${why}`);
          return 'dropped';
        }
        if (out !== undefined) {
          if (typeof out !== 'object' || Array.isArray(out)) {
            this.errors[stage.name] = (this.errors[stage.name] ?? 0) + 1;
            this.log.error(`pipeline ${stage.name} returned ${Array.isArray(out) ? 'an array' : typeof out} for ${current.url} (expected the item, undefined or null)`);
            return 'dropped';
          }
          current = out as Item;
        }
      }
      // A stage may have broken the shape (a date without offset, a non-URL url).
      const after = problemOf(current);
      if (after) return this.reject(current, after);
      item = current;
    }
    for (const s of this.sinks) await s.write(item, meta);
    this.stored[item.kind] = (this.stored[item.kind] ?? 0) + 1;
    return 'stored';
  }

  /** Close the stages (a failing `close` is logged and counted, the others still close), then
   * the sinks. */
  async close(): Promise<void> {
    if (this.opened) {
      for (const s of this.stages) {
        try {
          await s.close?.(this.ctx);
        } catch (e) {
          this.errors[s.name] = (this.errors[s.name] ?? 0) + 1;
          this.log.error(`pipeline ${s.name} close failed: ${(e as Error)?.stack ?? e}`);
        }
      }
    }
    for (const s of this.sinks) await s.close();
  }
}
