// EDI 850 mapping rules on synthetic interchanges, one rule per test (spec "EDI 850 adapter", contract §10).
import { describe, expect, it } from 'vitest';
import { mapX12850, type X12850Result } from '../../../src/channels/x12/x12-850-mapper.js';
import { X12EnvelopeError } from '../../../src/channels/x12/x12-envelope-error.js';
import { x12DateToIso } from '../../../src/channels/x12/x12-date.js';
import { envelope, interchange, po850, transaction } from './channel-fixtures.js';

/** Maps one 850 built from `content` and returns its single result. */
function one(content: string[], options: { se01?: number } = {}): X12850Result {
  const mapping = mapX12850(interchange(envelope([transaction('0001', content, options)])));
  expect(mapping.results).toHaveLength(1);
  return mapping.results[0];
}

function errorOf(result: X12850Result): string {
  if (result.ok) throw new Error('expected a failed transaction');
  return result.error;
}

function orderOf(result: X12850Result) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result.order;
}

describe('envelope counts', () => {
  it('SE01 must equal the segment count, ST through SE inclusive', () => {
    expect(one(po850(), { se01: 6 }).ok).toBe(true);
    const result = one(po850(), { se01: 7 });
    expect(result).toMatchObject({ control: '0001', poNumber: 'PO-1', ok: false });
    expect(errorOf(result)).toBe('SE01 says 7 segments but the transaction set has 6 (ST through SE)');
  });

  it('SE01 that is not a number fails the transaction', () => {
    const mapping = mapX12850(interchange(envelope([['ST*850*0001', ...po850(), 'SE*six*0001']])));
    expect(errorOf(mapping.results[0])).toBe("SE01 'six' is not a segment count");
  });

  it('an ST without SE fails that transaction only', () => {
    const mapping = mapX12850(interchange(envelope([['ST*850*0001', ...po850()], transaction('0002', po850())])));
    expect(mapping.results.map((r) => [r.control, r.ok])).toEqual([['0001', false], ['0002', true]]);
    expect(errorOf(mapping.results[0])).toBe("Transaction set 850 '0001' has no SE segment");
  });

  it('CTT01 must equal the number of PO1 lines', () => {
    const result = one(po850({ ctt: 'CTT*2' }));
    expect(result).toMatchObject({ poNumber: 'PO-1', ok: false });
    expect(errorOf(result)).toBe('CTT01 says 2 line items but the transaction set has 1 PO1 segment(s)');
  });

  it('CTT01 is read as a number (zero-padded) and CTT is optional', () => {
    expect(one(po850({ ctt: 'CTT*000001**0000000.00*01' })).ok).toBe(true);
    expect(one(po850({ ctt: null })).ok).toBe(true);
  });
});

describe('header mapping', () => {
  it('maps a minimal 850 to the signed inbound body shape', () => {
    expect(orderOf(one(po850()))).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: 'SENDER:PO-1',
      title: 'PO PO-1',
      currency: 'USD',
      lines: [{ sku: 'ABC-1', name: 'Widget', qty: 2, unitPrice: 9.5 }],
      source: 'x12-850',
      meta: { edi: { sender: 'SENDER', poNumber: 'PO-1', control: '0001', date: '2024-01-15' } },
    });
  });

  it('BEG03 is required', () => {
    const result = one(po850({ beg: 'BEG*00*SA***20240115' }));
    expect(result).toEqual({ control: '0001', ok: false, error: 'BEG03 (purchase order number) is missing' });
    expect(errorOf(one(po850({ beg: 'REF*ZZ*no-beg' })))).toBe('BEG03 (purchase order number) is missing');
  });

  it('CUR02 sets the currency; USD when absent', () => {
    expect(orderOf(one(po850({ header: ['CUR*BY*EUR'] }))).currency).toBe('EUR');
    expect(orderOf(one(po850())).currency).toBe('USD');
  });

  it('BEG05 becomes meta.edi.date as YYYY-MM-DD; an impossible date fails; absent is omitted', () => {
    expect(orderOf(one(po850({ beg: 'BEG*00*SA*PO-1**991231' }))).meta).toMatchObject({ edi: { date: '1999-12-31' } });
    expect(errorOf(one(po850({ beg: 'BEG*00*SA*PO-1**20240230' })))).toBe("BEG05 '20240230' is not a date (CCYYMMDD)");
    expect(orderOf(one(po850({ beg: 'BEG*00*SA*PO-1' }))).meta).toEqual({ edi: { sender: 'SENDER', poNumber: 'PO-1', control: '0001' } });
  });

  it('x12DateToIso reads CCYYMMDD and YYMMDD with the POSIX pivot, and rejects non-dates', () => {
    expect(x12DateToIso('20240229')).toBe('2024-02-29');
    expect(x12DateToIso('20230229')).toBeUndefined();
    expect(x12DateToIso('680101')).toBe('2068-01-01');
    expect(x12DateToIso('690101')).toBe('1969-01-01');
    expect(x12DateToIso('2024-01-01')).toBeUndefined();
    expect(x12DateToIso('20241301')).toBeUndefined();
  });

  it('a transaction that is not an 850 fails with "not an 850" while the others still map', () => {
    const mapping = mapX12850(interchange(envelope([transaction('0001', ['BIG*20240101*INV-1']), transaction('0002', po850())].map((t, i) => (i === 0 ? t.map((s) => s.replace('ST*850', 'ST*810')) : t)))));
    expect(mapping.results[0]).toEqual({ control: '0001', ok: false, error: 'Transaction set 810 is not an 850' });
    expect(mapping.results[1].ok).toBe(true);
  });
});

describe('PO1 lines', () => {
  it('SKU follows the priority VP > SK > BP > IN, not the position of the pair', () => {
    const lines = ['PO1*1*1*EA*1**IN*in-id*BP*bp-id*SK*sk-id*VP*vp-id', 'PO1*2*1*EA*1**IN*in-id*BP*bp-id*SK*sk-id', 'PO1*3*1*EA*1**IN*in-id*BP*bp-id', 'PO1*4*1*EA*1**UP*up-id*IN*in-id'];
    expect(orderOf(one(po850({ lines }))).lines.map((line) => line.sku)).toEqual(['vp-id', 'sk-id', 'bp-id', 'in-id']);
  });

  it('a qualifier with an empty value does not count', () => {
    expect(orderOf(one(po850({ lines: ['PO1*1*1*EA*1**VP**SK*sk-id'] }))).lines[0].sku).toBe('sk-id');
  });

  it('a PO1 with none of VP, SK, BP, IN fails the transaction, naming the line', () => {
    const lines = ['PO1*1*1*EA*1**VP*ok', 'PO1*20*1*EA*1**UP*0123*VN*X'];
    expect(errorOf(one(po850({ lines })))).toBe("PO1 line 2 (PO101 '20') has none of the product id qualifiers VP, SK, BP, IN");
    expect(errorOf(one(po850({ lines: ['PO1**1*EA*1'] })))).toBe('PO1 line 1 has none of the product id qualifiers VP, SK, BP, IN');
  });

  it('PO102 quantity must be a positive number', () => {
    expect(errorOf(one(po850({ lines: ['PO1*1*0*EA*1**VP*A'] })))).toBe("PO1 line 1 (PO101 '1'): quantity PO102 '0' is not a positive number");
    expect(errorOf(one(po850({ lines: ['PO1*1*-3*EA*1**VP*A'] })))).toMatch(/quantity PO102 '-3' is not a positive number/);
    expect(errorOf(one(po850({ lines: ['PO1*1*two*EA*1**VP*A'] })))).toMatch(/quantity PO102 'two'/);
    expect(errorOf(one(po850({ lines: ['PO1*1**EA*1**VP*A'] })))).toMatch(/quantity PO102 ''/);
    expect(orderOf(one(po850({ lines: ['PO1*1*0008*EA*1**VP*A'] }))).lines[0].qty).toBe(8);
  });

  it('PO104 unit price is optional and kept when present', () => {
    const lines = ['PO1*1*1*EA***VP*A', 'PO1*2*1*EA*12.50**VP*B', 'PO1*3*1*EA*0**VP*C'];
    expect(orderOf(one(po850({ lines }))).lines).toEqual([
      { sku: 'A', qty: 1 },
      { sku: 'B', qty: 1, unitPrice: 12.5 },
      { sku: 'C', qty: 1, unitPrice: 0 },
    ]);
    expect(errorOf(one(po850({ lines: ['PO1*1*1*EA*abc**VP*A'] })))).toBe("PO1 line 1 (PO101 '1'): unit price PO104 'abc' is not a non-negative number");
  });

  it('PID05 after a PO1 names that line; a PID before any PO1 names nothing', () => {
    const lines = ['PO1*1*1*EA*1**VP*A', 'PID*F****First', 'PID*F****Second', 'PO1*2*1*EA*1**VP*B'];
    const order = orderOf(one(po850({ header: ['PID*F****Header text'], lines })));
    expect(order.lines).toEqual([{ sku: 'A', name: 'First', qty: 1, unitPrice: 1 }, { sku: 'B', qty: 1, unitPrice: 1 }]);
  });

  it('a purchase order without PO1 fails', () => {
    expect(errorOf(one(po850({ lines: [] })))).toBe('Purchase order has no PO1 line items');
  });
});

describe('ship-to from N1*ST, N3, N4', () => {
  const st = (...segments: string[]) => orderOf(one(po850({ header: segments }))).shipTo;

  it('maps N102, N301/N302, N401-N404', () => {
    expect(st('N1*ST*Dock 4*92*1', 'N3*1 Main St*Suite 2', 'N4*Springfield*IL*62701*CA')).toEqual({
      name: 'Dock 4', line1: '1 Main St', line2: 'Suite 2', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'CA',
    });
  });

  it('country defaults to US', () => {
    expect(st('N1*ST*Dock', 'N3*1 Main St', 'N4*Springfield*IL*62701')?.country).toBe('US');
  });

  it('is omitted unless street, city and postal code exist', () => {
    expect(st('N1*ST*Dock', 'N4*Springfield*IL*62701')).toBeUndefined();
    expect(st('N1*ST*Dock', 'N3*1 Main St', 'N4**IL*62701')).toBeUndefined();
    expect(st('N1*ST*Dock', 'N3*1 Main St', 'N4*Springfield*IL')).toBeUndefined();
    expect(st('N1*ST*Dock', 'N3*1 Main St')).toBeUndefined();
  });

  it('uses only the N3/N4 of the N1*ST loop, not of other parties', () => {
    expect(st('N1*BT*Billing', 'N3*9 Bill Rd', 'N4*Billtown*NY*10001', 'N1*ST*Dock')).toBeUndefined();
    expect(st('N1*ST*Dock', 'N3*1 Main St', 'N4*Springfield*IL*62701', 'N1*BT*Billing', 'N3*9 Bill Rd', 'N4*Billtown*NY*10001')).toMatchObject({
      line1: '1 Main St', city: 'Springfield',
    });
  });
});

describe('delimiter variants and leading bytes', () => {
  it('`|` element separator with a newline segment terminator maps the same order', () => {
    const segments = envelope([transaction('0001', po850({ header: ['N1*ST*Dock', 'N3*1 Main St', 'N4*Springfield*IL*62701'] }))]);
    const piped = mapX12850(interchange(segments, { element: '|', segment: '\n' }));
    const starred = mapX12850(interchange(segments));
    expect(piped.results[0].ok).toBe(true);
    expect(piped.results).toEqual(starred.results);
  });

  it('a BOM and leading whitespace before ISA are ignored', () => {
    const body = `\uFEFF\r\n  \t${interchange(envelope([transaction('0001', po850())]))}`;
    expect(mapX12850(body).results[0]).toMatchObject({ ok: true, order: { externalId: 'SENDER:PO-1' } });
  });
});

describe('tolerated envelope oddities are warnings, not failures', () => {
  it('GS01 not PO, repeated ST02, IEA02 mismatch', () => {
    const segments = envelope([transaction('0001', po850()), transaction('0001', po850({ beg: 'BEG*00*SA*PO-2**20240115' }))], 'IN');
    segments[segments.length - 1] = 'IEA*1*000000777';
    const mapping = mapX12850(interchange(segments));
    expect(mapping.results.map((r) => r.ok)).toEqual([true, true]);
    expect(mapping.warnings).toEqual([
      "IEA02 '000000777' does not match ISA13 '000000001'",
      "GS01 'IN' is not 'PO' for transaction set 850 '0001'",
      "Transaction set control number '0001' repeats in group '1'",
      "GS01 'IN' is not 'PO' for transaction set 850 '0001'",
    ]);
  });

  it('GE01/GE02 mismatches and a missing GS are warnings', () => {
    const mapping = mapX12850(interchange([...transaction('0001', po850()), 'GE*5*9', 'IEA*0*000000001']));
    expect(mapping.results[0].ok).toBe(true);
    expect(mapping.warnings).toEqual(["Transaction set '0001' is outside a functional group", 'GE segment without a GS']);
  });
});

describe('body-level errors', () => {
  it('an empty ISA06 sender is a body error', () => {
    expect(() => mapX12850(interchange(envelope([transaction('0001', po850())]), { sender: '' }))).toThrow(/ISA06/);
  });

  it('an interchange with no transaction set is a body error', () => {
    expect(() => mapX12850(interchange(['GS*PO*A*B*20240101*1200*1*X*004010', 'GE*0*1', 'IEA*1*000000001']))).toThrow(X12EnvelopeError);
  });
});

describe('text that cannot be stored is refused per transaction (security review L2)', () => {
  it('a NUL, another C0 control or DEL in any element is a 400 naming the segment; TAB, CR and LF inside a field are kept', () => {
    expect(errorOf(one(po850({ beg: 'BEG*00*SA*PO\u00007**20220101' })))).toBe('Segment BEG holds a control character (U+0000); control characters are not accepted');
    expect(errorOf(one(po850({ lines: ['PO1*1*2*EA*9.5**VP*ABC\u001b1'] })))).toBe('Segment PO1 holds a control character (U+001B); control characters are not accepted');
    expect(errorOf(one(po850({ header: ['CUR*BY*US\u007fD'] })))).toBe('Segment CUR holds a control character (U+007F); control characters are not accepted');
    expect(orderOf(one(po850({ lines: ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Wide\tWidget'] }))).lines[0].name).toBe('Wide\tWidget');
  });

  it('an unpaired surrogate (possible only when a caller hands mapX12850 a string) is a 400; a paired one is ordinary text', () => {
    expect(errorOf(one(po850({ lines: ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Wid\ud800get'] })))).toBe(
      'Segment PID holds an unpaired surrogate (U+D800), which is not Unicode text; it is not accepted',
    );
    expect(orderOf(one(po850({ lines: ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Widget \ud83d\ude00'] }))).lines[0].name).toBe('Widget \ud83d\ude00');
  });

  it('a body decoded from bytes never holds an unpaired surrogate: invalid UTF-8 becomes U+FFFD', () => {
    const [before, after] = interchange(envelope([transaction('0001', po850({ lines: ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Wid@get'] }))])).split('@');
    // ED A0 80 would be U+D800 in UTF-8, which UTF-8 forbids.
    const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(after)]);
    expect(orderOf(mapX12850(bytes).results[0]).lines[0].name).toBe('Wid\ufffd\ufffd\ufffdget');
  });
});
