/**
 * `gleaner train-classifier [--labels file] [--data dir] [--out model.json]`: the command-line
 * glue around `trainPageTypeModel` (middleware/classifier/train.ts): progress on stderr, the
 * model file written, one JSON summary line on stdout.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadLabelledPages, trainPageTypeModel, grid, CV_FOLDS, MIN_CONTENT_CHARS, MODEL_PATH, TRAINING_SETS } from '../../middleware/classifier/index.js';
import { dataDir } from './data-dir.js';

export interface TrainOptions {
  labels?: string;
  data?: string;
  out?: string;
  /** false (`--no-sets`): the labels file only, without the manifests of TRAINING_SETS. */
  sets?: boolean;
}

/** Features are computed for this many pages between two progress lines. */
const PROGRESS_EVERY = 100;

export async function trainClassifierCli(opts: TrainOptions = {}): Promise<void> {
  const t0 = Date.now();
  const { pages, missing } = loadLabelledPages({
    labels: opts.labels,
    data: opts.data ?? dataDir(),
    sets: opts.sets === false ? [] : TRAINING_SETS,
    onPage: (d, n) => {
      if (d % PROGRESS_EVERY === 0) process.stderr.write(`features: ${d}/${n}\n`);
    },
  });
  if (missing.length) process.stderr.write(`skipped ${missing.length} labelled ids with no page: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}\n`);
  const sites = new Set(pages.map((p) => p.site)).size;
  process.stderr.write(`grid search over ${grid().length} settings, ${Math.min(CV_FOLDS, sites)}-fold CV grouped by site (${sites} sites) …\n`);
  const { model, agreement, search, counts, untrained } = trainPageTypeModel(pages, path.basename(opts.labels ?? 'pagetype-labels.json'));
  if (untrained.length) process.stderr.write(`not trained (too few pages): ${untrained.join(', ')}; pages with under ${MIN_CONTENT_CHARS} characters are "other" by rule\n`);
  const out = opts.out ?? MODEL_PATH;
  writeFileSync(out, JSON.stringify(model) + '\n');
  const { kernel, C, gamma } = search.best;
  process.stdout.write(
    `${JSON.stringify({ out, pages: pages.length, classes: counts, params: { kernel, C, gamma }, cvBalancedAccuracy: Number(search.score.toFixed(4)), supportVectors: model.SV.length, agreementWithLibsvm: agreement, seconds: (Date.now() - t0) / 1000 })}\n`,
  );
}
