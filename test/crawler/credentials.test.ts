/**
 * Credentials in start URLs (issue 24 item 8): used for the requests to their origin, written
 * nowhere (items, dataset, frontier, page memory, stats, logs, summary); userinfo in a link or a
 * redirect's Location is stripped and never sent, to any origin.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSpider } from '../../src/crawler/crawl.js';
import type { Logger } from '../../src/core/middleware.js';
import { redactUrl } from '../../src/crawler/credentials.js';
import { serve } from '../fixtures/crawler/server.js';

const SECRET = 's3cret-Pa55';
const page = (title: string, links = '') => ({ body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${'Words of the story about the city and its budget. '.repeat(8)}</p>${links}</body></html>` });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('credentials in a start URL', () => {
  it('authorise the requests to their origin and are written nowhere; userinfo elsewhere is stripped, not sent', async () => {
    const other = await serve({ '/landing.html': page('Landing elsewhere') });
    const otherHost = new URL(other.url).host;
    const site = await serve({
      '/': page('Home', `<a href="/a.html">a</a> <a href="/to-other">away</a> <a href="http://intruder:pw@${otherHost}/landing.html?from=link">link with userinfo</a>`),
      '/a.html': page('Page A'),
      '/to-other': { body: '', status: 302, headers: { location: `http://evil:pw@${otherHost}/landing.html` } },
    });
    const storageDir = mkdtempSync(path.join(tmpdir(), 'gleaner-credentials-'));
    const lines: string[] = [];
    const log: Logger = { debug: (m) => void lines.push(m), info: (m) => void lines.push(m), warning: (m) => void lines.push(m), error: (m) => void lines.push(m) };
    try {
      const start = `http://crawler:${SECRET}@${new URL(site.url).host}/`;
      const summary = await runSpider({ name: 'creds', startUrls: [start], allowedDomains: ['127.0.0.1'], allowPrivateAddresses: true, crawler: { robotsTxt: false } }, { storageDir, log, threads: 0 });
      expect(summary.finished).toBe(true);
      // every request to the site carried the credentials
      const basic = `Basic ${Buffer.from(`crawler:${SECRET}`).toString('base64')}`;
      expect(site.requests.length).toBeGreaterThanOrEqual(3);
      for (const h of site.headers) expect(h.authorization, String(h[':path'])).toBe(basic);
      // the other origin got requests (the redirect, the link), never an authorization
      expect(other.requests.length).toBeGreaterThan(0);
      for (const h of other.headers) expect(h.authorization).toBeUndefined();
      // the secret is nowhere: storage files, log lines, the summary
      for (const f of filesUnder(storageDir)) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET);
      expect(lines.join('\n')).not.toContain(SECRET);
      expect(JSON.stringify(summary)).not.toContain(SECRET);
      expect(lines.join('\n')).not.toContain('evil:pw');
      expect(lines.join('\n')).not.toContain('intruder:pw');
    } finally {
      await site.close();
      await other.close();
    }
  }, 60_000);

  it('redactUrl shows the user, never the password', () => {
    expect(redactUrl('http://user:pw@host/x')).toBe('http://user:***@host/x');
    expect(redactUrl('https://user@host/')).toBe('https://user:***@host/');
    expect(redactUrl('http://host/a@b')).toBe('http://host/a@b');
  });
});
