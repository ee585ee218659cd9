/**
 * A screenshot of a local HTML file in Debian's chromium (Playwright, the optional peer that render
 * mode uses): `gleaner inspect --screenshot` shoots its report, page and boxes. Every request the
 * page makes other than the file itself is aborted (the report loads nothing; this makes sure).
 */
import { pathToFileURL } from 'node:url';

/** Render mode's browser and flags (run/crawlee-crawler.ts: CHROMIUM_ARGS, chromiumPath), not
 * imported from there: that split the crawler's module into a package file of its own, and the
 * package has a file budget (test/package). */
const CHROMIUM = () => process.env.GLEANER_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function screenshotFile(file: string, out: string, o: { width?: number; height?: number; readySelector?: string } = {}): Promise<void> {
  let playwright: typeof import('playwright');
  try {
    playwright = await import('playwright');
  } catch {
    throw new Error('--screenshot needs playwright, an optional peer dependency of gleaner: npm install playwright (the browser is Debian\'s chromium: apt-get install -y chromium)');
  }
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM(), args: ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: o.width ?? 1440, height: o.height ?? 900 } });
    const own = pathToFileURL(file).href;
    await page.route('**/*', (route) => (route.request().url() === own ? route.continue() : route.abort()));
    await page.goto(own);
    if (o.readySelector) await page.waitForSelector(o.readySelector, { timeout: 15_000 });
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
}
