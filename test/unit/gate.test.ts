import { describe, expect, it } from 'vitest';
import { figureOf, numbersOf } from '../../bench/gate.js';

describe('quality gate', () => {
  const tables = [
    { bench: 'articles', headers: ['tool', 'AEB F1 (P/R)', 'cwce-zh F1/date/author'], rows: [['gleaner', '0.980 (0.977/0.983)', '0.928 / 0.826 / 0.841']] },
    { bench: 'articles', headers: ['tool', 'pages/s'], rows: [['gleaner', '149.0']] },
  ];
  it('reads the numbers of a cell in order', () => {
    expect(numbersOf('0.928 / 0.826 / 0.841')).toEqual([0.928, 0.826, 0.841]);
    expect(numbersOf('1')).toEqual([1]);
  });
  it('finds a figure by row, column and index, and says why one is missing', () => {
    expect(figureOf(tables, { bench: 'articles', row: 'gleaner', column: 'cwce-zh F1/date/author', index: 1, floor: 0 })).toBe(0.826);
    expect(figureOf(tables, { bench: 'articles', row: 'gleaner', column: 'AEB F1 (P/R)', floor: 0 })).toBe(0.98);
    expect(figureOf(tables, { bench: 'articles', row: 'readability', column: 'AEB F1 (P/R)', floor: 0 })).toMatch(/no row/);
    const twice = [...tables, tables[0]!];
    expect(figureOf(twice, { bench: 'articles', row: 'gleaner', column: 'AEB F1 (P/R)', floor: 0 })).toMatch(/ambiguous/);
  });
});
