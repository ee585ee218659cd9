import { describe, expect, it } from 'vitest';
import { CLI_V8_FLAGS, compilerFlags } from '../../src/cli/compiler-policy.js';

describe('the command line compiler policy', () => {
  it('lowers the inlining budget and optimises later by default', () => {
    expect(compilerFlags({}, [])).toEqual(CLI_V8_FLAGS);
    expect(CLI_V8_FLAGS.join(' ')).toMatch(/--max-inlined-bytecode-size-cumulative=\d+/);
    expect(CLI_V8_FLAGS.join(' ')).toMatch(/--interrupt-budget=\d+/);
  });
  it('GLEANER_V8_FLAGS replaces the flags; empty keeps V8 defaults', () => {
    expect(compilerFlags({ GLEANER_V8_FLAGS: '' }, [])).toEqual([]);
    expect(compilerFlags({ GLEANER_V8_FLAGS: ' --no-opt  --max-lazy ' }, [])).toEqual(['--no-opt', '--max-lazy']);
  });
  it('leaves a flag node was started with alone (either spelling)', () => {
    expect(compilerFlags({}, ['--max_inlined_bytecode_size_cumulative=920'])).toEqual(['--interrupt-budget=270336']);
    expect(compilerFlags({}, ['--max-inlined-bytecode-size-cumulative=100', '--expose-gc', '--interrupt_budget=1000'])).toEqual([]);
    expect(compilerFlags({ GLEANER_V8_FLAGS: '--expose-gc --max-lazy' }, ['--expose-gc'])).toEqual(['--max-lazy']);
  });
});
