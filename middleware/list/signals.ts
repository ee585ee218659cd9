/**
 * What the page-type classifier may read from the list extractor (issue 10: the classifier reads
 * list internals only through this module). The link clusters and the main list are computed
 * with the cluster options the classifier's features were trained with (none of the extractor's
 * opt-ins: see ClusterOptions), so the extractor's options may change without moving a feature.
 *
 * Versioned: bump `SIGNALS_VERSION` whenever a value returned here changes for some page (a
 * threshold in clusters.ts, the merge rules of mainListClusters). The golden
 * feature vectors (`test/classifier/golden.test.ts`) fail when that happens unnoticed; the
 * shipped model records the version it was trained with and `loadModel` refuses another one,
 * so a bump means `gleaner train-classifier` and new golden files.
 */
import type { Page } from '../../src/core/page.js';
import { Element } from 'domhandler';
import { findLinkClusters } from './clusters.js';
import { listEntries, mainListClusters, SHAPES_KEY } from './index.js';
import { clusterShape, CONFIDENT_ENTRIES, inLandmark, isFixedShape, isLearnedShape, learnedEntries, readShapes } from './shapes.js';
import { pageIndex } from '../../src/core/page-index.js';
import { urlParts } from '../../src/core/url.js';

export const SIGNALS_VERSION = 1;

/** Text width (CJK counts double) and the cheap date pattern the list records are tested with. */
export { textWidth, DATE_LIKE } from './clusters.js';

/** One link cluster: runs of structurally similar sibling records, each with a title link. */
export interface ClusterSignal {
  /** DFS indices of the records. */
  readonly records: readonly number[];
  /** Each record's title link: its DFS index, text and absolute URL. */
  readonly entries: readonly { readonly anchor: number; readonly title: string; readonly url: string }[];
  /** Cluster score (size × title fit × similarity × chrome penalty; best first). */
  readonly score: number;
  /** Non-space characters inside the records. */
  readonly chars: number;
  /** Share of records whose text carries a date. */
  readonly datedShare: number;
  /** Mean title width of the entries. */
  readonly meanWidth: number;
  /** 1 outside page chrome, lower inside navigation, sidebars and footers. */
  readonly chromeFactor: number;
}

export interface ListSignals {
  /** All link clusters of the page, best first. */
  readonly clusters: readonly ClusterSignal[];
  /** The main list as the list extractor sees it (nested section lists and split lists merged). */
  readonly mainList: readonly ClusterSignal[];
}

/** The list signals of a page (cached with the clusters: computing them twice is free). */
export function listSignals(page: Page): ListSignals {
  return { clusters: findLinkClusters(page), mainList: mainListClusters(page) };
}

/**
 * What a page shows of the site's lists (issue 23: page types from site evidence), for the
 * page-type stage's site model: the URLs of its main list (as listSignals sees it) and whether that
 * list sits outside chrome, and the URLs of its links in the list-entry markup the site's list pages
 * taught (`siteData[SHAPES_KEY]`, see shapes.ts), outside chrome landmarks; with `withItems`, the
 * entries the list extractor gives it with those shapes. Not part of the SVM's
 * features (no SIGNALS_VERSION bump).
 */
export function siteListSignals(page: Page, siteData: Record<string, unknown>, withItems = false): { mainEntries: string[]; mainOpen: boolean; learnedEntries: string[]; childLinks: number; listItems?: string[] } {
  const main = mainListClusters(page)[0];
  const shapes = readShapes(siteData[SHAPES_KEY]);
  const learnt = shapes.observed > 0 ? learnedEntries(page, shapes, undefined, true) : undefined;
  // open: outside chrome landmarks (nav, aside, the page's header and footer), in markup the site
  // does not show unchanged on every list page (a side panel), and outside chrome by its classes —
  // or long enough to stand for itself, or in markup the site's lists taught as entries (class
  // words are loose: a tag page's column `page-tag`)
  const shape = main && shapes.observed > 0 ? clusterShape(pageIndex(page), main) : undefined;
  const open = main !== undefined && !inLandmark(page, main.container) && !isFixedShape(shapes, shape) && (main.chromeFactor >= 1 || main.entries.length >= CONFIDENT_ENTRIES || isLearnedShape(shapes, shape));
  return {
    mainEntries: main ? main.entries.map((e) => e.url) : [],
    mainOpen: open,
    learnedEntries: learnt ? learnt.entries.map((e) => e.url) : [],
    childLinks: childLinks(page),
    // the entries the list stage would give (memoised: a page typed list reuses them)
    listItems: withItems ? siteEntries(page, shapes) : undefined,
  };
}

/** A page path's file extension (`/c/news.html`: its children live under `/c/news/`, as the list
 * stage's child prefix has it). */
const PATH_EXTENSION = /\.[a-z0-9]{2,5}$/i;

/** Distinct same-host pages linked below the page's own path (`/tags/` → `/tags/css/`, and
 * `/c/news.html` → `/c/news/2024.html`): an index of its section links its children, wherever the
 * links sit. 0 for the site root. */
function childLinks(page: Page): number {
  let belows: string[];
  let host: string;
  try {
    const u = new URL(page.url);
    const path = u.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '');
    if (!path) return 0;
    const stem = path.replace(PATH_EXTENSION, '');
    belows = [...new Set([path, stem].filter(Boolean).map((p) => `${u.protocol}//${u.host}${p}/`))];
    host = u.host;
  } catch {
    return 0;
  }
  const dom = pageIndex(page);
  const seen = new Set<string>();
  for (const a of dom.anchors) {
    const url = page.resolve((page.nodes[a] as Element).attribs.href);
    const below = url && belows.find((b) => url.startsWith(b));
    if (!below) continue;
    const k = url.replace(/[#?].*$/, '').replace(/\/index\.html?$/i, '/').replace(/\/+$/, '');
    if (k.length > below.length - 1 && urlParts(url)?.host === host) seen.add(k);
  }
  return seen.size;
}

/** The item URLs the list extractor gives a page with the site's learned shapes (the same entries,
 * memoised: the list stage reuses them), as the site's evidence: not the entries inside chrome
 * landmarks (a page whose own list is one entry gives its menu as the list: the menu's links are
 * no posts of the site). */
export function listItemUrls(page: Page, siteData: Record<string, unknown>): string[] {
  return siteEntries(page, readShapes(siteData[SHAPES_KEY]));
}

function siteEntries(page: Page, shapes: ReturnType<typeof readShapes>): string[] {
  return listEntries(page, shapes)
    .filter((e) => !inLandmark(page, e.anchor))
    .map((e) => e.url);
}
