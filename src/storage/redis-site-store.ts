/**
 * Learned site state (templates) shared by the workers of a Redis crawl. Each worker keeps its
 * own learner per site, as with the file store; every few seconds (`flush`, on the crawl's
 * checkpoint) it publishes a site's state when it has seen more pages of it than the stored one,
 * and adopts the stored state of a site while its own is not ready yet. Like
 * `storage/gleaner/<spider>.json`, the state outlives the crawl (the next crawl starts with it).
 *
 * "Pages seen" is counted generically: the number of pages that changed the site's state
 * (`touch()`), carried over when a state is adopted.
 */
import type { Redis } from 'ioredis';
import type { Logger, SiteState } from '../core/middleware.js';
import { silentLogger } from '../core/middleware.js';
import { spiderPrefix } from '../crawler/redis/keys.js';
import { withScripts, type ScriptedRedis } from '../crawler/redis/scripts.js';
import { MemorySiteStore } from './site-store.js';

export interface RedisSiteStoreOptions {
  /** Whether a site's state is good enough to use (a ready template); only a state that is not
   * is replaced by the stored one. Default: never replace. */
  ready?: (data: Record<string, unknown>) => boolean;
  log?: Logger;
}

export class RedisSiteStore extends MemorySiteStore {
  private readonly redis: ScriptedRedis;
  private readonly sitesKey: string;
  private readonly weightsKey: string;
  /** Pages that shaped each site's local state (adopted states bring their count). */
  private readonly weight = new Map<string, number>();
  /** Weights last seen in Redis. */
  private readonly storedWeight = new Map<string, number>();
  private readonly ready: (data: Record<string, unknown>) => boolean;
  private readonly log: Logger;
  /** Counters for the summary and tests. */
  readonly counts = { published: 0, adopted: 0 };

  private constructor(client: Redis, spider: string, opts: RedisSiteStoreOptions) {
    super();
    this.redis = withScripts(client);
    this.sitesKey = `${spiderPrefix(spider)}sites`;
    this.weightsKey = `${spiderPrefix(spider)}sitesw`;
    this.ready = opts.ready ?? (() => true);
    this.log = opts.log ?? silentLogger;
  }

  /** Open the shared store of a spider, with every stored site loaded. */
  static async open(client: Redis, spider: string, opts: RedisSiteStoreOptions = {}): Promise<RedisSiteStore> {
    const s = new RedisSiteStore(client, spider, opts);
    const [data, weights] = await Promise.all([client.hgetall(s.sitesKey), client.hgetall(s.weightsKey)]);
    for (const [key, json] of Object.entries(data)) {
      try {
        s.site(key).data = JSON.parse(json) as Record<string, unknown>;
        const w = Number(weights[key] ?? 0);
        s.weight.set(key, w);
        s.storedWeight.set(key, w);
      } catch {
        s.log.warning(`shared site state of ${key} is not JSON: ignored`);
      }
    }
    s.dirty.clear();
    return s;
  }

  override site(key: string): SiteState {
    let s = this.sites.get(key);
    if (!s) {
      s = {
        key,
        data: {},
        touch: () => {
          this.dirty.add(key);
          this.weight.set(key, (this.weight.get(key) ?? 0) + 1);
        },
      };
      this.sites.set(key, s);
    }
    return s;
  }

  /** Publish what this worker learned more of; adopt what others learned where ours is not ready. */
  override async flush(): Promise<void> {
    for (const key of this.dirty) {
      const w = this.weight.get(key) ?? 0;
      if (w <= (this.storedWeight.get(key) ?? 0)) continue;
      const stored = Number(await this.redis.glPublish(this.sitesKey, this.weightsKey, key, w, JSON.stringify(this.sites.get(key)!.data)));
      this.storedWeight.set(key, stored);
      if (stored === w) this.counts.published++;
    }
    this.dirty.clear();
    const weights = await this.redis.hgetall(this.weightsKey);
    for (const [key, v] of Object.entries(weights)) {
      const w = Number(v);
      this.storedWeight.set(key, w);
      if (w <= (this.weight.get(key) ?? 0)) continue;
      const local = this.sites.get(key);
      if (local && this.ready(local.data)) continue;
      const json = await this.redis.hget(this.sitesKey, key);
      if (json === null) continue;
      try {
        this.site(key).data = JSON.parse(json) as Record<string, unknown>;
        this.weight.set(key, w);
        this.counts.adopted++;
      } catch {
        /* a foreign value: keep ours */
      }
    }
  }
}
