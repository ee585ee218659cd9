/**
 * The splitter's choice of floors (issue 29): every candidate list the generators find
 * (records.ts `recordSets`) is scored by the floor model (model.ts) over generic features
 * (set-features.ts), the rules' own choice among them (`rule`) being one feature; without a model
 * the rules decide alone.
 */
import type { DateAnchor } from './dates.js';
import type { PostRecord, ThreadIndex } from './dom.js';
import type { FloorLayout } from './layout.js';
import { argmax, type FloorModel } from './model.js';
import { assembleSet, recordSets, type RecordSet, type SetPool } from './records.js';
import { pageFacts, setFeatures } from './set-features.js';

export interface Choice {
  records: PostRecord[];
  set?: RecordSet;
  pool: SetPool;
}

export function chooseRecords(ix: ThreadIndex, anchors: DateAnchor[], layouts: readonly FloorLayout[] = [], model?: FloorModel): Choice {
  const pool = recordSets(ix, anchors, layouts);
  let set = pool.sets.find((s) => s.rule);
  if (model?.sets && pool.sets.length > 1) {
    const k = argmax(model.sets, setFeatures(ix, pool, pageFacts(ix, anchors)));
    if (k >= 0) set = pool.sets[k];
  }
  return { records: set ? assembleSet(ix, pool, set) : [], set, pool };
}
