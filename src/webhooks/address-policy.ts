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
  // Teredo (2001::/32) and 6to4 (2002::/16) embed an IPv4 address reached through relays we do not
  // control; no webhook receiver needs them, so they are refused whole rather than decoded.
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds any IPv4)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/**
 * IPv6 that may be public: global unicast only (2000::/3), as the review suggests. Everything else in
 * the IPv6 space is reserved, local or a translation form, so a prefix put to use later (another
 * translator, say) is refused until someone decides otherwise. The two forms that carry an IPv4
 * address whose meaning we know (IPv4-mapped, well-known NAT64) are decoded before this check.
 */
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * The eight 16-bit groups of a textual IPv6 address, from any spelling (leading zeros, `::`
 * anywhere, upper case, a dotted IPv4 tail, a `%zone`). `ip` must already pass `net.isIP`.
 */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const read = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = read(head);
  const right = read(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address an IPv6 address stands for, when its meaning is fixed: IPv4-mapped (::ffff:0:0/96,
 * the socket layer's own spelling of IPv4) or the well-known NAT64 prefix (64:ff9b::/96, RFC 6052).
 * Null for any other IPv6 address.
 */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const mapped = zeros(0, 5) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !nat64) return null;
  const [hi, lo] = [groups[6], groups[7]];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Classifies one resolved address, from any textual spelling. IPv4-mapped and well-known NAT64
 * addresses take the class of the IPv4 address inside (a loopback one is refused outright inside
 * NAT64, since the translator, not this host, would be reached); other IPv6 is public only as global
 * unicast outside the blocked ranges.
 */
export function classifyAddress(ip: string): AddressClass {
  const family = net.isIP(ip);
  if (family === 0) return 'blocked';
  if (family === 4) {
    if (loopback.check(ip, 'ipv4')) return 'loopback';
    return blocked.check(ip, 'ipv4') ? 'blocked' : 'public';
  }
  if (loopback.check(ip, 'ipv6')) return 'loopback';
  if (blocked.check(ip, 'ipv6')) return 'blocked';
  const groups = ipv6Groups(ip);
  const embedded = embeddedIpv4(groups);
  if (embedded !== null) {
    const inner = classifyAddress(embedded);
    return groups[5] === 0xffff ? inner : inner === 'public' ? 'public' : 'blocked';
  }
  return globalUnicast.check(ip, 'ipv6') ? 'public' : 'blocked';
}

/** True when a delivery may connect to `ip`. */
export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const c = classifyAddress(ip);
  return c === 'public' || (c === 'loopback' && allowLoopback);
}
