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

  it('review L3, as listed: every translation form is refused, the old refusals stay, a public address stays allowed', () => {
    const refused = [
      '::ffff:0:a00:1', // SIIT ::ffff:0:0/96
      '::7f00:1', // IPv4-compatible ::/96 (127.0.0.1)
      '::a00:1', // IPv4-compatible ::/96 (10.0.0.1)
      '64:ff9b:1::a00:1', // local-use NAT64 64:ff9b:1::/48
      '127.0.0.1',
      '10.0.0.5',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
    ];
    for (const ip of refused) expect(addressAllowed(ip, false), ip).toBe(false);
    for (const ip of ['93.184.216.34', '2606:4700:4700::1111']) expect(addressAllowed(ip, false), ip).toBe(true);
  });

  it('6to4 (2002::/16) and Teredo (2001::/32) are blocked whole: both embed an IPv4 address reached through relays', () => {
    for (const ip of ['2002:a00:1::1', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::a00:1'])
      expect(classifyAddress(ip), ip).toBe('blocked');
  });

  it('the well-known NAT64 prefix is decoded from any spelling, including all-zero groups and uncompressed forms', () => {
    for (const ip of ['64:ff9b::', '64:ff9b::101', '64:ff9b:0:0:0:0:a00:1', '0064:ff9b:0000::0a00:0001', '64:FF9B::A9FE:A9FE', '64:ff9b::10.0.0.1', '64:ff9b::7f00:1'])
      expect(classifyAddress(ip), ip).toBe('blocked');
    for (const ip of ['64:ff9b:0:0:0:0:808:808', '64:ff9b::8.8.8.8']) expect(classifyAddress(ip), ip).toBe('public');
  });

  it('IPv6 outside global unicast (2000::/3) is blocked, whatever future use a reserved block gets', () => {
    for (const ip of ['4000::1', '8000::1', 'e000::1', '200::1', '1::1', '::2:0:0:1'])
      expect(classifyAddress(ip), ip).toBe('blocked');
    // IPv4-mapped addresses still take their IPv4 meaning, in any spelling.
    expect(classifyAddress('0:0:0:0:0:ffff:808:808')).toBe('public');
    expect(classifyAddress('::ffff:a00:1')).toBe('blocked');
  });

  it('loopback is allowed only with the testing switch; blocked never', () => {
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
  });
});
