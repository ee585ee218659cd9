import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider, chromiumPath } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve } from '../fixtures/crawler/server.js';

// The article body is not in the HTML: a script fetches it and builds the paragraphs, as
// client-rendered sites do. Only a browser sees it.
const SHELL = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Rendered story about river swimming</title></head>
<body><nav><a href="/">Home</a></nav><main id="app">Loading…</main>
<script>
fetch('/api/story.json').then(r => r.json()).then(d => {
  const app = document.getElementById('app');
  app.innerHTML = '';
  const h = document.createElement('h1'); h.textContent = d.title; app.appendChild(h);
  for (const t of d.paragraphs) { const p = document.createElement('p'); p.textContent = t; app.appendChild(p); }
});
</script></body></html>`;
const PARAS = [
  'The river was colder than anyone expected in early June, but the swimmers went in anyway and stayed for almost an hour.',
  'Local clubs have organised the morning swims for twelve years, and they say the water quality has never been better.',
  'Newcomers are asked to swim with a partner and to wear a bright cap so the boats can see them from a distance.',
];

describe.skipIf(!existsSync(chromiumPath()))('render: true (Playwright + chromium)', () => {
  it('extracts content that only exists after JavaScript ran', async () => {
    const server = await serve({
      '/story.html': { body: SHELL },
      '/api/story.json': { body: JSON.stringify({ title: 'Rendered story about river swimming', paragraphs: PARAS }), type: 'application/json' },
    });
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-render-'));
    try {
      const summary = await runSpider(
        {
          name: 'rendered',
          startUrls: [`${server.url}/story.html`],
          allowPrivateAddresses: true,
          follow: [{ pattern: '**/story.html', label: 'detail' }],
          crawler: { render: true, robotsTxt: false },
        },
        { storageDir, log: silentLogger },
      );
      expect(summary.pages).toBe(1);
      const dir = path.join(storageDir, 'datasets', 'rendered');
      const item = JSON.parse(readFileSync(path.join(dir, readdirSync(dir).find((f) => /^\d+\.json$/.test(f))!), 'utf8'));
      expect(item.kind).toBe('article');
      expect(item.content).toContain('colder than anyone expected');
      expect(item.content).toContain('bright cap');
      expect(server.requests).toContain('/api/story.json');
    } finally {
      await server.close();
    }
  }, 120_000);
});
