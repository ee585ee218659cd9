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

/**
 * A key's value after a middleware ran. A plain object travels by its properties (`parts`: each
 * one's JSON, undefined for a deleted one): only the properties that changed, or all of them with
 * `replace` when the value is new. Any other value travels whole (`json`). Neither: the key was
 * deleted. (A site key's state grows with the site — the page-type stage's holds the listed URLs
 * of every list page — while a page changes a few counters of it: sent whole, the page-type state
 * made ~1 ms of postMessage and JSON per page on the realistic bench site.)
 */
export interface KeyChange {
  key: string;
  json?: string;
  parts?: Array<[string, string | undefined]>;
  replace?: boolean;
}

export interface KeyUpdate extends KeyChange {
  version: number;
}

/** Values handed over by their properties: objects whose JSON is their own properties'. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** Each property's JSON (properties JSON leaves out, such as undefined values, are absent). */
function partsOf(v: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of Object.keys(v)) {
    const json = JSON.stringify(v[k]);
    if (json !== undefined) out.set(k, json);
  }
  return out;
}

/** A value's parts as a change that replaces it. */
const replacing = (key: string, parts: Map<string, string>): KeyChange => ({ key, parts: [...parts], replace: true });

/** Apply a change to a value (parsing what it carries); undefined when the key was deleted. */
function applied(value: unknown, c: KeyChange): unknown {
  if (c.json !== undefined) return JSON.parse(c.json);
  if (!c.parts) return undefined;
  const obj: Record<string, unknown> = !c.replace && isPlainObject(value) ? value : {};
  for (const [k, json] of c.parts) {
    if (json === undefined) delete obj[k];
    else obj[k] = JSON.parse(json);
  }
  return obj;
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
  /** What a worker sent of each key: the whole JSON, or its parts with the version each last
   * changed at (deleted parts kept with their version) and the version the value was last
   * replaced at (a worker that has an older one gets it whole). */
  sent: Map<string, { json?: string; parts?: Map<string, { json?: string; at: number }>; replacedAt: number }>;
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
    if (!g) this.sites.set(siteKey, (g = { at: new Map(), waiting: [], versions: new Map(), sent: new Map() }));
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
      const version = (g.versions.get(c.key) ?? 0) + 1;
      const value = applied(site.data[c.key], c);
      if (value === undefined) {
        delete site.data[c.key];
        g.sent.delete(c.key);
      } else {
        site.data[c.key] = value;
        const prev = g.sent.get(c.key);
        if (c.parts && !c.replace && prev?.parts) {
          for (const [k, json] of c.parts) prev.parts.set(k, { json, at: version });
        } else if (c.parts && c.replace) {
          g.sent.set(c.key, { parts: new Map(c.parts.map(([k, json]) => [k, { json, at: version }])), replacedAt: version });
        } else if (c.parts) {
          // a change to a value this thread holds whole (from the store): its parts, all new
          g.sent.set(c.key, { parts: new Map([...partsOf(value as Record<string, unknown>)].map(([k, json]) => [k, { json, at: version }])), replacedAt: version });
        } else {
          g.sent.set(c.key, { json: c.json, replacedAt: version });
        }
      }
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
      const had = seen.get(key);
      seen.set(key, version);
      // a value changed by a worker is kept as what it sent (the parts changed since the worker's
      // version, else all of them); one from the store (or the crawl thread's own chain) is
      // serialised now
      const sent = this.alwaysSend ? undefined : g.sent.get(key);
      if (sent?.parts && had !== undefined && had >= sent.replacedAt) {
        out.push({ key, version, parts: [...sent.parts].filter(([, p]) => p.at > had).map(([k, p]) => [k, p.json]) });
      } else if (sent?.parts) {
        out.push({ key, version, parts: [...sent.parts].flatMap(([k, p]) => (p.json === undefined ? [] : [[k, p.json] as [string, string]])), replace: true });
      } else {
        out.push({ key, version, json: sent?.json ?? JSON.stringify(data[key]) });
      }
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
/** A worker's copy of a key: its value and what the crawl thread has of it (whole JSON, or the
 * JSON of each property of a plain object). */
interface CachedKey {
  value: unknown;
  json?: string;
  parts?: Map<string, string>;
}

export class WorkerSiteCache {
  private readonly sites = new Map<string, Map<string, CachedKey>>();

  constructor(private readonly ownedKeys: ReadonlySet<string>) {}

  private entries(siteKey: string): Map<string, CachedKey> {
    let m = this.sites.get(siteKey);
    if (!m) this.sites.set(siteKey, (m = new Map()));
    return m;
  }

  /** Take the crawl thread's newer versions. */
  update(siteKey: string, updates: readonly KeyUpdate[]): void {
    const m = this.entries(siteKey);
    for (const u of updates) {
      const e = m.get(u.key);
      const value = applied(e?.value, u);
      if (value === undefined) m.delete(u.key);
      else if (u.json !== undefined) m.set(u.key, isPlainObject(value) ? { value, parts: partsOf(value) } : { value, json: u.json });
      else {
        const parts = !u.replace && e?.parts ? e.parts : new Map<string, string>();
        for (const [k, json] of u.parts!) {
          if (json === undefined) parts.delete(k);
          else parts.set(k, json);
        }
        m.set(u.key, { value, parts });
      }
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
        const c = e ? changeOf(k, e) : undefined;
        if (c) out.push(c);
      }
      touched.clear();
      return out;
    };
    return { data, changes };
  }
}

/** What a worker's middleware changed of a key since the crawl thread last had it (the entry then
 * holds the new state); undefined when nothing changed. */
function changeOf(key: string, e: CachedKey): KeyChange | undefined {
  const v = e.value;
  if (v === undefined) {
    if (e.json === undefined && !e.parts) return undefined;
    e.json = undefined;
    e.parts = undefined;
    return { key };
  }
  if (!isPlainObject(v)) {
    const json = JSON.stringify(v);
    if (json === e.json) return undefined;
    e.json = json;
    e.parts = undefined;
    return json === undefined ? { key } : { key, json };
  }
  const now = partsOf(v);
  const before = e.parts;
  e.parts = now;
  e.json = undefined;
  if (!before) return replacing(key, now);
  const diff: Array<[string, string | undefined]> = [];
  for (const [k, json] of now) if (before.get(k) !== json) diff.push([k, json]);
  for (const k of before.keys()) if (!now.has(k)) diff.push([k, undefined]);
  return diff.length ? { key, parts: diff } : undefined;
}
