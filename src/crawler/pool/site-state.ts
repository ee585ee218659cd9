/**
 * Site state across threads. Middleware keep what they learn about a site in `ctx.site.data`
 * (the page-type stage's URL shapes, the list shapes, the forum floor layouts, user middleware's
 * own keys …), read and updated page after page. One thread runs page after page through the
 * chain, so each middleware sees the state every earlier page left. The pool keeps exactly that:
 *
 * - Gates: a page enters a middleware only when every earlier page of its site (in the pool's
 *   order) is past that middleware, so a middleware sees a site's pages in order and each one
 *   after the previous one's update — while the other stages of different pages run in parallel
 *   (a pipeline: on a one-host site the classifier of page n+1 runs beside the extractors of
 *   page n).
 * - Handoff: the state lives on the crawl thread, in the site store, as JSON values (what the store
 *   persists and every middleware already rebuilds its state from). A worker sends the keys a
 *   middleware changed when the page moves on; on entering a middleware it receives the keys that
 *   changed since it last saw them (versions), and keeps the rest from before.
 *
 * The site template (`template`) is the exception: the crawl thread owns the learner itself and
 * answers per page (src/chain/site-template.ts), its state being too large to hand over per page.
 */
import type { MessagePort } from 'node:worker_threads';
import type { SiteState, SiteStore } from '../../core/middleware.js';

/** A key's value after a middleware ran, as JSON; undefined when the key was deleted. */
export interface KeyChange {
  key: string;
  json?: string;
}

export interface KeyUpdate extends KeyChange {
  version: number;
}

/** Worker → crawl thread: the page finished the stages before `stage` (with these changes) and
 * asks to enter `stage`. */
export interface StageRequest {
  id: number;
  seq: number;
  siteKey: string;
  stage: number;
  changes: KeyChange[];
}

/** Crawl thread → worker: the page may enter; the keys it has not seen in their latest version. */
export interface StageAnswer {
  id: number;
  updates: KeyUpdate[];
}

/** Worker → crawl thread: the page left a gated stage (with these changes); the next gated stage it
 * will enter is `next` (past the chain: none), so the site's later pages may pass every stage
 * before it. */
export interface PageLeft {
  seq: number;
  siteKey: string;
  next: number;
  changes: KeyChange[];
}

/** Worker → crawl thread: the page left the chain (its last changes). */
export interface PageDone {
  seq: number;
  siteKey: string;
  changes: KeyChange[];
}

interface SiteGate {
  /** Pages of the site in the pool: seq → the lowest stage they may still enter (the one they are
   * in, or the next one they said they will enter); 0 until they said anything. */
  at: Map<number, number>;
  waiting: Array<{ seq: number; stage: number; go: () => void }>;
  /** Version of each key changed by a page in this crawl (0: as the store had it). */
  versions: Map<string, number>;
  json: Map<string, string>;
}

/** Keys handed over by the generic mechanism: all but the ones a caller owns (the template). */
export class SiteStateHub {
  private readonly sites = new Map<string, SiteGate>();
  /** Per worker port: the versions it has of each site's keys. */
  private readonly known = new WeakMap<MessagePort, Map<string, Map<string, number>>>();
  store?: SiteStore;

  constructor(
    private readonly ownedKeys: ReadonlySet<string>,
    /** Always hand over every key (the crawl thread's own chain changes the state too: `--threads 0`
     * with its one-thread pool for large pages). */
    private readonly alwaysSend = false,
  ) {}

  private gate(siteKey: string): SiteGate {
    let g = this.sites.get(siteKey);
    if (!g) this.sites.set(siteKey, (g = { at: new Map(), waiting: [], versions: new Map(), json: new Map() }));
    return g;
  }

  private site(siteKey: string): SiteState {
    if (!this.store) throw new Error('chain pool: a page arrived before the site store (useStore)');
    return this.store.site(siteKey);
  }

  /** A page entered the pool (in the pool's order). */
  admit(seq: number, siteKey: string): void {
    this.gate(siteKey).at.set(seq, 0);
  }

  /** A page left the pool (finished, failed or stopped). */
  leave(seq: number, siteKey: string): void {
    const g = this.sites.get(siteKey);
    if (!g?.at.delete(seq)) return;
    this.wake(g);
  }

  left(port: MessagePort, m: PageLeft): void {
    this.apply(port, m.siteKey, m.changes);
    const g = this.sites.get(m.siteKey);
    if (!g?.at.has(m.seq)) return;
    g.at.set(m.seq, Math.max(g.at.get(m.seq)!, m.next));
    this.wake(g);
  }

  done(port: MessagePort, m: PageDone): void {
    this.apply(port, m.siteKey, m.changes);
    this.leave(m.seq, m.siteKey);
  }

  stage(port: MessagePort, req: StageRequest, answer: (a: StageAnswer) => void): void {
    const g = this.gate(req.siteKey);
    this.apply(port, req.siteKey, req.changes);
    if (g.at.has(req.seq)) g.at.set(req.seq, req.stage);
    const go = () => answer({ id: req.id, updates: this.updatesFor(port, req.siteKey) });
    // the page that asks first (it is ahead of the ones it lets through), then those it let through
    if (this.open(g, req.seq, req.stage)) go();
    else g.waiting.push({ seq: req.seq, stage: req.stage, go });
    this.wake(g);
  }

  private open(g: SiteGate, seq: number, stage: number): boolean {
    for (const [s, at] of g.at) if (s < seq && at <= stage) return false;
    return true;
  }

  private wake(g: SiteGate): void {
    if (!g.waiting.length) return;
    const ready = g.waiting.filter((w) => this.open(g, w.seq, w.stage));
    if (!ready.length) return;
    g.waiting = g.waiting.filter((w) => !ready.includes(w));
    for (const w of ready) w.go();
  }

  /** Changes a worker sent: into the store, a version up (the sender has that version). */
  private apply(port: MessagePort, siteKey: string, changes: readonly KeyChange[]): void {
    if (!changes.length) return;
    const site = this.site(siteKey);
    const g = this.gate(siteKey);
    const seen = this.seen(port, siteKey);
    for (const c of changes) {
      if (this.ownedKeys.has(c.key)) continue;
      if (c.json === undefined) {
        delete site.data[c.key];
        g.json.delete(c.key);
      } else {
        site.data[c.key] = JSON.parse(c.json);
        g.json.set(c.key, c.json);
      }
      const version = (g.versions.get(c.key) ?? 0) + 1;
      g.versions.set(c.key, version);
      seen.set(c.key, version);
    }
    site.touch();
  }

  private seen(port: MessagePort, siteKey: string): Map<string, number> {
    let bySite = this.known.get(port);
    if (!bySite) this.known.set(port, (bySite = new Map()));
    let seen = bySite.get(siteKey);
    if (!seen) bySite.set(siteKey, (seen = new Map()));
    return seen;
  }

  private updatesFor(port: MessagePort, siteKey: string): KeyUpdate[] {
    const data = this.site(siteKey).data;
    const g = this.gate(siteKey);
    const seen = this.seen(port, siteKey);
    const out: KeyUpdate[] = [];
    for (const key of Object.keys(data)) {
      if (this.ownedKeys.has(key)) continue;
      const version = g.versions.get(key) ?? 0;
      if (!this.alwaysSend && seen.get(key) === version) continue;
      seen.set(key, version);
      // a value changed by a worker is kept as its JSON; one from the store (or the crawl thread's
      // own chain) is serialised now
      const json = !this.alwaysSend && g.json.has(key) ? g.json.get(key)! : JSON.stringify(data[key]);
      out.push({ key, version, json });
    }
    for (const key of seen.keys()) {
      if (!(key in data)) {
        out.push({ key, version: g.versions.get(key) ?? 0 });
        seen.delete(key);
      }
    }
    return out;
  }
}

/** The worker side: the site state it has seen, per site, and what a page changed. */
export class WorkerSiteCache {
  private readonly sites = new Map<string, Map<string, { value: unknown; json?: string }>>();

  constructor(private readonly ownedKeys: ReadonlySet<string>) {}

  private entries(siteKey: string): Map<string, { value: unknown; json?: string }> {
    let m = this.sites.get(siteKey);
    if (!m) this.sites.set(siteKey, (m = new Map()));
    return m;
  }

  /** Take the crawl thread's newer versions. */
  update(siteKey: string, updates: readonly KeyUpdate[]): void {
    const m = this.entries(siteKey);
    for (const u of updates) {
      if (u.json === undefined) m.delete(u.key);
      else m.set(u.key, { value: JSON.parse(u.json), json: u.json });
    }
  }

  /**
   * A page's `site.data`: the owned keys are the page's own (`owned`), the others this worker's
   * copy of the site's state. Keys a middleware touches are noted; `changes()` then reports the
   * ones whose JSON differs from what the crawl thread has.
   */
  view(siteKey: string): { data: Record<string, unknown>; changes(): KeyChange[] } {
    const m = this.entries(siteKey);
    const owned: Record<string, unknown> = {};
    const touched = new Set<string>();
    const isOwned = (k: string | symbol): k is string => typeof k === 'string' && this.ownedKeys.has(k);
    const data = new Proxy(owned, {
      get: (t, k) => {
        if (typeof k !== 'string' || isOwned(k)) return (t as Record<string | symbol, unknown>)[k];
        touched.add(k);
        return m.get(k)?.value;
      },
      set: (t, k, v) => {
        if (typeof k !== 'string' || isOwned(k)) (t as Record<string | symbol, unknown>)[k] = v;
        else {
          touched.add(k);
          const e = m.get(k);
          if (e) e.value = v;
          else m.set(k, { value: v });
        }
        return true;
      },
      deleteProperty: (t, k) => {
        if (typeof k !== 'string' || isOwned(k)) delete (t as Record<string | symbol, unknown>)[k];
        else {
          touched.add(k);
          const e = m.get(k);
          if (e) e.value = undefined;
        }
        return true;
      },
      has: (t, k) => (typeof k !== 'string' || isOwned(k) ? k in t : m.has(k) && m.get(k)!.value !== undefined),
      ownKeys: (t) => [...Reflect.ownKeys(t), ...[...m.keys()].filter((k) => m.get(k)!.value !== undefined)],
      getOwnPropertyDescriptor: (t, k) => {
        if (typeof k !== 'string' || isOwned(k)) return Reflect.getOwnPropertyDescriptor(t, k);
        const e = m.get(k);
        return e && e.value !== undefined ? { value: e.value, writable: true, enumerable: true, configurable: true } : undefined;
      },
    });
    const changes = (): KeyChange[] => {
      const out: KeyChange[] = [];
      for (const k of touched) {
        const e = m.get(k);
        const json = e?.value === undefined ? undefined : JSON.stringify(e.value);
        if (json === e?.json) continue;
        if (e) {
          if (json === undefined) m.delete(k);
          else e.json = json;
        }
        out.push({ key: k, json });
      }
      touched.clear();
      return out;
    };
    return { data, changes };
  }
}
