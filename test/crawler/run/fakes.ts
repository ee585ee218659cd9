/** Fakes for the crawl's parts (test/crawler/run): a recording logger, an in-memory frontier, a
 * Crawlee request, a recording item sink, a chain that answers with given outcomes. */
import type { Request as CrawleeRequest } from '@crawlee/basic';
import type { Logger } from '../../../src/core/middleware.js';
import type { Item } from '../../../src/core/item.js';
import type { DoneOutcome, Frontier, FrontierRequest, FrontierStats } from '../../../src/crawler/frontier.js';
import type { PageOutcome, PageTask } from '../../../src/crawler/pool/outcome.js';
import type { ChainRun } from '../../../src/crawler/run/page-handler.js';
import type { ItemSink } from '../../../src/storage/sink.js';

export type Level = 'debug' | 'info' | 'warning' | 'error';

export interface RecordingLogger extends Logger {
  lines: Array<{ level: Level; msg: string }>;
  /** Messages of one level. */
  at(level: Level): string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const rec = (level: Level) => (msg: string) => void lines.push({ level, msg });
  return {
    lines,
    at: (level) => lines.filter((l) => l.level === level).map((l) => l.msg),
    debug: rec('debug'),
    info: rec('info'),
    warning: rec('warning'),
    error: rec('error'),
  };
}

/** A frontier in memory, recording every `done` in order. */
export class MemoryFrontier implements Frontier {
  readonly pending = new Map<string, FrontierRequest>();
  readonly doneAs = new Map<string, DoneOutcome>();
  /** Every `done(url, outcome)` call, in order. */
  readonly doneCalls: Array<[string, DoneOutcome]> = [];
  /** Every `add` call's accepted requests, in order. */
  readonly added: FrontierRequest[][] = [];
  /** `add …` and `done …` in order (a RecordingSink given the same array adds `store …`). */
  readonly events: string[] = [];
  closedWith: boolean | undefined;
  private readonly handedOut = new Set<string>();

  constructor(requests: FrontierRequest[] = []) {
    for (const r of requests) this.pending.set(r.url, r);
  }

  add(requests: FrontierRequest[]): FrontierRequest[] {
    const accepted = requests.filter((r) => !this.has(r.url));
    for (const r of accepted) this.pending.set(r.url, r);
    this.added.push(accepted);
    this.events.push(`add ${accepted.map((r) => r.url).join(' ')}`);
    return accepted;
  }

  /** Pending requests not handed out yet, oldest first (each once, as the journal does). */
  take(max: number): FrontierRequest[] {
    const out = [...this.pending.values()].filter((r) => !this.handedOut.has(r.url)).slice(0, max);
    for (const r of out) this.handedOut.add(r.url);
    return out;
  }

  done(url: string, outcome: DoneOutcome): void {
    this.doneCalls.push([url, outcome]);
    this.events.push(`done ${url} ${outcome}`);
    if (this.doneAs.has(url)) return;
    this.pending.delete(url);
    this.doneAs.set(url, outcome);
  }

  has(url: string): boolean {
    return this.pending.has(url) || this.doneAs.has(url);
  }

  stats(): FrontierStats {
    const outcomes = [...this.doneAs.values()];
    return {
      seen: this.pending.size + this.doneAs.size,
      pending: this.pending.size,
      done: this.doneAs.size,
      failed: outcomes.filter((o) => o === 'failed').length,
      skipped: outcomes.filter((o) => o === 'skipped').length,
    };
  }

  checkpoint(): void {}

  close(finished: boolean): void {
    this.closedWith = finished;
  }
}

/** What Crawlee hands the handlers: a URL and the frontier request as user data. */
export function crawleeRequest(r: FrontierRequest): CrawleeRequest {
  return { url: r.url, userData: { ...r } } as unknown as CrawleeRequest;
}

/** A sink keeping what it got; `events` (if given) records `store <url>` in order. */
export class RecordingSink implements ItemSink {
  readonly items: Item[] = [];
  closed = false;
  constructor(private readonly events?: string[]) {}
  async write(item: Item): Promise<void> {
    this.items.push(item);
    this.events?.push(`store ${item.url}`);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A chain that answers each task with the next outcome of `answer` (and keeps the tasks). */
export class FakeChain implements ChainRun {
  readonly tasks: PageTask[] = [];
  constructor(
    private readonly answer: (task: PageTask) => PageOutcome | Promise<PageOutcome>,
    readonly inline = false,
  ) {}
  async run(task: PageTask): Promise<PageOutcome> {
    this.tasks.push(task);
    return this.answer(task);
  }
}

export const article = (url: string, extra: Partial<Item> = {}): Item => ({ url, kind: 'article', title: 'A story', content: 'The council met on Tuesday.', ...extra });
export const listPage = (url: string, entries: string[]): Item => ({ url, kind: 'list', items: entries.map((u) => ({ url: u })) });
export const thread = (url: string, posts: string[]): Item => ({ url, kind: 'forum', title: 'A thread', posts: posts.map((content, i) => ({ floor: i + 1, content })) });
