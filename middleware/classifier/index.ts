/**
 * Page-type classifier (sources §7): detail / list / forum / other, from page features
 * (`features.ts`) and an SVM trained by `gleaner train-classifier` (`train.ts`), shipped as
 * `model.json` and evaluated synchronously in TypeScript (`svm.ts`).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '../../src/core/page.js';
import { loadJsonResource, loadShippedJson } from '../../src/core/resources.js';
import type { MiddlewareFactory, PageContext } from '../../src/core/middleware.js';
import { NotConfigured, decideLabel } from '../../src/core/middleware.js';
import type { PageLabel, PageTypeResult } from '../../src/core/item.js';
import { pageFeatures, FEATURES, FEATURE_SPEC, contentless } from './features.js';
import { predict, type SvmModelJson } from './svm.js';
import { documentKind } from './documents.js';
import { countHeldPage, countHeldTypes, decideOnSite, holdUnsettledPage, linkedEntries, needsListItems, observeTypedPage, readSiteTypeState, rememberEarlyPage, reviseEarlyPages, siteKnows, sitePost, siteTypeModel, takeHeldPage, type SiteTypeModel } from './site-rules.js';
import { SITE_POST_KEY } from '../article/signals.js';
export { provisionalPages, takeRevisions, type Revision } from './site-rules.js';
import { listItemUrls, listSignals, siteListSignals } from '../list/signals.js';

export { pageFeatures, FEATURES, GERAPY_FEATURES, FEATURE_SPEC } from './features.js';
export type { SvmModelJson } from './svm.js';
/** Training (used by `gleaner train-classifier` and the benchmark): libsvm-js loads on first use. */
export { loadLabelledPages, trainPageTypeModel, grid, CV_FOLDS, MIN_CONTENT_CHARS, type LabelledPage, type TrainResult } from './train.js';
export { TRAINING_SETS, HELD_OUT_SETS, WCXB_TYPES, type LabelSet } from './training-sets.js';

export const LABELS: PageLabel[] = ['detail', 'list', 'forum', 'other'];

const here = path.dirname(fileURLToPath(import.meta.url));
/** The model shipped with Gleaner (retrain with `gleaner train-classifier`). */
const MODEL_NAME = 'model.json';
/** (In the build it is an entry of dist/data.json until a model is written here.) */
export const MODEL_PATH = path.join(here, MODEL_NAME);

const retrain = (file: string) => `retrain it with gleaner train-classifier --out ${file}`;

/**
 * A model is usable only with the features this version computes: the same names in the same
 * order, computed by the same definitions (FEATURE_SPEC: this folder's feature version and the
 * list/article/forum signal versions they read), with consistent dimensions. Throws, saying what to
 * do, otherwise.
 */
export function checkModel(model: SvmModelJson, file = 'the model'): void {
  if (model.format !== 'gleaner-svm/1') throw new Error(`${file} is not a Gleaner SVM model (format ${String(model.format)})`);
  if (!Array.isArray(model.features) || model.features.join(',') !== FEATURES.join(',')) {
    throw new Error(`${file} was trained on other features than this version computes; ${retrain(file)}`);
  }
  const spec = model.spec;
  if (!spec || spec.features !== FEATURE_SPEC.features || spec.listSignals !== FEATURE_SPEC.listSignals || spec.articleSignals !== FEATURE_SPEC.articleSignals || spec.forumSignals !== FEATURE_SPEC.forumSignals) {
    throw new Error(`${file} was trained with feature spec ${JSON.stringify(spec ?? 'none')}, this version computes ${JSON.stringify(FEATURE_SPEC)}; ${retrain(file)}`);
  }
  const d = FEATURES.length;
  const k = model.labels?.length ?? 0;
  const pairs = (k * (k - 1)) / 2;
  const nSV = (model.nSV ?? []).reduce((s, v) => s + v, 0);
  const problems: string[] = [];
  if (model.mean?.length !== d || model.std?.length !== d) problems.push(`standardisation has ${model.mean?.length}/${model.std?.length} values for ${d} features`);
  if (k < 2 || model.nSV?.length !== k) problems.push(`${k} labels with ${model.nSV?.length} support-vector counts`);
  if (!model.SV?.length || model.SV.length !== nSV || model.SV.some((sv) => sv.length > d)) problems.push(`support vectors do not match nSV (${nSV}) × ${d} features`);
  if (model.coef?.length !== k - 1 || model.coef.some((c) => c.length !== nSV)) problems.push('dual coefficients do not match the support vectors');
  if (model.rho?.length !== pairs) problems.push(`${model.rho?.length} rho for ${pairs} class pairs`);
  if (model.probA && (model.probA.length !== pairs || model.probB?.length !== pairs)) problems.push('probability parameters do not match the class pairs');
  if (model.priors && model.priors.length !== k) problems.push(`${model.priors.length} priors for ${k} labels`);
  if (problems.length) throw new Error(`${file} is damaged: ${problems.join('; ')}; ${retrain(file)}`);
}

/** Read and check a model file (once per process, again when the file changes). */
export function loadModel(file?: string): SvmModelJson {
  const missing = (f: string) => `page-type model not found: ${f} (train one with: gleaner train-classifier --out ${f})`;
  if (file) return loadJsonResource<SvmModelJson>(file, checkModel, missing(file));
  return loadShippedJson<SvmModelJson>(here, MODEL_NAME, checkModel, missing(MODEL_PATH));
}

export interface ClassifyOptions {
  /** A model object or file (default: the shipped model). */
  model?: SvmModelJson | string;
}

const OTHER_BY_RULE: PageTypeResult = { label: 'other', probabilities: { detail: 0, list: 0, forum: 0, other: 1 } };

/**
 * The floor signals (the forum splitter run on the page, ~23% of a zero-config batch's CPU) are
 * computed only where the prediction without them leaves forum at least this probability; below
 * it the page is typed as one whose splitter finds no floor. `npx tsx bench/classify-cascade.ts`
 * (750 labelled pages): at 0.02 they are skipped on 505 pages, none of them a forum thread, and 1
 * label changes, to its gold label; at 0.05 on 595, but the forum fixture of test/layout (a thread
 * beside a column of dated entries) scores 0.047 without them and would be typed detail. The
 * realistic bench site's pages all stay below 0.02 (page-type stage CPU 13.1 -> 5.7 s).
 */
export const FLOOR_SIGNALS_MIN_FORUM = 0.02;

/** The model's prediction from the values without the floor signals, or — where forum keeps
 * FLOOR_SIGNALS_MIN_FORUM — from the values with them (`withFloors` computes them). */
export function predictCascade(model: SvmModelJson, withoutFloorSignals: number[], withFloors: () => number[]): ReturnType<typeof predict> {
  const r = predict(model, withoutFloorSignals);
  return (r.probabilities.forum ?? 0) >= FLOOR_SIGNALS_MIN_FORUM ? predict(model, withFloors()) : r;
}

/** Page type with class probabilities (summing to 1). Feeds, sitemaps, JSON and pages without
 * content are `other` by rule. */
export function classifyPage(page: Page, options: ClassifyOptions = {}): PageTypeResult {
  const model = typeof options.model === 'object' ? options.model : loadModel(options.model);
  if (documentKind(page)) return structuredClone(OTHER_BY_RULE);
  const features = pageFeatures(page, { floors: false });
  if (contentless(features.values)) return structuredClone(OTHER_BY_RULE);
  const r = predictCascade(model, features.values, features.withFloors!);
  const probabilities: Record<string, number> = {};
  for (const l of LABELS) probabilities[l] = Number((r.probabilities[l] ?? 0).toFixed(4));
  return { label: r.label, probabilities };
}

export interface PageTypeOptions {
  /** Model file (default: the shipped model). */
  model?: string;
  /** Site-type model file (site-rules.ts; default: GLEANER_SITE_TYPE_MODEL, else the shipped one). */
  siteModel?: string;
  /** Type a crawl's early pages (and those of the SETTLE_PAGES after its site showed evidence)
   * again from their bodies at the crawl's end (site-rules.ts SETTLE_PAGES). Default false (or
   * GLEANER_RECHECK_EARLY=1): the early pages keep the type they were revised to from what they
   * showed when they came. Not the default: bench:sites' other pages 1.000 → 0.947 with it (sites-7,
   * one of jekyll-dcreager's 7 in every order; its lists 0.900 → 0.950, all lists 0.991 → 0.992),
   * while a crawl started from a one-post tag page types the site as one from `/`. In
   * process (`npx tsx bench/site-types.ts --recheck --jitter 3`, each held page's own entries out of
   * the evidence while it is typed again): lists 0.992 → 0.989 breadth first, the worst jittered
   * order unchanged (other 0.632). */
  recheck?: boolean;
}

export { HINT_MIN_PROBABILITY } from '../../src/core/middleware.js';

/** Key of the page-type stage's state in `ctx.site.data`. */
const SITE_STATE_KEY = 'pageType';

/** Types pages that no follow rule labelled: sets `ctx.label` (through `decideLabel`, the one
 * place that decides a label) and `ctx.item.pageType`. The classifier's result is re-decided with
 * what the site's earlier pages showed (site-rules.ts); every typed page, labelled or not, then
 * adds to that evidence. */
export const pageTypeMiddleware: MiddlewareFactory<PageTypeOptions> = (options = {}) => {
  let model: SvmModelJson;
  let siteModel: SiteTypeModel;
  try {
    model = loadModel(options.model);
    siteModel = siteTypeModel(options.siteModel);
  } catch (e) {
    throw new NotConfigured((e as Error).message);
  }
  /** What the classifier made of a page alone (`prepare`), for its `process`. */
  const prepared = new WeakMap<PageContext, { classified: PageTypeResult; document: boolean }>();
  const recheck = options.recheck ?? process.env.GLEANER_RECHECK_EARLY === '1';
  return {
    name: 'page-type',
    // The classifier and the page's own list clusters read the page alone: in a crawl's worker
    // threads they run before the page waits for the site's earlier pages to pass this stage.
    prepare(ctx) {
      listSignals(ctx.page);
      if (!ctx.label) prepared.set(ctx, { classified: classifyPage(ctx.page, { model }), document: documentKind(ctx.page) !== undefined });
    },
    process(ctx) {
      const state = readSiteTypeState(ctx.site.data[SITE_STATE_KEY]);
      ctx.site.data[SITE_STATE_KEY] = state;
      // a held page come back at the crawl's end to be typed again (the type it counted as taken out
      // of the site's evidence: it is typed as though it came now)
      const heldAs = ctx.label ? undefined : takeHeldPage(state, ctx.page.url);
      if (heldAs === undefined && state.recount?.length) countHeldTypes(state, false);
      let evidence = siteListSignals(ctx.page, ctx.site.data);
      // (what the classifier made of the page, as the site's evidence: not for a document, nor a
      // page a follow rule labelled)
      let looks: PageTypeResult | undefined;
      // A follow rule's label already typed the page (createContext): nothing to classify.
      if (!ctx.label) {
        const { classified, document } = prepared.get(ctx) ?? { classified: classifyPage(ctx.page, { model }), document: documentKind(ctx.page) !== undefined };
        if (!document) looks = classified;
        if (needsListItems(classified)) evidence = siteListSignals(ctx.page, ctx.site.data, true);
        const result = decideOnSite(siteModel, state, ctx.page.url, classified, evidence, document);
        ctx.label = decideLabel(ctx.request, result);
        ctx.item.pageType = result;
      }
      // (the entries a list page counts as listed: the list extractor's with the site's shapes)
      const listItems = ctx.label === 'list' ? listItemUrls(ctx.page, ctx.site.data) : [];
      if (ctx.label && looks !== undefined && heldAs === undefined) {
        // typed before the site showed evidence: typed again once it does (takeRevisions)
        // (with what it counts as listed and linked, taken out while it is typed again)
        const linked = recheck ? [...linkedEntries(state, evidence.mainEntries, evidence.mainOpen)] : undefined;
        if (!siteKnows(state)) rememberEarlyPage(state, { url: ctx.page.url, label: ctx.label, result: looks, evidence, hint: ctx.request.labelHint, listed: recheck ? listItems : undefined, linked });
        // typed just after the site showed evidence: held with the early pages, typed again with them
        else holdUnsettledPage(state, ctx.page.url, ctx.label, listItems, linked);
      }
      // one of the site's posts by its evidence: the article stage takes a short body as its content
      ctx.scratch[SITE_POST_KEY] = ctx.label === 'detail' && sitePost(state, ctx.page.url);
      if (heldAs !== undefined) {
        if (ctx.label) countHeldPage(state, heldAs, ctx.label, listItems);
      } else if (ctx.label) observeTypedPage(state, ctx.page.url, ctx.label, listItems, evidence.mainEntries, { classified: looks, mainOpen: evidence.mainOpen });
      reviseEarlyPages(state, siteModel, recheck);
      ctx.site.touch();
    },
  };
};
