// The node records' stored form: packed records read back as written, records stored named (before packing) still read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeMapJson, packNodeRecord, toNodeRecord, toNodeRecords, type NodeRecord, type NodeStatus } from '../../../src/engine/runtime/node-record.js';

const statuses: NodeStatus[] = ['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped', 'rolled_back'];
const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const record: fc.Arbitrary<NodeRecord> = fc
  .record({
    nodeId: fc.string({ minLength: 1, maxLength: 8 }),
    status: fc.constantFrom(...statuses),
    runs: fc.nat(50),
    attempt: fc.nat(50),
    summary: fc.option(fc.string(), { nil: null }),
    output: fc.option(json, { nil: null }),
    error: fc.option(fc.string(), { nil: null }),
    branches: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
    doneSeq: fc.option(fc.nat(1000), { nil: null }),
    startedAt: fc.option(time, { nil: null }),
    endedAt: fc.option(time, { nil: null }),
    holds: fc.nat(5),
    idAs: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
  })
  .map(({ idAs, ...r }) => (idAs === undefined ? r : { ...r, idAs }));

describe('node records as orders.nodes stores them', () => {
  it('a packed record reads back as the record written, through its JSON text (property)', () => {
    fc.assert(
      fc.property(record, (r) => {
        const stored = JSON.parse(JSON.stringify(packNodeRecord(r)));
        // JSON has no -0 and no undefined: compare through the same text.
        expect(JSON.stringify(toNodeRecord(r.nodeId, stored))).toBe(JSON.stringify(r));
      }),
    );
  });

  it('defaults and trailing fields are left out: a waiting step is five values, a finished logic step ten', () => {
    const waiting: NodeRecord = { nodeId: 'w', status: 'waiting', runs: 1, attempt: 0, summary: null, output: null, error: null, branches: [], doneSeq: null, startedAt: 1000, endedAt: null, holds: 0 };
    expect(packNodeRecord(waiting)).toEqual(['waiting', 1, 0, null, null, null, null, null, 1000]);
    const done: NodeRecord = { ...waiting, status: 'succeeded', attempt: 1, summary: 'Condition true', output: { result: true }, branches: ['true'], doneSeq: 2, endedAt: 1250 };
    expect(JSON.stringify(packNodeRecord(done))).toBe('["succeeded",1,1,"Condition true",{"result":true},null,["true"],2,1000,250]');
  });

  it('a record stored named (before records were packed) still reads, and the map may mix both forms', () => {
    const map = toNodeRecords({
      old: { status: 'succeeded', runs: 1, attempt: 1, branches: ['ok'], doneSeq: 1, startedAt: 5, endedAt: 9, holds: 2 },
      now: ['waiting', 1, 0, null, null, null, null, null, 10],
    });
    expect(map.get('old')).toEqual({ nodeId: 'old', status: 'succeeded', runs: 1, attempt: 1, summary: null, output: null, error: null, branches: ['ok'], doneSeq: 1, startedAt: 5, endedAt: 9, holds: 2 });
    expect(map.get('now')).toMatchObject({ status: 'waiting', startedAt: 10, endedAt: null, branches: [] });
    expect(Object.keys(nodeMapJson(map.values()))).toEqual(['old', 'now']);
  });
});
