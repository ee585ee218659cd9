/**
 * The pending requests of a crawl in order, with at most `memory` of them in memory: beyond that,
 * blocks of requests go to files in a spill folder (JSON Lines) and come back when the head of the
 * queue reaches them — Scrapy's JOBDIR and Crawlee's request queue also keep their queues on disk.
 * The spill files are scratch: the frontier's journal and snapshot are what survive a crash, and
 * the queue is rebuilt from them on the next run.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FrontierRequest } from './types.js';

/** Requests kept in memory before blocks go to disk (head and tail together). */
export const SPILL_MEMORY = 20_000;

export class SpillQueue {
  private head: FrontierRequest[] = [];
  private headAt = 0;
  private tail: FrontierRequest[] = [];
  /** Spilled blocks, oldest first (file sequence numbers). */
  private blocks: number[] = [];
  private nextBlock = 0;
  private count = 0;

  constructor(
    private readonly dir: string,
    private readonly memory = SPILL_MEMORY,
  ) {
    rmSync(dir, { recursive: true, force: true });
  }

  get length(): number {
    return this.count;
  }

  /** Requests held in memory now. */
  get inMemory(): number {
    return this.head.length - this.headAt + this.tail.length;
  }

  private blockFile(n: number): string {
    return path.join(this.dir, `${n}.jsonl`);
  }

  push(r: FrontierRequest): void {
    this.tail.push(r);
    this.count++;
    // Once anything is on disk, order says new requests go behind it: the tail spills in blocks.
    const block = Math.max(1, Math.floor(this.memory / 2));
    if (this.tail.length >= block && (this.blocks.length > 0 || this.inMemory > this.memory)) this.spillTail();
  }

  private spillTail(): void {
    mkdirSync(this.dir, { recursive: true });
    const n = this.nextBlock++;
    writeFileSync(this.blockFile(n), this.tail.map((r) => JSON.stringify(r)).join('\n') + '\n');
    this.blocks.push(n);
    this.tail = [];
  }

  shift(): FrontierRequest | undefined {
    if (this.headAt >= this.head.length) this.refill();
    if (this.headAt >= this.head.length) return undefined;
    const r = this.head[this.headAt]!;
    this.head[this.headAt++] = undefined as unknown as FrontierRequest; // let it go
    this.count--;
    return r;
  }

  private refill(): void {
    this.head = [];
    this.headAt = 0;
    const n = this.blocks.shift();
    if (n !== undefined) {
      for (const r of readLines(this.blockFile(n))) this.head.push(JSON.parse(r) as FrontierRequest);
      rmSync(this.blockFile(n), { force: true });
    } else {
      this.head = this.tail;
      this.tail = [];
    }
  }

  /** Every queued request in order, without taking them (the snapshot). */
  *entries(): Generator<FrontierRequest> {
    for (let i = this.headAt; i < this.head.length; i++) yield this.head[i]!;
    for (const n of this.blocks) for (const line of readLines(this.blockFile(n))) yield JSON.parse(line) as FrontierRequest;
    yield* this.tail;
  }

  clear(): void {
    this.head = [];
    this.headAt = 0;
    this.tail = [];
    this.blocks = [];
    this.count = 0;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The lines of a file, read in blocks (never the whole file as one string). Lines are split on
 * the newline byte, which no UTF-8 sequence contains, and decoded whole. */
export function* readLines(file: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return;
  }
  try {
    const buf = Buffer.alloc(1 << 20);
    let rest: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = rest.length ? Buffer.concat([rest, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
        if (nl > start) yield chunk.toString('utf8', start, nl);
        start = nl + 1;
      }
      rest = Buffer.from(chunk.subarray(start));
    }
    if (rest.length) yield rest.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
