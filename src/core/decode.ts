/**
 * Bytes → text. Order (WHATWG "encoding sniffing", adjusted for the real web where headers lie):
 * BOM, then the Content-Type header, then `<meta charset>` / `http-equiv`, then detection with
 * `chardet`. A declared charset that the bytes contradict (declared UTF-8 but invalid; declared
 * Latin-1 but valid multi-byte UTF-8) is overruled, because serving GBK as "utf-8" or UTF-8 as the
 * server default "iso-8859-1" is common on old Chinese sites.
 *
 * The binary check comes after the declaration (issue 24): a page whose header, BOM or `<meta>`
 * names its charset is text in that charset — a stray NUL byte in an article (a CMS bug) no longer
 * throws the page away, and UTF-16 named by the header alone (no BOM: every other byte is NUL) is
 * decoded. Only a declared body that is mostly control bytes (random bytes served as text/html
 * with a charset), or an undeclared one that looks binary, is refused. NUL characters are dropped
 * from the text (the HTML tokenizer ignores them in text as a parse error).
 */
import iconv from 'iconv-lite';
import chardet from 'chardet';

/** How many leading bytes are scanned for `<meta charset>` (the HTML spec's prescan uses 1024; old
 * Chinese portals put long comments first, so we look further). */
const META_PRESCAN_BYTES = 8192;
/** How many bytes chardet sees: enough for a stable guess, cheap on 20 MB pages. */
const DETECT_SAMPLE_BYTES = 64 * 1024;
/** Share of control bytes (other than whitespace and ESC) above which a body is called binary.
 * Text pages in any legacy charset have none; random bytes have ~10%. */
const BINARY_CONTROL_RATIO = 0.02;

export interface DecodedBody {
  text: string;
  /** The charset used (lower-case, iconv-lite name). */
  charset: string;
  /** Where the charset came from. */
  source: 'bom' | 'header' | 'meta' | 'detected' | 'default' | 'string';
}

export class BinaryContentError extends Error {
  constructor(readonly contentType: string | undefined) {
    super(`binary content${contentType ? ` (${contentType})` : ''}: not an HTML page`);
    this.name = 'BinaryContentError';
  }
}

/** Aliases where a superset decodes strictly more pages correctly. */
const SUPERSETS: Record<string, string> = {
  gb2312: 'gb18030',
  gbk: 'gb18030',
  'x-gbk': 'gb18030',
  'gb_2312-80': 'gb18030',
  'iso-8859-1': 'windows-1252',
  'latin1': 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'x-sjis': 'shift_jis',
  sjis: 'shift_jis',
  'ks_c_5601-1987': 'euc-kr',
  'big5-hkscs': 'big5',
  'utf8': 'utf-8',
  'unicode': 'utf-16le',
};

export function normaliseCharset(name: string | undefined | null): string | undefined {
  if (!name) return undefined;
  const n = name.trim().toLowerCase().replace(/^["']|["']$/g, '');
  if (!n) return undefined;
  const mapped = SUPERSETS[n] ?? n;
  return iconv.encodingExists(mapped) ? mapped : undefined;
}

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const m = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i);
  return normaliseCharset(m?.[1]);
}

function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_PRESCAN_BYTES)).toString('latin1');
  const m =
    head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i) ??
    head.match(/<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i);
  return normaliseCharset(m?.[1]);
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

/** true when the bytes are valid UTF-8 (a truncated final sequence is forgiven: size limits cut). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return strictUtf8(bytes) !== undefined || cutUtf8(bytes);
}

/** The text of bytes that are valid UTF-8 as a whole, else undefined (one native pass: the check
 * and the decoding are the same work). */
function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Valid UTF-8 but for a sequence cut at the end (a body cut by a size limit). */
function cutUtf8(bytes: Uint8Array): boolean {
  // A body cut by a size limit may end mid-sequence: retry without the last 3 bytes.
  return bytes.length > 4 && strictUtf8(bytes.subarray(0, bytes.length - 3)) !== undefined;
}

function hasHighBytes(bytes: Uint8Array, limit = bytes.length): boolean {
  for (let i = 0; i < limit; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** Bytes read by the binary check. */
const BINARY_SAMPLE_BYTES = 4096;

/**
 * Whether a body is clearly not text. Undeclared (`declared` false): one NUL byte in the sample
 * suffices (no page without a UTF-16 BOM has one), or control bytes over BINARY_CONTROL_RATIO.
 * Declared (a charset was named): only the control-byte ratio counts, NULs included — a stray
 * NUL is a damaged page, a body of random bytes is not a page.
 */
export function looksBinary(bytes: Uint8Array, declared = false): boolean {
  const n = Math.min(bytes.length, BINARY_SAMPLE_BYTES);
  if (n === 0) return false;
  // UTF-16 text has many NULs but a BOM.
  if (charsetFromBom(bytes)?.startsWith('utf-16')) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0 && !declared) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  return control / n > BINARY_CONTROL_RATIO;
}

const NUL = /\u0000/g;
/** The text without NUL characters (a no-op scan on the usual page). */
const withoutNul = (text: string) => (text.includes('\u0000') ? text.replace(NUL, '') : text);

function detect(bytes: Uint8Array): string | undefined {
  const sample = bytes.subarray(0, DETECT_SAMPLE_BYTES);
  const guess = chardet.detect(sample);
  return normaliseCharset(guess ?? undefined);
}

/**
 * Decode an HTTP body. Throws `BinaryContentError` for bodies that are clearly not text.
 * @example decodeBody(buffer, 'text/html; charset=gbk').text
 */
export function decodeBody(body: Uint8Array | string, contentType?: string): DecodedBody {
  if (typeof body === 'string') return { text: withoutNul(body), charset: 'utf-8', source: 'string' };
  // A view of shared memory (a batch's pages sit in one SharedArrayBuffer): TextDecoder refuses
  // those, so the page's bytes are copied here, for the time of the decoding only.
  if (typeof SharedArrayBuffer !== 'undefined' && body.buffer instanceof SharedArrayBuffer) body = body.slice();
  if (contentType && /^(image|audio|video|font)\/|application\/(octet-stream|pdf|zip|gzip)/i.test(contentType)) {
    throw new BinaryContentError(contentType);
  }
  const decode = (charset: string, from: DecodedBody['source']): DecodedBody => ({
    text: withoutNul(iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), charset)),
    charset,
    source: from,
  });

  // valid UTF-8 (or cut mid-sequence at the end): the validity check's text is the text
  const asUtf8 = (from: DecodedBody['source']): DecodedBody | undefined => {
    const text = strictUtf8(body);
    if (text !== undefined) return { text: withoutNul(text), charset: 'utf-8', source: from };
    return cutUtf8(body) ? decode('utf-8', from) : undefined;
  };

  const bom = charsetFromBom(body);
  if (bom) return decode(bom, 'bom');

  const declaredHeader = charsetFromContentType(contentType);
  // UTF-16 named by the header (no BOM): the bytes are not ASCII-compatible, so neither the
  // <meta> prescan nor the checks below can read them.
  if (declaredHeader?.startsWith('utf-16')) return decode(declaredHeader, 'header');
  // A <meta> naming UTF-16 is read as UTF-8 (HTML spec, "prescan": a page whose <meta> could be
  // read as ASCII is not UTF-16).
  const metaCharset = charsetFromMeta(body);
  const declaredMeta = metaCharset?.startsWith('utf-16') ? 'utf-8' : metaCharset;
  const declared = declaredHeader ?? declaredMeta;
  if (looksBinary(body, declared !== undefined)) throw new BinaryContentError(contentType);
  const source: DecodedBody['source'] = declaredHeader ? 'header' : 'meta';
  const high = hasHighBytes(body);

  if (!high) {
    // Pure ASCII decodes the same under every ASCII-compatible charset.
    return decode(declared ?? 'utf-8', declared ? source : 'default');
  }
  if (declared === 'utf-8') {
    const utf8 = asUtf8(source);
    if (utf8) return utf8;
    // The header says UTF-8 but the bytes are not: trust the <meta> if it disagrees, else detect.
    if (declaredMeta && declaredMeta !== 'utf-8') return decode(declaredMeta, 'meta');
    return decode(detect(body) ?? 'windows-1252', 'detected');
  }
  if (declared && declared !== 'windows-1252') {
    // A specific legacy charset (GBK, Big5, Shift_JIS …) was declared. Valid UTF-8 with multi-byte
    // runs is still far more likely UTF-8 (GBK text is almost never valid UTF-8).
    return isValidUtf8(body) ? decode('utf-8', 'detected') : decode(declared, source);
  }
  const utf8 = asUtf8('detected');
  if (utf8) return utf8;
  // windows-1252 (the server default) or nothing declared: let the detector decide.
  const guess = detect(body);
  if (declared === 'windows-1252' && (!guess || guess.startsWith('iso-8859') || guess.startsWith('windows-125'))) return decode(declared, source);
  return guess ? decode(guess, 'detected') : decode('windows-1252', 'default');
}
