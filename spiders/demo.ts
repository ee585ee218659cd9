/**
 * The bundled demo spider: crawls the demo site that `npm run crawl` serves on 127.0.0.1
 * (its address arrives in GLEANER_DEMO_URL). Follow rules label the pages, so each reaches the
 * right extractor: news and blog articles → detail, list pages → list, threads → forum.
 */
import { defineSpider } from '../src/spider/config.js';

const site = process.env.GLEANER_DEMO_URL ?? 'http://127.0.0.1:8080';

export default defineSpider({
  name: 'demo',
  startUrls: [`${site}/news/`, `${site}/blog/`, `${site}/forum/`],
  // The demo site runs on loopback, which spiders may not reach by default.
  allowPrivateAddresses: true,
  maxPages: 500,
  follow: [
    { pattern: '**/news/**/art_*.html', label: 'detail' },
    { pattern: '**/news/{,list_*.html}', label: 'list' },
    { pattern: '**/blog/posts/*.html', label: 'detail' },
    { pattern: '**/blog/{,page/*/}', label: 'list' },
    { pattern: '**/forum/thread-*.html', label: 'forum' },
    { pattern: '**/forum/{,board-*.html}', label: 'list' },
  ],
  // Three sites share one host here: give each its own site key, so each learns its own template
  // (and the key survives the random port).
  siteKey: [
    { pattern: '**/news/**', key: 'demo-news' },
    { pattern: '**/blog/**', key: 'demo-blog' },
    { pattern: '**/forum/**', key: 'demo-forum' },
  ],
});
