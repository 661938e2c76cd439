// SSRF guard: which resolved addresses an outbound webhook may connect to (public ones; loopback only with the testing switch).
import net from 'node:net';

/** `public` may be reached; `loopback` only with OUTBOUND_ALLOW_LOOPBACK=1; `blocked` never. */
export type AddressClass = 'public' | 'loopback' | 'blocked';

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Private, link-local, shared, reserved, documentation, multicast and unspecified ranges (IANA special-purpose registries). */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  // IPv4 carried inside IPv6 by translators (security review L3): refused whole rather than decoded, since
  // whether such an address reaches an internal host depends on translators of the network, not on us.
  ['::', 96], // IPv4-compatible (deprecated; ::a00:1 is 10.0.0.1 on a network that still routes it)
  ['::ffff:0:0:0', 96], // SIIT IPv4-translated (RFC 6145): ::ffff:0:a00:1
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215); the well-known 64:ff9b::/96 is decoded below
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds any IPv4)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** The IPv4 address inside a NAT64 (64:ff9b::/96) address, else null. */
function nat64Embedded(ip: string): string | null {
  const m = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(ip);
  if (!m) return null;
  if (m[3]) return m[3];
  const hi = parseInt(m[1], 16);
  const lo = parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Classifies one resolved address (IPv4-mapped IPv6 counts as its IPv4 address). */
export function classifyAddress(ip: string): AddressClass {
  const family = net.isIP(ip);
  if (family === 0) return 'blocked';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return 'loopback';
  if (blocked.check(ip, type)) return 'blocked';
  const embedded = family === 6 ? nat64Embedded(ip) : null;
  if (embedded) return classifyAddress(embedded) === 'public' ? 'public' : 'blocked';
  return 'public';
}

/** True when a delivery may connect to `ip`. */
export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const c = classifyAddress(ip);
  return c === 'public' || (c === 'loopback' && allowLoopback);
}
