/**
 * Link clusters: runs of similar sibling elements ("records") that each hold a title-length link
 * (sources §6, after Gerapy's list extractor and MDR's data-region idea). Unlike Gerapy, whose
 * string similarity scores any two strings sharing a character as identical, the similarity here
 * is structural: each record is described by the set of tag paths from the record to its links,
 * and records are compared by the Jaccard index of those sets.
 *
 * Shared by the list extractor (the best cluster's links are the items) and the page-type
 * features (how many clusters, how much of the page they cover).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { textWidth } from '../../src/core/text.js';
import { cachedByString } from '../../src/core/string-cache.js';
import { anchorText, anchorFallbackText } from '../../src/core/page.js';
import { type PageIndex, pageIndex, anchorsIn, subtreeText } from '../../src/core/page-index.js';
import { inBorder, layoutOf, type Regions } from '../layout/index.js';
import { urlParts } from '../../src/core/url.js';

/** Fewest records that make a list. sources §6 (Gerapy) asks for ≥ 5 siblings; real pages
 * (personal blogs, short category pages, SERP "top stories") show lists of 3–4, and the score
 * below grows with size, so short runs only win when nothing better exists. */
export const MIN_RECORDS = 3;
/** A record holding more links than this is a page section, not a list entry (a news teaser has
 * title, image, category, author, comments: well under 30). Also bounds the work per record. */
export const MAX_ANCHORS_PER_RECORD = 30;
/** The same bound for records whose text is mostly not link text (a release entry whose notes
 * cite dozens of issues): their links are references in prose, not a section's menu. Measured on
 * the list bench: a directory section of 50+ place names is link-dominated and stays out. */
export const MAX_ANCHORS_PER_PROSE_RECORD = 150;
/** Non-link characters beyond which an element is a page section (an article body in a layout
 * table row), not a list record: long teasers and reviews stay well under it. */
export const MAX_RECORD_TEXT = 2500;
/** Most levels climbed from a link to its record (`div/div/h3/span/a` is 5; a search engine's
 * result wraps its title link in 8–9 levels). */
export const MAX_LINK_DEPTH = 10;
/** Title widths (Han/kana/hangul characters count 2, others 1): Gerapy's prior is a Gaussian
 * with mean 26 and σ 6 Chinese characters (≈ 52 width); English headlines run 30–90 characters.
 * Links narrower than TITLE_MIN_WIDTH are menu words ("Home", "More", "2"), wider than
 * TITLE_MAX_WIDTH are paragraphs with a link around them. */
export const TITLE_MIN_WIDTH = 10;
export const TITLE_GOOD_WIDTH = 24;
export const TITLE_MAX_WIDTH = 240;
/** Records whose link-path sets overlap less than this with the cluster's common set are not
 * the same kind of record (sources §6 asks ≥ 0.8 with Gerapy's string measure; set overlap of
 * link paths is coarser, and teaser lists mix records with and without an image link). */
export const MIN_RECORD_SIMILARITY = 0.34;

/** Containers whose tag or id/class says navigation, chrome or a secondary widget. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'menu']);
/** Chrome words, matched per class/id token: the whole token, the word as a prefix
 * (`footer-links`, `nav_main`) or after a placement word (`site-header`, `main-nav`). Not as any
 * suffix: `release-header` or `entry-header` sit inside list records, and GitHub's content
 * wrapper is `experiment-repo-nav`. */
const CHROME_WORDS =
  'nav|navbar|navigation|navi|menu|menus|menubar|topbar|footer|foot|ft|header|hd|masthead|sidebar|side|aside|sider|breadcrumbs?|crumbs?|widget|widgets|tags?|tagcloud|copyright|friend|friendlinks?|blogroll|share|sharing|social|login|account|toolbar|subnav|dropdown|cookie|cookies|banner';
const CHROME_HINT = new RegExp(
  `^(?:(?:site|page|global|main|top|primary|secondary|bottom|left|right|mobile|sub)[-_])?(?:${CHROME_WORDS})(?:[-_][a-z0-9-_]*)?$`,
  'i',
);
/** Secondary lists next to the main one (trending, related …): a milder penalty. */
const SECONDARY_HINT = /^(?:[a-z]+[-_])?(?:related|popular|hot|trending|rank|ranking|most|recommend|recommended|also)(?:[-_][a-z0-9-_]*)?$/i;
/** The chrome factor an element's id and class words give it by themselves (1 when they say
 * nothing), one computation per distinct `id class` string (pages repeat them). */
const hintFactor = cachedByString((raw: string): number => {
  const tokens = raw.split(/\s+/).filter(Boolean);
  if (tokens.some((t) => CHROME_HINT.test(t))) return CHROME_FACTOR;
  return tokens.some((t) => SECONDARY_HINT.test(t)) ? SECONDARY_FACTOR : 1;
});
/** Penalty factors for clusters inside chrome or secondary containers (measured on the list
 * benchmark: a main list outscores a site menu of 2–3× its size, not more). */
const CHROME_FACTOR = 0.25;
const SECONDARY_FACTOR = 0.6;

/** Date-like text in a record: a list of dated entries is a list of articles. Cheap patterns
 * only (full date parsing is too slow for every record of every page). */
const DATE_LIKE_FORMS = [
  // 2019-05-17, 2019年5月
  String.raw`\b(?:19|20)\d\d[-/.年](?:0?[1-9]|1[0-2])(?:[-/.月](?:0?[1-9]|[12]\d|3[01]))?`,
  // 17.05.2019, 17/05/19
  String.raw`\b(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)?\d\d\b`,
  // May 17, 17. Mai
  String.raw`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b`,
  String.raw`\b\d{1,2}\.? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|januar|februar|märz|mai|juni|juli|okt|dez)[a-z]*\b`,
  // 3 分钟前, 3 hours ago, 10:30
  String.raw`\d+ ?(?:分钟|小时|天)前`, String.raw`\b\d+ (?:minutes?|hours?|days?|weeks?) ago\b`, String.raw`\b\d{1,2}:\d\d\b`,
];
export const DATE_LIKE = new RegExp(`(?:${DATE_LIKE_FORMS.join('|')})`, 'i');

/** Layout wrappers left out of record-to-link paths: `div/h2/a` and `h2/a` are the same title
 * link in two records of one list (a search engine wraps some titles in an extra div). */
const WRAPPER_TAGS = new Set(['div', 'span', 'font', 'b', 'strong', 'em', 'i', 'center', 'section', 'small', 'big', 'u', 'nobr']);

/** Weight of a link text that recurs in several records of the group ("Read more", "Your
 * browser indicates if you've visited this link") when choosing among links on one path. */
const LABEL_TEXT_WEIGHT = 0.2;
/** Weight of a link text taken from a title/alt attribute when choosing the title link. */
const FALLBACK_TEXT_WEIGHT = 0.5;
/** Links to files (archives, installers, documents, media): a record's download link, not its
 * detail page. */
export const DOWNLOAD_URL = /\.(?:zip|tar|gz|tgz|bz2|xz|7z|rar|exe|msi|dmg|pkg|deb|rpm|apk|jar|iso|img|bin|whl|mp3|mp4|avi|mov|gif|png|jpe?g|webp|svg)(?:[?#]|$)/i;
/** Path segments of a URL (0 when unparsable). */
function urlDepth(u: string | undefined): number {
  if (!u) return 0;
  return urlParts(u)?.pathname.split('/').filter(Boolean).length ?? 0;
}
/** Title fit factor for download links: they still make a list when nothing else does (a file index). */
const DOWNLOAD_WEIGHT = 0.2;
/** Preference for title links inside headings (h1–h6). */
const HEADING_PATH = /(?:^|\/)h[1-6](?:\/|$)/;
const HEADING_BONUS = 1.3;
/** A link in a heading is a title whatever its length ("v2.10", a product code): floor of its fit. */
const HEADING_MIN_FIT = 0.5;
/** How much of the missing title fit rich records make up (see `fit` in buildCluster). */
const RICH_FIT_SHARE = 0.5;
/** Non-link characters per record at which a list counts as "rich" (teasers with a snippet or a
 * date line); menus and tag clouds have none. */
const RICH_RECORD_CHARS = 80;
/** An entry whose title is narrower than this share of the cluster's median width (and below
 * TITLE_MIN_WIDTH) is a by-line or a count in the same slot, not a title. */
const SHORT_ENTRY_SHARE = 0.25;

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
  /** Class signature of the first record (see classSignature). */
  recordClass: string;
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

/** Width of a text in Latin letters (CJK characters count CJK_WIDTH): the core's one measure. */
export { textWidth };

/** Title-length prior in [0, 1]: ramps from TITLE_MIN_WIDTH to TITLE_GOOD_WIDTH, flat to
 * TITLE_MAX_WIDTH, then decays (a long link text is a snippet, still a link). */
export function titleFit(width: number): number {
  if (width < TITLE_MIN_WIDTH) return 0.05 * (width / TITLE_MIN_WIDTH);
  if (width < TITLE_GOOD_WIDTH) return 0.05 + (0.95 * (width - TITLE_MIN_WIDTH)) / (TITLE_GOOD_WIDTH - TITLE_MIN_WIDTH);
  if (width <= TITLE_MAX_WIDTH) return 1;
  return Math.max(0.3, TITLE_MAX_WIDTH / width);
}

// a link's text (with the title / image-alt fallback): one definition, in the core
export { anchorText, anchorFallbackText };

/** Per-element chrome factor of a page (1, SECONDARY_FACTOR or CHROME_FACTOR), computed once. */
export function pageChrome(page: Page): Float32Array {
  return page.memo('list:chrome', () => chromeFactors(pageIndex(page), layoutOf(page)));
}

/** Per-element chrome factor (1, SECONDARY_FACTOR or CHROME_FACTOR), inherited downwards. */
function chromeFactors(dom: PageIndex, layout?: Regions): Float32Array {
  const f = new Float32Array(dom.size).fill(1);
  const nodes = dom.page.nodes;
  for (let i = 0; i < dom.size; i++) {
    const p = dom.parent[i]!;
    let v = p >= 0 ? f[p]! : 1;
    const node = nodes[i];
    // a rendered page: the main list is drawn in the centre (middleware/layout)
    if (inBorder(layout, i)) v = Math.min(v, CHROME_FACTOR);
    if (node instanceof Element) {
      if (CHROME_TAGS.has(node.name)) v = Math.min(v, CHROME_FACTOR);
      else {
        const a = node.attribs;
        const hint = a.id === undefined && a.class === undefined ? 1 : hintFactor(`${a.id ?? ''} ${a.class ?? ''}`);
        if (hint === CHROME_FACTOR || /navigation|banner|contentinfo|menu/.test(a.role ?? '')) v = Math.min(v, CHROME_FACTOR);
        else if (hint === SECONDARY_FACTOR) v = Math.min(v, SECONDARY_FACTOR);
      }
    }
    f[i] = v;
  }
  return f;
}

/** Class tokens that mark a record's state or position, not its kind. */
const STATE_CLASSES = /^(?:odd|even|first|last|active|current|selected|on|hover|clearfix|cf|new|hot|top|item|alt|row|col|show|hide|hidden|visible|open|closed|expanded|collapsed|js-.*|is-.*|has-.*)$/i;

/** A record's class signature: its class tokens without digits and state words, sorted. */
export function classSignature(el: Element): string {
  const cls = el.attribs.class;
  return cls ? signatureOf(cls) : '';
}

const signatureOf = cachedByString((cls: string): string =>
  cls
    .split(/\s+/)
    .map((t) => t.replace(/\d+/g, ''))
    .filter((t) => t.length > 1 && !STATE_CLASSES.test(t))
    .sort()
    .join(' '),
);

/** `https://host/a/b/` for a page `https://host/a/b?x`: links starting with it lie below the
 * page's own path. Undefined for a site root (everything lies below it). */
function childPrefix(pageUrl: string): string | undefined {
  try {
    const u = new URL(pageUrl);
    const path = u.pathname.replace(/\/+$/, '').replace(/\.[a-z0-9]{2,5}$/i, '');
    return path ? `${u.protocol}//${u.host}${path}/` : undefined;
  } catch {
    return undefined;
  }
}

interface RecordLinks {
  index: number;
  /** path → first link on that path (DFS index). */
  byPath: Map<string, number>;
}

export interface ClusterOptions {
  /** Admit text-rich records with up to MAX_ANCHORS_PER_PROSE_RECORD links (the list extractor
   * does; the page-type features were trained without, and measured worse with it: balanced
   * accuracy 0.956 -> 0.940). */
  proseRecords?: boolean;
  /** Also take the record's other links that sit in a copy of its title link's markup (a search
   * result grouping an indented second result from the same site, a teaser with a second
   * headline): see twinTitles. Extractor only; the page-type features count records. */
  nestedTitles?: boolean;
  /** Records whose own link is a label ("Website" beside a "#" link): links to this page are
   * not record links, and a label link takes the record's heading as title. Extractor only
   * (measured on the page-type features: balanced accuracy 0.949 -> 0.939 with it). */
  labelRecords?: boolean;
  /** Keep a short title in the title slot when its link leads to a page of the URL shape most of
   * the entries lead to (a two-character Chinese post title, "Welcome"); by-lines lead elsewhere.
   * And take the other titles of records that are small groups (see groupSiblings). Extractor only
   * (the page-type features count records as they were trained). */
  shortTitles?: boolean;
  /** Admit records longer than MAX_RECORD_TEXT that open with a heading: an index showing its
   * newest posts in full (each a headed block with a permalink). Extractor only. */
  fullPosts?: boolean;
}

/** Elements searched at the top of a record for the heading that opens it. */
const HEADED_CHILDREN = 2;
/** Whether a record opens with a heading (h1–h3 among its first element children). */
function headed(dom: PageIndex, i: number): boolean {
  let seen = 0;
  for (const c of (dom.page.nodes[i] as Element).children) {
    if (!(c instanceof Element)) continue;
    if (/^h[1-3]$/.test(c.name)) return true;
    if (++seen >= HEADED_CHILDREN) return false;
  }
  return false;
}

/** A URL's path shape: segments, numbers as N, the last one as `*` (the query left out). */
function pathShape(url: string): string {
  const path = urlParts(url)?.pathname;
  if (path === undefined) return '';
  const segs = path.split('/').filter(Boolean);
  return `${segs.length}:${segs.map((x, i) => (i === segs.length - 1 ? '*' : /^\d+$/.test(x) ? 'N' : x)).join('/')}`;
}

/** The value most of `xs` take, when more than half do. */
function mostCommon(xs: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const [x, n] of counts) if (n * 2 > xs.length) return x;
  return undefined;
}

/** Tag path from a record (exclusive) down to one of its links (inclusive), layout wrappers left
 * out; undefined when the link lies deeper than MAX_LINK_DEPTH. */
function linkPath(dom: PageIndex, a: number, record: number): string | undefined {
  const parts: string[] = [];
  let k = a;
  let levels = 0;
  while (k !== record && k >= 0 && levels <= MAX_LINK_DEPTH) {
    const name = (dom.page.nodes[k] as Element).name;
    if (k === a || !WRAPPER_TAGS.has(name)) parts.push(name);
    k = dom.parent[k]!;
    levels++;
  }
  return k === record ? parts.reverse().join('/') : undefined;
}

/** Text of the first heading (h1–h6, role=heading) in a record, if any. */
function recordHeading(dom: PageIndex, record: number): string | undefined {
  const nodes = dom.page.nodes;
  const e = dom.end[record]!;
  for (let k = record; k <= e; k++) {
    const n = nodes[k];
    if (n instanceof Element && (/^h[1-6]$/.test(n.name) || n.attribs.role === 'heading') && dom.chars[k]! > 0) return subtreeText(dom, k);
  }
  return undefined;
}

/** Levels (the link and its nearest ancestors inside the record) compared by twinTitles. */
const TWIN_LEVELS = 4;

/** `a.cls<div.x<div.y`: tag and class signature of a link and its nearest ancestors (`levels` of
 * them, fewer when the bound `record` is reached first; -1: no bound); undefined when none of
 * them carries a class (bare `li/a` markup says nothing). */
export function localSignature(dom: PageIndex, a: number, record: number, levels = TWIN_LEVELS): string | undefined {
  const parts: string[] = [];
  let classed = false;
  for (let k = a, l = 0; k > record && l < levels; k = dom.parent[k]!, l++) {
    const el = dom.page.nodes[k] as Element;
    const cls = classSignature(el);
    if (cls) classed = true;
    parts.push(`${el.name}.${cls}`);
  }
  return classed ? parts.join('<') : undefined;
}

/** All link clusters of the page, best first. */
export function findLinkClusters(page: Page, options: ClusterOptions = {}): LinkCluster[] {
  const key = `${options.proseRecords ? 1 : 0}${options.nestedTitles ? 1 : 0}${options.labelRecords ? 1 : 0}${options.shortTitles ? 1 : 0}${options.fullPosts ? 1 : 0}`;
  return page.memo(`list:clusters:${key}`, () => buildClusters(page, options));
}

function buildClusters(page: Page, options: ClusterOptions): LinkCluster[] {
  const dom = pageIndex(page);
  const nodes = page.nodes;
  const chrome = pageChrome(page);
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
    const { groups, byClass } = childGroups(dom, parentEl, options);
    for (const [tag, members] of groups) {
      if (members.length < MIN_RECORDS) continue;
      const cluster = buildCluster(dom, pi, tag, members, linkText, linkUrl, chrome, options);
      if (cluster) clusters.push(cluster);
    }
    for (const [key, members] of byClass) {
      const tag = key.slice(0, key.indexOf('.'));
      if (members.length < MIN_RECORDS || members.length === groups.get(tag)!.length) continue;
      const cluster = buildCluster(dom, pi, tag, members, linkText, linkUrl, chrome, options);
      if (cluster) clusters.push(cluster);
    }
  }
  clusters.sort((a, b) => b.score - a.score);
  return clusters;
}

/** An element's children that could be records, grouped by tag (class names vary per record:
 * odd/even, first/last, ids), and also by tag + class signature where classes tell record kinds
 * apart (a title row and a by-line row of one table). Both compete on score. */
function childGroups(dom: PageIndex, parentEl: Element, options: ClusterOptions): { groups: Map<string, number[]>; byClass: Map<string, number[]> } {
  const groups = new Map<string, number[]>();
  const byClass = new Map<string, number[]>();
  for (const c of parentEl.children) {
    if (!(c instanceof Element)) continue;
    const ci = dom.page.indexOf(c);
    if (ci < 0) continue;
    const ac = dom.anchorCount[ci]!;
    // text-rich records (release notes citing many issues) may hold more links than a teaser
    const cap = options.proseRecords && dom.linkChars[ci]! * 2 < dom.chars[ci]! ? MAX_ANCHORS_PER_PROSE_RECORD : MAX_ANCHORS_PER_RECORD;
    if (ac === 0 || ac > cap || (dom.chars[ci]! - dom.linkChars[ci]! > MAX_RECORD_TEXT && !(options.fullPosts && headed(dom, ci)))) continue;
    let g = groups.get(c.name);
    if (!g) groups.set(c.name, (g = []));
    g.push(ci);
    const key = `${c.name}.${classSignature(c)}`;
    let h = byClass.get(key);
    if (!h) byClass.set(key, (h = []));
    h.push(ci);
  }
  return { groups, byClass };
}

/** What the steps of buildCluster share about one candidate cluster's links. (The steps are
 * functions of their own, not closures in one: V8's optimising compiler took 220–650 ms per
 * compile of the one 6 kB function, several times per thread as its type feedback grew.) */
interface ClusterLinks {
  dom: PageIndex;
  options: ClusterOptions;
  linkText: (a: number) => string;
  linkUrl: (a: number) => string | undefined;
  /** URLs below this list's own path: a record's detail page. */
  belowPath: string | undefined;
  /** Records holding each URL: a URL that recurs across records ("Latest release", a category,
   * the author) is not one record's own link. */
  recordsPerUrl: Map<string, number>;
  /** Records holding each link text (labelRecords only): a text that recurs across records is a
   * label ("Read more", a visited-link tooltip). */
  recordsPerText: Map<string, number>;
}

function clusterLinks(dom: PageIndex, members: number[], linkText: (a: number) => string, linkUrl: (a: number) => string | undefined, options: ClusterOptions): ClusterLinks {
  const recordsPerUrl = new Map<string, number>();
  const recordsPerText = new Map<string, number>();
  for (const m of members) {
    const inRecord = new Set<string>();
    const textsIn = new Set<string>();
    for (const a of anchorsIn(dom, m)) {
      const u = linkUrl(a);
      if (u) inRecord.add(u);
      if (options.labelRecords) textsIn.add(linkText(a));
    }
    for (const u of inRecord) recordsPerUrl.set(u, (recordsPerUrl.get(u) ?? 0) + 1);
    for (const t of textsIn) recordsPerText.set(t, (recordsPerText.get(t) ?? 0) + 1);
  }
  return { dom, options, linkText, linkUrl, belowPath: childPrefix(dom.page.url), recordsPerUrl, recordsPerText };
}

/** A link to a page below this list's path that no other record links to: the record's own
 * detail page. */
function isBelow(cx: ClusterLinks, a: number): boolean {
  const url = cx.linkUrl(a);
  return cx.belowPath !== undefined && url !== undefined && url.startsWith(cx.belowPath) && !DOWNLOAD_URL.test(url) && cx.recordsPerUrl.get(url)! < 2;
}

/** Fit of a link as the record's title. */
function linkFit(cx: ClusterLinks, a: number): number {
  const url = cx.linkUrl(a);
  const download = url !== undefined && DOWNLOAD_URL.test(url) ? DOWNLOAD_WEIGHT : 1;
  const label = cx.options.labelRecords && (cx.recordsPerText.get(cx.linkText(a)) ?? 0) >= 2 ? LABEL_TEXT_WEIGHT : 1;
  return titleFit(textWidth(cx.linkText(a))) * (cx.dom.chars[a]! > 0 ? 1 : FALLBACK_TEXT_WEIGHT) * download * label;
}

/** A link to a page below this list's path is the record's own detail page (see titlePathOf). */
function ownFit(cx: ClusterLinks, a: number): number {
  return isBelow(cx, a) ? Math.max(HEADING_MIN_FIT, linkFit(cx, a)) : linkFit(cx, a);
}

/** Each member's links by their tag path inside it (the most title-like link per path), and how
 * many records have each path. */
function recordPaths(cx: ClusterLinks, members: number[]): { records: RecordLinks[]; pathCount: Map<string, number> } {
  const { dom, options, linkUrl } = cx;
  const nodes = dom.page.nodes;
  const here = dom.page.url.replace(/#.*$/, '');
  const records: RecordLinks[] = [];
  const pathCount = new Map<string, number>();
  for (const m of members) {
    const byPath = new Map<string, number>();
    if (nodes[m] instanceof Element && (nodes[m] as Element).name === 'a') {
      byPath.set('', m);
    } else {
      for (const a of anchorsIn(dom, m)) {
        // a link to this very page ("#", "Directions" opening a widget) is no record's own link
        const u = linkUrl(a);
        if (options.labelRecords && (u === undefined || u.replace(/#.*$/, '') === here)) continue;
        const path = linkPath(dom, a, m);
        if (path === undefined) continue;
        // several links on one path (vote arrow, title, site): keep the most title-like
        const prev = byPath.get(path);
        if (prev === undefined || preferLink(cx, a, prev)) byPath.set(path, a);
      }
    }
    if (!byPath.size) continue;
    for (const p of byPath.keys()) pathCount.set(p, (pathCount.get(p) ?? 0) + 1);
    records.push({ index: m, byPath });
  }
  return { records, pathCount };
}

/** Whether link `a` is a better title of its path than `prev`: a better fit; at equal fits of two
 * links below the list's path, the more specific URL (/releases/tag/v2 over /releases/latest);
 * otherwise the first. */
function preferLink(cx: ClusterLinks, a: number, prev: number): boolean {
  const fa = ownFit(cx, a);
  const fp = ownFit(cx, prev);
  return fp < fa || (fp === fa && isBelow(cx, a) && isBelow(cx, prev) && urlDepth(cx.linkUrl(a)) > urlDepth(cx.linkUrl(prev)));
}

interface TitlePath {
  path: string;
  value: number;
  width: number;
  label: boolean;
}

/** The title link: the path most records share whose texts best fit a title. */
function titlePathOf(cx: ClusterLinks, records: RecordLinks[], pathCount: Map<string, number>): TitlePath | undefined {
  const { linkText, linkUrl } = cx;
  let best: TitlePath | undefined;
  for (const [path, count] of pathCount) {
    if (count < MIN_RECORDS) continue;
    let fit = 0;
    let width = 0;
    const urls = new Set<string | undefined>();
    const texts = new Set<string>();
    const heading = HEADING_PATH.test(path);
    for (const r of records) {
      const a = r.byPath.get(path);
      if (a === undefined) continue;
      width += textWidth(linkText(a));
      const url = linkUrl(a);
      urls.add(url);
      texts.add(linkText(a));
      // A title written as link text beats one borrowed from a title/alt attribute (icons). A
      // link in a heading, or to a page below this list's own path (the record's detail page:
      // /releases → /releases/tag/v2.10), is a title whatever its length ("v2.10", a code).
      fit += heading && !DOWNLOAD_URL.test(url ?? '') ? Math.max(HEADING_MIN_FIT, linkFit(cx, a)) : ownFit(cx, a);
    }
    // sum of fits = support × mean fit; a link inside a heading is a title by markup. A path whose
    // links all lead to one place ("Latest release", "Reply") is not the records' own link, nor
    // one whose links all say the same thing ("RSS feed of this forum", "Read more", "Website"):
    // titles differ from record to record.
    const value = fit * (heading ? HEADING_BONUS : 1) * (urls.size / count) * (texts.size / count);
    if (!best || value > best.value) best = { path, value, width: width / count, label: texts.size === 1 };
  }
  return best;
}

/** The entries kept from the records (similar enough to the common path set, one per URL), with
 * the sums the score needs. */
function keepEntries(cx: ClusterLinks, records: RecordLinks[], pathCount: Map<string, number>, best: TitlePath) {
  const { dom, options, linkText, linkUrl } = cx;
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
  // the classed markup most title links share within their records (extractor only)
  let titleMarkup: string | undefined;
  if (options.shortTitles) {
    const sigs: string[] = [];
    for (const r of records) {
      const a = r.byPath.get(best.path);
      const sig = a === undefined ? undefined : localSignature(dom, a, r.index);
      if (sig !== undefined) sigs.push(sig);
    }
    titleMarkup = sigs.length * 2 > records.length ? mostCommon(sigs) : undefined;
  }
  for (const r of records) {
    const a = r.byPath.get(best.path);
    if (a === undefined) continue;
    let inter = 0;
    for (const p of r.byPath.keys()) if (common.has(p)) inter++;
    const sim = inter / (r.byPath.size + common.size - inter || 1);
    // A record holding all the common paths plus extras (a search result with sitelinks, a
    // teaser with a tag row) is the same kind of record, richer: admitted, scored as its Jaccard.
    const contained = common.size > 0 && inter === common.size && r.byPath.has(best.path);
    // (and, for the extractor, a record poorer than the others — a post without an excerpt, a
    // "read more" button or a category — whose title link sits in the titles' own classed markup)
    const sameTitle = titleMarkup !== undefined && localSignature(dom, a, r.index) === titleMarkup;
    if (sim < MIN_RECORD_SIMILARITY && !contained && !sameTitle) continue;
    const url = linkUrl(a);
    if (!url || seen.has(url)) continue;
    // A link that says the same in every record ("Website", "Read more") when it is the best
    // the records have: their titles are their headings, not links.
    const title = (best.label && options.labelRecords ? recordHeading(dom, r.index) : undefined) ?? linkText(a);
    seen.add(url);
    simSum += sim;
    kept.push(r.index);
    chars += dom.chars[r.index]!;
    widthSum += textWidth(title);
    // Dates outside the link text (a title may contain a year).
    if (dom.chars[r.index]! - dom.linkChars[r.index]! >= 4 && DATE_LIKE.test(subtreeText(dom, r.index))) dated++;
    entries.push({ url, title, anchor: a, record: r.index });
  }
  return { entries, kept, simSum, dated, chars, widthSum };
}

/** Drop by-lines and counters that share the title slot with real titles (a user name in the
 * second row of a two-row record); `entries` and `kept` are cut in place. */
function dropByLines(entries: ClusterEntry[], kept: number[], options: ClusterOptions): void {
  const widths = entries.map((e) => textWidth(e.title)).sort((a, b) => a - b);
  const medianWidth = widths[widths.length >> 1]!;
  // (a short title — 羁绊, "Welcome" — whose link leads to a page of the URL shape most entries
  // lead to is a title all the same: a by-line leads elsewhere, to a user's page)
  const shapes = options.shortTitles ? entries.map((e) => pathShape(e.url)) : [];
  const commonShape = options.shortTitles ? mostCommon(shapes) : undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const w = textWidth(entries[i]!.title);
    if (w < SHORT_ENTRY_SHARE * medianWidth && medianWidth >= TITLE_GOOD_WIDTH && (commonShape === undefined || shapes[i] !== commonShape)) {
      entries.splice(i, 1);
      kept.splice(i, 1);
    }
  }
}

function buildCluster(
  dom: PageIndex,
  container: number,
  recordTag: string,
  members: number[],
  linkText: (a: number) => string,
  linkUrl: (a: number) => string | undefined,
  chrome: Float32Array,
  options: ClusterOptions,
): LinkCluster | undefined {
  const nodes = dom.page.nodes;
  const cx = clusterLinks(dom, members, linkText, linkUrl, options);
  const { records, pathCount } = recordPaths(cx, members);
  if (records.length < MIN_RECORDS) return undefined;
  let best = titlePathOf(cx, records, pathCount);
  if (!best) return undefined;
  // Posts shown in full (each record a headed block longer than MAX_RECORD_TEXT): the links in
  // their text are the posts' own references; each record's link to a page of this site on a path
  // every record shares, a different page each (its permalink, "Permanent link"), is its entry,
  // titled with the record's heading.
  if (options.fullPosts && records.every((r) => dom.chars[r.index]! - dom.linkChars[r.index]! > MAX_RECORD_TEXT)) {
    const pick = fullPostLink(dom, records, pathCount, linkText, linkUrl);
    if (pick) best = { path: pick.path, value: best.value, width: best.width, label: pick.rank !== 0 };
  }
  const { entries, kept, simSum, dated, chars, widthSum } = keepEntries(cx, records, pathCount, best);
  if (entries.length < MIN_RECORDS) return undefined;
  const similarity = simSum / entries.length;
  dropByLines(entries, kept, options);
  if (entries.length < MIN_RECORDS) return undefined;
  const n = entries.length;
  const meanWidth = widthSum / n;
  const datedShare = dated / n;
  const heading = HEADING_PATH.test(best.path);
  const rawFit = entries.reduce((s, e) => s + Math.max(heading ? HEADING_MIN_FIT : 0, titleFit(textWidth(e.title))), 0) / n;
  const chromeFactor = chrome[container]!;
  // Size on a log scale (Gerapy: log10(items + 1)), times title fit, similarity, chrome penalty;
  // dated records are list entries almost by definition.
  let extra = 0;
  for (const e of entries) extra += dom.chars[e.record]! - dom.linkChars[e.record]!;
  const richness = Math.min(1, extra / n / RICH_RECORD_CHARS);
  // Short link texts in rich records are names (people, products, places): records with a body
  // of text are entries even when their link is short; bare short links are a menu.
  const fit = rawFit + (1 - rawFit) * RICH_FIT_SHARE * richness;
  const score = Math.log2(1 + n) * fit * similarity * chromeFactor * (1 + 0.5 * datedShare) * (1 + 0.5 * richness);
  const recordClass = classSignature(nodes[kept[0]!] as Element);
  if (options.nestedTitles) twinTitles(dom, entries, linkText, linkUrl);
  if (options.shortTitles) groupSiblings(dom, entries, best.path, linkText, linkUrl, (t) => (cx.recordsPerText.get(t) ?? 0) >= 2);
  return { container, recordTag, recordClass, records: kept, titlePath: best.path, entries, similarity, meanWidth, datedShare, chromeFactor, chars, score };
}

/** The path of each full post's own link (buildCluster, `options.fullPosts`): a link to a page of
 * this site that every record has and none shares — in the heading first (rank 0), then one saying
 * the same in every record ("Permanent link", rank 1), then any other (rank 2). */
function fullPostLink(dom: PageIndex, records: RecordLinks[], pathCount: Map<string, number>, linkText: (a: number) => string, linkUrl: (a: number) => string | undefined): { path: string; rank: number } | undefined {
  const here = dom.page.url.replace(/#.*$/, '');
  const host = urlParts(dom.page.url)?.host ?? '';
  let pick: { path: string; rank: number } | undefined;
  for (const [path, count] of pathCount) {
    if (count < records.length) continue;
    const anchors = records.map((r) => r.byPath.get(path)!);
    const urls = anchors.map((a) => linkUrl(a)?.replace(/#.*$/, ''));
    const own = urls.every((u) => u !== undefined && urlParts(u)?.host === host && u !== here);
    if (!own || new Set(urls).size !== urls.length) continue;
    const rank = HEADING_PATH.test(path) ? 0 : new Set(anchors.map(linkText)).size === 1 ? 1 : 2;
    if (!pick || rank < pick.rank) pick = { path, rank };
  }
  return pick;
}

/**
 * The other titles of records that are groups: an archive split by year whose years hold one or a
 * few posts each (`<h2>2010</h2><ul><li><a>…</a></li><li><a>…</a></li></ul>`) makes the year groups
 * the records, and a record keeps one link per path. A record's other links on the title's path and
 * in the title's markup, leading to pages of the URL shape most titles lead to, are entries too —
 * not labels repeated across records ("Read more"). Appended to `entries` (not scored).
 */
function groupSiblings(dom: PageIndex, entries: ClusterEntry[], path: string, linkText: (a: number) => string, linkUrl: (a: number) => string | undefined, label: (text: string) => boolean): void {
  const seen = new Set(entries.map((e) => e.url));
  const more: ClusterEntry[] = [];
  // only records whose title leads where most titles lead (a record whose "title" is a photo
  // caption among reviews titled otherwise is no group of titles)
  const common = mostCommon(entries.map((e) => pathShape(e.url)));
  for (const e of entries) {
    if (e.record === e.anchor) continue;
    const shape = pathShape(e.url);
    if (shape !== common) continue;
    const markup = localSignature(dom, e.anchor, e.record);
    const same: number[] = [];
    for (const a of anchorsIn(dom, e.record)) if (a !== e.anchor && linkPath(dom, a, e.record) === path && localSignature(dom, a, e.record) === markup) same.push(a);
    for (const a of same) {
      const url = linkUrl(a);
      const title = linkText(a);
      if (!url || seen.has(url) || !title || label(title) || DOWNLOAD_URL.test(url) || pathShape(url) !== shape) continue;
      seen.add(url);
      more.push({ url, title, anchor: a, record: e.record });
    }
  }
  entries.push(...more);
}

/**
 * Other title links of the records: a link whose own markup (tag and classes of the link and its
 * nearest ancestors) copies that of the record's title link is a second title in the same record
 * (a search result that groups an indented second page of the same site; a record wrapping two
 * results), when it sits on another tag path than the title. Sitelinks, by-lines and tags sit in
 * other markup and stay out. Appended to `entries` (the cluster's score counts records, not
 * these).
 */
function twinTitles(dom: PageIndex, entries: ClusterEntry[], linkText: (a: number) => string, linkUrl: (a: number) => string | undefined): void {
  const seen = new Set(entries.map((e) => e.url));
  const twins: ClusterEntry[] = [];
  for (const e of entries) {
    const sig = localSignature(dom, e.anchor, e.record);
    if (sig === undefined) continue;
    const own = linkPath(dom, e.anchor, e.record);
    for (const a of anchorsIn(dom, e.record)) {
      if (a === e.anchor || localSignature(dom, a, e.record) !== sig) continue;
      // on the title's own path it is a sibling in a repeated row (a photo grid, a section's
      // list), not a nested copy of the title block
      if (own !== undefined && linkPath(dom, a, e.record) === own) continue;
      const url = linkUrl(a);
      const title = linkText(a);
      if (!url || seen.has(url) || DOWNLOAD_URL.test(url) || textWidth(title) < TITLE_MIN_WIDTH) continue;
      seen.add(url);
      twins.push({ url, title, anchor: a, record: e.record });
    }
  }
  entries.push(...twins);
}
