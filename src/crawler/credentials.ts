/**
 * Credentials in start URLs (`http://user:pass@host/`, issue 24 item 8): used for the requests to
 * their origin — as an `Authorization: Basic` header added to each hop whose origin matches, the
 * way got and Crawlee use a URL's userinfo — and never written anywhere: the URL the crawl keeps
 * (frontier, items, logs, stats, state) has no userinfo. Userinfo found elsewhere (a link, a
 * redirect's Location) is stripped and not sent: only the spider's own start URLs carry secrets.
 */
import type { DownloaderStep } from './downloader/index.js';

export class Credentials {
  private readonly byOrigin = new Map<string, string>();

  /** The start URL without its userinfo; its credentials kept for its origin. */
  take(url: string): string {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    const user = decodeURIComponent(u.username);
    const pass = decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
    this.byOrigin.set(u.origin, `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`);
    return u.href;
  }

  /** The `authorization` header for a URL of an origin that has credentials. */
  headerFor(url: string): string | undefined {
    if (!this.byOrigin.size) return undefined;
    try {
      return this.byOrigin.get(new URL(url).origin);
    } catch {
      return undefined;
    }
  }

  get size(): number {
    return this.byOrigin.size;
  }
}

/** Adds the origin's credentials to each hop (a redirect to another origin gets none). */
export function credentialsStep(credentials: Credentials): DownloaderStep {
  return {
    name: 'credentials',
    priority: 150,
    request(ctx) {
      const auth = credentials.headerFor(ctx.url);
      if (auth) ctx.headers = { ...(ctx.headers ?? {}), authorization: auth };
    },
  };
}

/** A URL for the eyes: userinfo shown as `user:***@`. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i, (_, scheme: string, info: string) => `${scheme}${info.split(':')[0]}:***@`);
}
