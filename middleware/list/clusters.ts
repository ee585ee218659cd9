/**
 * Link clusters: runs of similar sibling elements ("records") that each hold a title-length link
 * (ALGORITHMS §6, after Gerapy's list extractor and MDR's data-region idea). Unlike Gerapy, whose
 * string similarity scores any two strings sharing a character as identical, the similarity here
 * is structural: each record is described by the set of tag paths from the record to its links,
 * and records are compared by the Jaccard index of those sets.
 *
 * Shared by the list extractor (the best cluster's links are the items) and the page-type
 * features (how many clusters, how much of the page they cover).
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/page/page.js';
import { collapse, textOf } from '../../src/page/page.js';
import { type DomIndex, domIndex, anchorsIn, subtreeText } from './dom.js';

/** Fewest records that make a list. ALGORITHMS §6 (Gerapy) asks for ≥ 5 siblings; real pages
 * (personal blogs, short category pages, SERP "top stories") show lists of 3–4, and the score
 * below grows with size, so short runs only win when nothing better exists. */
export const MIN_RECORDS = 3;
/** A record holding more links than this is a page section, not a list entry (a news teaser has
 * title, image, category, author, comments: well under 30). Also bounds the work per record. */
export const MAX_ANCHORS_PER_RECORD = 30;
/** Deepest tag path from record to title link considered (`div/div/h3/span/a` is 5). */
export const MAX_LINK_DEPTH = 7;
/** Title widths (Han/kana/hangul characters count 2, others 1): Gerapy's prior is a Gaussian
 * with mean 26 and σ 6 Chinese characters (≈ 52 width); English headlines run 30–90 characters.
 * Links narrower than TITLE_MIN_WIDTH are menu words ("Home", "More", "2"), wider than
 * TITLE_MAX_WIDTH are paragraphs with a link around them. */
export const TITLE_MIN_WIDTH = 10;
export const TITLE_GOOD_WIDTH = 24;
export const TITLE_MAX_WIDTH = 240;
/** Records whose link-path sets overlap less than this with the cluster's common set are not
 * the same kind of record (ALGORITHMS §6 asks ≥ 0.8 with Gerapy's string measure; set overlap of
 * link paths is coarser, and teaser lists mix records with and without an image link). */
export const MIN_RECORD_SIMILARITY = 0.34;

/** Containers whose tag or id/class says navigation, chrome or a secondary widget. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'menu']);
const CHROME_HINT =
  /(?:^|[-_\s])(?:nav|navbar|navigation|navi|menu|menus|menubar|topbar|footer|foot|ft|header|hd|masthead|sidebar|side|aside|sider|breadcrumbs?|crumbs?|widget|widgets|tags?|tagcloud|copyright|friend|friendlinks|links|share|social|login|account|toolbar|subnav|dropdown|lang|language|cookie|banner)(?:[-_\s]|$)/i;
/** Secondary lists next to the main one (trending, related …): a milder penalty. */
const SECONDARY_HINT = /(?:^|[-_\s])(?:related|popular|hot|trending|rank|ranking|top|most|recommend|recommended|also|more|latest|recent)(?:[-_\s]|$)/i;
/** Penalty factors for clusters inside chrome or secondary containers (measured on the list
 * benchmark: a main list outscores a site menu of 2–3× its size, not more). */
const CHROME_FACTOR = 0.25;
const SECONDARY_FACTOR = 0.6;

/** Date-like text in a record: a list of dated entries is a list of articles. Cheap patterns
 * only (full date parsing is too slow for every record of every page). */
export const DATE_LIKE =
  /(?:\b(?:19|20)\d\d[-/.年](?:0?[1-9]|1[0-2])(?:[-/.月](?:0?[1-9]|[12]\d|3[01]))?|\b(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)?\d\d\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2}\.? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|januar|februar|märz|mai|juni|juli|okt|dez)[a-z]*\b|\d+ ?(?:分钟|小时|天)前|\b\d+ (?:minutes?|hours?|days?|weeks?) ago\b|\b\d{1,2}:\d\d\b)/i;

export interface ClusterEntry {
  url: string;
  title: string;
  /** DFS index of the link. */
  anchor: number;
  /** DFS index of its record. */
  record: number;
}

export interface LinkCluster {
  /** DFS index of the element whose children are the records. */
  container: number;
  /** Tag of the records. */
  recordTag: string;
  /** DFS indices of the records (with a title link). */
  records: number[];
  /** Tag path from record to title link, e.g. `h2/a`. */
  titlePath: string;
  entries: ClusterEntry[];
  /** Mean structural similarity of the records to the cluster's common link-path set. */
  similarity: number;
  /** Mean title width of the entries. */
  meanWidth: number;
  /** Share of records whose text carries a date. */
  datedShare: number;
  /** 1 for clusters in the page's chrome, SECONDARY_FACTOR / CHROME_FACTOR otherwise. */
  chromeFactor: number;
  /** Characters (non-space) inside the records. */
  chars: number;
  score: number;
}

/** Width of a text: CJK characters count double (they carry about two Latin letters each). */
export function textWidth(text: string): number {
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    w += c >= 0x2e80 && c <= 0xd7af ? 2 : c >= 0xf900 && c <= 0xfaff ? 2 : c >= 0xff00 && c <= 0xffef ? 2 : 1;
  }
  return w;
}

/** Title-length prior in [0, 1]: ramps from TITLE_MIN_WIDTH to TITLE_GOOD_WIDTH, flat to
 * TITLE_MAX_WIDTH, then decays (a long link text is a snippet, still a link). */
export function titleFit(width: number): number {
  if (width < TITLE_MIN_WIDTH) return 0.05 * (width / TITLE_MIN_WIDTH);
  if (width < TITLE_GOOD_WIDTH) return 0.05 + (0.95 * (width - TITLE_MIN_WIDTH)) / (TITLE_GOOD_WIDTH - TITLE_MIN_WIDTH);
  if (width <= TITLE_MAX_WIDTH) return 1;
  return Math.max(0.3, TITLE_MAX_WIDTH / width);
}

/** Text of a link: its text, else its title attribute, else the alt text of an image in it. */
export function anchorText(el: Element): string {
  const t = collapse(textOf(el));
  if (t) return t;
  const title = el.attribs.title?.trim();
  if (title) return collapse(title);
  const stack = [...el.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (c instanceof Element) {
      if (c.name === 'img' && c.attribs.alt?.trim()) return collapse(c.attribs.alt);
      stack.push(...c.children);
    }
  }
  return '';
}

/** Per-element chrome factor (1, SECONDARY_FACTOR or CHROME_FACTOR), inherited downwards. */
function chromeFactors(dom: DomIndex): Float32Array {
  const f = new Float32Array(dom.size).fill(1);
  const nodes = dom.page.nodes;
  for (let i = 0; i < dom.size; i++) {
    const p = dom.parent[i]!;
    let v = p >= 0 ? f[p]! : 1;
    const node = nodes[i];
    if (node instanceof Element) {
      if (CHROME_TAGS.has(node.name)) v = Math.min(v, CHROME_FACTOR);
      else {
        const hint = `${node.attribs.id ?? ''} ${node.attribs.class ?? ''} ${node.attribs.role ?? ''}`;
        if (hint.length > 2) {
          if (CHROME_HINT.test(hint) || /navigation|banner|contentinfo/.test(node.attribs.role ?? '')) v = Math.min(v, CHROME_FACTOR);
          else if (SECONDARY_HINT.test(hint)) v = Math.min(v, SECONDARY_FACTOR);
        }
      }
    }
    f[i] = v;
  }
  return f;
}

interface RecordLinks {
  index: number;
  /** path → first link on that path (DFS index). */
  byPath: Map<string, number>;
}

const clusterCache = new WeakMap<Page, LinkCluster[]>();

/** All link clusters of the page, best first. */
export function findLinkClusters(page: Page): LinkCluster[] {
  const hit = clusterCache.get(page);
  if (hit) return hit;
  const dom = domIndex(page);
  const nodes = page.nodes;
  const chrome = chromeFactors(dom);
  const textCache = new Map<number, string>();
  const linkText = (a: number) => {
    let t = textCache.get(a);
    if (t === undefined) {
      t = anchorText(nodes[a] as Element);
      textCache.set(a, t);
    }
    return t;
  };
  const urlCache = new Map<number, string | undefined>();
  const linkUrl = (a: number) => {
    if (!urlCache.has(a)) urlCache.set(a, page.resolve((nodes[a] as Element).attribs.href));
    return urlCache.get(a);
  };

  const clusters: LinkCluster[] = [];
  for (let pi = 0; pi < dom.size; pi++) {
    const parentEl = nodes[pi];
    if (!(parentEl instanceof Element) || dom.anchorCount[pi]! < MIN_RECORDS) continue;
    // Group element children by tag (class names vary per record: odd/even, first/last, ids).
    const groups = new Map<string, number[]>();
    for (const c of parentEl.children) {
      if (!(c instanceof Element)) continue;
      const ci = page.indexOf(c);
      if (ci < 0) continue;
      const ac = dom.anchorCount[ci]!;
      if (ac === 0 || ac > MAX_ANCHORS_PER_RECORD) continue;
      let g = groups.get(c.name);
      if (!g) groups.set(c.name, (g = []));
      g.push(ci);
    }
    for (const [tag, members] of groups) {
      if (members.length < MIN_RECORDS) continue;
      const cluster = buildCluster(dom, pi, tag, members, linkText, linkUrl, chrome);
      if (cluster) clusters.push(cluster);
    }
  }
  clusters.sort((a, b) => b.score - a.score);
  clusterCache.set(page, clusters);
  return clusters;
}

function buildCluster(
  dom: DomIndex,
  container: number,
  recordTag: string,
  members: number[],
  linkText: (a: number) => string,
  linkUrl: (a: number) => string | undefined,
  chrome: Float32Array,
): LinkCluster | undefined {
  const nodes = dom.page.nodes;
  const records: RecordLinks[] = [];
  const pathCount = new Map<string, number>();
  for (const m of members) {
    const byPath = new Map<string, number>();
    if (nodes[m] instanceof Element && (nodes[m] as Element).name === 'a') {
      byPath.set('', m);
    } else {
      for (const a of anchorsIn(dom, m)) {
        // tag path from the record (exclusive) down to the link (inclusive)
        const parts: string[] = [];
        let k = a;
        let ok = true;
        while (k !== m) {
          if (parts.length >= MAX_LINK_DEPTH || k < 0) {
            ok = false;
            break;
          }
          parts.push((nodes[k] as Element).name);
          k = dom.parent[k]!;
        }
        if (!ok) continue;
        const path = parts.reverse().join('/');
        if (!byPath.has(path)) byPath.set(path, a);
      }
    }
    if (!byPath.size) continue;
    for (const p of byPath.keys()) pathCount.set(p, (pathCount.get(p) ?? 0) + 1);
    records.push({ index: m, byPath });
  }
  if (records.length < MIN_RECORDS) return undefined;

  // The title link: the path most records share whose texts best fit a title.
  let best: { path: string; value: number; width: number } | undefined;
  for (const [path, count] of pathCount) {
    if (count < MIN_RECORDS) continue;
    let fit = 0;
    let width = 0;
    for (const r of records) {
      const a = r.byPath.get(path);
      if (a === undefined) continue;
      const w = textWidth(linkText(a));
      width += w;
      fit += titleFit(w);
    }
    const value = fit; // sum of fits: support × mean fit
    if (!best || value > best.value) best = { path, value, width: width / count };
  }
  if (!best) return undefined;

  // Common link-path set: paths present in at least half of the records.
  const common = new Set<string>();
  for (const [p, c] of pathCount) if (c * 2 >= records.length) common.add(p);
  const entries: ClusterEntry[] = [];
  const kept: number[] = [];
  const seen = new Set<string>();
  let simSum = 0;
  let dated = 0;
  let chars = 0;
  let widthSum = 0;
  for (const r of records) {
    const a = r.byPath.get(best.path);
    if (a === undefined) continue;
    let inter = 0;
    for (const p of r.byPath.keys()) if (common.has(p)) inter++;
    const sim = inter / (r.byPath.size + common.size - inter || 1);
    if (sim < MIN_RECORD_SIMILARITY) continue;
    const url = linkUrl(a);
    if (!url || seen.has(url)) continue;
    const title = linkText(a);
    seen.add(url);
    simSum += sim;
    kept.push(r.index);
    chars += dom.chars[r.index]!;
    widthSum += textWidth(title);
    // Dates outside the link text (a title may contain a year).
    if (dom.chars[r.index]! - dom.linkChars[r.index]! >= 4 && DATE_LIKE.test(subtreeText(dom, r.index))) dated++;
    entries.push({ url, title, anchor: a, record: r.index });
  }
  if (entries.length < MIN_RECORDS) return undefined;
  const n = entries.length;
  const similarity = simSum / n;
  const meanWidth = widthSum / n;
  const datedShare = dated / n;
  const fit = entries.reduce((s, e) => s + titleFit(textWidth(e.title)), 0) / n;
  const chromeFactor = chrome[container]!;
  // Size on a log scale (Gerapy: log10(items + 1)), times title fit, similarity, chrome penalty;
  // dated records are list entries almost by definition.
  const score = Math.log2(1 + n) * fit * similarity * chromeFactor * (1 + 0.5 * datedShare);
  return { container, recordTag, records: kept, titlePath: best.path, entries, similarity, meanWidth, datedShare, chromeFactor, chars, score };
}
