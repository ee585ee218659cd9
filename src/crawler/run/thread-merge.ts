/**
 * Whole threads in a crawl (spider option `thread`, default `merge`; issue 29 item 4): the items of
 * a forum thread's pages are held until the thread is complete, then stored as one item
 * (`mergeThreadPages`: posts of all pages in order, none twice, the main post once).
 *
 * A thread is the group of held forum pages linked through their pagination (`nextPage`, `pages`).
 * It is complete when every page its members link to is held too; what is still incomplete when
 * the crawl finishes (a page outside the follow rules, the page budget spent, a page that failed)
 * is stored then, merged from the pages it has. A forum page without pagination is stored at once,
 * unchanged.
 *
 * Interrupted crawls: each held page is appended to `<spider>.threads.jsonl` in the state folder
 * before its request is marked done, and a `done` line follows a thread once it is stored. A
 * resumed crawl reads the file back (held pages are not fetched again: their requests are done),
 * so nothing is lost; a thread stored just before a kill (its `done` line not yet written) is
 * stored again under the same URL, which the pipeline drops as a duplicate of the dataset entry,
 * so nothing is doubled. A finished crawl removes the file; `--fresh` starts without it.
 *
 * Not merged: recrawl passes (changed thread pages are stored per page, as before) and crawls
 * whose items go to a shared sink (Redis: the pages of one thread may be handled on several
 * machines).
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ForumItem, Item } from '../../core/item.js';
import type { Logger } from '../../core/middleware.js';
import { mergeThreadPages } from '../../core/threads.js';
import { normaliseUrl, type UrlNormalisation } from '../normalise-url.js';

type Line = { page: ForumItem } | { done: string[] };

export class ThreadMerger {
  /** Held pages by normalised URL. */
  private readonly held = new Map<string, ForumItem>();
  /** Normalised URL → held pages that link to it. */
  private readonly linkedFrom = new Map<string, Set<string>>();

  private constructor(
    private readonly file: string,
    private readonly norm: UrlNormalisation,
  ) {}

  /** The merger of a crawl: the held pages of an interrupted run read back (`resumed`), else none. */
  static open(stateDir: string, spider: string, norm: UrlNormalisation, resumed: boolean, log: Logger): ThreadMerger {
    const m = new ThreadMerger(path.join(stateDir, `${spider}.threads.jsonl`), norm);
    if (resumed && existsSync(m.file)) {
      for (const raw of readFileSync(m.file, 'utf8').split('\n')) {
        if (!raw.trim()) continue;
        let line: Line;
        try {
          line = JSON.parse(raw) as Line;
        } catch {
          continue; // a line cut by the kill: its page was not marked done, it is fetched again
        }
        if ('page' in line) m.add(line.page);
        else if ('done' in line) for (const u of line.done) m.remove(u);
      }
      if (m.held.size) log.info(`resuming: ${m.held.size} thread pages held for merging`);
    }
    // Compacted: the pages still held, nothing else.
    writeFileSync(m.file, [...m.held.values()].map((page) => JSON.stringify({ page }) + '\n').join(''));
    return m;
  }

  private key(url: string, base?: string): string | undefined {
    try {
      const u = new URL(url, base);
      return u.protocol === 'http:' || u.protocol === 'https:' ? normaliseUrl(u, this.norm) : undefined;
    } catch {
      return undefined;
    }
  }

  private links(item: ForumItem): string[] {
    const out = new Set<string>();
    for (const l of [item.nextPage, ...(item.pages ?? [])]) {
      const k = l ? this.key(l, item.url) : undefined;
      if (k && k !== this.key(item.url)) out.add(k);
    }
    return [...out];
  }

  private add(item: ForumItem): void {
    const k = this.key(item.url);
    if (!k) return;
    this.held.set(k, item);
    for (const l of this.links(item)) {
      let s = this.linkedFrom.get(l);
      if (!s) this.linkedFrom.set(l, (s = new Set()));
      s.add(k);
    }
  }

  private remove(url: string): void {
    const k = this.key(url);
    const item = k ? this.held.get(k) : undefined;
    if (!item || !k) return;
    this.held.delete(k);
    for (const l of this.links(item)) {
      const s = this.linkedFrom.get(l);
      s?.delete(k);
      if (s?.size === 0) this.linkedFrom.delete(l);
    }
  }

  /** The held pages linked to a page (either way), and whether every page they link to is held. */
  private group(start: string): { members: string[]; complete: boolean } {
    const members = new Set([start]);
    const todo = [start];
    let complete = true;
    while (todo.length) {
      const k = todo.pop()!;
      const item = this.held.get(k)!;
      for (const l of [...this.links(item), ...(this.linkedFrom.get(k) ?? [])]) {
        if (members.has(l)) continue;
        if (!this.held.has(l)) {
          complete = false;
          continue;
        }
        members.add(l);
        todo.push(l);
      }
    }
    return { members: [...members], complete };
  }

  /** A page's item as the crawl stores it: the items to store now (none while its thread is
   * incomplete; the item itself when it is not a forum page or has no pagination). */
  hold(item: Item): Item[] {
    if (item.kind !== 'forum') return [item];
    const k = this.key(item.url);
    if (!k || (!this.links(item).length && !this.linkedFrom.has(k))) return [item];
    if (this.held.has(k)) this.remove(item.url);
    appendFileSync(this.file, JSON.stringify({ page: item }) + '\n');
    this.add(item);
    const g = this.group(k);
    return g.complete ? this.take(g.members) : [];
  }

  private take(members: string[]): Item[] {
    const items = members.map((k) => this.held.get(k)!);
    const merged = mergeThreadPages(items);
    for (const it of items) this.remove(it.url);
    return merged ? [merged] : [];
  }

  /** Once the sinks stored what `hold` or `finish` returned: the thread's pages are not held. */
  stored(items: Item[]): void {
    const done = items.flatMap((it) => (it.kind === 'forum' && it.pages?.length ? it.pages : []));
    if (done.length) appendFileSync(this.file, JSON.stringify({ done }) + '\n');
  }

  /** At the end of the run. A finished crawl: every thread still held, merged from the pages it
   * has (the file is removed once they are stored: `close`). An interrupted one: none (they wait
   * in the file for the resumed run). */
  finish(finished: boolean): Item[] {
    if (!finished) return [];
    const out: Item[] = [];
    while (this.held.size) out.push(...this.take(this.group(this.held.keys().next().value!).members));
    return out;
  }

  close(finished: boolean): void {
    if (finished) rmSync(this.file, { force: true });
  }
}
