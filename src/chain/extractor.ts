/**
 * Extraction without a crawler: saved pages → items (`gleaner extract`, and the public API).
 */
import { createPage, type Page } from '../core/page.js';
import { BinaryContentError } from '../core/decode.js';
import { buildChain, openChain, closeChain } from './chain.js';
import { BUILTIN_MIDDLEWARE } from './builtins.js';
import type { Logger, Middleware, MiddlewareSetting, SiteStore } from '../core/middleware.js';
import { silentLogger } from '../core/middleware.js';
import { MemorySiteStore } from '../storage/site-store.js';
import { processPage, finishItem, siteKeyOf, createContext } from './process.js';
import type { Item, PageLabel } from '../core/item.js';
import { LABEL_OF_KIND } from '../core/item.js';
import { checkExtractInput, validItem, type ExtractInput } from './extract-input.js';

export { ExtractInputError } from './extract-input.js';

export type ExtractKind = 'auto' | 'article' | 'list' | 'forum';

export interface ExtractorOptions {
  kind?: ExtractKind | undefined;
  timezone?: string | undefined;
  /** Middleware settings, as in a spider config. */
  middleware?: Record<string, MiddlewareSetting | undefined>;
  extra?: Middleware[] | undefined;
  store?: SiteStore | undefined;
  log?: Logger | undefined;
}

export type { ExtractInput } from './extract-input.js';

/** A reusable extractor: one chain, one site store (templates learned across calls). */
export class Extractor {
  readonly chain: Middleware[];
  readonly store: SiteStore;
  private readonly log: Logger;
  private opened = false;

  constructor(private readonly options: ExtractorOptions = {}) {
    this.log = options.log ?? silentLogger;
    this.store = options.store ?? new MemorySiteStore();
    this.chain = buildChain(BUILTIN_MIDDLEWARE, { settings: options.middleware, extra: options.extra, extractOnly: true }, this.log);
  }

  /** Open the chain now (else the first page opens it): its models load before any page is timed. */
  async open(): Promise<void> {
    await this.ensureOpen();
  }

  private async ensureOpen(): Promise<void> {
    if (!this.opened) {
      await openChain(this.chain, { spider: 'extract', log: this.log });
      this.opened = true;
    }
  }

  /**
   * One page → one item. Bad input (no absolute URL, a body that is not text or bytes, an invalid
   * `fetchedAt` …) throws `ExtractInputError` listing every problem; a body that is not a page
   * (binary) gives an `other` item with `error`. Every returned item passes `itemSchema`.
   */
  async extract(raw: ExtractInput): Promise<Item> {
    const input = checkExtractInput(raw);
    await this.ensureOpen();
    let page;
    try {
      page = createPage(input);
    } catch (e) {
      if (e instanceof BinaryContentError) return { url: input.url, kind: 'other', error: e.message };
      throw e;
    }
    return this.extractPage(page, input, input.site ?? siteKeyOf(input.url));
  }

  /** Extract an already parsed page. */
  async extractPage(page: Page, input: Pick<ExtractInput, 'url' | 'anchorText'>, siteKey: string): Promise<Item> {
    await this.ensureOpen();
    const kind = this.options.kind ?? 'auto';
    const label: PageLabel | undefined = kind === 'auto' ? undefined : LABEL_OF_KIND[kind];
    const ctx = await processPage(page, { url: input.url, label, anchorText: input.anchorText }, {
      spider: 'extract',
      chain: this.chain,
      store: this.store,
      log: this.log,
      siteKey,
      timezone: this.options.timezone,
    });
    return validItem(finishItem(ctx));
  }

  /**
   * Extract many pages. Pages are grouped by `site` (else URL host); unless `stream`, every
   * middleware with a `learn` step sees all pages of a group first (templates learned from the
   * whole group), then each page is extracted — a group over LEARN_WINDOW_BYTES of input in
   * consecutive windows of that size (memory). Results keep the input order. `onStart` is told
   * the index of each page as its work (parse, learn, extract) starts (the batch's page budget).
   */
  async extractBatch(inputs: ExtractInput[], opts: { stream?: boolean; onItem?: (item: Item, index: number) => void; onStart?: (index: number) => void } = {}): Promise<Item[]> {
    const out: Item[] = new Array(inputs.length);
    inputs = inputs.map((inp, i) => checkExtractInput(inp, `inputs[${i}]`));
    if (opts.stream) {
      for (let i = 0; i < inputs.length; i++) {
        opts.onStart?.(i);
        out[i] = await this.extract(inputs[i]!);
        opts.onItem?.(out[i]!, i);
      }
      return out;
    }
    await this.ensureOpen();
    const groups = new Map<string, number[]>();
    inputs.forEach((inp, i) => {
      const key = inp.site ?? siteKeyOf(inp.url);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(i);
    });
    const learners = this.chain.filter((m) => m.learn);
    for (const [siteKey, group] of groups) for (const idx of learnWindows(group, inputs)) {
      const pages = new Map<number, Page>();
      for (const i of idx) {
        try {
          opts.onStart?.(i);
          pages.set(i, createPage(inputs[i]!));
        } catch (e) {
          if (!(e instanceof BinaryContentError)) throw e;
        }
      }
      if (learners.length) {
        for (const [i, page] of pages) {
          // The page label `--kind` gives (none for auto) reaches the learners too: the forum
          // middleware learns floor layouts only from forum pages.
          const kind = this.options.kind ?? 'auto';
          const label = kind === 'auto' ? undefined : LABEL_OF_KIND[kind];
          opts.onStart?.(i);
          const ctx = createContext(page, { url: inputs[i]!.url, label }, { spider: 'extract', store: this.store, log: this.log, siteKey, timezone: this.options.timezone });
          for (const m of learners) await m.learn!(ctx);
        }
      }
      for (const i of idx) {
        opts.onStart?.(i);
        const page = pages.get(i);
        out[i] = page ? await this.extractPage(page, inputs[i]!, siteKey) : await this.extract(inputs[i]!);
        opts.onItem?.(out[i]!, i);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.opened) await closeChain(this.chain, { spider: 'extract', log: this.log });
    this.opened = false;
  }
}

/**
 * Input bytes of a site's pages held parsed at once by `extractBatch`'s learn pass. Each page
 * stays parsed from its `learn` step to its extraction (the learners know a page they learned by
 * its parsed object), and a parsed page costs several times its bytes: one site of 1,358 pages
 * (400 MB) took 4 GB. A site over this bound is learned and extracted in windows of about this
 * many bytes, in order; what the learners keep (site state) carries on from one window to the
 * next, so a later window's pages meet a template learned from every page before them too.
 */
export const LEARN_WINDOW_BYTES = 16 * 1024 * 1024;

/** A site's page indices in consecutive windows of about LEARN_WINDOW_BYTES of input (every
 * window holds at least one page). */
export function learnWindows(idx: number[], inputs: ExtractInput[]): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let bytes = 0;
  for (const i of idx) {
    const body = inputs[i]!.body;
    const n = typeof body === 'string' ? body.length : body.byteLength;
    if (cur.length && bytes + n > LEARN_WINDOW_BYTES) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(i);
    bytes += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** One-shot extraction of a single page. */
export async function extractItem(input: ExtractInput, options: ExtractorOptions = {}): Promise<Item> {
  const ex = new Extractor(options);
  try {
    return await ex.extract(input);
  } finally {
    await ex.close();
  }
}
