/**
 * Per-site floor layout (issue 18, item 2; the seeds' site-template idea applied to floors).
 *
 * Pages of one forum are rendered by one template: once a few thread pages agree on the element
 * that holds a floor (its tag and class set, e.g. `div.post` or `article.message`), later pages
 * of the site look for that element first. The learned layout enters the page analysis as one
 * more candidate list, weighted up, so that it settles what a page alone leaves open (a thread of
 * two posts beside a dated widget, a thread of only its main post) while a page that disagrees — a
 * redesign, another kind of page — has no such elements, or fails the same checks as any
 * candidate, and is analysed on its own. The state is small JSON kept in the site state.
 */
import type { Element } from 'domhandler';
import { CLASS_SIMILARITY, classTokens, jaccard, type PostRecord } from './dom.js';

/** What a site's floors look like: the floor element's tag and digit-free class set. */
export interface FloorLayout {
  /** `tag.class1.class2` (classes sorted, digits stripped), as `stepKey` writes it. */
  key: string;
}

interface LayoutCount {
  key: string;
  /** Pages whose floors had this layout. */
  pages: number;
  /** Pages seen since this layout was last seen (for forgetting). */
  idle: number;
}

export interface FloorLayoutState {
  version: 1;
  layouts: LayoutCount[];
}

/** Pages that must agree before a layout is used: two, so that one odd page teaches nothing. */
export const LAYOUT_MIN_PAGES = 2;
/** Layouts kept per site (a forum with a thread template and a Q&A template has two). */
const MAX_LAYOUTS = 4;
/** A layout no page has shown for this many pages is forgotten (a redesign replaced it). */
const LAYOUT_IDLE_LIMIT = 50;

/** The layout of a page's floors: the majority signature of their single root elements. Floors
 * cut by position (headers, peaks) or of several rows have none. */
export function describeLayout(records: readonly PostRecord[]): FloorLayout | undefined {
  const counts = new Map<string, number>();
  for (const r of records) {
    if (r.roots.length !== 1 || r.via === 'headers' || r.via === 'peaks') continue;
    const k = layoutKey(r.roots[0]!);
    if (!k) continue;
    const same = [...counts.keys()].find((x) => sameLayout(x, k)) ?? k;
    counts.set(same, (counts.get(same) ?? 0) + 1);
  }
  let best: string | undefined;
  let n = 0;
  for (const [k, c] of counts) if (c > n) [best, n] = [k, c];
  // The majority must be most of the floors (a main post of its own template is allowed).
  return best && n * 2 > records.length ? { key: best } : undefined;
}

/** The key of an element: tag plus its sorted digit-free classes, else its id pattern
 * (`div#post_#`); undefined for a bare element (a `div` says nothing about a template). */
export function layoutKey(el: Element): string | undefined {
  const cls = classTokens(el);
  if (cls.length) return `${el.name}.${cls.join('.')}`;
  const id = el.attribs.id;
  return id && /\d/.test(id) ? `${el.name}#${id.replace(/\d+/g, '#')}` : undefined;
}

/** Two keys name the same template slot when their tags (and id patterns) match and their class
 * sets overlap as much as siblings of one list must (records.ts CLASS_SIMILARITY: `post bg1
 * firstpost` is `post bg2`; a post's `old`/`new` read state does not make another template). */
export function sameLayout(a: string, b: string): boolean {
  if (a === b) return true;
  const [ta, ...ca] = a.split('.');
  const [tb, ...cb] = b.split('.');
  if (ta !== tb || a.includes('#') || b.includes('#')) return false;
  return jaccard(ca, cb) >= CLASS_SIMILARITY;
}

/** Learner over a site's pages; serialises to `FloorLayoutState`. */
export class FloorLayoutLearner {
  private layouts: LayoutCount[];

  constructor(state?: unknown) {
    const s = state as Partial<FloorLayoutState> | undefined;
    this.layouts = Array.isArray(s?.layouts) ? s.layouts.filter((l) => typeof l?.key === 'string' && Number.isFinite(l.pages)).map((l) => ({ key: l.key, pages: l.pages, idle: l.idle ?? 0 })) : [];
  }

  /** Count a page's layout (or a page without one: every layout idles). */
  observe(layout: FloorLayout | undefined): void {
    for (const l of this.layouts) l.idle++;
    if (layout) {
      let hit = this.layouts.find((l) => sameLayout(l.key, layout.key));
      if (!hit) this.layouts.push((hit = { key: layout.key, pages: 0, idle: 0 }));
      hit.pages++;
      hit.idle = 0;
    }
    this.layouts = this.layouts.filter((l) => l.idle < LAYOUT_IDLE_LIMIT).sort((a, b) => b.pages - a.pages).slice(0, MAX_LAYOUTS);
  }

  /** Layouts agreed on by enough pages, most pages first. */
  learned(): FloorLayout[] {
    return this.layouts.filter((l) => l.pages >= LAYOUT_MIN_PAGES).map((l) => ({ key: l.key }));
  }

  toJSON(): FloorLayoutState {
    return { version: 1, layouts: this.layouts };
  }
}
