/**
 * One URL for one page: `…/dir/index.html` and `…/dir/` are the same page on every common server
 * (the directory-index rule of Apache's DirectoryIndex, nginx's `index`, static hosts), so a link
 * to one is not queued when the other already is (issue 12: `/categories/` and
 * `/categories/index.html` became two items).
 *
 * Not `<link rel=canonical>`: many sites point the canonical link of page 2, 3 … of a list at page
 * 1, which would merge different pages.
 */

/** File names a server serves for a bare directory. */
export const DIRECTORY_INDEX_FILES = ['index.html', 'index.htm', 'index.php', 'default.htm', 'default.html', 'default.aspx', 'default.asp'];

const INDEX_RE = new RegExp(`/(?:${DIRECTORY_INDEX_FILES.map((f) => f.replace('.', '\\.')).join('|')})$`, 'i');

/** The other spellings of the same URL under the directory-index rule (query kept, no hash). */
export function directoryTwins(href: string): string[] {
  const q = href.search(/[?#]/);
  const base = q >= 0 ? href.slice(0, q) : href;
  const rest = q >= 0 ? href.slice(q) : '';
  const m = INDEX_RE.exec(base);
  if (m) {
    const dir = base.slice(0, m.index + 1);
    return [dir + rest, ...DIRECTORY_INDEX_FILES.filter((f) => `/${f}` !== m[0].toLowerCase()).map((f) => dir + f + rest)];
  }
  // Only a path that ends in "/" names a directory; the authority alone ("http://h") has path "/".
  if (base.endsWith('/')) return DIRECTORY_INDEX_FILES.map((f) => base + f + rest);
  return [];
}

/** Whether a twin of `href` is already known to the frontier. */
export function seenAsDirectoryTwin(href: string, has: (url: string) => boolean): boolean {
  for (const t of directoryTwins(href)) if (has(t)) return true;
  return false;
}
