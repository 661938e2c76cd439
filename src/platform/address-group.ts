// The client address caps and throttles count by: an IPv4 address itself, an IPv6 address by its /64 network.
import { isIPv4, isIPv6 } from 'node:net';

/**
 * One IPv6 client (a home line, a cloud host) is routinely given a whole /64: 2^64 addresses to spread requests
 * or connections over, so a cap or failure count per IPv6 address would count nothing. Its first 64 bits are what
 * one client controls, as rate limiters commonly group IPv6. IPv4 written as an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, as a dual-stack listener reports it) is that IPv4 address. Anything else (`unknown`, a
 * malformed value) is returned as it is. Audit records keep the address itself.
 */
export function addressGroup(ip: string): string {
  const address = ip.replace(/%.*$/, ''); // a zone (fe80::1%eth0) is not part of the address
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in hex without leading zeros (`::` expanded, a dotted tail converted). */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parts = (s: string | undefined): string[] => {
    if (!s) return [];
    const out: string[] = [];
    for (const p of s.split(':')) {
      if (p.includes('.')) {
        const [a, b, c, d] = p.split('.').map(Number);
        out.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
      } else out.push(parseInt(p, 16).toString(16));
    }
    return out;
  };
  const first = parts(head);
  const last = parts(tail);
  return tail === undefined ? first : [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
}
