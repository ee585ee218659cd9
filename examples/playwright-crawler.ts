/**
 * Gleaner inside a plain PlaywrightCrawler: the browser renders the page (scripts included) and
 * Gleaner extracts the item from the rendered DOM — one `withGleaner(...)` around the crawler's
 * options, here typing every page as an article and following the blog's post links only.
 * Chromium is Debian's (`/usr/bin/chromium`, or `GLEANER_CHROMIUM`); playwright is an optional
 * peer of gleaner: `npm install playwright` in your project.
 *
 * Run it: `npx tsx examples/playwright-crawler.ts` (it serves the demo site on 127.0.0.1 itself).
 */
import { Configuration, MemoryStorage, PlaywrightCrawler } from 'crawlee';
import { chromium } from 'playwright';
import { withGleaner, type Item } from 'gleaner/crawlee';
import { startDemoServer } from 'gleaner';

export async function crawlWithPlaywright(startUrl: string, maxRequestsPerCrawl = 10): Promise<Item[]> {
  const crawler = new PlaywrightCrawler(
    withGleaner(
      {
        maxRequestsPerCrawl,
        maxConcurrency: 2,
        launchContext: {
          launcher: chromium,
          launchOptions: { executablePath: process.env.GLEANER_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], headless: true },
        },
      },
      {
        // The index is a list page; the posts it links are articles. Other links are not followed.
        follow: [
          { pattern: '**/blog/posts/*.html', label: 'detail' },
          { pattern: '**/blog/', label: 'list' },
        ],
      },
    ),
    new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
  );
  await crawler.run([startUrl]);
  const { items } = await crawler.getData();
  return (items as Item[]).filter((i) => i.kind === 'article');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const site = await startDemoServer();
  try {
    for (const it of await crawlWithPlaywright(`${site.url}/blog/`)) console.log(JSON.stringify({ url: it.url, title: it.title, ...(it.kind === 'article' ? { author: it.author, publishedAt: it.publishedAt } : {}) }));
  } finally {
    await site.close();
  }
}
