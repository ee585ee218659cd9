import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AddressGuard, embeddedIPv4, guardedLookup, hostAllowed, ipv6Bytes, isPrivateAddress, normaliseDomains, parseDomains, urlAllowed } from '../../src/crawler/net-guard.js';
import { runSpider } from '../../src/crawler/crawl.js';
import { silentLogger } from '../../src/core/middleware.js';
import { serve, smallSite } from '../fixtures/crawler/server.js';

describe('private address blocking', () => {
  it('classifies IPv4 and IPv6 ranges', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1'])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(isPrivateAddress('not-an-ip')).toBe(true);
  });

  it('blocks loopback hosts by name and by address unless allowed', async () => {
    const guard = new AddressGuard(false);
    await expect(guard.check('http://127.0.0.1:8080/')).rejects.toThrow(/private or loopback/);
    await expect(guard.check('http://[::1]/')).rejects.toThrow(/private or loopback/);
    await expect(guard.check('http://localhost/')).rejects.toThrow(/resolves to private or loopback address/);
    await expect(guard.check('ftp://example.com/')).rejects.toThrow(/only http/);
    await expect(new AddressGuard(true).check('http://127.0.0.1/')).resolves.toBeUndefined();
  });

  it('refuses private answers at connection time (the HTTP client\'s DNS lookup)', async () => {
    const err = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (e: Error | null) => resolve(e)));
    expect(err?.name).toBe('BlockedAddressError');
    const all = await new Promise<Error | null>((resolve) => guardedLookup('localhost', { all: true }, (e: Error | null) => resolve(e)));
    expect(all?.name).toBe('BlockedAddressError');
  });

  it('matches allowed domains and their subdomains only', () => {
    const d = normaliseDomains(['Example.com', 'https://news.site.org/path', '*.blog.net']);
    expect(d).toEqual(['example.com', 'news.site.org', 'blog.net']);
    expect(hostAllowed('example.com', d)).toBe(true);
    expect(hostAllowed('www.example.com', d)).toBe(true);
    expect(hostAllowed('badexample.com', d)).toBe(false);
    expect(hostAllowed('site.org', d)).toBe(false);
    expect(hostAllowed('a.blog.net', d)).toBe(true);
  });

  it('allowedDomains with a port allow that port only', () => {
    const rules = parseDomains(['a.test:8080', 'b.test', 'https://c.test:8443/x', '[::1]:9000']);
    expect(rules).toEqual([{ host: 'a.test', port: '8080' }, { host: 'b.test', port: undefined }, { host: 'c.test', port: '8443' }, { host: '[::1]', port: '9000' }]);
    expect(urlAllowed(new URL('http://a.test:8080/'), rules)).toBe(true);
    expect(urlAllowed(new URL('http://www.a.test:8080/'), rules)).toBe(true);
    expect(urlAllowed(new URL('http://a.test:9090/'), rules)).toBe(false);
    expect(urlAllowed(new URL('http://a.test/'), rules)).toBe(false);
    expect(urlAllowed(new URL('http://b.test:1234/'), rules)).toBe(true);
    expect(urlAllowed(new URL('https://c.test:8443/y'), rules)).toBe(true);
    expect(urlAllowed(new URL('http://[::1]:9000/'), rules)).toBe(true);
    expect(urlAllowed(new URL('http://[::1]:9001/'), rules)).toBe(false);
  });
});

/** Every textual and embedded form, checked as the pure function (no traffic: most of these would
 * leave the machine if the guard failed). */
describe('canonical addresses', () => {
  const refused: Array<[string, string]> = [
    ['::7f00:1', 'IPv4-compatible loopback (what [::127.0.0.1] parses to)'],
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped, hex'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped, uncompressed'],
    ['::ffff:0:7f00:1', 'SIIT translated'],
    ['::ffff:a9fe:a9fe', 'mapped link-local (cloud metadata 169.254.169.254)'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b:1::1', 'local-use NAT64 (RFC 8215)'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, uncompressed'],
    ['[::1]', 'loopback, bracketed'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
  ];
  it.each(refused)('refuses %s (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it('allows public addresses in every form, and decodes the embedded IPv4', () => {
    for (const ip of ['2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2a00:1450:4001:80b::200e'])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(embeddedIPv4(ipv6Bytes('64:ff9b::a00:1')!)).toBe('10.0.0.1');
    expect(embeddedIPv4(ipv6Bytes('2002:c0a8:101::')!)).toBe('192.168.1.1');
    expect(ipv6Bytes('not:an:address')).toBeUndefined();
  });
  it('URL-time: disguised loopback hosts are refused before any request', async () => {
    const guard = new AddressGuard(false);
    for (const u of ['http://[::127.0.0.1]/', 'http://[::ffff:127.0.0.1]/', 'http://[0::ffff:7f00:1]/', 'http://0x7f.1/', 'http://2130706433/', 'http://017700000001/', 'http://127.1/'])
      await expect(guard.check(u), u).rejects.toThrow(/private or loopback/);
  });
});

describe('the guard in a crawl (loopback only)', () => {
  it('refuses every loopback form of a start URL: the server sees no request', async () => {
    const server = await serve(smallSite(1, 1));
    const port = new URL(server.url).port;
    try {
      const startUrls = [`http://[::ffff:127.0.0.1]:${port}/`, `http://[::127.0.0.1]:${port}/`, `http://127.1:${port}/`, `http://0x7f000001:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`];
      const summary = await runSpider({ name: 'guard-forms', startUrls, crawler: { robotsTxt: false } }, { storageDir: mkdtempSync(path.join(tmpdir(), 'guard-')), log: silentLogger });
      expect(summary.pages).toBe(0);
      // 127.1 and 0x7f000001 both parse to 127.0.0.1: one start URL.
      expect(summary.failuresByReason).toEqual({ 'blocked address': startUrls.length - 1 });
      expect(summary.startUrlsFailed).toBe(summary.startUrls);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
