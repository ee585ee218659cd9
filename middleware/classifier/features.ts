/**
 * Page-type features (ALGORITHMS §7), in named groups computed from one shared pass over the
 * page (`features-scan.ts`):
 *
 * - `GERAPY_FEATURES` (`features-gerapy.ts`): Gerapy's recipe, kept for the benchmark's baseline.
 * - `LIST_FEATURES` (`features-list.ts`): the link clusters and the main list.
 * - `DETAIL_FEATURES` (`features-detail.ts`): prose, headline, article metadata, the article
 *   extractor's body.
 * - `FORUM_FEATURES` (`features-forum.ts`): repeated post blocks, dated slots, forum words, and
 *   what tells an article with comments from a thread.
 * - `FLOOR_FEATURES` (`features-floors.ts`): the forum floor splitter's verdict (floors, their
 *   share of the text, authors and dates).
 * - `URL_FEATURES` (`features-url.ts`): the URL's shape (missing, not zero, without a public URL).
 *
 * `FEATURES` is their concatenation, in that order: the order of the shipped model's columns.
 * The classifier reads the list, article and forum extractors only through their `signals.ts`; the
 * model records `FEATURE_SPEC` (this file's version and theirs) and `loadModel` refuses a model
 * trained with another. Golden vectors (`test/classifier/golden.test.ts`) catch any drift.
 */
import type { Page } from '../../src/core/page.js';
import { SIGNALS_VERSION as LIST_SIGNALS_VERSION } from '../list/signals.js';
import { SIGNALS_VERSION as ARTICLE_SIGNALS_VERSION } from '../article/signals.js';
import { SIGNALS_VERSION as FORUM_SIGNALS_VERSION } from '../forum/signals.js';
import { scanPage } from './features-scan.js';
import { GERAPY_FEATURES, gerapyFeatures } from './features-gerapy.js';
import { LIST_FEATURES, listFeatures } from './features-list.js';
import { DETAIL_FEATURES, detailFeatures } from './features-detail.js';
import { FORUM_FEATURES, forumFeatures } from './features-forum.js';
import { FLOOR_FEATURES, floorFeatures } from './features-floors.js';
import { URL_FEATURES, urlGroupFeatures } from './features-url.js';

export { GERAPY_FEATURES, LIST_FEATURES, DETAIL_FEATURES, FORUM_FEATURES, FLOOR_FEATURES, URL_FEATURES };
export { bigramSimilarity } from './features-scan.js';
export { urlFeatures } from './features-url.js';

export const EXTRA_FEATURES = [...LIST_FEATURES, ...DETAIL_FEATURES, ...FORUM_FEATURES, ...FLOOR_FEATURES, ...URL_FEATURES] as const;
export const FEATURES = [...GERAPY_FEATURES, ...EXTRA_FEATURES] as const;
export type FeatureName = (typeof FEATURES)[number];

/** Version of the feature definitions in this folder: bump it when any feature's value changes
 * for some page (then retrain the model and rewrite the golden vectors). */
export const FEATURES_VERSION = 7;

/** What a model's features depend on: recorded in model.json, checked by loadModel. */
export const FEATURE_SPEC = { features: FEATURES_VERSION, listSignals: LIST_SIGNALS_VERSION, articleSignals: ARTICLE_SIGNALS_VERSION, forumSignals: FORUM_SIGNALS_VERSION } as const;
export type FeatureSpec = { features: number; listSignals: number; articleSignals: number; forumSignals?: number };

/** Non-space characters below which a page has no content to type (an empty shell, a script-only
 * app, an error page): "other" by rule, in training, cross-validation and classifyPage alike. */
export const MIN_CONTENT_CHARS = 100;
/** Index of the total-characters feature (the same in both feature sets: Gerapy's come first). */
const CHARS_FEATURE = GERAPY_FEATURES.indexOf('chars');

/** The rule for pages without content, on a feature vector of either set. */
export function contentless(x: number[]): boolean {
  return x[CHARS_FEATURE]! < MIN_CONTENT_CHARS;
}

export interface PageFeatures {
  /** All features, in `FEATURES` order. */
  values: number[];
  /** Gerapy's subset, in `GERAPY_FEATURES` order. */
  gerapy: number[];
  /** With `floors: false`: the values with the floor signals computed (they are 0 in `values`,
   * as on a page where the splitter finds no floor). */
  withFloors?: () => number[];
}

/** Where the floor signals sit in `values`. */
const FLOOR_AT = (FEATURES as readonly string[]).indexOf(FLOOR_FEATURES[0]);

/** Feature values with the floor signals at 0, as `pageFeatures(page, { floors: false })` gives
 * them (benches replaying the classifier's cascade on stored vectors). */
export function withoutFloors(values: readonly number[]): number[] {
  const out = [...values];
  out.fill(0, FLOOR_AT, FLOOR_AT + FLOOR_FEATURES.length);
  return out;
}

/** Values of a group's record in its names' order. */
function ordered<K extends string>(names: readonly K[], record: Record<K, number>): number[] {
  return names.map((k) => record[k]);
}

/** The page's features; `floors: false` leaves the floor signals (the forum splitter run on the
 * page: its costliest group) at 0 until `withFloors()` asks for them. */
export function pageFeatures(page: Page, o: { floors?: boolean } = {}): PageFeatures {
  const scan = scanPage(page);
  const gerapy = ordered(GERAPY_FEATURES, gerapyFeatures(scan));
  const floors = () => ordered(FLOOR_FEATURES, floorFeatures(scan));
  const values = [
    ...gerapy,
    ...ordered(LIST_FEATURES, listFeatures(scan)),
    ...ordered(DETAIL_FEATURES, detailFeatures(scan)),
    ...ordered(FORUM_FEATURES, forumFeatures(scan)),
    ...(o.floors === false ? FLOOR_FEATURES.map(() => 0) : floors()),
    ...ordered(URL_FEATURES, urlGroupFeatures(scan)),
  ];
  if (o.floors !== false) return { values, gerapy };
  const withFloors = () => {
    const full = [...values];
    full.splice(FLOOR_AT, FLOOR_FEATURES.length, ...floors());
    return full;
  };
  return { values, gerapy, withFloors };
}
