// Child of frontier-memory.test.ts: a journal frontier of the built package filled with N queued
// requests (links as a crawl finds them: URL, depth, anchor text, referrer); prints the memory the
// process holds for them after a full GC (heap + array buffers + external) and the time taken.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JournalFrontier } from '../../dist/index.js';

const N = Number(process.env.FRONTIER_N ?? 1_000_000);
/** Memory held after full collections (array buffers are freed by a sweep that runs after the GC). */
const held = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers + m.external;
};
const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-frontier-memory-'));
const before = await held();
const t0 = performance.now();
const f = JournalFrontier.open(dir, 'm');
const BATCH = 10_000;
for (let i = 0; i < N; i += BATCH) {
  const batch = [];
  for (let j = i; j < Math.min(N, i + BATCH); j++) batch.push({ url: `https://site${j % 50}.example.com/section/${Math.floor(j / 1000)}/an-article-with-a-longer-slug-${j}.html`, depth: 2, anchorText: `An article with a longer title, number ${j}`, referrer: `https://site${j % 50}.example.com/list/${Math.floor(j / BATCH)}.html` });
  f.add(batch);
  f.checkpoint();
}
const after = await held();
const stats = f.stats();
process.stdout.write(JSON.stringify({ queued: stats.pending, bytes: after - before, perUrl: (after - before) / stats.pending, tableBytes: f.tableBytes, inMemory: f.queuedInMemory, ms: performance.now() - t0 }) + '\n');
f.close(false);
