/**
 * The demo site `npm run crawl` serves on 127.0.0.1: a Chinese news site in GBK (lists with
 * pagination, articles with 作者/编辑/date/来源, chrome that varies a little between pages; some
 * pages declare their charset only in `<meta>`, one nowhere), an English blog (index + posts with
 * JSON-LD) and a forum (boards + multi-page threads with floors, author links, dates, signatures).
 * Generated from templates in code, deterministic.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { createHash } from 'node:crypto';
import { enPost, forumThread, zhArticle, rng, pick, FLOORS_PER_PAGE, type ZhArticle } from './text.js';

/** Site size: small enough to crawl in seconds, big enough for templates and pagination. */
export const NEWS_PAGES = 3;
export const NEWS_PER_PAGE = 8;
export const BLOG_POSTS = 8;
export const BLOG_PER_PAGE = 5;
export const BOARDS = 2;
export const THREADS_PER_BOARD = 3;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// ---------------------------------------------------------------- news (GBK) -----------------
const NEWS_CHANNELS = ['首页', '本地', '国内', '财经', '科技', '文体', '健康', '图片'];
const ADS = ['夏季家电焕新补贴，点击了解', '驾校暑期班火热报名中', '本地楼盘特惠，首付低至两成', '健康体检套餐限时优惠', '少儿编程体验课免费预约'];

function newsChrome(seed: number, title: string, body: string, charsetInMeta: 'meta' | 'http-equiv' | 'none'): string {
  const r = rng(seed);
  const metaCharset = charsetInMeta === 'meta' ? '<meta charset="gbk">' : charsetInMeta === 'http-equiv' ? '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">' : '';
  const hot = Array.from({ length: 5 }, (_, i) => zhArticle((seed * 7 + i * 3) % (NEWS_PAGES * NEWS_PER_PAGE)));
  const weather = pick(r, ['晴 18~27℃', '多云 16~24℃', '小雨 15~21℃']);
  return `<!DOCTYPE html>
<html lang="zh-CN"><head>${metaCharset}<title>${esc(title)} - 城市新闻网</title>
<meta name="keywords" content="城市新闻,本地新闻"><link rel="stylesheet" href="/static/news.css"></head>
<body>
<div class="top-bar"><span>今天是2024年5月${1 + (seed % 28)}日</span> <span class="weather">${weather}</span> <a href="/news/login.html">登录</a> | <a href="/news/register.html">注册</a></div>
<div class="header"><a href="/news/" class="logo">城市新闻网</a><form class="search"><input name="q"><button>搜索</button></form></div>
<ul class="nav">${NEWS_CHANNELS.map((c, i) => `<li><a href="${i === 0 ? '/news/' : `/news/list_${1 + (i % NEWS_PAGES)}.html`}">${c}</a></li>`).join('')}</ul>
<div class="ad-banner"><a href="/ads/${seed % ADS.length}">${ADS[seed % ADS.length]}</a></div>
<div class="wrap">
<div class="main">${body}</div>
<div class="sidebar">
<div class="box"><h3>热点排行</h3><ol>${hot.map((a) => `<li><a href="${newsUrl(a.id)}">${esc(a.title)}</a></li>`).join('')}</ol></div>
<div class="box ad"><a href="/ads/${(seed + 2) % ADS.length}">${ADS[(seed + 2) % ADS.length]}</a></div>
</div></div>
<div class="footer"><p><a href="/news/about.html">关于我们</a> | <a href="/news/contact.html">联系方式</a> | <a href="/news/jobs.html">招聘信息</a></p>
<p>城市新闻网 版权所有 未经授权禁止转载 备案号：示例ICP备00000000号</p></div>
</body></html>`;
}

export function newsUrl(id: number): string {
  return `/news/2024/05/art_${1000 + id}.html`;
}

/** News ids in list order: the articles added later (`DemoServer.addArticles`) first, newest on
 * top, then the bundled ones; pages of NEWS_PER_PAGE. */
function newsOrder(state: DemoState): number[] {
  const added = Array.from({ length: state.addedArticles }, (_, i) => NEWS_PAGES * NEWS_PER_PAGE + state.addedArticles - 1 - i);
  return [...added, ...Array.from({ length: NEWS_PAGES * NEWS_PER_PAGE }, (_, i) => i)];
}

const newsPageCount = (state: DemoState) => Math.ceil(newsOrder(state).length / NEWS_PER_PAGE);

function newsList(page: number, state: DemoState): string {
  const start = (page - 1) * NEWS_PER_PAGE;
  const items = newsOrder(state).slice(start, start + NEWS_PER_PAGE).map((id) => zhArticle(id));
  const pages = newsPageCount(state);
  const pager = Array.from({ length: pages }, (_, i) => (i + 1 === page ? `<span class="cur">${i + 1}</span>` : `<a href="${i === 0 ? '/news/' : `/news/list_${i + 1}.html`}">${i + 1}</a>`)).join(' ');
  const next = page < pages ? ` <a href="/news/list_${page + 1}.html" class="next">下一页</a>` : '';
  const body = `<h2 class="channel">本地新闻</h2>
<ul class="news-list">${items.map((a) => `<li><a href="${newsUrl(a.id)}">${esc(a.title)}</a><span class="date">${a.dateText.split(' ')[0]}</span></li>`).join('\n')}</ul>
<div class="pager">${pager}${next}</div>`;
  return newsChrome(page * 31, `本地新闻 第${page}页`, body, 'meta');
}

function newsArticle(a: ZhArticle): string {
  const body = `<div class="crumb"><a href="/news/">首页</a> &gt; <a href="/news/list_1.html">本地</a> &gt; 正文</div>
<div class="article"><h1>${esc(a.title)}</h1>
<div class="info"><span>${a.dateText}</span> <span>来源：${a.source}</span> <span>作者：${a.author}</span></div>
<div class="content">${a.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}</div>
<div class="editor">（责任编辑：${a.editor}）</div>
<div class="share">分享到：<a href="#">微博</a> <a href="#">微信</a></div></div>
<div class="related"><h3>相关新闻</h3><ul>${[1, 2, 3].map((k) => {
    const o = zhArticle((a.id + k * 5) % (NEWS_PAGES * NEWS_PER_PAGE));
    return `<li><a href="${newsUrl(o.id)}">${esc(o.title)}</a></li>`;
  }).join('')}</ul></div>`;
  // Most articles declare GBK in <meta>; every fifth only through the legacy http-equiv gb2312
  // form; article 7 declares nothing at all (charset detection's job).
  const mode = a.id === 7 ? 'none' : a.id % 5 === 0 ? 'http-equiv' : 'meta';
  return newsChrome(a.id + 100, a.title, body, mode);
}

// ---------------------------------------------------------------- blog (UTF-8) ---------------
function blogChrome(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} | Small Hours</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${head}</head>
<body><header class="site-header"><a class="brand" href="/blog/">Small Hours</a>
<nav><a href="/blog/">Home</a> <a href="/blog/about.html">About</a> <a href="/blog/archive.html">Archive</a></nav></header>
<main>${body}</main>
<aside class="widget"><h4>Newsletter</h4><p>One email a month, no spam.</p><form><input type="email"><button>Subscribe</button></form></aside>
<footer><p>&copy; 2023 Small Hours. Written by people, served by a tiny server.</p></footer></body></html>`;
}

function blogIndex(page: number): string {
  const start = (page - 1) * BLOG_PER_PAGE;
  const posts = Array.from({ length: Math.min(BLOG_PER_PAGE, BLOG_POSTS - start) }, (_, i) => enPost(start + i));
  const pages = Math.ceil(BLOG_POSTS / BLOG_PER_PAGE);
  const body = `<h1>Latest posts</h1>
${posts.map((p) => `<article class="summary"><h2><a href="/blog/posts/${p.slug}.html">${esc(p.title)}</a></h2><time datetime="${p.iso}">${p.dateText}</time><p>${esc(p.paragraphs[0]!.slice(0, 140))}…</p></article>`).join('\n')}
<nav class="pagination">${page > 1 ? `<a href="${page === 2 ? '/blog/' : `/blog/page/${page - 1}/`}" rel="prev">Newer</a>` : ''} ${page < pages ? `<a href="/blog/page/${page + 1}/" rel="next">Older posts</a>` : ''}</nav>`;
  return blogChrome(page === 1 ? 'Latest posts' : `Posts, page ${page}`, body);
}

function blogPost(i: number): string {
  const p = enPost(i);
  const ld = { '@context': 'https://schema.org', '@type': 'BlogPosting', headline: p.title, datePublished: p.iso, author: { '@type': 'Person', name: p.author }, keywords: p.tags.join(', ') };
  const body = `<article class="post"><h1>${esc(p.title)}</h1>
<p class="byline">By <a href="/blog/about.html" rel="author">${esc(p.author)}</a> · <time datetime="${p.iso}">${p.dateText}</time></p>
${p.paragraphs.map((x) => `<p>${esc(x)}</p>`).join('\n')}
<p class="tags">Tagged: ${p.tags.map((t) => `<a href="/blog/archive.html#${encodeURIComponent(t)}">${esc(t)}</a>`).join(', ')}</p></article>
<nav class="post-nav">${i > 0 ? `<a href="/blog/posts/${enPost(i - 1).slug}.html">← ${esc(enPost(i - 1).title)}</a>` : ''} ${i + 1 < BLOG_POSTS ? `<a href="/blog/posts/${enPost(i + 1).slug}.html">${esc(enPost(i + 1).title)} →</a>` : ''}</nav>`;
  return blogChrome(p.title, body, `<meta property="og:title" content="${esc(p.title)}"><script type="application/ld+json">${JSON.stringify(ld)}</script>`);
}

// ---------------------------------------------------------------- forum (UTF-8) --------------
function forumChrome(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(title)} - 邻里论坛</title></head>
<body><div id="hd"><a href="/forum/" class="logo">邻里论坛</a> <a href="/forum/search.html">搜索</a> <a href="/forum/login.html">登录</a></div>
<div id="wp">${body}</div>
<div id="ft">Powered by 示例论坛程序 · 邻里论坛 · <a href="/forum/rules.html">版规</a></div></body></html>`;
}

const threadId = (board: number, k: number) => board * 100 + k;
const threadUrl = (id: number, page: number) => `/forum/thread-${id}-${page}-1.html`;

/** A thread with the replies added later (`DemoServer.addReplies`) appended to its last page. */
function threadOf(id: number, state: DemoState): ReturnType<typeof forumThread> {
  const t = forumThread(id);
  const added = state.addedReplies.get(id) ?? 0;
  if (!added) return t;
  const floors = t.pages.flat();
  for (let k = 0; k < added; k++) {
    const n = floors.length + 1;
    const user = ['晚风', '小区老住户', '路过的猫'][(id + k) % 3]!;
    // Shown relative to the visit, as forums do for fresh posts: resolved against the fetch time.
    floors.push({ floor: n, user, userId: 190 + ((id + k) % 3), dateText: `${5 + k * 7}分钟前`, content: `补充一下：楼上说的办法我试过了，第${k + 1}次回复，效果还不错，谢谢大家的建议。` });
  }
  const pages: typeof t.pages = [];
  for (let i = 0; i < floors.length; i += FLOORS_PER_PAGE) pages.push(floors.slice(i, i + FLOORS_PER_PAGE));
  return { ...t, pages };
}

function forumIndex(state: DemoState): string {
  // Discuz!-style board index: each board with its description, counts and its threads' latest
  // posts, as a real forum home page shows them.
  const descriptions = ['装修、收纳、家电和日常生活中的各种经验交流', '自驾、徒步、露营和城市周边游的攻略与游记分享'];
  const body = `<table class="boards">${Array.from({ length: BOARDS }, (_, b) => {
    const latest = Array.from({ length: THREADS_PER_BOARD }, (_, k) => {
      const t = threadOf(threadId(b + 1, k), state); // boards are numbered from 1, as in their URLs
      const last = t.pages.at(-1)!.at(-1)!;
      return `<li><a href="${threadUrl(t.id, 1)}">${esc(t.title)}</a> <span class="by">${esc(last.user)}</span> <em>${last.dateText}</em></li>`;
    }).join('');
    return `<tr><td><h2><a href="/forum/board-${b + 1}.html">${['家居生活', '户外出行'][b] ?? `版块${b + 1}`}</a></h2><p class="desc">${descriptions[b] ?? ''}</p></td><td>主题 ${THREADS_PER_BOARD}</td><td><ul class="latest">${latest}</ul></td></tr>`;
  }).join('')}</table>`;
  return forumChrome('首页', body);
}

function forumBoard(b: number, state: DemoState): string {
  const rows = Array.from({ length: THREADS_PER_BOARD }, (_, k) => {
    const t = threadOf(threadId(b, k), state);
    const first = t.pages[0]![0]!;
    return `<tr><th><a href="${threadUrl(t.id, 1)}" class="xst">${esc(t.title)}</a></th><td class="by"><a href="/forum/space-uid-${first.userId}.html">${esc(first.user)}</a><em>${first.dateText.split(' ')[0]}</em></td><td class="num">${t.pages.flat().length - 1}</td></tr>`;
  }).join('\n');
  return forumChrome(`版块 ${b}`, `<div class="crumb"><a href="/forum/">邻里论坛</a> › 版块 ${b}</div><table id="threadlist">${rows}</table>`);
}

function forumThreadPage(id: number, page: number, state: DemoState): string | undefined {
  const t = threadOf(id, state);
  const floors = t.pages[page - 1];
  if (!floors) return undefined;
  const pager = t.pages.length > 1 ? `<div class="pg">${t.pages.map((_, i) => (i + 1 === page ? `<strong>${i + 1}</strong>` : `<a href="${threadUrl(id, i + 1)}">${i + 1}</a>`)).join('')}${page < t.pages.length ? `<a href="${threadUrl(id, page + 1)}" class="nxt">下一页</a>` : ''}</div>` : '';
  const posts = floors.map((f) => `<table class="plhin" id="pid${id * 1000 + f.floor}"><tr>
<td class="pls"><div class="authi"><a href="/forum/space-uid-${f.userId}.html" class="xw1">${esc(f.user)}</a></div><div class="avatar"><img src="/forum/avatar/${f.userId}.png" alt=""></div><dl><dt>积分</dt><dd>${(f.userId * 37) % 900}</dd></dl></td>
<td class="plc"><div class="pi"><strong><a href="#pid${id * 1000 + f.floor}"><em>${f.floor}</em>${f.floor === 1 ? '楼主' : '#'}</a></strong><div class="authi">发表于 <span>${f.dateText}</span></div></div>
<div class="t_fsz"><div class="t_f">${esc(f.content)}</div></div>${f.signature ? `<div class="sign">${esc(f.signature)}</div>` : ''}
<div class="po"><a href="/forum/reply.html">回复</a> <a href="/forum/report.html">举报</a></div></td></tr></table>`).join('\n');
  return forumChrome(t.title, `<div class="crumb"><a href="/forum/">邻里论坛</a> › <a href="/forum/board-${Math.floor(id / 100)}.html">版块</a> › ${esc(t.title)}</div>
<h1 class="ts">${esc(t.title)}</h1>${pager}<div id="postlist">${posts}</div>${pager}`);
}

// ---------------------------------------------------------------- routing -------------------
interface Response {
  status: number;
  body: Buffer;
  type: string;
}

function gbk(html: string, header: boolean): Response {
  return { status: 200, body: iconv.encode(html, 'gbk'), type: header ? 'text/html; charset=GBK' : 'text/html' };
}
const utf8 = (html: string): Response => ({ status: 200, body: Buffer.from(html, 'utf8'), type: 'text/html; charset=utf-8' });

/** What was added to the site after it started (tests of incremental recrawls). */
export interface DemoState {
  addedArticles: number;
  /** Thread id → replies added to it. */
  addedReplies: Map<number, number>;
}

const FIXED: DemoState = { addedArticles: 0, addedReplies: new Map() };

export function route(pathname: string, state: DemoState = FIXED): Response | undefined {
  if (pathname === '/') return utf8(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Gleaner demo</title></head><body><h1>Gleaner demo site</h1><ul><li><a href="/news/">城市新闻网 (GBK news)</a></li><li><a href="/blog/">Small Hours (blog)</a></li><li><a href="/forum/">邻里论坛 (forum)</a></li></ul></body></html>`);
  if (pathname === '/robots.txt') return { status: 200, body: Buffer.from('User-agent: *\nDisallow: /ads/\nDisallow: /forum/space-uid-\n'), type: 'text/plain' };
  let m: RegExpExecArray | null;
  // List pages send no charset header: the <meta> must do it.
  if (pathname === '/news/' || pathname === '/news/index.html') return gbk(newsList(1, state), false);
  if ((m = /^\/news\/list_(\d+)\.html$/.exec(pathname))) {
    const n = Number(m[1]);
    return n >= 1 && n <= newsPageCount(state) ? gbk(newsList(n, state), false) : undefined;
  }
  if ((m = /^\/news\/2024\/05\/art_(\d+)\.html$/.exec(pathname))) {
    const id = Number(m[1]) - 1000;
    if (id < 0 || id >= NEWS_PAGES * NEWS_PER_PAGE + state.addedArticles) return undefined;
    // Odd articles get the charset in the header too; even ones only in the page (or nowhere).
    return gbk(newsArticle(zhArticle(id)), id % 2 === 1);
  }
  if (/^\/news\/(about|contact|jobs|login|register)\.html$/.test(pathname)) return gbk(newsChrome(3, '关于我们', '<h2>关于我们</h2><p>城市新闻网是一个演示用的新闻网站。</p>', 'meta'), false);
  if (pathname === '/blog/') return utf8(blogIndex(1));
  if ((m = /^\/blog\/page\/(\d+)\/$/.exec(pathname))) {
    const n = Number(m[1]);
    return n >= 2 && n <= Math.ceil(BLOG_POSTS / BLOG_PER_PAGE) ? utf8(blogIndex(n)) : undefined;
  }
  if ((m = /^\/blog\/posts\/(.+)\.html$/.exec(pathname))) {
    for (let i = 0; i < BLOG_POSTS; i++) if (enPost(i).slug === m[1]) return utf8(blogPost(i));
    return undefined;
  }
  if (/^\/blog\/(about|archive)\.html$/.test(pathname)) return utf8(blogChrome('About', '<h1>About</h1><p>A small blog about slow hobbies.</p>'));
  if (pathname === '/forum/') return utf8(forumIndex(state));
  if ((m = /^\/forum\/board-(\d+)\.html$/.exec(pathname))) {
    const b = Number(m[1]);
    return b >= 1 && b <= BOARDS ? utf8(forumBoard(b, state)) : undefined;
  }
  if ((m = /^\/forum\/thread-(\d+)-(\d+)-1\.html$/.exec(pathname))) {
    const id = Number(m[1]);
    const b = Math.floor(id / 100);
    if (b < 1 || b > BOARDS || id % 100 >= THREADS_PER_BOARD) return undefined;
    const html = forumThreadPage(id, Number(m[2]), state);
    return html ? utf8(html) : undefined;
  }
  if (/^\/forum\/(search|login|rules|reply|report)\.html$/.test(pathname)) return utf8(forumChrome('页面', '<p>演示页面</p>'));
  return undefined;
}

export interface DemoServer {
  url: string;
  close(): Promise<void>;
  /** Every request as it arrived: path, status sent (304 for a conditional hit). For tests. */
  readonly log: Array<{ path: string; status: number }>;
  /** Publish `n` new news articles (listed first on /news/, pagination shifts). Returns their URLs. */
  addArticles(n: number): string[];
  /** Add one reply to each of `n` threads whose last page has room. Returns the changed pages' URLs. */
  addReplies(n: number): string[];
}

/** Serve the demo site on 127.0.0.1 (port 0: a free one). Every page carries an ETag (a hash of
 * its bytes) and answers a matching If-None-Match with 304, as static servers and CDNs do. */
export async function startDemoServer(port = 0): Promise<DemoServer> {
  const state: DemoState = { addedArticles: 0, addedReplies: new Map() };
  const log: DemoServer['log'] = [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const r = route(pathname, state);
    if (!r) {
      log.push({ path: pathname, status: 404 });
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>404</h1></body></html>');
      return;
    }
    const etag = `"${createHash('sha1').update(r.body).digest('base64url').slice(0, 16)}"`;
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      log.push({ path: pathname, status: 304 });
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    log.push({ path: pathname, status: r.status });
    res.writeHead(r.status, { 'content-type': r.type, 'content-length': r.body.length, etag });
    res.end(r.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: p } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${p}`;
  return {
    url: base,
    log,
    addArticles(n) {
      const first = NEWS_PAGES * NEWS_PER_PAGE + state.addedArticles;
      state.addedArticles += n;
      return Array.from({ length: n }, (_, i) => base + newsUrl(first + i));
    },
    addReplies(n) {
      const changed: string[] = [];
      for (let b = 1; b <= BOARDS && changed.length < n; b++) {
        for (let k = 0; k < THREADS_PER_BOARD && changed.length < n; k++) {
          const id = threadId(b, k);
          const t = threadOf(id, state);
          if (t.pages.at(-1)!.length >= FLOORS_PER_PAGE) continue; // a reply would open a new page
          state.addedReplies.set(id, (state.addedReplies.get(id) ?? 0) + 1);
          changed.push(base + threadUrl(id, t.pages.length));
        }
      }
      return changed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// `tsx src/demo/server.ts [port]`: serve the demo site alone.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const s = await startDemoServer(Number(process.argv[2] ?? 0));
  process.stdout.write(`demo site at ${s.url}/\n`);
}
