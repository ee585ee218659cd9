// Preloaded into a gleaner process by test/faults/extract-bounds.test.ts: prints the whole
// process's resource use on exit (peak RSS in KB, user and system CPU in µs) as one JSON line.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nRUSAGE ${JSON.stringify({ maxRSS: u.maxRSS, user: u.userCPUTime, system: u.systemCPUTime })}\n`);
});
