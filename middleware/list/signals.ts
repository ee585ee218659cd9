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
import { findLinkClusters } from './clusters.js';
import { mainListClusters } from './index.js';

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
