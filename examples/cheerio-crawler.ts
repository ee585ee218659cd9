/**
 * Gleaner inside a plain CheerioCrawler: one `withGleaner(...)` around the crawler's options. Every
 * page is decoded from the response's own bytes (the demo's GBK news pages name their charset only
 * in `<meta>`, which CheerioCrawler would read as UTF-8), extracted without selectors, pushed to
 * the crawler's dataset, and its list items, next pages and thread pages are enqueued, labelled,
 * through the crawler's own `enqueueLinks`.
 *
 * The follow rules and site keys are the demo spider's (`spiders/demo.ts`): a spider config's
 * fields fit Gleaner's options as they are, so this crawl yields the items `npm run crawl` does
 * (test/e2e/crawlee.test.ts checks it).
 *
 * Run it: `npx tsx examples/cheerio-crawler.ts` (it serves the demo site on 127.0.0.1 itself).
 */
import { CheerioCrawler, Configuration, MemoryStorage } from 'crawlee';
import { createGleaner, type Item } from 'gleaner/crawlee';
import { startDemoServer } from 'gleaner';
import demo from '../spiders/demo.js';

export async function crawlWithCheerio(siteUrl: string, options: { maxRequestsPerCrawl?: number; maxConcurrency?: number } = {}) {
  const gleaner = createGleaner({ name: demo.name, follow: demo.follow, siteKey: demo.siteKey });
  const crawler = new CheerioCrawler(
    gleaner.crawlerOptions({ maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 500, maxConcurrency: options.maxConcurrency }),
    // In-memory storage: the example leaves nothing behind.
    new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
  );
  await crawler.run(['news/', 'blog/', 'forum/'].map((p) => `${siteUrl}/${p}`));
  await gleaner.close();
  const { items } = await crawler.getData();
  return { items: items as Item[], stats: gleaner.stats };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const site = await startDemoServer();
  try {
    const { items, stats } = await crawlWithCheerio(site.url);
    for (const it of items) console.log(JSON.stringify({ url: it.url, kind: it.kind, title: it.title, ...(it.kind === 'article' ? { author: it.author, publishedAt: it.publishedAt } : {}) }));
    console.error(`${stats.pages} pages, items by kind ${JSON.stringify(stats.itemsByKind)}, decoded from bytes ${stats.decodedFrom.bytes}`);
  } finally {
    await site.close();
  }
}
