/**
 * Per-site state (templates, counters) behind a small interface: in memory for `gleaner extract`,
 * lowdb JSON files under `storage/gleaner/` for crawls, so the next crawl starts with what the last
 * one learned.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { SiteState, SiteStore } from '../core/middleware.js';

export class MemorySiteStore implements SiteStore {
  protected readonly sites = new Map<string, SiteState>();
  protected dirty = new Set<string>();

  site(key: string): SiteState {
    let s = this.sites.get(key);
    if (!s) {
      s = { key, data: {}, touch: () => this.dirty.add(key) };
      this.sites.set(key, s);
    }
    return s;
  }

  async flush(): Promise<void> {
    this.dirty.clear();
  }
}

interface StateFile {
  version: 1;
  sites: Record<string, Record<string, unknown>>;
}

/** lowdb-backed store: one JSON file per spider. */
export class LowdbSiteStore extends MemorySiteStore {
  private constructor(private readonly db: Low<StateFile>) {
    super();
    for (const [key, data] of Object.entries(db.data.sites)) {
      const s = this.site(key);
      s.data = data;
    }
    this.dirty.clear();
  }

  static async open(file: string): Promise<LowdbSiteStore> {
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new Low<StateFile>(new JSONFile<StateFile>(file), { version: 1, sites: {} });
    try {
      await db.read();
    } catch {
      // A corrupt state file (killed mid-write by an old version) costs the learned state, not the crawl.
      db.data = { version: 1, sites: {} };
    }
    db.data ??= { version: 1, sites: {} };
    db.data.sites ??= {};
    return new LowdbSiteStore(db);
  }

  override async flush(): Promise<void> {
    if (!this.dirty.size) return;
    for (const key of this.dirty) this.db.data.sites[key] = this.sites.get(key)!.data;
    this.dirty.clear();
    await this.db.write();
  }
}
