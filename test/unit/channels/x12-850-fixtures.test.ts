// Every shared X12 fixture through the 850 mapper, with field-level expectations (spec "EDI 850 adapter").
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { mapX12850, type X12850Mapping, type X12850Result } from '../../../src/channels/x12/x12-850-mapper.js';
import { X12EnvelopeError } from '../../../src/channels/x12/x12-envelope-error.js';
import { inboundOrderBodySchema } from '../../../src/domain/order-input-schema.js';
import { fixtureFiles, X12_DIR, x12Fixture } from './channel-fixtures.js';

const map = (name: string): X12850Mapping => mapX12850(x12Fixture(name));

/** The order of an ok result; fails the test when the result is not ok. */
function orderOf(result: X12850Result) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  // The adapter's body must be what the signed inbound route accepts (type and schema).
  const body: z.input<typeof inboundOrderBodySchema> = result.order;
  const parsed = inboundOrderBodySchema.safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return result.order;
}

const NO_SKU = /has none of the product id qualifiers VP, SK, BP, IN/;

describe('X12 fixtures: the table covers every file', () => {
  it('lists exactly the files of the fixture folder', () => {
    expect(fixtureFiles(X12_DIR)).toEqual([
      'edinet__x12.850.issue135.edi',
      'edinet__x12.850a.edi',
      'mixed__staedi__invoice810_po850_dual.edi',
      'nodex12__850.edi',
      'nodex12__850_3.edi',
      'nodex12__850_fat.edi',
      'nonpo__nodex12__856.edi',
      'nonpo__staedi__simple810.edi',
      'oopfactory__Example1_PGWGlass.txt',
      'oopfactory__Example2_Adobe_TLP.txt',
      'oopfactory__From_aojuk.txt',
      'stedi__5010_850_input.edi',
    ]);
  });
});

describe('X12 fixtures that map (each 850 becomes a b2b/edi/x12-850 order)', () => {
  it('stedi 5010: SKU is SK over VC (priority), zero-padded qty, N1*ST ship-to; GS01 OW is only a warning', () => {
    const mapping = map('stedi__5010_850_input.edi');
    expect(mapping.sender).toBe('ANOTHERMERCH');
    expect(mapping.results).toHaveLength(1);
    expect(mapping.results[0]).toMatchObject({ control: '000000057', poNumber: '365465413', ok: true });
    expect(orderOf(mapping.results[0])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: 'ANOTHERMERCH:365465413',
      title: 'PO 365465413',
      currency: 'USD',
      lines: [
        { sku: 'ACM/8900-400', name: '400 pound anvil', qty: 8, unitPrice: 400 },
        { sku: 'ACM/1100-001', name: 'Detonator', qty: 4, unitPrice: 125 },
      ],
      source: 'x12-850',
      shipTo: { name: 'Wile E Coyote', line1: '111 Canyon Court', city: 'Phoenix', region: 'AZ', postalCode: '85001', country: 'US' },
      meta: { edi: { sender: 'ANOTHERMERCH', poNumber: '365465413', control: '000000057', date: '2022-08-30' } },
    });
    expect(mapping.warnings).toEqual(["GS01 'OW' is not 'PO' for transaction set 850 '000000057'"]);
  });

  it('node-x12 850_3: newline terminator, empty PO101, SK among VN/PD/SK, N4 without country defaults to US', () => {
    const mapping = map('nodex12__850_3.edi');
    expect(mapping.sender).toBe('0000000000');
    expect(mapping.results).toHaveLength(1);
    expect(mapping.results[0]).toMatchObject({ control: '8830', poNumber: '----------', ok: true });
    expect(orderOf(mapping.results[0])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: '0000000000:----------',
      title: 'PO ----------',
      currency: 'USD',
      lines: [{ sku: '000000000001010700', qty: 1, unitPrice: 225 }],
      source: 'x12-850',
      shipTo: { name: 'PETCO - CORPORATE', line1: '9125 REHCO RD', city: 'SAN DIEGO', region: 'CA', postalCode: '92121', country: 'US' },
      meta: { edi: { sender: '0000000000', poNumber: '----------', control: '8830', date: '2016-04-26' } },
    });
    expect(mapping.warnings).toEqual([]);
  });

  it('OopFactory Example1: BOM, `~` as ISA16 and `|` as terminator, CUR02, BP SKUs, N3 with two lines, CTT*4', () => {
    const mapping = map('oopfactory__Example1_PGWGlass.txt');
    expect(mapping.sender).toBe('828513080');
    expect(mapping.results).toHaveLength(1);
    expect(mapping.results[0]).toMatchObject({ control: '0001', poNumber: 'S41000439', ok: true });
    expect(orderOf(mapping.results[0])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: '828513080:S41000439',
      title: 'PO S41000439',
      currency: 'USD',
      lines: [
        { sku: '0459001004', name: 'FUSE, BUSSMAN FNA-4/10', qty: 5, unitPrice: 5.09 },
        { sku: '0650002027', name: 'LAMP, MAXLITE 35873, 200W,', qty: 12, unitPrice: 63.11 },
        { sku: '0670104514', name: 'DIN RAIL, 35MM, 3 FT LENGTH,', qty: 2, unitPrice: 8.02 },
        { sku: '0684202074', name: 'SWITCH, PROXIMITY,', qty: 1, unitPrice: 85.25 },
      ],
      source: 'x12-850',
      // N1*ST has no N102, so no name.
      shipTo: { line1: 'WORKS 41', line2: '2290 MENELAUS ROAD', city: 'BEREA', region: 'KY', postalCode: '40403', country: 'US' },
      meta: { edi: { sender: '828513080', poNumber: 'S41000439', control: '0001', date: '2010-08-10' } },
    });
    expect(mapping.warnings).toEqual([]);
  });

  it('OopFactory Example2: `~` element separator, CR terminator with LF after it, BP over MG, ship-to from the N1*ST loop only', () => {
    const mapping = map('oopfactory__Example2_Adobe_TLP.txt');
    expect(mapping.sender).toBe('000000000');
    expect(mapping.results).toHaveLength(1);
    expect(mapping.results[0]).toMatchObject({ control: '114640004', poNumber: 'TLP-X12', ok: true });
    expect(orderOf(mapping.results[0])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: '000000000:TLP-X12',
      title: 'PO TLP-X12',
      currency: 'USD',
      lines: [{ sku: '12345678', qty: 1, unitPrice: 665 }],
      source: 'x12-850',
      shipTo: { name: 'SHIP TO', line1: '123 MAIN STREET', city: 'CEDAR RAPIDS', region: 'IA', postalCode: '524032140', country: 'US' },
      meta: { edi: { sender: '000000000', poNumber: 'TLP-X12', control: '114640004', date: '2010-06-14' } },
    });
    // The file ends with `IEA~1~000211462` and no terminator: tolerated.
    expect(mapping.warnings).toEqual(['Last segment (IEA) has no segment terminator']);
  });

  it('OopFactory From_aojuk: BOM and indentation, VP SKUs, non-sequential PO101, PID names, N3 street + suite', () => {
    const mapping = map('oopfactory__From_aojuk.txt');
    expect(mapping.sender).toBe('SITESTUFFP2P');
    expect(mapping.results).toHaveLength(1);
    expect(mapping.results[0]).toMatchObject({ control: '0083', poNumber: '6190', ok: true });
    expect(orderOf(mapping.results[0])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: 'SITESTUFFP2P:6190',
      title: 'PO 6190',
      currency: 'USD',
      lines: [
        { sku: '123456', name: 'DESCRIPTION 1', qty: 1, unitPrice: 10.98 },
        { sku: '654321', name: 'DESCRIPTION 2', qty: 1, unitPrice: 219 },
      ],
      source: 'x12-850',
      shipTo: { name: 'Demo Buying Property', line1: 'street 1', line2: 'suite 1', city: 'Austin', region: 'TX', postalCode: '78759', country: 'US' },
      meta: { edi: { sender: 'SITESTUFFP2P', poNumber: '6190', control: '0083', date: '2009-01-01' } },
    });
    expect(mapping.warnings).toEqual([]);
  });

  it('staedi mixed 810+850: the two 810s fail as not an 850, the 850 maps (IN SKUs, no prices, YYMMDD date)', () => {
    const mapping = map('mixed__staedi__invoice810_po850_dual.edi');
    expect(mapping.sender).toBe('SENDERISA');
    expect(mapping.results).toHaveLength(3);
    expect(mapping.results[0]).toEqual({ control: '000000001', ok: false, error: 'Transaction set 810 is not an 850' });
    expect(mapping.results[1]).toEqual({ control: '000000002', ok: false, error: 'Transaction set 810 is not an 850' });
    expect(mapping.results[2]).toMatchObject({ control: '000191240', poNumber: 'S115921858', ok: true });
    expect(orderOf(mapping.results[2])).toEqual({
      model: 'b2b',
      channel: 'edi',
      externalId: 'SENDERISA:S115921858',
      title: 'PO S115921858',
      currency: 'USD',
      // PO104 is empty on every line: no unitPrice, the flow's price node prices them.
      lines: [
        { sku: '02006', qty: 150 },
        { sku: '02008', qty: 50 },
        { sku: '01019', qty: 25 },
        { sku: '01220', qty: 25 },
      ],
      source: 'x12-850',
      shipTo: { name: 'CARGO LIMITED #112', line1: '3000 LONG BEACH DRIVE', city: 'SAN PEDRO', region: 'CA', postalCode: '83308', country: 'US' },
      // BEG05 is the 003010 six-digit `040317`.
      meta: { edi: { sender: 'SENDERISA', poNumber: 'S115921858', control: '000191240', date: '2004-03-17' } },
    });
    expect(mapping.warnings).toEqual([]);
  });
});

describe('X12 fixtures whose transactions all fail', () => {
  it('node-x12 850: PO1 uses only CB/PR/VN, so the transaction fails naming line 1', () => {
    const mapping = map('nodex12__850.edi');
    expect(mapping.sender).toBe('4405197800');
    expect(mapping.results).toEqual([
      { control: '000000010', poNumber: '08292233294', ok: false, error: "PO1 line 1 (PO101 '1') has none of the product id qualifiers VP, SK, BP, IN" },
    ]);
  });

  it('EDI.Net issue135: ISA16 missing, read by position (ISA16 `~`, terminator LF); both 850s fail on the ST-qualified PO1', () => {
    const mapping = map('edinet__x12.850.issue135.edi');
    expect(mapping.sender).toBe('049351117');
    expect(mapping.results).toHaveLength(2);
    // The trailing `~` of each line is an empty component and does not leak into ST02 or SE01.
    expect(mapping.results[0]).toMatchObject({ control: '0001', poNumber: '740150', ok: false });
    expect(mapping.results[1]).toMatchObject({ control: '0001', poNumber: '740151', ok: false });
    for (const result of mapping.results) expect(!result.ok && result.error).toMatch(NO_SKU);
    expect(!mapping.results[0].ok && mapping.results[0].error).toBe("PO1 line 1 (PO101 '10') has none of the product id qualifiers VP, SK, BP, IN");
    // Repeated control numbers are tolerated, as a warning.
    expect(mapping.warnings).toContain("Transaction set control number '0001' repeats in group '1'");
  });

  it('node-x12 856 (ASN): not an 850', () => {
    const mapping = map('nonpo__nodex12__856.edi');
    expect(mapping.sender).toBe('4405197800');
    expect(mapping.results).toEqual([{ control: '0008', ok: false, error: 'Transaction set 856 is not an 850' }]);
  });

  it('staedi simple810 (invoices): both transactions are not an 850', () => {
    const mapping = map('nonpo__staedi__simple810.edi');
    expect(mapping.sender).toBe('SENDERISA');
    expect(mapping.results).toEqual([
      { control: '000000001', ok: false, error: 'Transaction set 810 is not an 850' },
      { control: '000000002', ok: false, error: 'Transaction set 810 is not an 850' },
    ]);
  });
});

describe('X12 fixtures rejected as a whole body', () => {
  it('node-x12 850_fat: two interchanges in one body is a body error', () => {
    expect(() => map('nodex12__850_fat.edi')).toThrow(X12EnvelopeError);
    expect(() => map('nodex12__850_fat.edi')).toThrow(/more than one interchange: a second ISA at segment 38/);
  });

  it('EDI.Net 850a: ISA padded with U+00A0 is not 106 characters, so the terminator cannot be read', () => {
    expect(() => map('edinet__x12.850a.edi')).toThrow(X12EnvelopeError);
    expect(() => map('edinet__x12.850a.edi')).toThrow(/ISA segment is not 106 characters long \(ISA09 .*segment terminator cannot be read/);
  });
});
