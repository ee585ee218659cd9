/**
 * One page through the extraction chain, watched (issue 27, `gleaner inspect`): the item with its
 * provenance, and what the stages decided on the way — the page type before and after the site's
 * evidence, the lines each narrowing stage removed, the links the crawl would follow.
 *
 * The chain is the one `gleaner extract` runs (same Extractor, same built-ins, plus `provenance`);
 * the watching is done by probe middleware slotted between the built-ins by priority, which read
 * the context and change nothing. The extractors are not touched.
 */
import type { Element } from 'domhandler';
import { Extractor, type ExtractKind } from '../chain/extractor.js';
import { BUILTIN_MIDDLEWARE } from '../chain/builtins.js';
import { createPage, type Page, type Segment } from '../core/page.js';
import type { Middleware, PageContext, SiteStore } from '../core/middleware.js';
import type { Item, PageTypeResult } from '../core/item.js';
import type { Provenance } from './locate.js';
import { PROVENANCE_KEY } from './provenance.js';

/** Why a line of the page is not in the item's text. */
export type LineFate = 'kept' | 'template' | 'rule-filter' | 'not-main';

export interface TracedLine {
  text: string;
  /** DFS number of the line's first text node and its block element. */
  dfs: number;
  element: Element;
  fate: LineFate;
}

export interface PageTrace {
  page: Page;
  item: Item;
  provenance: Provenance;
  /** The classifier's own result on the page alone, before the site's evidence (absent when a
   * label was given: `--kind`). */
  classifier?: PageTypeResult;
  /** What the site's earlier pages told the page-type stage (its site state), when it had any. */
  siteEvidence?: Record<string, unknown>;
  /** Whether the site template narrowed the page. */
  templateApplied: boolean;
  /** Every line of the page, with its fate (article pages; on other kinds only `kept`/`not-main`). */
  lines: TracedLine[];
  /** Links the crawl follows with a label (list entries, next and other pages); other links are
   * followed by a spider without follow rules when they stay in its allowed domains. */
  follow: Array<{ url: string; label: string }>;
}

const stageAfter = (name: string) => (BUILTIN_MIDDLEWARE[name]?.priority ?? 0) + 1;

function segKey(s: Segment): number {
  return s.index;
}

/** Probe middleware recording the segments left after each narrowing stage. */
function probes(record: { after: Map<string, Set<number>>; site?: Record<string, unknown>; templateApplied: boolean }): Middleware[] {
  const snap = (stage: string): Middleware => ({
    name: `inspect-probe-${stage}`,
    priority: stageAfter(stage),
    process(ctx: PageContext) {
      record.after.set(stage, new Set(ctx.segments.map(segKey)));
      if (stage === 'page-type') {
        const s = ctx.site.data.pageType;
        if (s && typeof s === 'object') record.site = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
      }
      record.templateApplied = ctx.templateApplied;
    },
  });
  return [snap('page-type'), snap('set-difference'), snap('rule-filters')];
}

export interface TraceOptions {
  url: string;
  body: Uint8Array | string;
  kind?: ExtractKind;
  fetchedAt?: Date;
  timezone?: string;
  /** Other pages of the same site (saved), to learn its template from first, as `--batch` does. */
  sitePages?: Array<{ url: string; body: Uint8Array | string }>;
  store?: SiteStore;
  /** The page-type classifier on the page alone (the CLI passes middleware/classifier's
   * classifyPage: src/ outside the chain reaches the middleware only through the CLI): shown
   * beside the result after the site's evidence. */
  classify?: (page: Page) => PageTypeResult;
}

export async function tracePage(o: TraceOptions): Promise<PageTrace> {
  const record = { after: new Map<string, Set<number>>(), templateApplied: false } as { after: Map<string, Set<number>>; site?: Record<string, unknown>; templateApplied: boolean };
  const extractor = new Extractor({ kind: o.kind, timezone: o.timezone, middleware: { provenance: true }, extra: probes(record), store: o.store });
  let item: Item;
  try {
    const input = { url: o.url, body: o.body, fetchedAt: o.fetchedAt };
    if (o.sitePages?.length) {
      const items = await extractor.extractBatch([...o.sitePages.map((p) => ({ ...p, fetchedAt: o.fetchedAt })), input]);
      item = items[items.length - 1]!;
    } else item = await extractor.extract(input);
  } finally {
    await extractor.close();
  }
  const page = createPage({ url: o.url, body: o.body, fetchedAt: o.fetchedAt });
  const { [PROVENANCE_KEY]: prov, ...plain } = item as Item & { provenance?: Provenance };
  const classifier = o.kind && o.kind !== 'auto' ? undefined : o.classify?.(page);
  return {
    page,
    item: plain as Item,
    provenance: prov ?? {},
    classifier,
    siteEvidence: record.site,
    templateApplied: record.templateApplied,
    lines: traceLines(page, plain as Item, record.after),
    follow: followOf(plain as Item),
  };
}

function traceLines(page: Page, item: Item, after: Map<string, Set<number>>): TracedLine[] {
  const content = new Set((item.content ?? '').split('\n').map((l) => l.trim()).filter(Boolean));
  const afterDiff = after.get('set-difference');
  const afterRules = after.get('rule-filters');
  return page.segments.map((s) => {
    let fate: LineFate;
    if (content.has(s.text) || [...content].some((l) => l.length > 20 && l.includes(s.text) && s.text.length > 20)) fate = 'kept';
    else if (afterDiff && !afterDiff.has(s.index)) fate = 'template';
    else if (afterRules && !afterRules.has(s.index)) fate = 'rule-filter';
    else fate = 'not-main';
    return { text: s.text, dfs: s.index, element: s.element, fate };
  });
}

function followOf(item: Item): Array<{ url: string; label: string }> {
  const out: Array<{ url: string; label: string }> = [];
  if (item.kind === 'list') for (const e of item.items ?? []) out.push({ url: e.url, label: 'detail' });
  if (item.kind === 'list' || item.kind === 'forum') {
    const pageLabel = item.kind;
    if (item.nextPage) out.push({ url: item.nextPage, label: `${pageLabel} (next page)` });
    for (const p of item.pages ?? []) out.push({ url: p, label: pageLabel });
  }
  return out;
}
