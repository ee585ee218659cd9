/**
 * Gleaner inside a plain PlaywrightCrawler: the browser renders the page (scripts included), and
 * Gleaner extracts the item from the rendered HTML. Chromium is Debian's (`/usr/bin/chromium`, or
 * `GLEANER_CHROMIUM`). Run it: `npx tsx examples/playwright-crawler.ts` (it serves the demo site).
 */
import { Configuration, MemoryStorage, PlaywrightCrawler } from 'crawlee';
import { chromium } from 'playwright';
import { Extractor, startDemoServer, type Item } from 'gleaner';

export async function crawlWithPlaywright(startUrl: string, maxRequests = 10): Promise<Item[]> {
  const articles = new Extractor({ kind: 'article' });
  const items: Item[] = [];
  const crawler = new PlaywrightCrawler(
    {
      maxRequestsPerCrawl: maxRequests,
      maxConcurrency: 2,
      launchContext: {
        launcher: chromium,
        launchOptions: {
          executablePath: process.env.GLEANER_CHROMIUM || '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
          headless: true,
        },
      },
      async requestHandler({ request, page, enqueueLinks }) {
        if (request.label === 'post') {
          // The rendered DOM as HTML: decoded already, so no charset guessing is needed.
          items.push(await articles.extract({ url: page.url(), body: await page.content() }));
          return;
        }
        await enqueueLinks({ globs: ['**/blog/posts/*.html'], label: 'post' });
      },
    },
    new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
  );
  await crawler.run([startUrl]);
  await articles.close();
  return items;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const demo = await startDemoServer();
  try {
    for (const it of await crawlWithPlaywright(`${demo.url}/blog/`)) console.log(JSON.stringify({ url: it.url, title: it.title, author: it.author, publishedAt: it.publishedAt }));
  } finally {
    await demo.close();
  }
}
