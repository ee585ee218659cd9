/**
 * Caps on an item's fields (issue 24 item 10): a hostile page made a 10 MB title and a list of
 * 200,000 images, written out whole. Past its cap a field is cut and the item's `error` says what
 * was cut, from how much — nothing is cut silently. The README's "Limits and safety" lists them.
 * Real pages are far below: titles of a few hundred characters, tens of images, hundreds of list
 * entries. Posts are not capped (a thread's posts are its content; the page model's element
 * budget bounds them).
 */
import type { ItemDraft } from '../core/item.js';

/** Characters of each text field past which it is cut. */
export const TEXT_CAPS = { title: 1_000, author: 1_000, publishedAtText: 1_000 } as const;
/** Entries of each list field past which it is cut. */
export const LIST_CAPS = { images: 1_000, items: 10_000, pages: 1_000 } as const;

/** The draft with every capped field within its cap; what was cut is appended to `error`. */
export function capFields(item: ItemDraft): ItemDraft {
  const cut: string[] = [];
  const fields = item as Record<string, unknown>;
  for (const [field, cap] of Object.entries(TEXT_CAPS)) {
    const v = fields[field];
    if (typeof v === 'string' && v.length > cap) {
      // not inside a surrogate pair
      const end = /[\uD800-\uDBFF]/.test(v[cap - 1]!) ? cap - 1 : cap;
      fields[field] = v.slice(0, end);
      cut.push(`${field} cut to ${cap.toLocaleString('en')} of ${v.length.toLocaleString('en')} characters`);
    }
  }
  for (const [field, cap] of Object.entries(LIST_CAPS)) {
    const v = fields[field];
    if (Array.isArray(v) && v.length > cap) {
      fields[field] = v.slice(0, cap);
      cut.push(`${field} cut to the first ${cap.toLocaleString('en')} of ${v.length.toLocaleString('en')}`);
    }
  }
  if (cut.length) item.error = [item.error, ...cut].filter(Boolean).join('; ');
  return item;
}
