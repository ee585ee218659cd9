/**
 * The seen-set of a crawl, with each URL's state, in ~20 bytes a URL (issue 24 item 3: a JS `Set`
 * of URL strings and a `Map` of request objects cost ~1.8 KB a queued URL, 1.2 GB for 600,000).
 * A URL is kept as a 64-bit digest (two 32-bit halves of a string hash; two URLs of one crawl share
 * a digest with odds ≈ n² / 2^65: 1.4·10^-8 at a million URLs, the same order as the shared
 * frontier's 8-byte digests), in an open-addressing table that doubles at half load.
 */

/** A URL's state in the table (0: an empty slot). */
export const UrlState = { Pending: 1, HandedOut: 2, Ok: 3, Failed: 4, Skipped: 5 } as const;
export type UrlState = (typeof UrlState)[keyof typeof UrlState];

const INITIAL_SLOTS = 1 << 12;

/** Two 32-bit hashes of a string (cyrb53's mixing, both halves kept). */
export function urlDigest(s: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

export class DigestTable {
  private hi = new Uint32Array(INITIAL_SLOTS);
  private lo = new Uint32Array(INITIAL_SLOTS);
  private states = new Uint8Array(INITIAL_SLOTS);
  private used = 0;
  /** URLs per state. */
  readonly counts: Record<UrlState, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };

  get size(): number {
    return this.used;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.states.byteLength;
  }

  private slot(h: number, l: number): number {
    const mask = this.states.length - 1;
    let i = (h ^ Math.imul(l, 0x9e3779b1)) & mask;
    while (this.states[i] !== 0 && (this.hi[i] !== h || this.lo[i] !== l)) i = (i + 1) & mask;
    return i;
  }

  /** The URL's state, or 0 when it was never seen. */
  get(url: string): UrlState | 0 {
    const [h, l] = urlDigest(url);
    return this.states[this.slot(h, l)] as UrlState | 0;
  }

  /** Set a URL's state (adding it when unseen); returns the state it had (0: unseen). */
  set(url: string, state: UrlState): UrlState | 0 {
    const [h, l] = urlDigest(url);
    let i = this.slot(h, l);
    const before = this.states[i] as UrlState | 0;
    if (before === 0) {
      if ((this.used + 1) * 2 > this.states.length) {
        this.grow();
        i = this.slot(h, l);
      }
      this.hi[i] = h;
      this.lo[i] = l;
      this.used++;
    } else this.counts[before]--;
    this.states[i] = state;
    this.counts[state]++;
    return before;
  }

  clear(): void {
    this.hi = new Uint32Array(INITIAL_SLOTS);
    this.lo = new Uint32Array(INITIAL_SLOTS);
    this.states = new Uint8Array(INITIAL_SLOTS);
    this.used = 0;
    for (const k of Object.keys(this.counts)) this.counts[Number(k) as UrlState] = 0;
  }

  private grow(): void {
    const { hi, lo, states } = this;
    this.hi = new Uint32Array(states.length * 2);
    this.lo = new Uint32Array(states.length * 2);
    this.states = new Uint8Array(states.length * 2);
    for (let i = 0; i < states.length; i++) {
      if (states[i] === 0) continue;
      const j = this.slot(hi[i]!, lo[i]!);
      this.hi[j] = hi[i]!;
      this.lo[j] = lo[i]!;
      this.states[j] = states[i]!;
    }
  }

  /** The table as bytes (a snapshot): slot count, then the three arrays. */
  toBuffer(): Buffer {
    const n = this.states.length;
    const out = Buffer.alloc(8 + n * 9);
    out.writeUInt32LE(n, 0);
    out.writeUInt32LE(this.used, 4);
    Buffer.from(this.hi.buffer, this.hi.byteOffset, n * 4).copy(out, 8);
    Buffer.from(this.lo.buffer, this.lo.byteOffset, n * 4).copy(out, 8 + n * 4);
    Buffer.from(this.states.buffer, this.states.byteOffset, n).copy(out, 8 + n * 8);
    return out;
  }

  /** A table read back from `toBuffer` (undefined when the bytes are not one). */
  static fromBuffer(b: Buffer): DigestTable | undefined {
    if (b.length < 8) return undefined;
    const n = b.readUInt32LE(0);
    if (n < INITIAL_SLOTS || (n & (n - 1)) !== 0 || b.length !== 8 + n * 9) return undefined;
    const t = new DigestTable();
    t.hi = new Uint32Array(n);
    t.lo = new Uint32Array(n);
    t.states = new Uint8Array(n);
    Buffer.from(t.hi.buffer).set(b.subarray(8, 8 + n * 4));
    Buffer.from(t.lo.buffer).set(b.subarray(8 + n * 4, 8 + n * 8));
    t.states.set(b.subarray(8 + n * 8, 8 + n * 9));
    t.used = b.readUInt32LE(4);
    for (const s of t.states) if (s !== 0) t.counts[s as UrlState]++;
    return t;
  }
}
