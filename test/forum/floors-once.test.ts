import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { Extractor } from '../../src/chain/extractor.js';
import { describeLayout } from '../../middleware/forum/layout.js';
import { extractForum, extractForumDebug, splitterRuns } from '../../middleware/forum/index.js';
import type { ForumItem } from '../../src/core/item.js';
import { threadPage } from './thread-site.js';

const BASE = 'http://127.0.0.1:9/t';
const FIXED = new Date('2024-04-01T00:00:00Z');

describe('the floors once per page (issue 29 item 3)', () => {
  it('runs the splitter once per page in a batch that learns the site layout, with the items of a run with the layout', async () => {
    const inputs = [1, 2, 3, 4].map((n) => ({ url: `${BASE}/thread-9-${n}.html`, body: threadPage(n, BASE), site: 'board.example' }));
    const ex = new Extractor({ kind: 'forum' });
    const before = splitterRuns();
    const items = (await ex.extractBatch(inputs)) as ForumItem[];
    const runs = splitterRuns() - before;
    await ex.close();
    // The learning pass reads each page once; the extraction, with the learned layout, reuses it
    // (the page alone chose floors of that layout). Was 2 per page.
    expect(runs).toBe(inputs.length);
    // What the splitter gives on fresh pages asked with the site's layout from the start.
    const layout = describeLayout(extractForumDebug(createPage({ url: inputs[0]!.url, body: inputs[0]!.body, fetchedAt: FIXED }))!.records)!;
    expect(layout).toBeDefined();
    items.forEach((it, i) => {
      const fresh = extractForum(createPage({ url: inputs[i]!.url, body: inputs[i]!.body, fetchedAt: FIXED }), { layouts: [layout] })!;
      expect(it.kind).toBe('forum');
      expect(it.posts).toEqual(fresh.posts);
      expect(it.title).toBe(fresh.title);
    });
  });

  it('runs it again where the page alone chose floors of another layout', () => {
    const page = createPage({ url: `${BASE}/thread-9-2.html`, body: threadPage(2, BASE), fetchedAt: FIXED });
    const before = splitterRuns();
    const plain = extractForumDebug(page)!;
    const other = extractForumDebug(page, { layouts: [{ key: 'article.message' }] });
    expect(splitterRuns() - before).toBe(2);
    expect(other!.posts).toEqual(plain.posts);
    // …and asked with the page's own layout, once more no run.
    const own = extractForumDebug(page, { layouts: [describeLayout(plain.records)!] });
    expect(splitterRuns() - before).toBe(2);
    expect(own).toBe(plain);
  });
});
