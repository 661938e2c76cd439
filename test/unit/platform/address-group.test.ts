// Caps and throttles count an IPv6 client by its /64 and an IPv4 client by its address, however either is spelt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressGroup } from '../../../src/platform/address-group.js';

const group16 = fc.integer({ min: 0, max: 0xffff });
const hex = (g: number) => g.toString(16);

describe('addressGroup', () => {
  it('IPv6 addresses in one /64 share a group; a different /64 gets another (property)', () => {
    fc.assert(
      fc.property(fc.array(group16, { minLength: 8, maxLength: 8 }), fc.array(group16, { minLength: 4, maxLength: 4 }), (a, low) => {
        const full = a.map(hex).join(':');
        const sameNet = [...a.slice(0, 4), ...low].map(hex).join(':');
        expect(addressGroup(full)).toBe(addressGroup(sameNet));
        expect(addressGroup(full)).toBe(`${a.slice(0, 4).map(hex).join(':')}::/64`);
        const otherNet = [a[0]!, a[1]!, a[2]!, (a[3]! + 1) & 0xffff, ...a.slice(4)].map(hex).join(':');
        expect(addressGroup(otherNet)).not.toBe(addressGroup(full));
      }),
    );
  });

  it('compressed, zero-padded, upper-case, zoned and dotted-tail spellings of one address give one group', () => {
    const spellings = ['2001:db8:0:1::5', '2001:0DB8:0000:0001:0000:0000:0000:0005', '2001:db8:0:1:0:0:0.0.0.5', '2001:db8:0:1:0::5'];
    expect(new Set(spellings.map(addressGroup))).toEqual(new Set(['2001:db8:0:1::/64']));
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('IPv4, also as an IPv4-mapped IPv6 address, is the address itself; anything else is left as it is', () => {
    expect(addressGroup('192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('unknown')).toBe('unknown');
    expect(addressGroup('')).toBe('');
    expect(addressGroup('2001:db8::zz')).toBe('2001:db8::zz');
  });
});
