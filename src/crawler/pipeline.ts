/**
 * The item pipeline (Scrapy's ITEM_PIPELINES): validate against the item shape (ARCHITECTURE §4),
 * de-duplicate by url + kind, export to every sink. A dropped item carries a reason and is counted.
 */
import { itemSchema, type Item } from '../core/item.js';
import type { ItemMeta, ItemSink } from '../storage/item-sink.js';
import type { Logger } from '../core/middleware.js';
import { silentLogger } from '../core/middleware.js';

export type PipelineOutcome = 'stored' | 'duplicate' | 'invalid';

export function itemKey(item: Pick<Item, 'url' | 'kind'>): string {
  return `${item.kind} ${item.url}`;
}

export class ItemPipeline {
  private readonly seen = new Set<string>();
  readonly stored: Record<string, number> = {};
  duplicates = 0;
  /** Invalid items by first problem ("publishedAt: ISO 8601 with offset"). */
  readonly invalid: Record<string, number> = {};

  constructor(
    private readonly sinks: ItemSink[],
    private readonly log: Logger = silentLogger,
    /** Items stored by an earlier run of the same crawl (resume): never written twice. */
    previous: Iterable<Pick<Item, 'url' | 'kind'>> = [],
  ) {
    for (const it of previous) this.seen.add(itemKey(it));
  }

  get storedCount(): number {
    return Object.values(this.stored).reduce((a, b) => a + b, 0);
  }

  async process(item: Item, meta?: ItemMeta): Promise<PipelineOutcome> {
    const check = itemSchema.safeParse(item);
    if (!check.success) {
      const first = check.error.issues[0]!;
      const reason = `${first.path.join('.') || '(item)'}: ${first.message}`;
      this.invalid[reason] = (this.invalid[reason] ?? 0) + 1;
      this.log.warning(`item dropped (invalid) ${item.url}: ${reason}`);
      return 'invalid';
    }
    const key = itemKey(item);
    if (this.seen.has(key)) {
      this.duplicates++;
      return 'duplicate';
    }
    this.seen.add(key);
    for (const s of this.sinks) await s.write(item, meta);
    this.stored[item.kind] = (this.stored[item.kind] ?? 0) + 1;
    return 'stored';
  }

  async close(): Promise<void> {
    for (const s of this.sinks) await s.close();
  }
}
