import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURE_SPEC } from '../../middleware/classifier/features.js';
import { classifyPage, loadModel } from '../../middleware/classifier/index.js';
import { createPage } from '../../src/core/page.js';
import { GOLDEN_CASES, drift, readGolden } from './golden.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Golden pages the shipped model is known to mistype, with the label it gives: checked both
 * ways (a fix shows up as a failure here, to be moved back to the typed cases). None now:
 * zh-article-comments (a 750-character news article under three comments, which the floor
 * splitter reads as a main post and three replies: forum at p 0.51–0.73 with the floor features)
 * is typed detail since the classifier computes the floor signals only where forum stays possible
 * without them (FLOOR_SIGNALS_MIN_FORUM: p(forum) 0.013 here). */
const KNOWN_MISTYPED: Record<string, string> = {};

describe('golden feature vectors', () => {
  for (const dir of GOLDEN_CASES) {
    it(`${dir}: every feature as recorded`, () => {
      // An intended change: bump the version in FEATURE_SPEC, retrain (gleaner train-classifier),
      // then rewrite the golden files with `npx tsx test/classifier/golden.ts --write`.
      expect(readGolden(dir).spec).toEqual(FEATURE_SPEC);
      expect(drift(dir)).toEqual([]);
    });
  }
  it('the shipped model was trained with the feature spec the golden files record', () => {
    expect(loadModel().spec).toEqual(FEATURE_SPEC);
  });
  it('the golden pages are typed as labelled', () => {
    for (const dir of GOLDEN_CASES) {
      const d = path.join(here, '..', 'fixtures', 'classifier', dir);
      const { url, label } = JSON.parse(readFileSync(path.join(d, 'expected.json'), 'utf8')) as { url: string; label: string };
      expect(classifyPage(createPage({ url, body: readFileSync(path.join(d, 'page.html')) })).label, dir).toBe(KNOWN_MISTYPED[dir] ?? label);
    }
  });
});
