/**
 * `gleaner extract --render page.html` (issue 28, item 3): saved pages rendered in Debian's
 * chromium (Playwright, the crawl's render mode flags) with their own stylesheets and scripts, then
 * measured by the layout box script, so the `layout` stage reads the regions of a saved page as it
 * does in a render crawl.
 *
 * The page is loaded at its URL (`--url`, else the local one `gleaner extract` gives a file), and
 * every request the browser makes is answered from the page's own folder: a request on the page's
 * origin whose path lies under the page's directory gets the file at the same relative path;
 * anything else (other origins, other folders, data the page would fetch from the network) is
 * refused. Nothing leaves the machine.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BOX_SCRIPT } from '../core/layout.js';
import { decodeBody } from '../core/decode.js';
import { UsageError } from '../cli/errors.js';

/** Chromium flags of the crawl's render mode (src/crawler/run/crawlee-crawler.ts). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Time a page gets to load, then to settle its scripts. */
const LOAD_TIMEOUT_MS = 30_000;
const SETTLE_MS = 3_000;

const chromiumPath = () => process.env.GLEANER_CHROMIUM || '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.css': 'text/css', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.ico': 'image/x-icon',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.html': 'text/html', '.htm': 'text/html', '.xml': 'application/xml',
};

export interface RenderInput {
  /** The saved page's file (its folder serves the page's resources); undefined for standard input. */
  file?: string;
  url: string;
  body: Buffer;
}

/** The file a request maps to: same origin as the page, under the page's directory, inside `dir`. */
export function localFile(requestUrl: string, pageUrl: string, dir: string): string | undefined {
  let r: URL, p: URL;
  try {
    r = new URL(requestUrl);
    p = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (r.origin !== p.origin) return undefined;
  const base = p.pathname.slice(0, p.pathname.lastIndexOf('/') + 1);
  let rel: string;
  try {
    rel = decodeURIComponent(r.pathname);
  } catch {
    return undefined;
  }
  if (!rel.startsWith(decodeURIComponent(base))) return undefined;
  const file = path.resolve(dir, '.' + path.sep + rel.slice(decodeURIComponent(base).length));
  if (file !== dir && !file.startsWith(dir + path.sep)) return undefined;
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

/** Render saved pages; the serialised DOMs (with their layout boxes), in order. */
export async function renderPages(inputs: RenderInput[]): Promise<string[]> {
  try {
    createRequire(import.meta.url).resolve('playwright');
  } catch {
    throw new UsageError('--render needs playwright, an optional peer dependency of gleaner: npm install playwright (the browser is Debian\'s chromium: apt-get install -y chromium)');
  }
  if (!existsSync(chromiumPath())) throw new UsageError(`--render: chromium not found at ${chromiumPath()} (install Debian's chromium: apt-get install -y chromium, or set GLEANER_CHROMIUM)`);
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const out: string[] = [];
    for (const input of inputs) out.push(await renderOne(browser, input));
    return out;
  } finally {
    await browser.close();
  }
}

async function renderOne(browser: import('playwright').Browser, input: RenderInput): Promise<string> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const dir = input.file ? path.dirname(path.resolve(input.file)) : undefined;
    const pageUrl = input.url.split('#')[0]!;
    // decoded as the chain decodes it (header, BOM, <meta>, detection), served as UTF-8
    const html = decodeBody(input.body).text;
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.split('#')[0] === pageUrl && route.request().resourceType() === 'document') {
        await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
        return;
      }
      const file = dir ? localFile(url, pageUrl, dir) : undefined;
      if (!file) {
        await route.abort('blockedbyclient');
        return;
      }
      await route.fulfill({ status: 200, contentType: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', body: readFileSync(file) });
    });
    const page = await context.newPage();
    await page.goto(pageUrl, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => {});
    await page.evaluate(BOX_SCRIPT).catch(() => {});
    return await page.content();
  } catch (e) {
    throw new UsageError(`--render: ${input.file ?? 'standard input'}: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await context.close();
  }
}
