import { describe, expect, it } from 'vitest';
import { AddressGuard, guardedLookup, hostAllowed, isPrivateAddress, normaliseDomains } from '../../src/crawler/net-guard.js';

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
});
