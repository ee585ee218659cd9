/** The key a page's site state is kept under: its URL's host (lower-case), `local` for a URL
 * without one. (A module of its own: the batch's main thread groups pages by site without loading
 * the chain.) */
export function siteKeyOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return 'local';
  }
}
