/**
 * A pure function of a string, remembered for the strings seen last (bounded: cleared when full).
 * For values that repeat across pages and cost more to compute than to look up: an element's
 * class tokens (pages repeat their class strings). Per-page state does not belong here — it goes
 * through `page.memo` — only what the string alone decides.
 */
export function cachedByString<T>(compute: (s: string) => T, max = 20_000): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined && !cache.has(s)) {
      if (cache.size >= max) cache.clear();
      v = ownStrings(compute(s));
      cache.set(ownString(s), v);
    }
    return v as T;
  };
}

/**
 * A string that holds its own characters. A string cut from a larger one (an attribute's value,
 * a regex match, `slice`) may be a view of it in V8 (a "sliced string", from 13 characters on), and
 * keeps the whole of it alive: one class name remembered across pages, or one title in an item a
 * batch holds, kept its page's whole HTML (a batch of 300 pages retained 1 MB per page). What
 * outlives its page — a cache entry, an item — goes through this. (Concatenation then slicing
 * makes V8 copy the characters into a flat string of their own.)
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** `value` with every string in it owned (ownString): strings, and plain arrays and objects
 * walked in place; anything else as it is. */
export function ownStrings<T>(value: T): T {
  if (typeof value === 'string') return ownString(value) as T;
  if (Array.isArray(value)) {
    if (Object.isFrozen(value)) return Object.freeze(value.map((v) => ownStrings(v))) as T;
    for (let i = 0; i < value.length; i++) value[i] = ownStrings(value[i]);
    return value;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const o = value as Record<string, unknown>;
    if (Object.isFrozen(o)) return value;
    for (const k of Object.keys(o)) o[k] = ownStrings(o[k]);
  }
  return value;
}
