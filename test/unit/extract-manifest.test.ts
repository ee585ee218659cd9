import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractManifest } from '../../src/cli/extract.js';
import { Extractor } from '../../src/chain/extractor.js';
import { siteKeyOf } from '../../src/chain/process.js';
import type { Middleware } from '../../src/core/middleware.js';

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
  it('a manifest over partBytes is extracted in parts of whole sites: the same records, a missing file still one failure', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-manifest-'));
    const lines: object[] = [];
    for (let k = 0; k < 12; k++) {
      const site = `s${k % 3}`;
      const text = Array.from({ length: 8 }, (_, j) => `<p>Paragraph ${j} of page ${k} tells what happened on that day, in several plain sentences. It goes on for a while, as an article does.</p>`).join('');
      writeFileSync(path.join(dir, `${k}.html`), `<html><head><title>Page ${k} of ${site}</title></head><body><article><h1>Page ${k} of ${site}</h1>${text}</article><!-- ${'x'.repeat(2000)} --></body></html>`);
      lines.push({ id: `p${k}`, path: `${k}.html`, url: `https://${site}.example.org/${k}.html` });
    }
    lines.splice(5, 0, { id: 'gone', path: 'missing.html', url: 'https://s1.example.org/gone.html' });
    writeFileSync(path.join(dir, 'm.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const fetchedAt = new Date('2024-05-01T00:00:00Z');
    const order: string[] = [];
    const whole = await extractManifest(path.join(dir, 'm.jsonl'), { fetchedAt, jobs: 1, kind: 'article' });
    // each site's four pages are ~10 KB: one site per part
    const parts = await extractManifest(path.join(dir, 'm.jsonl'), { fetchedAt, jobs: 1, kind: 'article', partBytes: 12_000, stream: true, onItem: (r) => void order.push(r.id ?? '') });
    expect(parts.items).toEqual(whole.items);
    expect(parts.items.map((i) => i.url)).toEqual(lines.map((l) => (l as { url: string }).url));
    expect(parts.items.map((i) => i.title)).toEqual(lines.map((l) => (l as { id: string }).id).map((id) => (id === 'gone' ? undefined : `Page ${id.slice(1)} of s${Number(id.slice(1)) % 3}`)));
    expect(parts.failures.map((f) => f.id)).toEqual(['gone']);
    expect(order).toEqual(lines.map((l) => (l as { id: string }).id));
  });
  it('pages without a host are a site each: only pages sharing a host or a given site learn together', async () => {
    expect(siteKeyOf('https://News.Example.org/a.html')).toBe('news.example.org');
    expect(siteKeyOf('file:///saved/a.html')).not.toBe(siteKeyOf('file:///saved/b.html'));
    // which pages the learners see together, through the library's batch (the CLI's path)
    const seen: string[][] = [];
    const probe: Middleware = {
      name: 'site-probe',
      priority: 50,
      learn(ctx) {
        const last = seen.at(-1);
        if (last?.[0] === ctx.siteKey) last.push(ctx.request.url);
        else seen.push([ctx.siteKey, ctx.request.url]);
      },
      process() {},
    };
    const ex = new Extractor({ kind: 'article', extra: [probe] });
    await ex.extractBatch([
      { url: 'file:///saved/a.html', body: page },
      { url: 'file:///saved/b.html', body: page },
      { url: 'https://news.example.org/1', body: page },
      { url: 'file:///saved/c.html', body: page, site: 'mine' },
      { url: 'https://news.example.org/2', body: page },
      { url: 'file:///saved/d.html', body: page, site: 'mine' },
    ]);
    expect(seen.map((g) => g.slice(1))).toEqual([['file:///saved/a.html'], ['file:///saved/b.html'], ['https://news.example.org/1', 'https://news.example.org/2'], ['file:///saved/c.html', 'file:///saved/d.html']]);
  });
});
