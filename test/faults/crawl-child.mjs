// Child process of the fault suite: runs the spider in $FAULT_SPIDER (JSON) into $FAULT_STORAGE
// with signals handled like the CLI, then prints one JSON line: the summary, the peak RSS and the
// time taken. The built package (test/setup/build.ts), run by plain node: one process, so a signal
// reaches this very process.
import { runSpider, silentLogger, preferSmallHeap } from '../../dist/index.js';

// The heap policy `gleaner crawl` uses (src/crawler/memory.ts applyHeapPolicy): V8's defaults,
// the small heap only with GLEANER_HEAP=small — the user's path.
if (process.env.GLEANER_HEAP === 'small') preferSmallHeap();

const t0 = Date.now();
const spider = JSON.parse(process.env.FAULT_SPIDER);
const summary = await runSpider(spider, {
  storageDir: process.env.FAULT_STORAGE,
  out: process.env.FAULT_OUT || undefined,
  log: process.env.FAULT_LOG ? undefined : silentLogger,
  handleSignals: true,
  checkpointIntervalMs: 500,
});
// resourceUsage().maxRSS is in kilobytes: the peak over the whole process life.
process.stdout.write(JSON.stringify({ summary, peakRssMB: process.resourceUsage().maxRSS / 1024, ms: Date.now() - t0 }) + '\n');
// As `gleaner crawl` does after a signal (src/cli/crawl.ts).
if (summary.stoppedBy === 'SIGINT' || summary.stoppedBy === 'SIGTERM') process.exit(0);
