/**
 * Gleaner inside an existing Crawlee project: a plain CheerioCrawler whose request handler hands
 * the response to Gleaner's extractor (no selectors), and keeps crawling with its own
 * `enqueueLinks`. Run it: `npx tsx examples/cheerio-crawler.ts` (it serves the demo site itself).
 */
import { CheerioCrawler, Configuration, MemoryStorage } from 'crawlee';
import { Extractor, startDemoServer, type Item } from 'gleaner';

export async function crawlWithCheerio(startUrl: string, maxRequests = 30): Promise<Item[]> {
  // One extractor per page kind for the whole crawl (each learns the site's template as pages
  // arrive); unlabelled pages go to the page-type classifier ('auto').
  const extractors = {
    auto: new Extractor({ kind: 'auto' }),
    // A forced kind types the page before any middleware runs (the classifier is not consulted).
    article: new Extractor({ kind: 'article' }),
    list: new Extractor({ kind: 'list' }),
  };
  const items: Item[] = [];
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: maxRequests,
      async requestHandler({ request, body, response, enqueueLinks, sendRequest }) {
        const contentType = response.headers['content-type'];
        // CheerioCrawler hands over text it decoded as UTF-8 when the Content-Type names no charset,
        // which garbles GBK/Big5/Shift_JIS pages that declare theirs only in <meta>. For those,
        // fetch the raw bytes and let Gleaner decode them (header, BOM, <meta>, detection).
        let raw: Uint8Array | string = typeof body === 'string' ? body : new Uint8Array(body);
        if (typeof body === 'string' && !/charset=/i.test(String(contentType ?? '')) && body.includes('\uFFFD')) {
          raw = new Uint8Array((await sendRequest({ responseType: 'buffer' })).rawBody);
        }
        const extractor = extractors[(request.label as keyof typeof extractors | undefined) ?? 'auto'] ?? extractors.auto;
        const item = await extractor.extract({ url: request.loadedUrl ?? request.url, body: raw, contentType });
        items.push(item);
        // Crawlee's own link following, labelled by URL pattern as usual.
        await enqueueLinks({ globs: ['**/art_*.html'], label: 'article' });
        await enqueueLinks({ globs: ['**/list_*.html'], label: 'list' });
      },
    },
    // In-memory storage: the example leaves nothing behind.
    new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
  );
  await crawler.run([{ url: startUrl, label: 'list' }]);
  for (const e of Object.values(extractors)) await e.close();
  return items;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const demo = await startDemoServer();
  try {
    const items = await crawlWithCheerio(`${demo.url}/news/`);
    for (const it of items) console.log(JSON.stringify({ url: it.url, kind: it.kind, title: it.title, author: it.author, publishedAt: it.publishedAt }));
  } finally {
    await demo.close();
  }
}
