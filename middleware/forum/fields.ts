/**
 * Fields of each floor: author (+ profile URL), time, content, floor number.
 *
 * Position consistency (seed 003 §2.3): replies share one template, so the node that holds a field
 * in one floor sits at the same structural path in the others. For each field we collect per-floor
 * candidates with their path (tag.class steps from the floor's root), vote over floors, and take
 * in every floor the candidate at the winning path — falling back to the floor's own best
 * candidate when the path is missing there (a main post rendered by another template).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Segment } from '../../src/core/page.js';
import { BLOCK_TAGS, collapse, textOf } from '../../src/core/page.js';
import { hidden, type DateAnchor } from './dates.js';
import type { PostRecord } from './dom.js';
import {
  type ThreadIndex,
  type Range,
  elementChildren,
  hasAncestor,
  lowerBound,
  punctMarks,
  rangeOf,
  chars,
  segSpan,
  segmentsIn,
  stepKey,
  classTokens,
  jaccard,
  LOGIN_HREF,
  punctIn,
} from './dom.js';

/** The content node of a floor is the deepest element holding at least this share of the floor's
 * sentence punctuation (seed 003: punctuation marks content). 0.8 lets a user panel's "Posts: 1,234"
 * stay outside while the body's paragraphs and quotes stay inside. */
export const CONTENT_PUNCT_SHARE = 0.8;
/** A content path must exist in at least this share of the floors that have text: a quote or an
 * attachment box present in a minority of floors is not the content container. */
export const CONTENT_PATH_SUPPORT = 0.7;
/** DFS nodes under an author name holder at most (a link, a span with a badge icon …). */
const MAX_AUTHOR_NODES = 40;
/** Author names are short labels. */
export const MAX_AUTHOR_LENGTH = 60;

/** Profile links on boards: phpBB viewprofile, vBulletin member.php?u=, XenForo /members/,
 * Discourse /u/, Discuz! space-uid / home.php?mod=space&uid=, Tieba /home/main?un=, IPB /profile/. */
export const PROFILE_HREF = /(\/members?\/|member\.php|memberlist\.php\?mode=viewprofile|viewprofile|\/users?(\/|\?|\.php)|\/u\/|\/profile|showuser|space-uid|mod=space|[?&]uid=|\/home\/main|\/people\/|\/author\/|\/benutzer|\/mitglied|\/membre|\/community\/mitglieder|\/personal_pages\/|user-dashboard|action=profile)/i;
/** Class/id/itemprop words of author name holders. */
const AUTHOR_HINT = /(author|username|user-name|user_name|poster|postername|nickname|authi|\bname\b|\buser\b|userinfo|postprofile|member)/i;
/** Quoted posts: kept inside their floor, but never the source of the floor's own author or date. */
const QUOTE_HINT = /(quote|bbcode_?quote|bbcodeblock|blockquote|reply-to|citation|zitat)/i;
/** Link texts that are actions, not content. */
export const ACTION_TEXT = /^(reply|quote|report|like|share|edit|delete|multi-?quote|thanks|top|回复|引用|举报|支持|反对|分享|收藏|编辑|删除|只看该作者|antworten|zitieren|melden|gefällt mir|répondre|citer|signaler|responder|citar|reportar|#\d+)$/i;
/** A signature delimiter line. */
export const SIGNATURE_RULE = /^(_{5,}|-{5,}|-- ?)$/;
/** Signatures are a few lines (boards cap them around 250–500 characters). */
const MAX_SIGNATURE_LENGTH = 300;
/** Reaction counters under a post ("36 Likes 8 Shares", "3 replies", "12 个赞"): UI, not text. */
export const COUNTER_LINE = /^(\d[\d,.]*\s*(likes?|shares?|replies|repl(y|ies)|comments?|votes?|points?|thanks|个?赞|回复|条评论|gefällt mir|j'aime|me gusta)\s*)+$/i;
/** Displayed floor numbers: `#12`, `12楼`, `12#`, `Post 12`, and the Chinese names of floors 1–4. */
const FLOOR_TEXT = /^(?:#\s?(\d{1,6})|(\d{1,6})\s?(?:楼|樓|#|F|L)|(?:post|beitrag|message|reply)\s*#?\s*(\d{1,6})|(沙发|沙發|板凳|地板|楼主|樓主))$/i;
/** The same labels inside a header line, glued to their neighbours by inline markup. */
const FLOOR_IN_LINE = /#\s?(\d{1,6})(?!\d)|(?<!\d)(\d{1,6})\s?(?:楼|樓)|(?:^|\s)(\d{1,6})\s?(?:#|F|L)(?=\s|$)|(?:post|beitrag|message|reply)\s*#?\s*(\d{1,6})(?!\d)|(沙发|沙發|板凳|地板|楼主|樓主)/iu;
/** Floor labels sit in short header lines; longer lines are prose ("see #3 above"). */
const FLOOR_LINE_MAX = 80;
const FLOOR_NAMES: Record<string, number> = { 楼主: 1, 樓主: 1, 沙发: 2, 沙發: 2, 板凳: 3, 地板: 4 };

type PunctOf = (r: Range, rec: PostRecord | undefined) => number;

/** A line (digits aside) shown in at least this many floors, and in this share of them, is
 * template: a board's default signature, a user-panel line ("超新星, 积分 1467, 距离下一级还需
 * 1533 积分"). Its punctuation does not point at the content. Three floors: two posts may quote
 * the same sentence. */
const REPEATED_LINE_FLOORS = 3;
const REPEATED_LINE_SHARE = 0.3;

/**
 * Punctuation of a range for content finding: without the floor's replies (their text is theirs)
 * and without lines repeated across floors (template). One pass over the floors' segments, then
 * prefix sums: each query is two binary searches.
 */
function punctCounter(ix: ThreadIndex, records: PostRecord[]): PunctOf {
  const floorsOf = new Map<string, number>();
  const keyOf = (t: string): string => t.replace(/\d+/g, '#');
  for (const rec of records) {
    const seen = new Set<string>();
    const [a, b] = segSpan(ix, rec.range);
    for (let k = a; k < b; k++) seen.add(keyOf(ix.segments[k]!.text));
    for (const key of seen) floorsOf.set(key, (floorsOf.get(key) ?? 0) + 1);
  }
  const limit = Math.max(REPEATED_LINE_FLOORS, REPEATED_LINE_SHARE * records.length);
  const m = ix.segments.length;
  const pre = new Float64Array(m + 1);
  for (let k = 0; k < m; k++) {
    const own = ix.prePunct[k + 1]! - ix.prePunct[k]!;
    const n = own ? (floorsOf.get(keyOf(ix.segments[k]!.text)) ?? 0) : 0;
    pre[k + 1] = pre[k]! + (n >= limit ? 0 : own);
  }
  let count = (r: Range): number => {
    const [a, b] = segSpan(ix, r);
    return pre[b]! - pre[a]!;
  };
  // Template cannot be what most floors say: when the discount silences most floors that had
  // punctuation (every post reads "Reply number N, …"), it is not applied.
  const before = records.filter((r) => punctMarks(ix, r.range) > 0).length;
  const after = records.filter((r) => count(r.range) > 0).length;
  if (after * 2 < before) count = (r) => punctMarks(ix, r);
  return (r, rec) => {
    let n = count(r);
    if (rec?.replies) for (const rep of rec.replies) if (rep.range.start >= r.start && rep.range.end <= r.end) n -= count(rep.range);
    return n;
  };
}

/** Whether a DFS index falls inside one of the floor's replies. */
export function inReplies(rec: PostRecord, i: number): boolean {
  for (const r of rec.replyArea ?? rec.replies?.map((x) => x.range) ?? []) if (r.start <= i && i <= r.end) return true;
  return false;
}

function attrText(el: Element): string {
  return `${el.attribs.class ?? ''} ${el.attribs.id ?? ''} ${el.attribs.itemprop ?? ''}`;
}

export function inQuote(el: AnyNode, root: AnyNode | null): boolean {
  return hasAncestor(el, root, (e) => e.name === 'blockquote' || QUOTE_HINT.test(attrText(e)));
}

/** Two steps are the same slot when their tags match and their digit-free class sets overlap this
 * much: an edited post's `div.postrow.has_after_content` is the same slot as `div.postrow`
 * (the same threshold as sibling alignment in records.ts). */
const STEP_SIMILARITY = 0.5;

/**
 * Structural paths of floors (root ordinal + tag.class steps), made canonical so that slightly
 * different class sets of one template slot share one key. One space per vote.
 */
export class PathSpace {
  private readonly slots = new Map<string, Array<{ tag: string; cls: readonly string[]; key: string }>>();

  private canonStep(parent: string, el: Element): string {
    const cls = classTokens(el);
    let arr = this.slots.get(parent);
    if (!arr) this.slots.set(parent, (arr = []));
    for (const k of arr) if (k.tag === el.name && jaccard(k.cls, cls) >= STEP_SIMILARITY) return k.key;
    const key = stepKey(el);
    arr.push({ tag: el.name, cls, key });
    return key;
  }

  /** Per floor: the paths found so far (null: not inside the floor), when its roots are disjoint. */
  private readonly known = new Map<PostRecord, Map<AnyNode, string | null> | null>();

  /** Path of an element from its floor; undefined when it is not inside the floor's roots. */
  pathIn(rec: PostRecord, el: AnyNode): string | undefined {
    let known = this.known.get(rec);
    if (known === undefined) this.known.set(rec, (known = disjoint(rec.roots) ? new Map(rec.roots.map((r, j) => [r, `${j}:`])) : null));
    if (!known) return this.walk(rec, el);
    // From the nearest ancestor whose path is known (a root's is `j:`): a step is canonical for
    // good once seen (canonStep returns the same key for the same parent and element), so a path
    // is the known one plus the steps below it.
    const chain: AnyNode[] = [];
    let n: AnyNode | null = el;
    let base: string | null | undefined;
    while (n && (base = known.get(n)) === undefined) {
      chain.push(n);
      n = n.parent;
    }
    if (!n || base === null || base === undefined) {
      for (const c of chain) known.set(c, null);
      return undefined;
    }
    let path = base;
    // (A root's own path is `j:`, every other one has a step after the colon.)
    let first = ROOT_PATH.test(base);
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k]!;
      if (c instanceof Element) {
        path += (first ? '' : '/') + this.canonStep(path, c);
        first = false;
      }
      known.set(c, path);
    }
    return path;
  }

  /** pathIn without the memo (floors whose roots nest). */
  private walk(rec: PostRecord, el: AnyNode): string | undefined {
    for (let j = 0; j < rec.roots.length; j++) {
      const root = rec.roots[j]!;
      const chain: Element[] = [];
      let n: AnyNode | null = el;
      while (n && n !== root) {
        if (n instanceof Element) chain.push(n);
        n = n.parent;
      }
      if (n !== root) continue;
      let path = `${j}:`;
      let first = true;
      for (let k = chain.length - 1; k >= 0; k--) {
        path += (first ? '' : '/') + this.canonStep(path, chain[k]!);
        first = false;
      }
      return path;
    }
    return undefined;
  }

  /** Parsed steps of the paths resolved so far. */
  private readonly steps = new Map<string, Array<{ tag: string; cls: string[] }>>();

  /** Elements of a floor at a path (all of them: a step can match several siblings). */
  resolve(rec: PostRecord, path: string): Element[] {
    const colon = path.indexOf(':');
    const root = rec.roots[Number(path.slice(0, colon))];
    if (!root) return [];
    let steps = this.steps.get(path);
    if (!steps) {
      const rest = path.slice(colon + 1);
      this.steps.set(path, (steps = rest ? rest.split('/').map((step) => { const [tag, ...cls] = step.split('.'); return { tag: tag!, cls }; }) : []));
    }
    let level: Element[] = [root];
    if (!steps.length) return level;
    for (const { tag, cls } of steps) {
      const next: Element[] = [];
      for (const e of level) {
        for (const c of elementChildren(e)) if (c.name === tag && jaccard(cls, classTokens(c)) >= STEP_SIMILARITY) next.push(c);
      }
      if (!next.length) return [];
      level = next;
    }
    return level;
  }
}

const ROOT_PATH = /^\d+:$/;

/** No root inside another (then an element is inside one root at most). */
function disjoint(roots: readonly Element[]): boolean {
  if (roots.length < 2) return true;
  const set = new Set<AnyNode>(roots);
  for (const r of roots) for (let n = r.parent; n; n = n.parent) if (set.has(n)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Content

/** Text is counted per block (a segment starts at its first text node): an inline element that
 * happens to hold that first node (a name link opening a one-line reply "路人甲：说得对。") does not
 * own the line; its block does. */
function liftInline(node: Element, rec: PostRecord): Element {
  let n: Element = node;
  while (!BLOCK_TAGS.has(n.name) && !rec.roots.includes(n) && n.parent instanceof Element) n = n.parent;
  return n;
}

/** Deepest element of a floor holding ≥ CONTENT_PUNCT_SHARE of its punctuation. */
function contentNodeOf(ix: ThreadIndex, rec: PostRecord, ownPunct: PunctOf): Element | undefined {
  const total = ownPunct(rec.range, rec);
  if (total === 0) return undefined;
  let node: Element | undefined;
  for (const r of rec.roots) if (ownPunct(rangeOf(ix, r), rec) >= CONTENT_PUNCT_SHARE * total) node = r;
  if (!node) return undefined;
  for (;;) {
    let next: Element | undefined;
    for (const c of elementChildren(node)) {
      if (ownPunct(rangeOf(ix, c), rec) >= CONTENT_PUNCT_SHARE * total) {
        next = c;
        break;
      }
    }
    if (!next) return liftInline(node, rec);
    node = next;
  }
}

/** Descending from a floor's root to its content path, a step must keep at least this share of the
 * punctuation covered so far. 0.6: a user panel with an equipment list or a long signature may hold
 * up to 40 % of a floor's punctuation and is still left behind; a quote holding most of one floor
 * is not a majority over all floors, so the walk does not enter it. */
export const CONTENT_DESCEND_KEEP = 0.6;
/** Where a path step matches several siblings, the richest must hold this share of their
 * punctuation (summed over floors) for the path to name a container (a content `inbox` beside an
 * empty footer `inbox`; vBulletin's `alt1` body cell beside its `alt2` user cell, both `td.alt`
 * once digits are stripped), rather than one paragraph among many. */
const SIBLING_DOMINANCE = 0.9;
/** The same for layout containers (rows, cells, divs): a body row beside a user-panel row whose
 * "Location: Brooklyn, NYC" has punctuation too. Paragraph-level tags need the stricter share. */
const CONTAINER_DOMINANCE = 0.75;
const PARAGRAPH_TAGS = new Set(['p', 'li', 'span', 'font', 'b', 'i', 'strong', 'em', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dd', 'dt', 'blockquote', 'br', 'a', 'u', 'small']);
/** Count of floors a path must be nominated by (as a prefix of its own content node) to be
 * considered; keeps the candidate set small on long threads. */
const MIN_NOMINATIONS = 2;
/** Other floors looked at to tell a template slot (a header every floor has) from a floor's own. */
const TEMPLATE_PROBE = 20;

/**
 * Choose each floor's content element(s) by position consistency. Every floor nominates its own
 * content node (deepest holder of ≥ CONTENT_PUNCT_SHARE of its punctuation) and that node's
 * ancestors; a path's coverage is the share of all floors' punctuation that the nodes at that
 * path hold. The deepest path that still covers CONTENT_PUNCT_SHARE wins, provided it names one
 * node per floor (a step that matches several siblings, such as every `<p>`, is not a container).
 * A floor whose punctuation sits in a signature or in one mention then still gets the body node.
 */
export function contentNodes(ix: ThreadIndex, records: PostRecord[]): Array<Element[] | undefined> {
  const space = new PathSpace();
  const ownPunct = punctCounter(ix, records);
  const own = records.map((r) => (r.roots.length ? contentNodeOf(ix, r, ownPunct) : undefined));
  const ownPaths = own.map((n, i) => (n ? space.pathIn(records[i]!, n) : undefined));
  const nominations = new Map<string, number>();
  for (const p of ownPaths) {
    if (p === undefined) continue;
    const colon = p.indexOf(':');
    const head = p.slice(0, colon + 1);
    const steps = p.slice(colon + 1).split('/').filter(Boolean);
    for (let k = 0; k <= steps.length; k++) {
      const q = head + steps.slice(0, k).join('/');
      nominations.set(q, (nominations.get(q) ?? 0) + 1);
    }
  }
  const voters = ownPaths.filter((p) => p !== undefined).length;
  const totals = records.map((r) => ownPunct(r.range, r));
  const grand = totals.reduce((a, b) => a + b, 0) || 1;
  // Coverage of every nominated path. Where a step matches several siblings (two `div.inbox`),
  // the floor's node at that path is the match holding the most punctuation.
  // A path present in only some floors (a quote, an attachment box) is not the content container:
  // it must exist in CONTENT_PATH_SUPPORT of the floors that have text.
  const withText = totals.filter((t) => t > 0).length;
  const cov = new Map<string, number>();
  for (const [p, c] of nominations) {
    if (c < Math.min(MIN_NOMINATIONS, voters)) continue;
    let covered = 0;
    let present = 0;
    let multiMine = 0;
    let multiAll = 0;
    records.forEach((rec, i) => {
      if (!totals[i]) return;
      const found = space.resolve(rec, p);
      const f = bestMatch(ix, found, rec, ownPunct);
      if (!f) return;
      present++;
      const mine = ownPunct(rangeOf(ix, f), rec);
      covered += mine;
      if (found.length > 1) {
        multiMine += mine;
        for (const g of found) multiAll += ownPunct(rangeOf(ix, g), rec);
      }
    });
    if (present < CONTENT_PATH_SUPPORT * withText) continue;
    // One of several like siblings (one `<p>` of many) is a part of the content, not its container;
    // summed over the floors where the step is ambiguous.
    const lastTag = p.slice(p.lastIndexOf('/') + 1).replace(/^\d+:/, '').split('.')[0]!;
    const dominance = PARAGRAPH_TAGS.has(lastTag) ? SIBLING_DOMINANCE : CONTAINER_DOMINANCE;
    if (multiAll > 0 && multiMine < dominance * multiAll) continue;
    cov.set(p, covered / grand);
  }
  // Walk down from the floor root: step to the child path with the most coverage while it keeps
  // CONTENT_DESCEND_KEEP of the current coverage (a user panel or a footer is left behind; a
  // quote that holds a minority of the floors' text is not descended into).
  const parentOf = (p: string): string => {
    const colon = p.indexOf(':');
    const rest = p.slice(colon + 1);
    if (!rest) return '';
    const cut = rest.lastIndexOf('/');
    return p.slice(0, colon + 1) + (cut < 0 ? '' : rest.slice(0, cut));
  };
  const children = new Map<string, string[]>();
  for (const p of cov.keys()) {
    const q = parentOf(p);
    let arr = children.get(q);
    if (!arr) children.set(q, (arr = []));
    arr.push(p);
  }
  let best: string | undefined;
  let current = '';
  let currentCov = 1;
  for (;;) {
    const kids = children.get(current) ?? [];
    let next: string | undefined;
    for (const k of kids) if (!next || cov.get(k)! > cov.get(next)!) next = k;
    if (!next || cov.get(next)! < CONTENT_DESCEND_KEEP * currentCov) break;
    current = next;
    currentCov = cov.get(next)!;
    best = next;
  }
  // Only the floor itself is common to all floors (templates that differ below the root: a
  // question's `postcell` beside an answer's `answercell`): each floor keeps its own content node.
  if (best !== undefined && /^\d+:$/.test(best)) best = undefined;
  const resolved = records.map((rec) => (best !== undefined && rec.roots.length ? space.resolve(rec, best) : []));
  const slot = commonOwnPath(space, records, own, ownPaths);
  const exact = new Map<string, number>();
  for (const p of ownPaths) if (p !== undefined) exact.set(p, (exact.get(p) ?? 0) + 1);
  // A path most other floors have (up to TEMPLATE_PROBE of them looked at) is their template's.
  const templateSlot = (rec: PostRecord, path: string, i: number): boolean => {
    let seen = 0;
    let has = 0;
    for (let j = 0; j < records.length && seen < TEMPLATE_PROBE; j++) {
      if (j === i || !records[j]!.roots.length) continue;
      seen++;
      if (space.resolve(records[j]!, path).length) has++;
    }
    return seen >= MIN_NOMINATIONS && has * 2 > seen && rec.roots.length > 0;
  };
  const ordinal = siblingOrdinal(ix, records, resolved, ownPunct);
  return records.map((rec, i) => {
    if (best !== undefined && rec.roots.length) {
      const found = resolved[i]!;
      if (found.length > 1 && ordinal) {
        // The sibling at the place the floors' text holds (a body row above a signature row).
        const at = ordinal.fromEnd ? found.length - 1 - ordinal.k : ordinal.k;
        if (at >= 0 && at < found.length) return [found[at]!];
      }
      if (found.length) {
        // Several siblings match: the one holding the floor's own content node, else the richest.
        const mine = own[i];
        const at = mine ? ix.page.indexOf(mine) : -1;
        const holder = found.find((f) => rangeOf(ix, f).start <= at && at <= rangeOf(ix, f).end);
        return [holder ?? bestMatch(ix, found, rec, ownPunct)!];
      }
    }
    if (own[i]) {
      // A floor whose punctuation sits in its header ("安息。 2016-09-04", "name，bio" — a member
      // name with a full stop or a comma) while its body is a short reply without any: the header
      // is a slot of the template (most other floors have it) in which no other floor speaks. The
      // floor then reads the slot where the other floors hold their content, when it has text.
      if (slot !== undefined && ownPaths[i] !== undefined && ownPaths[i] !== slot.path && exact.get(ownPaths[i]!) === 1 && templateSlot(rec, ownPaths[i]!, i)) {
        const found = space.resolve(rec, slot.path);
        const at = found.length === 1 ? 0 : slot.ordinal;
        const el = at !== undefined ? found[at] : undefined;
        if (el && collapse(textOf(el)) && !el.children.some((c) => c === own[i])) return [el];
      }
      return [own[i]!];
    }
    // No content node (a short reply without punctuation: "没得", "支持一下"): the slot where the
    // other floors hold theirs, when two or more agree on one and the floor has it once.
    if (slot !== undefined) {
      const found = space.resolve(rec, slot.path);
      // (Several matches: the one at the place the other floors' nodes hold among theirs.)
      const at = found.length === 1 ? 0 : slot.ordinal;
      if (at !== undefined && found[at]) return [found[at]!];
    }
    // Else a one-element floor is its own content; a floor of several rows may hold its text
    // between the rows (bare text nodes), which only the DFS range covers (seed 000's date split,
    // in peakContent).
    return rec.roots.length === 1 ? [...rec.roots] : undefined;
  });
}

/** The content path most floors' own content nodes sit at (at least MIN_NOMINATIONS of them),
 * and the place those nodes hold among the elements at that path in their floor when all agree. */
function commonOwnPath(space: PathSpace, records: PostRecord[], own: Array<Element | undefined>, ownPaths: Array<string | undefined>): { path: string; ordinal?: number } | undefined {
  const n = new Map<string, number>();
  for (const p of ownPaths) if (p !== undefined) n.set(p, (n.get(p) ?? 0) + 1);
  let path: string | undefined;
  let k = MIN_NOMINATIONS - 1;
  for (const [p, c] of n) if (c > k) [path, k] = [p, c];
  if (path === undefined) return undefined;
  const places = new Set<number>();
  ownPaths.forEach((p, i) => {
    if (p === path) places.add(space.resolve(records[i]!, path).indexOf(own[i]!));
  });
  return { path, ordinal: places.size === 1 ? [...places][0]! : undefined };
}

/** The sibling ordinal must hold this share of the punctuation of all floors' matches … */
const ORDINAL_SHARE = 0.6;
/** … in at least this many floors with several matches. */
const ORDINAL_FLOORS = 3;

/**
 * Where the content path matches several siblings in a floor (a body row, then a signature row,
 * both plain `<td>`), the floors' template puts the body at one place among them: the ordinal —
 * counted from the first match or from the last (a floor with an attachment row has one more) —
 * that holds the most punctuation summed over the floors, when it holds most of it. Per floor, the
 * richest match (the rule otherwise) follows whatever a short reply loses to a long signature.
 */
function siblingOrdinal(ix: ThreadIndex, records: PostRecord[], found: Element[][], ownPunct: PunctOf): { k: number; fromEnd: boolean } | undefined {
  const head: number[] = [];
  const tail: number[] = [];
  let total = 0;
  let multi = 0;
  found.forEach((els, i) => {
    if (els.length < 2) return;
    multi++;
    els.forEach((e, j) => {
      const n = ownPunct(rangeOf(ix, e), records[i]);
      total += n;
      head[j] = (head[j] ?? 0) + n;
      tail[els.length - 1 - j] = (tail[els.length - 1 - j] ?? 0) + n;
    });
  });
  if (multi < ORDINAL_FLOORS || !total) return undefined;
  let pick: { k: number; fromEnd: boolean; n: number } | undefined;
  head.forEach((n, k) => {
    if (!pick || n > pick.n) pick = { k, fromEnd: false, n };
  });
  tail.forEach((n, k) => {
    if (!pick || n > pick.n) pick = { k, fromEnd: true, n };
  });
  return pick && pick.n >= ORDINAL_SHARE * total ? { k: pick.k, fromEnd: pick.fromEnd } : undefined;
}

/** The element holding the most punctuation (ties: the first). */
function bestMatch(ix: ThreadIndex, els: Element[], rec?: PostRecord, ownPunct?: PunctOf): Element | undefined {
  let best: Element | undefined;
  let n = -1;
  for (const e of els) {
    const k = ownPunct ? ownPunct(rangeOf(ix, e), rec) : punctMarks(ix, rangeOf(ix, e));
    if (k > n) [best, n] = [e, k];
  }
  return best;
}

/** A quote container holding at least this share of the content's characters is the post body
 * itself (vBulletin renders every post in a `<blockquote class="postcontent">`), not a quote. */
const QUOTE_BODY_SHARE = 0.9;

/** Class/id words of containers quoting another post. */
const QUOTE_OF_POST = /(quote|citation|zitat|引用)/i;

/** A container that quotes another post: a board's quote class, or a `<blockquote>` that names
 * its source (a `<cite>`, a `cite`/`data-author` attribute). A bare `<blockquote>` in a post is
 * the writer's own citation (Markdown's `>`), part of the post's own text. */
function quotesAPost(el: Element): boolean {
  // A quote class (not a generic "code block" class that boards share between quotes and code).
  if (QUOTE_OF_POST.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`)) return true;
  if (el.name !== 'blockquote') return false;
  if (el.attribs.cite || el.attribs['data-author'] || el.attribs['data-quote']) return true;
  for (const c of el.children) if (c instanceof Element && (c.name === 'cite' || (c.name === 'div' && c.children.some((d) => d instanceof Element && d.name === 'cite')))) return true;
  return false;
}

/** The outermost quote container of an element below `root` that is not the body itself. */
function quoteBlockOf(ix: ThreadIndex, el: AnyNode, root: Element, rootChars: number): Element | undefined {
  let found: Element | undefined;
  for (let n: AnyNode | null = el; n && n !== root; n = n.parent) {
    if (!(n instanceof Element)) continue;
    if (!quotesAPost(n)) continue;
    if (chars(ix, rangeOf(ix, n)) >= QUOTE_BODY_SHARE * rootChars) continue;
    found = n;
  }
  return found;
}

/** The echo block (an unmarked quote, `echoBlocks`) holding an element below `root`. */
function echoBlockOf(el: AnyNode, root: Element, echoes: ReadonlySet<Element>): Element | undefined {
  for (let n: AnyNode | null = el; n && n !== root; n = n.parent) if (n instanceof Element && echoes.has(n)) return n;
  return undefined;
}

/** Header lines an unmarked quote opens with at most ("引用[查看原帖]:", "kmcool 2014-7-21
 * 10:09", "alice wrote:"), and their length at most. */
const ECHO_HEADER_LINES = 2;
const ECHO_HEADER_MAX = 40;
/** Characters (spaces aside) the quoted lines hold at least: a one-word reply ("顶") that repeats
 * an earlier one is not a quote of it. */
const ECHO_MIN_CHARS = 5;
/** A line this long may repeat a part of an earlier line (a quote of one sentence); a shorter one
 * must repeat a whole line. */
const ECHO_PART_MIN = 8;
/** Places of a window kept for the search of a repeated line (the latest ones). */
const ECHO_GRAM_PLACES = 4;

const squashed = (t: string) => t.replace(/\s+/g, '');

/** 31 ** (ECHO_PART_MIN - 1) modulo 2 ** 32: the weight of a window's first character. */
const HASH_TOP = Array.from({ length: ECHO_PART_MIN - 1 }).reduce<number>((h) => Math.imul(h, 31), 1);

/** A 32-bit hash of the ECHO_PART_MIN characters of `t` from `j`. */
function windowHash(t: string, j: number): number {
  let h = 0;
  for (let i = j; i < j + ECHO_PART_MIN; i++) h = (Math.imul(h, 31) + t.charCodeAt(i)) | 0;
  return h;
}

/**
 * Quotes without a quote class (old boards render them as a nested table): a block inside a floor's
 * body that opens with one or two short header lines (a label closed by a colon, or the name of
 * an earlier floor's author) and whose other lines all repeat text of earlier floors. Found per floor in page order against the
 * text of the floors before it; the lines of these blocks are then read as quotes (`linesText`).
 */
export function echoBlocks(ix: ThreadIndex, lines: FloorLine[][], authors: ReadonlyArray<string | undefined> = []): Array<Set<Element>> {
  // The earlier floors' lines (squashed), each at its place in their text joined by '\n' (no line
  // holds one: a line repeats text of the earlier ones only inside one of them).
  const earlierLines: string[] = [];
  const starts: number[] = [];
  let size = 0;
  const whole = new Set<string>();
  // Every ECHO_PART_MIN-character window of the earlier lines with where it last occurred in
  // their text (ECHO_GRAM_PLACES places; `more` when it occurred before those too): a line whose
  // first and last windows are not among them repeats nothing, and one that does is looked for at
  // its first window's places — a search through all the lines before it only when the window was
  // seen more often and every window of the line occurs (each line's search from the start made a
  // thread whose replies repeat earlier lines quadratic in its text; so did the search of a line
  // whose first and last windows are common, "Second line of reply 12, …", and which repeats
  // nothing).
  // (Keyed by a hash of the window: windows that share one share its places, so a window may seem
  // to occur where another did — every "yes" is checked on the text, and a window that occurred
  // is always found: the answers are the same as with the windows themselves.)
  const grams = new Map<number, number[]>();
  const more = new Set<number>();
  const startsWithAt = (t: string, at: number) => {
    const li = lowerBound(starts, at + 1) - 1;
    return earlierLines[li]!.startsWith(t, at - starts[li]!);
  };
  const allWindows = (t: string) => {
    for (let j = 1; j + ECHO_PART_MIN < t.length; j++) if (!grams.has(windowHash(t, j))) return false;
    return true;
  };
  const seen = (t: string) => {
    if (whole.has(t)) return true;
    const h = windowHash(t, 0);
    const first = grams.get(h);
    if (!first || !grams.has(windowHash(t, t.length - ECHO_PART_MIN))) return false;
    return first.some((at) => startsWithAt(t, at)) || (more.has(h) && allWindows(t) && earlierLines.some((l) => l.includes(t)));
  };
  // (Answers do not change while a floor is read: the floor's lines join the text after it.)
  let answers = new Map<string, boolean>();
  const seenOnce = (t: string) => {
    let v = answers.get(t);
    if (v === undefined) answers.set(t, (v = seen(t)));
    return v;
  };
  // A short line repeats an earlier one only as a whole line ("hookup" in a sentence is no quote).
  const earlier = { includes: (t: string) => (t.length >= ECHO_PART_MIN ? seenOnce(t) : whole.has(t)) };
  // The names of the floors read so far: a quote's header names whom it quotes.
  const names: string[] = [];
  return lines.map((ls, i) => {
    const found = new Set<Element>();
    if (earlierLines.length && ls.length >= 2) {
      answers = new Map();
      // Candidate blocks: ancestors (below the line's root) of lines that repeat earlier text.
      const seen = new Set<Element>();
      const floor = floorLineTexts(ix, ls);
      for (const [i, { k, root }] of ls.entries()) {
        const t = floor.texts[i]!;
        if (t.length < 2 || !earlier.includes(t)) continue;
        for (let n: AnyNode | null = ix.segments[k]!.element; n && n !== root; n = n.parent) {
          if (!(n instanceof Element) || seen.has(n)) continue;
          seen.add(n);
          if (isEcho(ix, floor, n, earlier, names)) found.add(n);
        }
      }
      // Outermost blocks only.
      for (const e of [...found]) for (let n = e.parent; n; n = n.parent) if (n instanceof Element && found.has(n)) found.delete(e);
    }
    const who = authors[i] && squashed(authors[i]!);
    if (who && who.length >= 2) names.push(who);
    // (No floor after the last one reads its lines.)
    if (i === lines.length - 1) return found;
    for (const l of ls) {
      const t = squashed(l.text ?? ix.segments[l.k]!.text);
      const base = size + 1;
      earlierLines.push(t);
      starts.push(base);
      size = base + t.length;
      whole.add(t);
      // (windowHash(t, j), rolled from j - 1.)
      let g = 0;
      for (let j = 0; j + ECHO_PART_MIN <= t.length; j++) {
        g = j ? (Math.imul((g - Math.imul(t.charCodeAt(j - 1), HASH_TOP)) | 0, 31) + t.charCodeAt(j + ECHO_PART_MIN - 1)) | 0 : windowHash(t, 0);
        const places = grams.get(g);
        if (!places) grams.set(g, [base + j]);
        else if (places.push(base + j) > ECHO_GRAM_PLACES) (places.shift(), more.add(g));
      }
    }
    return found;
  });
}

/** A quote's header line: a label closed by a colon ("引用:", "alice wrote:") or the quoted
 * member's name ("kmcool 2014-7-21 10:09"). */
const isQuoteHeader = (t: string, names: readonly string[]) => /[:：]$/.test(t) || names.some((n) => t.includes(n));

/** A floor's lines squashed, and their positions ordered by page position (for the lines within
 * an element's range: a binary search, not a pass over the floor's lines per element). */
interface FloorLineTexts {
  texts: string[];
  /** Line numbers ordered by their segment's page position. */
  order: number[];
  /** The page position of each line of `order`. */
  pos: number[];
}

function floorLineTexts(ix: ThreadIndex, ls: FloorLine[]): FloorLineTexts {
  const texts = ls.map((l) => squashed(l.text ?? ix.segments[l.k]!.text));
  const order = ls.map((_, i) => i).sort((a, b) => ix.segments[ls[a]!.k]!.index - ix.segments[ls[b]!.k]!.index || a - b);
  return { texts, order, pos: order.map((i) => ix.segments[ls[i]!.k]!.index) };
}

function isEcho(ix: ThreadIndex, floor: FloorLineTexts, el: Element, earlier: { includes(t: string): boolean }, names: readonly string[]): boolean {
  const r = rangeOf(ix, el);
  // the floor's lines within the element, in the floor's order
  const inside = floor.order.slice(lowerBound(floor.pos, r.start), lowerBound(floor.pos, r.end + 1)).sort((a, b) => a - b);
  const texts = inside.map((i) => floor.texts[i]!).filter(Boolean);
  // (The header may itself repeat an earlier quote's: "引用:" opens every quote.)
  for (let h = 1; h <= ECHO_HEADER_LINES && h < texts.length; h++) {
    if (texts[h - 1]!.length > ECHO_HEADER_MAX) return false;
    if (!texts.slice(0, h).some((t) => isQuoteHeader(t, names))) continue;
    const rest = texts.slice(h);
    if (rest.every((t) => t.length >= 2 && earlier.includes(t)) && rest.reduce((n, t) => n + t.length, 0) >= ECHO_MIN_CHARS) return true;
  }
  return false;
}

/** A line of a floor: a segment index and the element it is read under (for quotes). */
export interface FloorLine {
  /** Index into `ix.segments`. */
  k: number;
  /** The content element it was read under (quote blocks are looked for below it). */
  root: Element;
  /** The line's text when it is a part of the segment (an inline body: its own text only). */
  text?: string;
}

/** Inline elements searched for a body inside a one-line floor (levels below the content). */
const INLINE_BODY_LEVELS = 2;
/** An inline body holds at least this share of its line's sentence punctuation … */
const INLINE_BODY_PUNCT = 0.8;
/** … and at most this share of its characters (the rest is the name, the time, the buttons). */
const INLINE_BODY_MAX_SHARE = 0.85;

/** The inline element of a one-line content element that holds its sentences: a comment stream
 * prints "name: <span>what they said</span> 赞[3] 回复 04-25 16:55" on one line. */
function inlineBody(ix: ThreadIndex, el: Element): Element | undefined {
  const [a, b] = segSpan(ix, rangeOf(ix, el));
  // One line as displayed: one segment, or a few cut only by inline images (a badge after the
  // commenter's name: "name <img> : what they said").
  if (b - a < 1 || b - a > INLINE_LINE_SEGMENTS || (b - a > 1 && !imageCutLine(el))) return undefined;
  const line = b - a === 1 ? ix.segments[a]!.text : ix.segments.slice(a, b).map((s) => s.text).join(' ');
  const total = punctIn(line);
  if (!total) return undefined;
  let best: Element | undefined;
  let bestP = 0;
  const walk = (e: Element, depth: number) => {
    for (const c of e.children) {
      if (!(c instanceof Element) || BLOCK_TAGS.has(c.name)) continue;
      const t = collapse(textOf(c));
      const p = punctIn(t);
      if (p > bestP && p >= INLINE_BODY_PUNCT * total && t.length <= INLINE_BODY_MAX_SHARE * line.length) [best, bestP] = [c, p];
      if (depth < INLINE_BODY_LEVELS) walk(c, depth + 1);
    }
  };
  walk(el, 1);
  return best;
}

/** Segments a one-line element may be cut into by its inline images. */
const INLINE_LINE_SEGMENTS = 4;

/** Whether an element's only block-level descendants are images (which the page model reads as
 * blocks of their own): as displayed, one line. */
function imageCutLine(el: Element): boolean {
  for (const c of el.children) {
    if (!(c instanceof Element)) continue;
    if (c.name === 'img') continue;
    if (BLOCK_TAGS.has(c.name) || !imageCutLine(c)) return false;
  }
  return true;
}

/**
 * Content elements narrowed to an inline body where the floors agree on one: most floors with a
 * one-line content element hold their sentences in an inline element of the same signature.
 */
export function inlineBodies(ix: ThreadIndex, content: Array<Element[] | undefined>): Array<Element[] | undefined> {
  const found = content.map((els) => (els?.length === 1 ? inlineBody(ix, els[0]!) : undefined));
  const keys = new Map<string, number>();
  for (const e of found) if (e) keys.set(stepKey(e), (keys.get(stepKey(e)) ?? 0) + 1);
  let key = '';
  let n = 0;
  for (const [k, c] of keys) if (c > n) [key, n] = [k, c];
  if (n < MIN_INLINE_BODIES || n * 2 < content.filter(Boolean).length) return content;
  return content.map((els, i) => {
    if (found[i]) return stepKey(found[i]!) === key ? [found[i]!] : els;
    // A line without sentence marks ("回复@alice:几班的"): the inline element of the agreed kind,
    // when the line holds exactly one.
    const same = els?.length === 1 ? inlineOfKey(els[0]!, key) : undefined;
    return same ? [same] : els;
  });
}

/** The only inline element of a step key within the levels an inline body is looked for at. */
function inlineOfKey(el: Element, key: string): Element | undefined {
  const hits: Element[] = [];
  const walk = (e: Element, depth: number) => {
    for (const c of e.children) {
      if (!(c instanceof Element) || BLOCK_TAGS.has(c.name)) continue;
      if (stepKey(c) === key) hits.push(c);
      if (depth < INLINE_BODY_LEVELS) walk(c, depth + 1);
    }
  };
  if (!imageCutLine(el)) return undefined;
  walk(el, 1);
  return hits.length === 1 && collapse(textOf(hits[0]!)) ? hits[0] : undefined;
}
/** Floors that must agree on an inline body. */
const MIN_INLINE_BODIES = 2;

/** Whether a segment can be a line of a floor's text at all: not in a reply, a form, or hidden. */
export function readable(ix: ThreadIndex, k: number, root: Element, rec?: PostRecord): boolean {
  const seg = ix.segments[k]!;
  if (rec && inReplies(rec, seg.index)) return false;
  // A form inside the post body is a (hidden) quick-reply or poll box, not what was written.
  if (hasAncestor(seg.element, root, (e) => e.name === 'form')) return false;
  // Hidden by an inline style: attachment tooltips and menus shown on hover.
  return !hidden(ix.page, seg.element);
}

/** The lines the rules read as a floor's text: the segments of its content elements, without
 * noise (signatures, buttons), action links, counters and the indices in `skip`. */
export function contentLines(ix: ThreadIndex, els: Element[], rec?: PostRecord, skip?: ReadonlySet<number>): FloorLine[] {
  const out: FloorLine[] = [];
  for (const el of els) {
    if (!BLOCK_TAGS.has(el.name)) {
      // An inline body (inlineBodies): its own text, within the segment that holds it.
      const r = rangeOf(ix, el);
      const k = lowerBound(ix.segStart, r.start + 1) - 1;
      const text = collapse(textOf(el));
      if (k >= 0 && text && segSpan(ix, r)[1] - segSpan(ix, r)[0] === 0) {
        if (readable(ix, k, el, rec)) out.push({ k, root: el, text });
        continue;
      }
    }
    const [a, b] = segSpan(ix, rangeOf(ix, el));
    for (let k = a; k < b; k++) {
      const seg = ix.segments[k]!;
      if (ix.noise[k]) continue;
      if (!readable(ix, k, el, rec)) continue;
      if (ACTION_TEXT.test(seg.text) && seg.linkChars >= seg.text.length / 2) continue;
      if (COUNTER_LINE.test(seg.text)) continue;
      if (skip?.has(seg.index)) continue;
      out.push({ k, root: el });
    }
  }
  return out;
}

/** Plain text of a floor's lines: one per line, ordered-list numbers shown, a usenet signature
 * cut. Lines inside quotes are added to `quoted` (the boilerplate filter must not take a
 * much-quoted post for template) and, one string per quoted passage, to `quotes`. */
export function linesText(ix: ThreadIndex, lines: FloorLine[], quoted?: Set<string>, quotes?: string[], echoes?: ReadonlySet<Element>): string {
  const out: string[] = [];
  let block: Element | undefined;
  let blockLines: string[] = [];
  const endBlock = () => {
    if (block && blockLines.length && quotes) quotes.push(blockLines.join('\n'));
    block = undefined;
    blockLines = [];
  };
  const rootChars = new Map<Element, number>();
  let lastRoot: Element | undefined;
  for (const { k, root, text } of lines) {
    if (root !== lastRoot) endBlock();
    lastRoot = root;
    let rc = rootChars.get(root);
    if (rc === undefined) rootChars.set(root, (rc = chars(ix, rangeOf(ix, root))));
    const seg = ix.segments[k]!;
    const line = text ?? listMarker(ix, seg) + seg.text;
    out.push(line);
    const q = (inQuote(seg.element, root) ? quoteBlockOf(ix, seg.element, root, rc) : undefined) ?? (echoes?.size ? echoBlockOf(seg.element, root, echoes) : undefined);
    if (q !== block) endBlock();
    if (q) {
      block = q;
      blockLines.push(line);
      quoted?.add(line);
    }
  }
  endBlock();
  return cutSignature(out).join('\n');
}

/** Plain text of content elements: paragraphs joined by "\n", noise removed (contentLines, then
 * linesText). */
export function contentText(ix: ThreadIndex, els: Element[], quoted?: Set<string>, rec?: PostRecord, quotes?: string[], skip?: ReadonlySet<number>): string {
  return linesText(ix, contentLines(ix, els, rec, skip), quoted, quotes);
}

/** Items of an ordered list show their number ("1. Download the installer"), as displayed.
 * Numbers are computed once per list (a long list must not cost its length per item) and kept in
 * the page's memo. */
function listMarker(ix: ThreadIndex, seg: Segment): string {
  const listNumbers = ix.page.memo('forum:list-numbers', () => new Map<Element, Map<Element, number>>());
  const li = seg.element;
  const ol = li.parent;
  if (li.name !== 'li' || !(ol instanceof Element) || ol.name !== 'ol') return '';
  let numbers = listNumbers.get(ol);
  if (!numbers) {
    numbers = new Map();
    let n = Number.parseInt(ol.attribs.start ?? '1', 10);
    if (!Number.isFinite(n)) n = 1;
    for (const c of ol.children) if (c instanceof Element && c.name === 'li') numbers.set(c, n++);
    listNumbers.set(ol, numbers);
  }
  const n = numbers.get(li);
  return n === undefined ? '' : `${n}. `;
}

/**
 * Usenet's signature delimiter ("-- "): what follows is the signature, even where the template
 * gives it the body's class. Only when what follows is signature-sized.
 */
function cutSignature(lines: string[]): string[] {
  // Only the usenet delimiter on its own: a drawn rule (dashes, underscores) in one floor also
  // separates the parts of a post ("1. … ---------- 2. …"); a board's rule under several floors
  // is found by cutTemplateSignatures. Measured: drawn rules cut in single floors cost two
  // real-threads pages (text 0.909 -> 0.902) and helped none of the 196 bench pages.
  const at = lastRule(lines, undefined, USENET_RULE);
  if (at < 0) return lines;
  const after = lines.slice(at + 1).join(' ').length;
  const before = lines.slice(0, at).join(' ').length;
  return after <= MAX_SIGNATURE_LENGTH && after < before ? lines.slice(0, at) : lines;
}

function lastRule(lines: string[], rule?: string, pattern: RegExp = SIGNATURE_RULE): number {
  for (let i = lines.length - 1; i >= 0; i--) if (rule === undefined ? pattern.test(lines[i]!) : lines[i] === rule) return i;
  return -1;
}
/** Usenet's signature delimiter (RFC 3676 §4.3: "-- " on a line of its own). */
const USENET_RULE = /^-- ?$/;

/**
 * Signatures under a board's own delimiter: the same rule line ("------------------------------")
 * closing the text of several floors is the template's signature separator, and what follows it
 * is the signature even when it is longer than a one-line post ("楼主有病!" above a signature
 * image). Applied to the floors' texts ("\n"-joined lines) once all are read.
 */
export function cutTemplateSignatures(texts: string[]): string[] {
  const floorsWith = new Map<string, number>();
  for (const t of texts) for (const l of new Set(t.split('\n'))) if (SIGNATURE_RULE.test(l) && l.trim().length >= MIN_TEMPLATE_RULE) floorsWith.set(l, (floorsWith.get(l) ?? 0) + 1);
  const rules = [...floorsWith].filter(([, n]) => n >= MIN_SIGNED_FLOORS).map(([l]) => l);
  if (!rules.length) return texts;
  return texts.map((t) => {
    const lines = t.split('\n');
    for (const rule of rules) {
      const at = lastRule(lines, rule);
      if (at <= 0) continue;
      if (lines.slice(at + 1).join(' ').length <= MAX_SIGNATURE_LENGTH) return lines.slice(0, at).join('\n');
    }
    return t;
  });
}
/** A rule line repeated in this many floors is the template's signature delimiter… */
const MIN_SIGNED_FLOORS = 2;
/** …when it is a drawn rule (ten characters or more), not usenet's short "-- ". */
const MIN_TEMPLATE_RULE = 10;


/** Seed 000 for floors without structure: the date splits the block; the half with more text is
 * the body. */
export function peakContent(ix: ThreadIndex, rec: PostRecord, anchor: DateAnchor | undefined): string {
  const segs = segmentsIn(ix, rec.range);
  if (!anchor) return segs.map((s) => s.text).join('\n');
  const k = segs.findIndex((s) => s.index >= anchor.index);
  const before = segs.slice(0, Math.max(0, k));
  const after = segs.slice(Math.max(0, k) + 1);
  const size = (xs: Segment[]) => xs.reduce((a, s) => a + s.text.length - s.linkChars, 0);
  return (size(after) >= size(before) ? after : before)
    .filter((s) => !COUNTER_LINE.test(s.text) && !(ACTION_TEXT.test(s.text) && s.linkChars >= s.text.length / 2))
    .map((s) => s.text)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Dates

/** Weights of the date path vote: how many floors show a date there (coverage), whether those
 * dates never go back in time down the page (posts are in time order; join dates are not), and a
 * small preference for absolute dates over a relative twin ("1 month ago" beside "20 April 2020"). */
const DATE_MONOTONIC_WEIGHT = 0.5;
const DATE_ABSOLUTE_WEIGHT = 0.1;

export function chooseDates(ix: ThreadIndex, records: PostRecord[], anchors: DateAnchor[], content: Array<Element[] | undefined>): Array<DateAnchor | undefined> {
  const space = new PathSpace();
  const starts = anchors.map((a) => a.index);
  const labelled = (x: DateAnchor): boolean => !!x.joined;
  const perRecord = records.map((rec, i) => {
    const a = lowerBound(starts, rec.range.start);
    const b = lowerBound(starts, rec.range.end + 1);
    const ranges = (content[i] ?? []).map((e) => rangeOf(ix, e));
    const xs = anchors
      .slice(a, b)
      .filter((x) => !x.prose && !ranges.some((r) => r.start <= x.index && x.index <= r.end) && !inReplies(rec, x.index) && !inQuote(x.element, rec.roots[0]?.parent ?? null) && !labelled(x));
    // An edit time only when the floor shows no other date.
    const written = xs.filter((x) => !x.edited);
    return written.length ? written : xs;
  });
  // Per path: the floors' anchors there (first one per floor).
  const byPath = new Map<string, Array<DateAnchor | undefined>>();
  perRecord.forEach((xs, i) => {
    for (const x of xs) {
      const p = space.pathIn(records[i]!, x.element);
      if (!p) continue;
      let arr = byPath.get(p);
      if (!arr) byPath.set(p, (arr = new Array(records.length).fill(undefined)));
      if (!arr[i] || (arr[i]!.edited && !x.edited)) arr[i] = x;
    }
  });
  let best: string | undefined;
  let bestScore = -Infinity;
  for (const [p, arr] of byPath) {
    const present = arr.filter((x): x is DateAnchor => !!x);
    const coverage = present.length / records.length;
    let ordered = 0;
    let pairs = 0;
    for (let k = 1; k < present.length; k++) {
      const a = present[k - 1]!.iso;
      const b = present[k]!.iso;
      if (!a || !b) continue;
      pairs++;
      if (Date.parse(b) >= Date.parse(a)) ordered++;
    }
    const monotonic = pairs ? ordered / pairs : 1;
    const absolute = present.filter((x) => !x.relative).length / Math.max(1, present.length);
    const score = coverage + DATE_MONOTONIC_WEIGHT * monotonic + DATE_ABSOLUTE_WEIGHT * absolute;
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return perRecord.map((xs, i) => {
    if (best) {
      const hit = byPath.get(best)![i];
      if (hit) return hit;
    }
    // No date at the voted path (a main post in a template of its own): the first absolute date,
    // else the first one.
    if (xs[0]) return xs.find((x) => !x.relative) ?? xs[0];
    // Only dates inside the content (or quotes): the first one that is not prose.
    const a = lowerBound(starts, records[i]!.range.start);
    const b = lowerBound(starts, records[i]!.range.end + 1);
    return anchors.slice(a, b).find((x) => !x.prose);
  });
}

// ---------------------------------------------------------------------------------------------
// Authors

export interface AuthorPick {
  name?: string;
  url?: string;
}

interface AuthorCandidate {
  el: Element;
  name: string;
  url?: string;
  path?: string;
  /** Link to a profile (stronger than a class hint). */
  linked: boolean;
  /** A bare short line (no link, no class hint): the weakest kind. */
  slot?: boolean;
  /** A profile link whose text is a number ("7"): a name only at the slot the other floors' names
   * voted for (elsewhere it is a count). */
  digits?: boolean;
}

/** Whether a short text of the header (a line, an inline element) could be a member's name at the
 * name slot: not a label, a control, a floor label, a time or a year — nor a line that carries a floor
 * number (the floor's label or tail: "来自iPhone客户端28楼", "#12 回复"). */
function slotName(t: string): boolean {
  if (t.length < 2 || t.length > MAX_AUTHOR_LENGTH || NOT_A_NAME.test(t) || ACTION_TEXT.test(t) || FLOOR_TEXT.test(t)) return false;
  return !/\d{1,2}:\d{2}|\d{4}/.test(t) && !FLOOR_IN_LINE.test(t);
}

/** A number as a display name ("7"): taken only from a profile link at the voted name slot. */
const DIGIT_NAME = /^\d{1,12}$/;
/** Han characters glued to a number ("下次再见123"): a name or a counter (see `digits` below). */
const HAN_HANDLE = /^\p{Script=Han}{1,4}\d+$/u;
/** "Label: value" lines of user panels ("Beiträge: 15") and pure numbers are never names. */
const NOT_A_NAME = /(\S[:：]\s|[:：]\s*\d|^[\d\s.,:#+-]+$|^[←→«»‹›↑↓<>^]|^\p{Script=Han}{1,4}\s*\d+$)/u;
/** An author label before the name ("作者： 6xy", "Posted by alice"): the name is what follows. */
const AUTHOR_LABEL = /^(?:作者|发帖人|發帖人|发表人|發表人|发信人|發信人|楼主|樓主|author|posted by|by|von|par|por)\s*[:：]?\s+|^(?:作者|发帖人|发表人|发信人|来自|來自|author|from)\s*[:：]\s*/i;
/** A byline in the line of the post's date ("发布时间 2005/03/16 01:08:28 by mi来mi去"). */
const DATE_LINE_BYLINE = /(?:^|\s)(?:by|von|par|por|作者[:：]?|发信人[:：]?|發信人[:：]?)\s*([^\s〓|｜,，;；]{1,30})/iu;

function unlabel(name: string): string {
  return name.replace(AUTHOR_LABEL, '').trim();
}

function authorCandidates(ix: ThreadIndex, space: PathSpace, rec: PostRecord, content: Element[] | undefined): AuthorCandidate[] {
  const out: AuthorCandidate[] = [];
  const contentRanges = (content ?? []).map((e) => rangeOf(ix, e));
  // The content holds every line of the floor (a one-line reply): names in it may be its author.
  const [fa, fb] = segSpan(ix, rec.range);
  const wholeFloor = fb > fa && contentRanges.some((c) => {
    const [ca, cb] = segSpan(ix, c);
    return ca <= fa && cb >= fb;
  });
  const quoteRoot = rec.roots[0]?.parent ?? null;
  const page = ix.page;
  const r = rec.range;
  for (let i = r.start; i <= r.end && i < page.nodes.length; i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element)) continue;
    // Names inside the content are mentions, unless the content is the whole floor (a one-line
    // reply "路人甲：说得对。"): then a profile link there is its author. So is a profile link that
    // opens the content's first line as "name: …" (a comment stream's item).
    if (!wholeFloor && contentRanges.some((c) => c.start <= i && i <= c.end) && !opensLine(ix, contentRanges, n)) continue;
    if (inReplies(rec, i)) continue;
    const href = n.name === 'a' ? page.resolve(n.attribs.href) : undefined;
    const isProfileLink = !!href && isProfileUrl(href);
    const hinted = !isProfileLink && !wholeFloor && AUTHOR_HINT.test(attrText(n));
    if (!isProfileLink && !hinted) continue;
    // A name holder is small; reading the text of a big hinted wrapper ("user-panel") for every
    // such element would be quadratic.
    if (ix.end[i]! - i > MAX_AUTHOR_NODES) continue;
    // A hinted holder whose text lies on several lines is a user panel (level, points, title),
    // not a name; a profile link inside it is tried on its own.
    if (hinted && n.name !== 'a' && segSpan(ix, rangeOf(ix, n)).reduce((a, b) => b - a) > 1) continue;
    const name = unlabel(collapse(textOf(n)));
    // A profile link reading a number, or a few Han characters glued to one ("下次再见123",
    // "红黑军团810" — or a counter, "收藏3"), is taken only at the name slot the other floors voted for.
    const digits = isProfileLink && (DIGIT_NAME.test(name) || HAN_HANDLE.test(name));
    // (A button is never a name, whatever its class or link says: "Reply" in a `reply-user` box;
    // nor is a role badge that names the floor: "楼主".)
    if (!name || name.length > MAX_AUTHOR_LENGTH || (NOT_A_NAME.test(name) && !digits) || ACTION_TEXT.test(name) || FLOOR_TEXT.test(name)) continue;
    if (inQuote(n, quoteRoot)) continue;
    let url: string | undefined;
    if (isProfileLink) url = href;
    else if (n.name === 'a' && href) url = href; // `<a class="user" href="/olaolex">`: the author's own link
    else {
      // A hinted holder may wrap the profile link.
      const link = findProfileLink(n);
      if (link) url = page.resolve(link.attribs.href);
    }
    out.push({ el: n, name, url, path: space.pathIn(rec, n), linked: isProfileLink, digits });
  }
  // Innermost holders only: "djatcan Stammgast" (name + user title) gives way to the name inside
  // it, which inherits the profile URL of a wrapping link.
  const kept = out.filter((c) => {
    const cr = rangeOf(ix, c.el);
    const inner = out.find((d) => d !== c && cr.start < ix.page.indexOf(d.el) && ix.page.indexOf(d.el) <= cr.end);
    if (!inner) return true;
    if (!inner.url && c.url) inner.url = c.url;
    if (c.linked) inner.linked = true;
    return false;
  });
  if (kept.length) return kept;
  // No link or class names the author: short name-like lines outside the content (the "name slot"
  // found by the vote across floors).
  for (const seg of segmentsIn(ix, r)) {
    if (contentRanges.some((c) => c.start <= seg.index && seg.index <= c.end)) continue;
    if (inReplies(rec, seg.index)) continue;
    const t = unlabel(seg.text);
    if (!slotName(t)) continue;
    kept.push({ el: seg.element, name: t, path: space.pathIn(rec, seg.element), linked: false, slot: true });
  }
  // …and short inline elements of the header line ("2004-12-27 12:46 <a>flyingbirds</a>", a name
  // link without href or to the writer's own page: a blog comment's name; not a link to this very
  // page, a permalink): the vote keeps the slot whose text varies from floor to floor.
  for (let i = r.start; i <= r.end && i < page.nodes.length; i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || !INLINE_NAME_TAGS.has(n.name) || (n.attribs.href && !elsewhere(page.url, n.attribs.href, page.resolve(n.attribs.href)))) continue;
    if (contentRanges.some((c) => c.start <= i && i <= c.end) || inReplies(rec, i)) continue;
    if (ix.end[i]! - i > MAX_INLINE_NAME_NODES) continue;
    const t = unlabel(collapse(textOf(n)));
    if (!slotName(t)) continue;
    kept.push({ el: n, name: t, path: space.pathIn(rec, n), linked: false, slot: true });
  }
  return kept;
}

/** Whether a link opens the first line of the content as "name: …". */
function opensLine(ix: ThreadIndex, contentRanges: Range[], a: Element): boolean {
  if (a.name !== 'a' || !contentRanges.length) return false;
  const [k] = segSpan(ix, contentRanges[0]!);
  const seg = ix.segments[k];
  if (!seg) return false;
  const name = collapse(textOf(a));
  return !!name && seg.text.startsWith(name) && /^\s?[:：]/.test(seg.text.slice(name.length));
}

/** Whether a link leads to another page (not a permalink or an anchor of this one, not script). */
function elsewhere(pageUrl: string, raw: string, href: string | undefined): boolean {
  if (!href || /^\s*(#|javascript:)/i.test(raw)) return false;
  try {
    const u = new URL(href);
    const p = new URL(pageUrl);
    return /^https?:$/.test(u.protocol) && (u.hostname !== p.hostname || u.pathname !== p.pathname);
  } catch {
    return false;
  }
}

/** Inline holders of a bare name, and how small they are (a name, perhaps in a `<b>`). */
const INLINE_NAME_TAGS = new Set(['a', 'span', 'b', 'strong', 'em', 'font', 'cite']);
const MAX_INLINE_NAME_NODES = 3;

export function isProfileUrl(href: string): boolean {
  try {
    const u = new URL(href);
    // A login or sign-up link under /user/ ("/user/login?destination=…") is nobody's profile.
    return PROFILE_HREF.test(u.pathname + u.search) && !LOGIN_HREF.test(u.pathname);
  } catch {
    return false;
  }
}

/** A display name as a profile key: a short run without spaces, not a number. */
const KEY_NAME = /^[^\s/?#&=]{2,40}$/u;

/**
 * A link that names itself: its text, a user name, is also the key of the page it leads to — a
 * path segment (`/~alice`, `/people/alice`) or a query value (`people?u=alice`, `space.php?name=alice`).
 * Profile pages are keyed by the member's name on boards whose profile path no list knows; a
 * content link's text ("python", a thread title) is rarely its whole key, and where it is (a tag),
 * the author vote still asks that the name differ from floor to floor. Only links on the page's
 * own host.
 */
export function selfNamedLink(name: string, href: string, pageUrl: string): boolean {
  const t = name.trim().toLowerCase();
  if (!KEY_NAME.test(t) || DIGIT_NAME.test(t)) return false;
  // (Most links do not carry their text: told without parsing.)
  const h = href.toLowerCase();
  if (!h.includes(t) && !h.includes(encodeURIComponent(t).toLowerCase())) return false;
  let u: URL;
  try {
    u = new URL(href);
    // A member's page is on the board's own host (a dictionary link in a signature,
    // `dict.example.org/?word=endanger` reading "endanger", is not).
    if (u.hostname !== new URL(pageUrl).hostname) return false;
  } catch {
    return false;
  }
  if (LOGIN_HREF.test(u.pathname)) return false;
  const dec = (x: string) => {
    try {
      return decodeURIComponent(x).toLowerCase();
    } catch {
      return x.toLowerCase();
    }
  };
  // A value may carry a suffix after a separator the page's script adds ("alice#bl").
  const same = (v: string) => {
    const d = dec(v).replace(/^~/, '');
    return d === t || d.split(/[#;|]/)[0] === t;
  };
  if (u.pathname.split('/').some((seg) => seg && same(seg))) return true;
  for (const v of u.searchParams.values()) if (same(v)) return true;
  return false;
}

function findProfileLink(el: Element): Element | undefined {
  const stack: Element[] = [el];
  while (stack.length) {
    const e = stack.pop()!;
    if (e.name === 'a' && e.attribs.href && PROFILE_HREF.test(e.attribs.href.replace(/^[./]*/, '/')) && !LOGIN_HREF.test(e.attribs.href.split('?')[0]!)) return e;
    for (const c of elementChildren(e)) stack.push(c);
  }
  return undefined;
}

const AUTHOR_ATTRS = ['data-author', 'data-username', 'data-user-name', 'data-poster', 'data-author-name'];

function declaredAuthor(rec: PostRecord): string | undefined {
  for (const r of rec.roots) {
    for (const a of AUTHOR_ATTRS) {
      const v = r.attribs[a]?.trim();
      if (v && v.length <= MAX_AUTHOR_LENGTH && !/^\d+$/.test(v)) return v;
    }
  }
  return undefined;
}

/** Preference of a profile link over a class-hinted holder, and of both over a bare name slot,
 * in the author path vote (added to the share of floors having the path). */
const AUTHOR_LINK_BONUS = 0.3;
const AUTHOR_SLOT_PENALTY = 0.5;
/** A path holding three or more different profile links in one floor is a list of people (the members who
 * liked or voted for the post, "崔海亮、社精、之乎者也 等人赞同"), not the one who wrote it: the
 * share of a path's floors that show it so is taken off its vote, times this. (An editor's name
 * beside the writer's at the same path is the exception of a few floors.) */
const AUTHOR_LIST_PENALTY = 0.6;
/** Different names at one path of a floor that make a list of people (two may be the writer and
 * an editor, or a name and its handle). */
const LIST_NAMES = 3;

/** Steps at the end of the voted author path that a floor of another template must share for its
 * name to count as the same slot (user block / name holder / link). */
const AUTHOR_PATH_TAIL = 3;

export function chooseAuthors(ix: ThreadIndex, records: PostRecord[], content: Array<Element[] | undefined>, dates: Array<DateAnchor | undefined> = []): AuthorPick[] {
  const space = new PathSpace();
  const cands = records.map((rec, i) => authorCandidates(ix, space, rec, content[i]));
  // Vote: per path, the share of floors having a candidate there, with the link bonus; a name slot
  // must vary across floors (a constant line is a label such as "Offline").
  const stats = new Map<string, { floors: number; linked: number; slot: number; many: number; values: Set<string> }>();
  cands.forEach((cs) => {
    const seen = new Map<string, Set<string>>();
    for (const c of cs) {
      if (!c.path || c.digits) continue;
      const names = seen.get(c.path);
      if (names) {
        // (Counted once per floor: at the LIST_NAMES-th different name at the path.)
        if (c.linked && !names.has(c.name)) {
          names.add(c.name);
          if (names.size === LIST_NAMES) stats.get(c.path)!.many++;
        }
        continue;
      }
      seen.set(c.path, new Set(c.linked ? [c.name] : []));
      let st = stats.get(c.path);
      if (!st) stats.set(c.path, (st = { floors: 0, linked: 0, slot: 0, many: 0, values: new Set() }));
      st.floors++;
      if (c.linked) st.linked++;
      if (c.slot) st.slot++;
      st.values.add(c.name);
    }
  });
  let best: string | undefined;
  let bestScore = -Infinity;
  let bestLinked = false;
  for (const [p, st] of stats) {
    // The same text at a path in every one of several floors is a label ("Offline", a role
    // badge linking to its help page), not who wrote each post.
    if (records.length >= 3 && st.floors >= 3 && st.values.size < 2) continue;
    const score = st.floors / records.length + AUTHOR_LINK_BONUS * (st.linked / st.floors) - AUTHOR_SLOT_PENALTY * (st.slot / st.floors) - AUTHOR_LIST_PENALTY * (st.many / st.floors);
    if (score > bestScore) [best, bestScore, bestLinked] = [p, score, st.linked > st.floors / 2];
  }
  return cands.map((cs, i) => {
    // Templates that name the author on the post container (`data-author="alice"`, XenForo and
    // others) say it outright; the profile link is the one whose text is that name.
    const declared = declaredAuthor(records[i]!);
    if (declared) {
      const link = cs.find((c) => c.url && c.name === declared) ?? cs.find((c) => c.url && c.linked && c.name.includes(declared));
      return { name: declared, url: link?.url };
    }
    // Several names at the voted slot (an editor's signature beside the writer's): the one nearest
    // the floor's own date, which the date vote chose apart from edit times (a name and a time
    // form one header).
    const atBest = best ? cs.filter((c) => c.path === best) : [];
    const date = dates[i];
    const nearest = (xs: AuthorCandidate[]): AuthorCandidate | undefined => {
      if (xs.length < 2 || !date) return xs[0];
      // The name sharing the smallest container with the date (its signature block), then the
      // closest in page order.
      const depth = new Map<AnyNode, number>();
      let d0 = 0;
      for (let n: AnyNode | null = date.element; n; n = n.parent) depth.set(n, d0--);
      let pick = xs[0]!;
      let best: [number, number] = [-Infinity, Infinity];
      for (const c of xs) {
        let n: AnyNode | null = c.el;
        while (n && !depth.has(n)) n = n.parent;
        const shared = n ? depth.get(n)! : -Infinity;
        const dist = Math.abs(ix.page.indexOf(c.el) - date.index);
        if (shared > best[0] || (shared === best[0] && dist < best[1])) [pick, best] = [c, [shared, dist]];
      }
      return pick;
    };
    // A floor rendered by a template of its own (a question above answers) lacks the voted path:
    // the names whose path ends like it (the same signature block), then linked names, then any.
    const tail = best ? best.split('/').slice(-AUTHOR_PATH_TAIL).join('/') : undefined;
    // (Asked only of floors that lack the voted path, when the path is a link inside a holder.)
    const linkPath = best && bestLinked ? best : undefined;
    const named = cs.filter((c) => !c.digits);
    const alike = tail ? named.filter((c) => c.path?.endsWith(tail)) : [];
    // The voted slot's holder present with a bare name and no link (an anonymous or deleted
    // member: "<h3 class=author-wrap>匿名用户</h3>" where the others hold their profile link):
    // that name, before any other floor's link.
    const bare = !atBest.length && !alike.length && linkPath ? bareHolderName(ix, space, records[i]!, linkPath) : undefined;
    if (bare) return { name: bare };
    const hit = nearest(atBest) || nearest(alike) || nearest(named.filter((c) => c.linked)) || nearest(named.filter((c) => !c.slot));
    // Boards without member links often sign the post in its date line: that byline is surer
    // than a name slot or a class-hinted link.
    if (!hit?.linked && date) {
      const line = ix.segments[lowerBound(ix.segStart, date.index + 1) - 1]?.text ?? '';
      const at = line.indexOf(date.text);
      const m = at >= 0 ? DATE_LINE_BYLINE.exec(line.slice(at + date.text.length)) : null;
      if (m && !NOT_A_NAME.test(m[1]!)) return { name: m[1]! };
    }
    if (!hit) {
      // No name holder at all where the other floors have one (an anonymous or deleted member:
      // no link, no panel): the name that opens the floor's date line ("匿名用户-E3K6F
      // 2025-12-12 15:01:49 | 倒序浏览"). (Not where no floor names anyone: a list of dated
      // lines is not a thread of anonymous posts.)
      const name = date && best !== undefined ? nameBeforeDate(ix, date) : undefined;
      return name ? { name } : {};
    }
    return { name: hit.name, url: hit.url };
  });
}

/** Elements of a floor searched for the voted slot's holder (it sits in the floor's header). */
const HOLDER_SCAN = 400;

/** Levels above the voted author link searched for its holder (a name link inside a hover card
 * inside the name's box: the box holds the bare name of a deleted member). */
const HOLDER_LEVELS = 3;

/** The bare name in the holder of the voted author link in a floor that lacks the link: the
 * nearest ancestor of the link's path that the floor shows, if it holds a short name-like text
 * and no link. */
function bareHolderName(ix: ThreadIndex, space: PathSpace, rec: PostRecord, linkPath: string): string | undefined {
  const root = linkPath.indexOf(':');
  let path = linkPath;
  for (let level = 0; level < HOLDER_LEVELS; level++) {
    const cut = path.lastIndexOf('/');
    if (cut <= root) return undefined;
    path = path.slice(0, cut);
    const el = elementAtPath(ix, space, rec, path);
    if (el !== undefined) return el ? bareName(ix, el) : undefined;
  }
  return undefined;
}

/** The first element of a floor's header at a path (null: inside the floor's replies). */
function elementAtPath(ix: ThreadIndex, space: PathSpace, rec: PostRecord, path: string): { i: number; n: Element } | null | undefined {
  const page = ix.page;
  const end = Math.min(rec.range.end, rec.range.start + HOLDER_SCAN, page.nodes.length - 1);
  for (let i = rec.range.start; i <= end; i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || space.pathIn(rec, n) !== path) continue;
    return inReplies(rec, i) ? null : { i, n };
  }
  return undefined;
}

function bareName(ix: ThreadIndex, at: { i: number; n: Element }): string | undefined {
  const page = ix.page;
  const { i, n } = at;
  if (ix.end[i]! - i > MAX_AUTHOR_NODES) return undefined;
  for (let j = i + 1; j <= ix.end[i]!; j++) {
    const d = page.nodes[j];
    if (d instanceof Element && d.name === 'a' && d.attribs.href && !/^\s*(#|javascript:)/i.test(d.attribs.href)) return undefined;
  }
  const t = unlabel(collapse(textOf(n)));
  if (t.length < 2 || t.length > MAX_AUTHOR_LENGTH || NOT_A_NAME.test(t) || ACTION_TEXT.test(t) || FLOOR_TEXT.test(t) || /\d{1,2}:\d{2}|\d{4}/.test(t) || punctIn(t)) return undefined;
  return t;
}

/** A label that introduces a date ("发表于 2025-…", "Posted on …"): cut from the end of the text
 * before the date, which may then be the name ("匿名用户-E3K6F 发表于 2025-12-12 15:01"). */
const DATE_LABEL_END = /(?:(?:^|\s)(?:posted|post|on|at|am|le|el|date|datum|edited|asked|answered|commented|replied|updated|modified|created|published|submitted|wrote|said)|发表|發表|发布|發佈|发帖|回复|回覆|时间|時間|日期|编辑|編輯|(?:^|\s)(?:于|於))\s*(?:于|於)?\s*[:：]?$/i;
/** Words of a name at most (a display name, not a sentence). */
const NAME_WORDS = 3;

/** The name-like text before a date in its own line, if any. */
function nameBeforeDate(ix: ThreadIndex, date: DateAnchor): string | undefined {
  return nameBeforeDateIn(ix.segments[lowerBound(ix.segStart, date.index + 1) - 1]?.text ?? '', date.text);
}

/** The name-like text before a date's text in a line ("来自: 没猫 2021-10-07 20:59:34"), if any. */
export function nameBeforeDateIn(line: string, dateText: string): string | undefined {
  const at = line.indexOf(dateText);
  if (at <= 0) return undefined;
  const trim = (x: string) => x.replace(/[\s|｜·•,，:：@\-–—]+$/u, '').trim();
  let t = trim(line.slice(0, at));
  for (let k = 0; k < 3 && DATE_LABEL_END.test(t); k++) t = trim(t.replace(DATE_LABEL_END, ''));
  t = unlabel(t);
  if (t.length < 2 || t.length > MAX_AUTHOR_LENGTH || t.split(/\s+/).length > NAME_WORDS) return undefined;
  if (NOT_A_NAME.test(t) || ACTION_TEXT.test(t) || FLOOR_TEXT.test(t) || /\d{1,2}:\d{2}|\d{4}/.test(t) || punctIn(t)) return undefined;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Floor numbers

export function chooseFloors(ix: ThreadIndex, records: PostRecord[], content: Array<Element[] | undefined>): Array<number | undefined> {
  const floors = records.map((rec, i) => {
    const ranges = (content[i] ?? []).map((e) => rangeOf(ix, e));
    for (const seg of segmentsIn(ix, rec.range)) {
      if (ranges.some((r) => r.start <= seg.index && seg.index <= r.end)) continue;
      if (inReplies(rec, seg.index)) continue;
      if (seg.text.length > FLOOR_LINE_MAX) continue;
      // The floor label is part of a short header line, often glued to its neighbours by inline
      // markup ("来自Android客户端1楼2017-01-09 15:42", "8:02am#1").
      const m = FLOOR_IN_LINE.exec(seg.text);
      if (!m) continue;
      const v = m[1] ?? m[2] ?? m[3] ?? m[4];
      return v ? Number(v) : FLOOR_NAMES[m[5]!];
    }
    return undefined;
  });
  // Displayed floors must increase down the page; otherwise they are something else (ids, counts).
  const known = floors.filter((f): f is number => f !== undefined);
  if (known.length < Math.ceil(records.length / 2)) return records.map(() => undefined);
  for (let i = 1; i < known.length; i++) if (known[i]! <= known[i - 1]!) return records.map(() => undefined);
  return floors;
}

