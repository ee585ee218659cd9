/**
 * Reading the pages `gleaner extract` is given, within their caps (issue 24 item 5): a file is
 * read only when it is a regular file (or `-`, standard input), and always through a bounded read
 * that stops one byte past the cap — whatever `stat` says (`/dev/zero` and `/proc` files report
 * size 0). The file is opened non-blocking and checked on its descriptor (`fstat`), so a FIFO
 * cannot make the open itself wait for a writer, and a path swapped between a check and the open
 * cannot slip through. A gzip-compressed page is unpacked under the same cap, member after member,
 * ignoring trailing bytes after the last complete member as gzip(1) does.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { UsageError } from './errors.js';

/** Bytes read per `read` call. */
const READ_CHUNK = 64 * 1024;

/** A page over the cap (`--max-bytes`). */
export class InputTooLarge extends UsageError {
  constructor(file: string, size: number | undefined, max: number) {
    super(`${file}: ${size !== undefined ? `${size} bytes, ` : ''}larger than --max-bytes ${max} (raise the limit with --max-bytes N)`);
    this.name = 'InputTooLarge';
  }
}

/** What a path is when it is not a regular file, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The reason a read failed, in words (ENOENT → "no such file"). */
function reasonOf(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'file name too long';
    default:
      return e.code ?? e.message;
  }
}

/**
 * The bytes of a regular file, at most `max` (InputTooLarge past it). Anything else — a
 * directory, FIFO, device or socket — is refused with a UsageError naming what it is.
 */
export function readRegularFile(file: string, max: number): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${reasonOf(e as NodeJS.ErrnoException)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`cannot read ${file}: ${kindOf(st)}, not a regular file (pages are read from regular files, or - for standard input)`);
    if (st.size > max) throw new InputTooLarge(file, st.size, max);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // one byte past the cap tells "too large" from "exactly the cap"
      const want = Math.min(READ_CHUNK, max + 1 - total);
      const buf = Buffer.allocUnsafe(want);
      let n: number;
      try {
        n = readSync(fd, buf, 0, want, null);
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${reasonOf(e as NodeJS.ErrnoException)}`);
      }
      if (n === 0) break;
      total += n;
      if (total > max) throw new InputTooLarge(file, undefined, max);
      chunks.push(n === want ? buf : buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** Standard input up to `max` bytes (one more byte means too large). */
export async function readStdin(max: number): Promise<Buffer> {
  // A stream, not readSync(0): a non-blocking stdin (a pipe from a busy producer) would spin on
  // EAGAIN, and nothing else waits while a large page arrives.
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > max) {
      process.stdin.destroy();
      throw new InputTooLarge('standard input', undefined, max);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, total);
}

/** A gzip member starts with these two bytes (RFC 1952 §2.3.1); no HTML page does. */
export function isGzip(b: Uint8Array, at = 0): boolean {
  return b.length >= at + 2 && b[at] === 0x1f && b[at + 1] === 0x8b;
}

/** RFC 1952 §2.3.1 header flags. */
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
/** Fixed part of a member header, and the trailer (CRC32, ISIZE). */
const HEADER_BYTES = 10;
const TRAILER_BYTES = 8;
/** Compression method 8 (deflate), the only one defined. */
const CM_DEFLATE = 8;

/** CRC-32 (IEEE) of `b`: zlib.crc32 where Node has it (20.15+, 22.2+), else a table. */
const crc32: (b: Uint8Array) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? (b) => zlib.crc32(b)
    : (() => {
        const table = new Uint32Array(256).map((_, n) => {
          let c = n;
          for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
          return c;
        });
        return (b: Uint8Array) => {
          let c = 0xffffffff;
          for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
          return (c ^ 0xffffffff) >>> 0;
        };
      })();

/** Where the deflate data of the member at `at` starts (after its header). */
function memberDataStart(b: Buffer, at: number): number {
  if (!isGzip(b, at)) throw new Error('not a gzip header');
  if (b.length < at + HEADER_BYTES) throw new Error('truncated header');
  if (b[at + 2] !== CM_DEFLATE) throw new Error(`unknown compression method ${b[at + 2]}`);
  const flags = b[at + 3]!;
  let p = at + HEADER_BYTES;
  if (flags & FEXTRA) {
    if (b.length < p + 2) throw new Error('truncated header');
    p += 2 + b.readUInt16LE(p);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const z = b.indexOf(0, p);
    if (z < 0) throw new Error('truncated header');
    p = z + 1;
  }
  if (flags & FHCRC) p += 2;
  if (p > b.length) throw new Error('truncated header');
  return p;
}

/**
 * Unpack gzip data as gzip(1) does: member after member (a concatenation of gzip files is one
 * gzip file), each checked against its CRC-32 and length; bytes after the last complete member
 * that do not start another member are ignored ("trailing garbage ignored"). The output is capped
 * at `max` bytes (InputTooLarge). Throws Error with the reason for a damaged first member.
 */
export function gunzipMembers(raw: Buffer, max: number, file: string): Buffer {
  const out: Buffer[] = [];
  let total = 0;
  let at = 0;
  while (at < raw.length) {
    if (out.length && !isGzip(raw, at)) break; // trailing bytes after a complete member
    let start: number;
    let r: { buffer: Buffer; engine: zlib.InflateRaw };
    try {
      start = memberDataStart(raw, at);
      r = zlib.inflateRawSync(raw.subarray(start), { info: true, maxOutputLength: Math.max(1, max - total) }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new InputTooLarge(`${file} (unpacked)`, undefined, max);
      if (out.length) break; // a damaged member after complete ones: as trailing bytes
      throw e;
    }
    const end = start + r.engine.bytesWritten;
    if (raw.length < end + TRAILER_BYTES) {
      if (out.length) break;
      throw new Error('unexpected end of file');
    }
    if (raw.readUInt32LE(end) !== crc32(r.buffer) || raw.readUInt32LE(end + 4) !== r.buffer.length % 2 ** 32) {
      if (out.length) break;
      throw new Error('CRC or length check failed');
    }
    out.push(r.buffer);
    total += r.buffer.length;
    if (total > max) throw new InputTooLarge(`${file} (unpacked)`, undefined, max);
    at = end + TRAILER_BYTES;
  }
  return Buffer.concat(out, total);
}

/** Largest input file read (`--max-bytes`): the crawler's `maxResponseBytes` default, for the same
 * reason — a page this big is not one we can extract, and a 60 MB file took 1 GB RSS (issue 14). */
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** The page's bytes, unpacked when the file is gzip-compressed (`page.html.gz`, or a gzip body
 * saved under any name: detected by its magic bytes, not its extension). The unpacked page obeys
 * the same `max` as a plain one. */
export function pageBytes(raw: Buffer, file: string, max = DEFAULT_MAX_INPUT_BYTES): Buffer {
  if (!isGzip(raw)) return raw;
  try {
    return gunzipMembers(raw, max, file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw e;
    throw new UsageError(`cannot read ${file}: not a valid gzip file (${(e as Error).message})`);
  }
}

/** A page file (or `-`, standard input), read within `max` and unpacked when gzipped. */
export async function readInput(file: string, max = DEFAULT_MAX_INPUT_BYTES): Promise<Buffer> {
  if (file === '-') return pageBytes(await readStdin(max), 'standard input', max);
  return pageBytes(readRegularFile(file, max), file, max);
}

/** The URL of a page read from a file, when none is given: the file's own `file://` URL (issue 25:
 * never an invented host); standard input is `file:///dev/stdin`. */
export function fileUrl(file: string): string {
  return file === '-' ? 'file:///dev/stdin' : pathToFileURL(path.resolve(file)).href;
}
