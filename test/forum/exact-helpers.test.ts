/**
 * The speed helpers of the floor splitter (issue 29: extraction ≤ 20 ms/page) must give the very
 * answers of the plain computations they replace: white space as `\s` reads it, the hash of a
 * text with its numbers masked, sentence marks of lines joined by newlines from the lines' own
 * counts. Random texts from an alphabet of the cases that matter (digits, Unicode spaces, Latin
 * marks at line starts after letters, CJK marks, closing quotes), with a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { isSpaceCode, linesPunct, maskedHash, punctIn, solidAtMost, type ThreadIndex } from '../../middleware/forum/dom.js';

function rng(seed: number): () => number {
  let r = seed >>> 0 || 1;
  return () => ((r = (Math.imul(r, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const pick = <T,>(xs: readonly T[], rand: () => number): T => xs[Math.floor(rand() * xs.length)]!;
const ALPHA = ['a', 'Z', 'é', '1', '9', ' ', '\n', '\t', '\u3000', '\u00a0', '.', ',', ';', '!', '?', '…', '，', '。', '：', ':', '"', '’', '”', ')', '(', '中', '#', '𝐀'];
const text = (rand: () => number, max: number) => Array.from({ length: Math.floor(rand() * max) }, () => pick(ALPHA, rand)).join('');

describe('exact helpers of the splitter', () => {
  it('isSpaceCode is /\\s/ on every UTF-16 code unit', () => {
    const wrong: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) wrong.push(c);
    expect(wrong).toEqual([]);
  });

  it('maskedHash is a hash of the masked text; solidAtMost counts non-space characters', () => {
    const mask = (t: string) => t.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
    const hash = (t: string) => {
      let h = 0;
      for (let i = 0; i < t.length; i++) h = (Math.imul(h, 31) + t.charCodeAt(i)) | 0;
      return h;
    };
    const rand = rng(7);
    for (let i = 0; i < 20_000; i++) {
      const t = text(rand, 14);
      expect(maskedHash(t)).toBe(hash(mask(t)));
      expect(solidAtMost(t, 6)).toBe(t.replace(/\s/g, '').length <= 6);
    }
  });

  it('linesPunct of lines is punctIn of the lines joined by newlines', () => {
    const rand = rng(11);
    for (let i = 0; i < 20_000; i++) {
      const lines = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => text(rand, 7));
      const ix = { segments: lines.map((t) => ({ text: t })), segPunct: new Int32Array(lines.length).fill(-1) } as unknown as ThreadIndex;
      // half of the lines read from their segment, half given as text (an inline body's part)
      const parts = lines.map((t, k) => (rand() < 0.5 ? { k } : { k, text: t }));
      expect(linesPunct(ix, parts, () => lines.join('\n'))).toBe(punctIn(lines.join('\n')));
    }
  });
});
