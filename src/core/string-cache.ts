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
      v = compute(s);
      cache.set(s, v);
    }
    return v as T;
  };
}
