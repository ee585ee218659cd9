/**
 * Library input checks for `Extractor.extract` (issue 14): bad input is refused with one error
 * type, `ExtractInputError`, naming every problem at once (as spider configs do); an `ArrayBuffer`
 * body is accepted as bytes. The item that comes back always passes `itemSchema`: a field a
 * middleware filled with something the schema refuses is dropped and named in `error`.
 */
import { itemSchema, type Item } from '../core/item.js';
import type { PageInput } from '../core/page.js';

/** What `Extractor.extract` takes: the page's bytes or text and where it came from. */
export interface ExtractInput extends PageInput {
  /** Template group (manifest `site`), else URL host. */
  site?: string | undefined;
  anchorText?: string | undefined;
}

export class ExtractInputError extends TypeError {
  constructor(readonly problems: string[]) {
    super(`extract: bad input: ${problems.join('; ')}`);
    this.name = 'ExtractInputError';
  }
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : v instanceof Date ? 'an invalid Date' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : `${typeof v} ${JSON.stringify(v)?.slice(0, 40) ?? ''}`.trim());

/** The input, checked (and an ArrayBuffer body viewed as bytes). Throws `ExtractInputError`. */
export function checkExtractInput(input: unknown, where = 'input'): ExtractInput {
  if (typeof input !== 'object' || input === null) throw new ExtractInputError([`${where}: expected an object {url, body, contentType?, fetchedAt?} (got ${describe(input)})`]);
  const i = input as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof i.url !== 'string' || !itemSchema.shape.url.safeParse(i.url).success) problems.push(`${where}.url: expected an absolute URL string (got ${describe(i.url)})`);
  let body = i.body;
  if (body instanceof ArrayBuffer) body = new Uint8Array(body);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) problems.push(`${where}.body: expected a string, Buffer/Uint8Array or ArrayBuffer (got ${describe(i.body)})`);
  if (i.contentType !== undefined && typeof i.contentType !== 'string') problems.push(`${where}.contentType: expected a string (got ${describe(i.contentType)})`);
  if (i.fetchedAt !== undefined && !(i.fetchedAt instanceof Date && !Number.isNaN(i.fetchedAt.getTime()))) problems.push(`${where}.fetchedAt: expected a valid Date (got ${describe(i.fetchedAt)})`);
  for (const k of ['site', 'anchorText'] as const) if (i[k] !== undefined && typeof i[k] !== 'string') problems.push(`${where}.${k}: expected a string (got ${describe(i[k])})`);
  if (problems.length) throw new ExtractInputError(problems);
  return body === i.body ? (input as ExtractInput) : ({ ...(input as ExtractInput), body: body as Uint8Array });
}

/** Most fields dropped from one item before giving up and returning the bare `other` item. */
const MAX_DROPPED_FIELDS = 20;

/** An item that passes `itemSchema`: fields it refuses are dropped and named in `error`. */
export function validItem(item: Item): Item {
  let out: Record<string, unknown> = { ...item };
  const dropped: string[] = [];
  for (let n = 0; n < MAX_DROPPED_FIELDS; n++) {
    const r = itemSchema.safeParse(out);
    if (r.success) break;
    const issue = r.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    if (!field || field === 'url' || field === 'kind') {
      out = { url: item.url, kind: 'other' };
      dropped.push(`${field || '(item)'}: ${issue.message}`);
      break;
    }
    delete out[field];
    dropped.push(`${field}: ${issue.message}`);
  }
  if (dropped.length) out.error = [item.error, `invalid fields dropped (${dropped.join('; ')})`].filter(Boolean).join('; ');
  return out as Item;
}
