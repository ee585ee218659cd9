import { describe, expect, it } from 'vitest';
import { codePointCounter } from '../../src/core/text.js';

describe('codePointCounter', () => {
  const samples = ['', 'plain ASCII, with commas; and = symbols {x}', '中文，标点、混合 English 文本', 'かなカナ한글', '𠀀𠀁 astral Han and 𝒜 math letters', 'lone \ud800 high and \udc00 low surrogates', 'x'.repeat(1000) + '字'];
  for (const re of [/\p{L}/gu, /\p{Script=Han}/gu, /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, /[,，、]/g, /[{}[\];=<>$\\|&^~`]/g]) {
    it(`counts what ${re} matches`, () => {
      const count = codePointCounter(re);
      for (const s of samples) expect(count(s), s.slice(0, 40)).toBe(s.match(re)?.length ?? 0);
    });
  }
});

describe('solidLength', () => {
  it('counts what is left after removing white space as /\\s+/g reads it', async () => {
    const { solidLength } = await import('../../src/core/page-index.js');
    for (let c = 0; c < 65536; c += 1) {
      const s = `a${String.fromCharCode(c)} b\u3000`;
      if (solidLength(s) !== s.replace(/\s+/g, '').length) throw new Error(`U+${c.toString(16)}`);
    }
    expect(solidLength('  中文\n\t text \u00a0')).toBe(6);
  });
});
