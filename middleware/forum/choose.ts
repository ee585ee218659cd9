/**
 * The splitter's choices (issue 29): every candidate list the generators find (records.ts
 * `recordSets`) is scored by the floor model's list scorer (model.ts) over generic features
 * (set-features.ts), the rules' own choice among them (`rule`) being one feature; then the blocks
 * before the chosen floors, and "none", by its main-post scorer (main-post.ts). Without a model
 * the rules decide alone (their list, their main post).
 */
import type { Page } from '../../src/core/page.js';
import { findPagination, laterPageInUrl, type Pagination } from '../pagination/index.js';
import type { DateAnchor } from './dates.js';
import type { PostRecord, ThreadIndex } from './dom.js';
import type { FloorLayout } from './layout.js';
import { mainCandidates, mainFeatures } from './main-post.js';
import { decide, type FloorModel } from './model.js';
import { assembleSet, recordSets, type RecordSet, type SetPool } from './records.js';
import { noListFeatures, pageFacts, setFeatures } from './set-features.js';

export interface Choice {
  records: PostRecord[];
  set?: RecordSet;
  pool: SetPool;
  /** The thread page's pagination (read with the floors' ranges excluded; read on demand when
   * there are no floors). */
  pagination: Pagination;
}

/** Whether the pager (else the URL) says this is a later page of the thread. */
export function isLaterPage(page: Page, pagination: Pagination): boolean {
  return pagination.current !== undefined ? pagination.current > 1 : laterPageInUrl(page.url) === true;
}

export function chooseRecords(ix: ThreadIndex, anchors: DateAnchor[], layouts: readonly FloorLayout[] = [], model?: FloorModel): Choice {
  const pool = recordSets(ix, anchors, layouts);
  let set = pool.sets.find((s) => s.rule);
  // Nothing the model may choose but "none" (no rule list, no list that talks): the answer is
  // known without scoring. Most pages of a crawl that are not threads end here (on the realistic
  // bench site 1,900 of 2,000: the scoring was ~5% of the crawl's CPU).
  if (!set && !pool.sets.some((s) => s.speaks)) return { records: [], pool, get pagination() { return findPagination(ix.page); } };
  const facts = model?.sets || model?.main ? pageFacts(ix, anchors) : undefined;
  if (model?.sets && facts && pool.sets.length) {
    // The candidates, then "none of them" where the rules found none either (the model picks a
    // list where the rules have one; it may find one where they have none).
    // (Where the rules found none, only lists that talk are offered: a list of threads — titles,
    // names, dates, counters — is a list of many dated, authored rows too.)
    const fs = [...setFeatures(ix, pool, facts), ...(set ? [] : [noListFeatures(pool)])];
    const offered = fs.map((_, i) => set !== undefined || i >= pool.sets.length || pool.sets[i]!.speaks);
    const ruleAt = set ? pool.sets.indexOf(set) : pool.sets.length;
    const k = decide(model.sets, fs.map((f, i) => (offered[i] ? f : undefined)), ruleAt);
    if (k >= 0) set = pool.sets[k];
  }
  if (!set) return { records: [], pool, get pagination() { return findPagination(ix.page); } };
  const floors = assembleSet(ix, pool, set, null);
  const pagination = findPagination(ix.page, { exclude: floors.map((r) => r.range) });
  let main = set.main;
  if (model?.main && facts && floors.length) {
    const cands = mainCandidates(ix, floors, facts.dateStarts, set.main);
    const mf = mainFeatures(ix, floors, cands, facts, { laterPage: isLaterPage(ix.page, pagination) });
    const k = decide(model.main, mf, cands.findIndex((c) => c.rule) + 1);
    main = k > 0 ? cands[k - 1]!.record : undefined;
  }
  return { records: main ? assembleSet(ix, pool, set, main) : floors, set, pool, pagination };
}
