/**
 * Golden feature vectors: the page-type features of a few fixture pages, written once by
 * `npx tsx test/classifier/golden.ts --write` and compared exactly by golden.test.ts. Any change
 * to a feature's value (in the classifier, in the list/article signals it reads, in the page
 * model or the DOM index beneath them) fails the test by name; an intended change bumps the
 * matching version in FEATURE_SPEC, retrains the model and rewrites these files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPage } from '../../src/core/page.js';
import { pageFeatures, FEATURES, FEATURE_SPEC, type FeatureSpec } from '../../middleware/classifier/features.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'classifier');

/** Fixture folders (under test/fixtures/classifier) with a golden `features.json`. */
export const GOLDEN_CASES = ['detail', 'forum-thread', 'forum-board', 'golden/zh-article-comments', 'golden/en-archive-list', 'golden/zh-thread-gbk', 'golden/qa-no-url'];

export interface Golden {
  spec: FeatureSpec;
  /** Feature values by name; a missing value (NaN) is written as the string "NaN". */
  features: Record<string, number | 'NaN'>;
}

export function fixtureFeatures(dir: string): Record<string, number> {
  const d = path.join(fixtures, dir);
  const { url } = JSON.parse(readFileSync(path.join(d, 'expected.json'), 'utf8')) as { url: string };
  const { values } = pageFeatures(createPage({ url, body: readFileSync(path.join(d, 'page.html')) }));
  return Object.fromEntries(FEATURES.map((f, i) => [f, values[i]!]));
}

export function goldenPath(dir: string): string {
  return path.join(fixtures, dir, 'features.json');
}

export function readGolden(dir: string): Golden {
  return JSON.parse(readFileSync(goldenPath(dir), 'utf8')) as Golden;
}

/** Names of the features whose value differs from the golden one (exactly, NaN equal to NaN),
 * with both values. */
export function drift(dir: string): string[] {
  const golden = readGolden(dir);
  const now = fixtureFeatures(dir);
  const out: string[] = [];
  for (const f of new Set([...Object.keys(golden.features), ...FEATURES])) {
    const g = golden.features[f];
    const want = g === 'NaN' ? NaN : g;
    if (!Object.is(want, now[f])) out.push(`${f}: golden ${String(want)}, now ${String(now[f])}`);
  }
  return out;
}

function write(): void {
  for (const dir of GOLDEN_CASES) {
    const features = Object.fromEntries(Object.entries(fixtureFeatures(dir)).map(([k, v]) => [k, Number.isNaN(v) ? ('NaN' as const) : v]));
    const golden: Golden = { spec: { ...FEATURE_SPEC }, features };
    writeFileSync(goldenPath(dir), JSON.stringify(golden, null, 1) + '\n');
    process.stdout.write(`wrote ${path.relative(process.cwd(), goldenPath(dir))}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--write')) write();
