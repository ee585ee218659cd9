/**
 * htmlparser2 in linear time on deep documents.
 *
 * htmlparser2 10.1 keeps its open-element stack top-first in a plain array (`unshift` to open,
 * `shift` to close, `indexOf` to match a close tag): each step costs O(depth), so 200,000 nested
 * `<div>`s (2.2 MB) took 19.7 s to parse (issue 14). `TopFirstStack` keeps the same top-first
 * interface — `[0]`, `shift`, `unshift`, `indexOf`, `length` — over an array whose top is its end,
 * plus a count per name so a close tag with no open element is refused in O(1) and a search for
 * one that is open walks only the elements it is about to close (amortised O(1) per element).
 * The parser's events and the tree it builds are unchanged (tested against `parseDocument`).
 */
import { Parser, type ParserOptions } from 'htmlparser2';
import { DomHandler, type DomHandlerOptions, type Document } from 'domhandler';

/** A stack read top-first (index 0 is the top), O(1) per push and pop. */
export class TopFirstStack<T> {
  private items: T[] = [];
  private counts = new Map<T, number>();

  get length(): number {
    return this.items.length;
  }
  /** Only truncation from the bottom is meaningful here (`length = 0` on reset). */
  set length(n: number) {
    if (n >= this.items.length) return;
    const removed = this.items.splice(0, this.items.length - n);
    for (const r of removed) this.counts.set(r, (this.counts.get(r) ?? 1) - 1);
  }
  /** The top (htmlparser2 reads `stack[0]`). */
  get 0(): T | undefined {
    return this.items[this.items.length - 1];
  }
  unshift(x: T): number {
    this.items.push(x);
    this.counts.set(x, (this.counts.get(x) ?? 0) + 1);
    return this.items.length;
  }
  shift(): T | undefined {
    const x = this.items.pop();
    if (x !== undefined) this.counts.set(x, (this.counts.get(x) ?? 1) - 1);
    return x;
  }
  /** Distance from the top of the nearest `x`, or -1. */
  indexOf(x: T): number {
    if (!this.counts.get(x)) return -1;
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i] === x) return this.items.length - 1 - i;
    return -1;
  }
  /** Top first. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.items.length - 1; i >= 0; i--) yield this.items[i]!;
  }
}

/** htmlparser2's Parser with both of its stacks replaced by `TopFirstStack`. */
export class LinearParser extends Parser {
  constructor(cbs: ConstructorParameters<typeof Parser>[0], options?: ParserOptions) {
    super(cbs, options);
    // Private in the declarations; the fields are plain arrays used through the methods above.
    const self = this as unknown as { stack: TopFirstStack<string>; foreignContext: TopFirstStack<boolean>; htmlMode: boolean };
    self.stack = new TopFirstStack<string>();
    self.foreignContext = new TopFirstStack<boolean>();
    self.foreignContext.unshift(!self.htmlMode);
  }

  /** Same as Parser.onend, reading the stack through its iterator instead of by index. */
  override onend(): void {
    const self = this as unknown as { stack: TopFirstStack<string>; cbs: Partial<import('htmlparser2').Handler>; endIndex: number; startIndex: number };
    if (self.cbs.onclosetag) {
      self.endIndex = self.startIndex;
      for (const name of self.stack) self.cbs.onclosetag(name, true);
    }
    self.cbs.onend?.();
  }
}

/** Documents cut by their element budget → elements past it (read by `elementsNotBuilt`). */
const notBuilt = new WeakMap<Document, number>();

/** Elements of the document that were not built because of its budget (0 when none). */
export function elementsNotBuilt(doc: Document): number {
  return notBuilt.get(doc) ?? 0;
}

/**
 * A DomHandler that builds at most `maxElements` elements (issue 24: 1e6 sibling `<p>` parsed into
 * 533 MB of heap before any middleware ran, and every stage after it held per-node tables). Past
 * the budget the rest of the document is not built — elements, text, comments — and the elements
 * that were not are counted. The parser still reads every byte (its open and close events stay
 * balanced: the elements already open close where they end), so the tree is well-formed. Keeping
 * the text past the budget (as one text node) was tried: a 10 MB page of `<br>` lines then made a
 * 7 MB segment that every stage copied, 600 MB peak.
 */
class BoundedDomHandler extends DomHandler {
  private built = 0;
  /** Open tags in the parser's order: true when built. */
  private readonly open: boolean[] = [];
  /** Elements that were not built. */
  dropped = 0;

  constructor(
    private readonly maxElements: number,
    options?: DomHandlerOptions,
  ) {
    super(undefined, options);
  }

  private get past(): boolean {
    return this.built >= this.maxElements;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.past) {
      this.dropped++;
      this.open.push(false);
      return;
    }
    this.built++;
    this.open.push(true);
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    if (this.open.pop()) super.onclosetag();
  }

  override ontext(data: string): void {
    if (!this.past) super.ontext(data);
  }
  override oncomment(data: string): void {
    if (!this.past) super.oncomment(data);
  }
  override oncommentend(): void {
    if (!this.past) super.oncommentend();
  }
  override oncdatastart(): void {
    if (!this.past) super.oncdatastart();
  }
  override oncdataend(): void {
    if (!this.past) super.oncdataend();
  }
  override onprocessinginstruction(name: string, data: string): void {
    if (!this.past) super.onprocessinginstruction(name, data);
  }
}

/** `parseDocument` of htmlparser2, linear in nesting depth; with `maxElements`, at most that many
 * elements are built (the rest of the document is not: `elementsNotBuilt`). */
export function parseDocumentLinear(data: string, options?: ParserOptions & DomHandlerOptions, maxElements?: number): Document {
  if (maxElements === undefined) {
    const handler = new DomHandler(undefined, options);
    new LinearParser(handler, options).end(data);
    return handler.root;
  }
  const handler = new BoundedDomHandler(maxElements, options);
  new LinearParser(handler, options).end(data);
  if (handler.dropped) notBuilt.set(handler.root, handler.dropped);
  return handler.root;
}
