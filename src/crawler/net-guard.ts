/**
 * Request safety: only http(s), only allowed domains, and no private, loopback, link-local or
 * otherwise non-public addresses (SSRF) unless the spider allows them. Host names are resolved
 * (every A/AAAA record) and the answer cached for a while.
 */
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import dns from 'node:dns';

/** Non-public ranges: RFC 1918, loopback, link-local, CGNAT (RFC 6598), "this network", benchmark
 * (RFC 2544), documentation, multicast and reserved; IPv6 loopback, unspecified, ULA (fc00::/7),
 * link-local (fe80::/10), multicast, documentation, and the IPv4-mapped/NAT64 forms of the above. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** True for addresses a crawler must not reach by default. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const lower = ip.toLowerCase();
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible and NAT64 (64:ff9b::/96) embed an IPv4 address.
    const embedded = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
    if (embedded) return blocked.check(embedded[1]!, 'ipv4');
    const hexMapped = lower.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
    if (hexMapped) {
      const hi = parseInt(hexMapped[1]!, 16);
      const lo = parseInt(hexMapped[2]!, 16);
      return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return blocked.check(ip, 'ipv6');
  }
  return true; // not an address at all: refuse
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

export function normaliseDomains(domains: string[]): string[] {
  return domains.map((d) => {
    const s = d.trim().toLowerCase();
    try {
      return s.includes('://') ? new URL(s).hostname : s.replace(/^\*\./, '').replace(/\.$/, '').replace(/:\d+$/, '');
    } catch {
      return s;
    }
  });
}
