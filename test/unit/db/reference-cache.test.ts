// ReferenceCache (src/db/reference-cache.ts): rows kept per reference version, emptied by a newer version or another epoch.
import { describe, expect, it } from 'vitest';
import { parseReferenceVersion, ReferenceCache } from '../../../src/db/reference-cache.js';

type Row = { id: string; n: number };
const v = (version: number, epoch = 'e1') => ({ epoch, version });

function source(table: Record<string, number>) {
  const calls: string[][] = [];
  const load = async (missing: string[]) => {
    calls.push(missing);
    return missing.filter((id) => id in table).map((id) => ({ id, n: table[id]! }));
  };
  return { calls, load };
}

describe('ReferenceCache', () => {
  it('reads each key once per version, in the order asked, and remembers that a key has no row', async () => {
    const cache = new ReferenceCache();
    const s = source({ a: 1, b: 2 });
    expect(await cache.rows<Row>(v(1), 'products', ['b', 'a', 'zz'], s.load, (r) => r.id)).toEqual([{ id: 'b', n: 2 }, { id: 'a', n: 1 }]);
    expect(await cache.rows<Row>(v(1), 'products', ['a', 'zz'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 1 }]);
    expect(s.calls).toEqual([['b', 'a', 'zz']]);
  });

  it('a newer version or another epoch (another database) empties the cache; an older version reads through and keeps nothing', async () => {
    const cache = new ReferenceCache();
    const table: Record<string, number> = { a: 1 };
    const s = source(table);
    await cache.rows<Row>(v(5), 'products', ['a'], s.load, (r) => r.id);
    table.a = 2;
    expect(await cache.rows<Row>(v(4), 'products', ['a'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 2 }]);
    expect(await cache.rows<Row>(v(5), 'products', ['a'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 1 }]);
    expect(await cache.rows<Row>(v(6), 'products', ['a'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 2 }]);
    table.a = 3;
    expect(await cache.rows<Row>(v(6, 'e2'), 'products', ['a'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 3 }]);
    expect(s.calls).toHaveLength(4);
  });

  it('rows are copies: changing what a read returned changes nothing cached', async () => {
    const cache = new ReferenceCache();
    const s = source({ a: 1 });
    const [row] = await cache.rows<Row>(v(1), 'sellers', ['a'], s.load, (r) => r.id);
    row!.n = 99;
    expect(await cache.rows<Row>(v(1), 'sellers', ['a'], s.load, (r) => r.id)).toEqual([{ id: 'a', n: 1 }]);
  });

  it('parses `epoch:version` and refuses anything else', () => {
    expect(parseReferenceVersion('abc:12')).toEqual({ epoch: 'abc', version: 12 });
    expect(parseReferenceVersion(null)).toBeNull();
    expect(parseReferenceVersion('12')).toBeNull();
    expect(parseReferenceVersion('abc:x')).toBeNull();
  });
});
