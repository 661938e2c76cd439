// SSRF guard: which resolved addresses a webhook may reach (spec "Webhook subscriptions"; issue: refuse private,
// loopback and link-local addresses at delivery time).
import { describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress } from '../../../src/webhooks/address-policy.js';

describe('classifyAddress', () => {
  it('public addresses are public', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '64:ff9b::808:808'])
      expect(classifyAddress(ip), ip).toBe('public');
  });

  it('loopback is loopback (IPv4, IPv6, IPv4-mapped)', () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(classifyAddress(ip), ip).toBe('loopback');
  });

  it('private, link-local, shared, reserved, multicast and unspecified are blocked', () => {
    for (const ip of [
      '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '255.255.255.255', '198.18.0.1', '192.0.2.5', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:10.0.0.1',
      '::ffff:169.254.169.254', '64:ff9b::a00:1', '2001:db8::1', 'not-an-ip',
    ])
      expect(classifyAddress(ip), ip).toBe('blocked');
  });

  it('IPv4 inside IPv6 translation prefixes is blocked: IPv4-compatible, SIIT-translated, local-use NAT64 (review L3)', () => {
    for (const ip of ['::a00:1', '::7f00:1', '::808:808', '::ffff:0:a00:1', '::ffff:0:808:808', '64:ff9b:1::a00:1', '64:ff9b:1::808:808'])
      expect(classifyAddress(ip), ip).toBe('blocked');
    // The well-known NAT64 prefix is decoded: a public IPv4 inside stays public, a private one is blocked.
    expect(classifyAddress('64:ff9b::808:808')).toBe('public');
    expect(classifyAddress('64:ff9b::a00:1')).toBe('blocked');
    // IPv4-mapped addresses keep their IPv4 meaning.
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('blocked');
  });

  it('loopback is allowed only with the testing switch; blocked never', () => {
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
  });
});
