import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractManifest } from '../../src/cli/extract.js';

const page = '<html><head><title>A page</title></head><body><h1>A page</h1><p>One paragraph of text that reads as a sentence, for the extractor.</p></body></html>';

describe('gleaner extract --batch manifests', () => {
  it('a line without a url, or with an empty one, gets its file\'s file:// URL; the batch goes on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-manifest-'));
    writeFileSync(path.join(dir, 'a.html'), page);
    writeFileSync(path.join(dir, 'm.jsonl'), [{ id: 'a', path: 'a.html', url: '' }, { id: 'b', path: 'a.html' }, { id: 'c', path: 'a.html', url: 'https://example.org/c' }].map((l) => JSON.stringify(l)).join('\n'));
    const { items } = await extractManifest(path.join(dir, 'm.jsonl'));
    expect(items.map((i) => i.url)).toEqual([expect.stringMatching(/^file:\/\/\/.*a\.html$/), expect.stringMatching(/^file:\/\/\/.*a\.html$/), 'https://example.org/c']);
  });
  it('a url that is not absolute is refused with the line named, before its page is read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-manifest-'));
    writeFileSync(path.join(dir, 'm.jsonl'), JSON.stringify({ id: 'a', path: 'missing.html', url: '/relative' }) + '\n');
    const { entries, failures } = await extractManifest(path.join(dir, 'm.jsonl'));
    expect(entries).toEqual([]);
    expect(failures.map((f) => f.message)).toEqual([expect.stringMatching(/m\.jsonl:1: "url" must be an absolute URL/)]);
  });
});
