/**
 * Request safety: only http(s), only allowed domains, and no private, loopback, link-local or
 * otherwise non-public addresses (SSRF) unless the spider allows them. Host names are resolved
 * (every A/AAAA record) and the answer cached for a while.
 */
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import dns from 'node:dns';

/** Non-public IPv4 ranges (IANA special-purpose registry, RFC 6890): "this network", RFC 1918,
 * CGNAT (RFC 6598), loopback, link-local, IETF protocol assignments, documentation, 6to4 relay
 * anycast, benchmarking (RFC 2544), multicast and reserved (incl. broadcast). */
const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
/** Non-public IPv6 ranges, checked on the canonical 16 bytes after any embedded IPv4 address was
 * taken out (see `embeddedIPv4`): unspecified and loopback, discard (RFC 6666), local-use NAT64
 * (RFC 8215), IETF protocol assignments incl. benchmarking and ORCHID (2001::/23 minus Teredo,
 * which is decoded instead), documentation (2001:db8::/32, 3fff::/20), SRv6 SIDs (5f00::/16),
 * unique-local (fc00::/7), site-local (fec0::/10, deprecated but routable inside sites),
 * link-local (fe80::/10) and multicast (ff00::/8). */
const BLOCKED_V6: Array<[string, number]> = [
  ['::', 128], ['::1', 128], ['100::', 64], ['64:ff9b:1::', 48], ['2001:2::', 48], ['2001:10::', 28], ['2001:20::', 28],
  ['2001:db8::', 32], ['3fff::', 20], ['5f00::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];
const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address in any textual form (`::`, an IPv4 tail, a `%zone`), or
 * undefined when it is not one. */
export function ipv6Bytes(ip: string): Uint8Array | undefined {
  let s = ip.trim().toLowerCase().replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return undefined;
  const words: number[] = [];
  const half = (part: string): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const w of part.split(':')) {
      if (w.includes('.')) {
        const [a, b, c, d] = w.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(w, 16));
    }
    return out;
  };
  const gap = s.indexOf('::');
  if (gap >= 0) {
    const head = half(s.slice(0, gap));
    const tail = half(s.slice(gap + 2));
    words.push(...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail);
  } else words.push(...half(s));
  if (words.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 255;
  });
  return bytes;
}

const v4 = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-compatible `::a.b.c.d` (RFC 4291, deprecated; what `[::127.0.0.1]` parses to, `::7f00:1`),
 * SIIT-translated `::ffff:0:a.b.c.d` (RFC 2765), NAT64 `64:ff9b::a.b.c.d` (RFC 6052), 6to4
 * `2002:aabb:ccdd::` (RFC 3056) and Teredo's client address (RFC 4380, stored inverted).
 * The IPv4 rules then decide: a loopback or private address behind any of these is refused.
 */
export function embeddedIPv4(b: Uint8Array): string | undefined {
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(b, 12); // mapped
  if (zero(b, 0, 12)) return v4(b, 12); // compatible (and :: -> 0.0.0.0, ::1 -> 0.0.0.1: both refused)
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return v4(b, 12); // SIIT
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return v4(b, 12); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b, 2); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) {
    // Teredo: the client's public address is the last 32 bits, inverted.
    return `${b[12]! ^ 255}.${b[13]! ^ 255}.${b[14]! ^ 255}.${b[15]! ^ 255}`;
  }
  return undefined;
}

/** True for addresses a crawler must not reach by default. Every textual and embedded form of an
 * address is reduced to its canonical bytes first, so `[::127.0.0.1]`, `[::ffff:7f00:1]`,
 * `[64:ff9b::a00:1]` and `127.0.0.1` get the same answer. Anything that is not an address is
 * refused. */
export function isPrivateAddress(ip: string): boolean {
  const host = ip.trim().replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 4) return blocked.check(host, 'ipv4');
  const bytes = ipv6Bytes(host);
  if (!bytes) return true; // not an address at all: refuse
  const inner = embeddedIPv4(bytes);
  if (inner !== undefined && blocked.check(inner, 'ipv4')) return true;
  const hex = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':');
  return blocked.check(hex, 'ipv6');
}

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** DNS answers are cached this long: long enough to spare the resolver on every request, short
 * enough to follow a host that moves during a long crawl. */
const DNS_CACHE_MS = 5 * 60_000;

export class AddressGuard {
  private cache = new Map<string, { at: number; ok: boolean; reason?: string }>();
  constructor(private readonly allowPrivate: boolean) {}

  /** Throws `BlockedAddressError` when the URL's host resolves to a non-public address. */
  async check(url: string): Promise<void> {
    if (this.allowPrivate) return;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new BlockedAddressError(`${url}: only http(s) is allowed`);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const now = Date.now();
    let hit = this.cache.get(host);
    if (!hit || now - hit.at > DNS_CACHE_MS) {
      hit = { at: now, ok: true };
      if (isIP(host)) {
        if (isPrivateAddress(host)) hit = { at: now, ok: false, reason: `${host} is a private or loopback address` };
      } else {
        try {
          const addrs = await lookup(host, { all: true, verbatim: true });
          const bad = addrs.find((a) => isPrivateAddress(a.address));
          if (bad) hit = { at: now, ok: false, reason: `${host} resolves to private or loopback address ${bad.address}` };
        } catch (e) {
          // Unresolvable: let the fetch fail with its own network error (retried, counted).
          return;
        }
      }
      this.cache.set(host, hit);
    }
    if (!hit.ok) throw new BlockedAddressError(`${url}: ${hit.reason} (set allowPrivateAddresses: true in the spider to allow it)`);
  }
}

/**
 * A `dns.lookup` replacement for the HTTP client: refuses non-public answers at connection time,
 * so a redirect or a DNS answer that changed since the pre-check (DNS rebinding) cannot reach a
 * private address. IP-literal hosts never reach a lookup: `AddressGuard.check` covers those.
 */
export function guardedLookup(hostname: string, options: unknown, callback?: unknown): void {
  const cb = (typeof options === 'function' ? options : callback) as (err: Error | null, address?: unknown, family?: number) => void;
  const opts = (typeof options === 'object' && options !== null ? options : {}) as dns.LookupOptions;
  dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
    if (err) return cb(err);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return cb(new BlockedAddressError(`${hostname} resolves to private or loopback address ${bad.address} (set allowPrivateAddresses: true in the spider to allow it)`));
    if (opts.all) return cb(null, addresses);
    const first = addresses[0];
    if (!first) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
    cb(null, first.address, first.family);
  });
}

/** Host allowed by the spider's domains: equal to one, or a subdomain of one. */
export function hostAllowed(hostname: string, domains: string[]): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => h === d || h.endsWith('.' + d));
}

/** Host names of `allowedDomains` entries (ports dropped): for cookie scoping. */
export function normaliseDomains(domains: string[]): string[] {
  return parseDomains(domains).map((d) => d.host);
}

/** One `allowedDomains` entry: a host (its subdomains included) and, when the entry names one,
 * the only port allowed on it. */
export interface DomainRule {
  host: string;
  port?: string;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `example.com`, `*.example.com`, `example.com:8080`, `[::1]:8080` or a URL → rules. */
export function parseDomains(domains: string[]): DomainRule[] {
  return domains.map((d) => {
    const s = d.trim().toLowerCase();
    if (s.includes('://')) {
      try {
        const u = new URL(s);
        return { host: u.hostname.replace(/\.$/, ''), port: u.port || undefined };
      } catch {
        return { host: s };
      }
    }
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(s.replace(/^\*\./, ''));
    if (!m) return { host: s };
    return { host: m[1]!.replace(/\.$/, ''), port: m[2] };
  });
}

/** The allowed-domain rules a spider gets by default: its start URLs' hosts, with the port when a
 * start URL names one (a site on :8080 does not open :9090 on the same host). */
export function defaultDomains(startUrls: string[]): string[] {
  return startUrls.map((u) => new URL(u).host);
}

/** Whether a URL is within the allowed domains: host equal to or under a rule's host, and the port
 * the rule names, if it names one (the scheme's default port otherwise matches any rule without
 * a port). */
export function urlAllowed(url: URL, rules: DomainRule[]): boolean {
  const h = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port || DEFAULT_PORT[url.protocol] || '';
  return rules.some((r) => (h === r.host || h.endsWith('.' + r.host)) && (r.port === undefined || r.port === port));
}
