import { mkdtempSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadJsonResource } from '../../src/core/resources.js';

describe('loadJsonResource', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-res-'));
  const file = path.join(dir, 'model.json');
  const check = (v: { n?: number }) => {
    if (typeof v.n !== 'number') throw new Error('no n');
  };

  it('reads and checks once, then serves the same object until the file changes', () => {
    writeFileSync(file, JSON.stringify({ n: 1 }));
    let checks = 0;
    const counted = (v: { n?: number }) => (checks++, check(v));
    const a = loadJsonResource(file, counted, 'missing');
    expect(a).toEqual({ n: 1 });
    expect(loadJsonResource(file, counted, 'missing')).toBe(a);
    expect(checks).toBe(1);
    writeFileSync(file, JSON.stringify({ n: 22 }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(loadJsonResource(file, counted, 'missing')).toEqual({ n: 22 });
    expect(checks).toBe(2);
  });

  it('says what is wrong: a missing file, a file its check refuses', () => {
    expect(() => loadJsonResource(path.join(dir, 'absent.json'), check, 'model not found: absent')).toThrow('model not found: absent');
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ m: 1 }));
    expect(() => loadJsonResource(path.join(dir, 'bad.json'), check, 'missing')).toThrow('no n');
  });
});
