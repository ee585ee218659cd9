/**
 * Screenshots in Debian's chromium (Playwright, the optional peer that render mode uses):
 * `screenshotPage` renders a page's own HTML (its scripts run, as in render mode) and draws on it
 * (`gleaner inspect --screenshot`: the page with the report's boxes). Every request other than
 * the page's own file is aborted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Render mode's browser and flags (run/crawlee-crawler.ts: CHROMIUM_ARGS, chromiumPath), not
 * imported from there: that split the crawler's module into a package file of its own, and the
 * package has a file budget (test/package). */
const CHROMIUM = () => process.env.GLEANER_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

async function launch() {
  let playwright: typeof import('playwright');
  try {
    playwright = await import('playwright');
  } catch {
    throw new Error('--screenshot needs playwright, an optional peer dependency of gleaner: npm install playwright (the browser is Debian\'s chromium: apt-get install -y chromium)');
  }
  return playwright.chromium.launch({ executablePath: CHROMIUM(), args: ARGS, headless: true });
}

/** How long a page's own load may take (its other requests are refused: they end at once), and
 * how long its scripts get after it, before the boxes are drawn. */
const LOAD_TIMEOUT_MS = 15_000;
const SETTLE_MS = 500;
/** A long page is cut at this height (pixels). */
const MAX_HEIGHT = 4_000;

/**
 * Render `html` (decoded: written as UTF-8 with a byte order mark, which wins over the page's own
 * `<meta charset>`) from a temporary file, run `draw` (a function's source) with `arg` in it, and
 * shoot the page from its top, `MAX_HEIGHT` at most. Returns what `draw` returned.
 */
export async function screenshotPage<T>(html: string, out: string, draw: string, arg: unknown, o: { width?: number; height?: number } = {}): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-shot-'));
  const file = path.join(dir, 'page.html');
  writeFileSync(file, '\uFEFF' + html);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: o.width ?? 1280, height: o.height ?? 900 } });
    const own = pathToFileURL(file).href;
    await page.route('**/*', (route) => (route.request().url() === own ? route.continue() : route.abort()));
    // a page that navigates away (a script redirect) is refused like any request; its load is awaited up to the timeout
    await page.goto(own, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS }).catch(() => undefined);
    await page.waitForTimeout(SETTLE_MS);
    const result = (await page.evaluate(`(${draw})(${JSON.stringify(arg)})`)) as T;
    const height = Math.min(MAX_HEIGHT, Math.max(o.height ?? 900, (await page.evaluate('document.documentElement.scrollHeight')) as number));
    await page.setViewportSize({ width: o.width ?? 1280, height });
    await page.screenshot({ path: out, clip: { x: 0, y: 0, width: o.width ?? 1280, height } });
    return result;
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
