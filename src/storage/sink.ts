/**
 * The one interface every item destination implements (the dataset, feeds, a callback, a shared
 * crawl's store): its own file, so the sinks and the feeds import it without importing each other.
 */
import type { Item } from '../core/item.js';

/** Where an item comes from, for sinks that store it with its page (the Redis sink commits the
 * item with the page's lease). */
export interface ItemMeta {
  /** URL of the request whose page produced the item (before redirects). */
  requestUrl?: string;
}

export interface ItemSink {
  write(item: Item, meta?: ItemMeta): Promise<void>;
  close(): Promise<void>;
}
