/**
 * Per-page time budgets, enforced from outside the work (issue 14): each page in the pool owns a
 * slot of a shared Int32Array where its worker writes what it is doing; a watchdog on the crawl's
 * thread reads the slots and aborts a page that overran, which makes piscina terminate the worker
 * (a stuck regex cannot be interrupted from inside) and start a new one.
 *
 * What counts is the time the page holds its worker thread: waits for the main thread (the site
 * template round trip) are paused. On an idle machine that is the page's CPU time; under load it
 * is more, never less.
 */

/**
 * Default per-page budget (seconds). A page of the realistic bench site (45 KB) takes ~10 ms
 * through the whole chain and a 1 MB page well under 1 s when the code is linear; 10 s is three
 * orders of magnitude above the normal case, so only a super-linear case (issue 14: one 200 KB
 * word took 18 s in a quadratic regex) reaches it.
 */
export const DEFAULT_PAGE_BUDGET_SECS = 10;
/** How often the watchdog reads the slots: a page is stopped at most this much after its budget. */
export const WATCHDOG_MS = 100;
/** A page waiting on something that never answers (an async user middleware) is stopped after
 * this many budgets of wall time, counted from its start in a worker. */
export const WALL_BUDGETS = 3;
/** Int32 fields per slot. */
export const SLOT_FIELDS = 4;
/** A slot's state: free, handed to the pool, running in a worker, waiting for the main thread. */
export const SlotState = { Free: 0, Queued: 1, Running: 2, Waiting: 3 } as const;
export type SlotState = (typeof SlotState)[keyof typeof SlotState];
const STATE = 0;
/** Stage index: 0 = parse, i = the chain's i-th middleware (1-based), -1 = after the chain. */
const STAGE = 1;
/** Milliseconds run before the current run started. */
const SPENT = 2;
/** Start of the current run, ms since the table's epoch. */
const SINCE = 3;

/** The slot table shared by the pool and its workers. */
export class BudgetTable {
  readonly view: Int32Array;
  private readonly free: number[] = [];

  constructor(
    readonly buffer: SharedArrayBuffer,
    /** Epoch (ms) the slot times count from: Int32 holds 24 days of milliseconds. */
    readonly epoch: number,
  ) {
    this.view = new Int32Array(buffer);
    for (let i = this.slots - 1; i >= 0; i--) this.free.push(i);
  }

  static create(slots: number): BudgetTable {
    return new BudgetTable(new SharedArrayBuffer(slots * SLOT_FIELDS * 4), Date.now());
  }

  get slots(): number {
    return this.view.length / SLOT_FIELDS;
  }

  now(): number {
    return Date.now() - this.epoch;
  }

  /** Take a free slot (main thread); undefined when every slot is in use. */
  acquire(): number | undefined {
    const s = this.free.pop();
    if (s === undefined) return undefined;
    const o = s * SLOT_FIELDS;
    Atomics.store(this.view, o + STATE, SlotState.Queued);
    Atomics.store(this.view, o + STAGE, 0);
    Atomics.store(this.view, o + SPENT, 0);
    Atomics.store(this.view, o + SINCE, 0);
    return s;
  }

  release(slot: number): void {
    Atomics.store(this.view, slot * SLOT_FIELDS + STATE, SlotState.Free);
    this.free.push(slot);
  }

  // ---- written by the worker that runs the page ----
  start(slot: number): void {
    const o = slot * SLOT_FIELDS;
    Atomics.store(this.view, o + SINCE, this.now());
    Atomics.store(this.view, o + STATE, SlotState.Running);
  }

  stage(slot: number, stage: number): void {
    Atomics.store(this.view, slot * SLOT_FIELDS + STAGE, stage);
  }

  /** The page waits for the main thread: its clock stops. */
  pause(slot: number): void {
    const o = slot * SLOT_FIELDS;
    Atomics.store(this.view, o + SPENT, Atomics.load(this.view, o + SPENT) + this.now() - Atomics.load(this.view, o + SINCE));
    Atomics.store(this.view, o + STATE, SlotState.Waiting);
  }

  resume(slot: number): void {
    this.start(slot);
  }

  // ---- read by the watchdog ----
  state(slot: number): SlotState {
    return Atomics.load(this.view, slot * SLOT_FIELDS + STATE) as SlotState;
  }

  stageOf(slot: number): number {
    return Atomics.load(this.view, slot * SLOT_FIELDS + STAGE);
  }

  /** Milliseconds the page has held a worker so far. */
  spent(slot: number): number {
    const o = slot * SLOT_FIELDS;
    const spent = Atomics.load(this.view, o + SPENT);
    return Atomics.load(this.view, o + STATE) === SlotState.Running ? spent + this.now() - Atomics.load(this.view, o + SINCE) : spent;
  }
}
