/**
 * The whole generated sites of `../shared/data/sites-crawl` (per-URL truth), as the site-type
 * benches and the site-type model's training read them: the sites, each site's pages in the order a
 * breadth-first crawl from `/` meets them, and the leave-one-site-out model of each site.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Element } from 'domhandler';
import { createPage } from '../../src/core/page.js';
import { checkSiteTypeModel, type SiteTypeModel } from '../../middleware/classifier/site-rules.js';
import { dataPath } from './data.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Origin the pages are given (nothing is fetched: the bytes are read from disk). */
export const ORIGIN = 'http://127.0.0.1:8000';
/** The leave-one-site-out models (GLEANER_SITE_FOLDS names another folder: experiments). */
export const FOLDS_DIR = process.env.GLEANER_SITE_FOLDS || path.join(here, '..', 'site-type-folds');

export interface TruthPage {
  type: 'detail' | 'list' | 'other';
}

export function truthKeyOf(url: string, truth: Record<string, unknown>): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.origin !== ORIGIN) return undefined;
  const key = u.pathname.replace(/\/index\.html$/, '/');
  if (truth[key]) return key;
  if (truth[key + '/']) return key + '/';
  return undefined;
}

/** A site's truth keys in the order a breadth-first crawl from `/` meets them (links in page
 * order), with each page's bytes. With `jitter` (a window and a seed), each next page is drawn at
 * random among the first `window` queued ones: the order a concurrent crawl meets them in varies
 * like that (several requests in flight, answers in any order). */
export function crawlOrder(site: string, jitter?: { window: number; seed: number }): Array<{ key: string; body: Buffer; type: TruthPage['type'] }> {
  let x = jitter?.seed ?? 0;
  const rand = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  const root = dataPath('sites-crawl', site);
  const truth = (JSON.parse(readFileSync(path.join(root, 'truth.json'), 'utf8')) as { pages: Record<string, TruthPage> }).pages;
  const out: Array<{ key: string; body: Buffer; type: TruthPage['type'] }> = [];
  const seen = new Set(['/']);
  const queue = ['/'];
  while (queue.length) {
    const at = jitter ? Math.floor(rand() * Math.min(jitter.window, queue.length)) : 0;
    const key = queue.splice(at, 1)[0]!;
    const file = path.join(root, 'public', decodeURIComponent(key), key.endsWith('/') ? 'index.html' : '');
    if (!existsSync(file)) continue;
    const body = readFileSync(file);
    out.push({ key, body, type: truth[key]!.type });
    const page = createPage({ url: ORIGIN + key, body });
    for (const n of page.nodes) {
      if (!(n instanceof Element) || n.name !== 'a' || !n.attribs.href) continue;
      const abs = page.resolve(n.attribs.href);
      const k = abs ? truthKeyOf(abs, truth) : undefined;
      if (k && !seen.has(k)) {
        seen.add(k);
        queue.push(k);
      }
    }
  }
  return out;
}

export function sitesOf(): string[] {
  const base = dataPath('sites-crawl');
  if (!existsSync(base)) {
    console.error(`data set not found: ${base}\nSet GLEANER_DATA to the folder that holds sites-crawl/.`);
    process.exit(2);
  }
  return readdirSync(base).filter((d) => existsSync(path.join(base, d, 'truth.json'))).sort();
}

/** The fold model of a site (trained without it), checked; exits saying what to do when absent. */
export function foldModel(site: string): string {
  const file = path.join(FOLDS_DIR, `${site}.json`);
  if (!existsSync(file)) {
    console.error(`no leave-one-site-out model for ${site} (${file}): run npm run train:site-types`);
    process.exit(2);
  }
  try {
    checkSiteTypeModel(JSON.parse(readFileSync(file, 'utf8')) as SiteTypeModel, file);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  return file;
}
