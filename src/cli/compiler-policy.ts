/**
 * V8's optimising compiler, tuned for the command line's workload (issue 26).
 *
 * A `gleaner` process runs one big body of DOM code over many pages, in one or more threads, each
 * an isolate of its own that JIT-compiles the chain afresh. Profiled on the 181 AEB pages
 * (`extract --batch --kind auto`, per-thread CPU from /proc): the thread that extracts spent
 * 2.1 s, and V8's background compiler threads another 2.0 s, compiling TurboFan code — the list
 * clusterer's record builder alone 220–650 ms per compile, five times over as type feedback grew
 * (`--trace-opt`); the same pages extracted a third time in the same thread took 1.6 s and 0.3 s.
 * Most of that compile time is inlining callees into large functions. With V8's cumulative
 * inlining budget lowered from 920 to 300 bytes of bytecode, whole processes, alternating, load
 * 5–6 on 2 cores (CPU = user + system): AEB 181 pages 4.2–5.5 → 3.9–4.6 s; 933 pages
 * (AEB + Readability's test pages, three times) 14.9–15.5 → 13.1–13.5 s; 150 or no inlining at
 * all saved no more.
 *
 * V8 also optimises a function later than it would (`--interrupt-budget` 4× its default of
 * 67,584): a batch or a crawl meets most functions on a few pages, and what TurboFan compiled for
 * them early was compiled again as type feedback grew. Whole processes, alternating, load 6–10:
 * AEB 181 pages CPU 4.26–4.85 → 3.54–4.31 s (five pairs), 933 pages 16.7–20.4 → 14.3–15.7 s; the
 * realistic crawl 32.3–34.0 → 31.2–32.1 s (two pairs). 8× saved no more.
 *
 * Set once, before any worker thread starts (V8's flags are per process: chain and batch threads
 * compile under the same budget). `GLEANER_V8_FLAGS` replaces these flags (empty: V8's defaults);
 * a flag given to node itself (`node --max-inlined-bytecode-size-cumulative=…`) is left alone.
 * Library callers choose for their own process (the `node` flag above).
 */
import v8 from 'node:v8';

/** The flags the command line runs with. */
export const CLI_V8_FLAGS = ['--max-inlined-bytecode-size-cumulative=300', '--interrupt-budget=270336'];

/** The flags to apply: `GLEANER_V8_FLAGS` when set (empty: none), else CLI_V8_FLAGS; a flag that
 * node was started with (`execArgv`) is not overridden. */
export function compilerFlags(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  const given = env.GLEANER_V8_FLAGS;
  const flags = given !== undefined ? given.split(/\s+/).filter(Boolean) : CLI_V8_FLAGS;
  const name = (f: string) => f.replace(/=.*$/, '').replace(/_/g, '-');
  const own = new Set(execArgv.map(name));
  return flags.filter((f) => !own.has(name(f)));
}

let applied = false;

/** Apply the command line's V8 flags once per process; returns the flags applied. */
export function applyCompilerPolicy(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string[] {
  if (applied) return [];
  applied = true;
  const flags = compilerFlags(env, execArgv);
  for (const f of flags) v8.setFlagsFromString(f);
  return flags;
}
