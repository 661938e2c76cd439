// X12 tokenizer: delimiters from the ISA, whitespace handling, one interchange per body (spec "EDI 850 adapter", contract §10).
import { describe, expect, it } from 'vitest';
import { elementValue, readX12Head, tokenizeX12, X12_LIMITS, X12EnvelopeError } from '../../../src/channels/x12/x12-tokenizer.js';
import { envelope, interchange, isaHeader, po850, transaction } from './channel-fixtures.js';

const ids = (body: string | Uint8Array): string[] => tokenizeX12(body).segments.map((segment) => segment.id);
const simple = envelope([transaction('0001', po850())]);

describe('delimiters come from the ISA header', () => {
  it('element separator is the 4th character, ISA16 the component separator, the 106th character the terminator', () => {
    const result = tokenizeX12(interchange(simple));
    expect(result.delimiters).toEqual({ element: '*', component: '>', segment: '~' });
    expect(ids(interchange(simple))).toEqual(['ISA', 'GS', 'ST', 'BEG', 'PO1', 'PID', 'CTT', 'SE', 'GE', 'IEA']);
  });

  it('reads unusual delimiters by position: `|` elements, `^` components, newline terminator', () => {
    const body = interchange(simple, { element: '|', component: '^', segment: '\n' });
    const result = tokenizeX12(body);
    expect(result.delimiters).toEqual({ element: '|', component: '^', segment: '\n' });
    const po1 = result.segments.find((segment) => segment.id === 'PO1');
    expect(po1?.elements.map((element) => element[0])).toEqual(['1', '2', 'EA', '9.5', '', 'VP', 'ABC-1']);
  });

  it('a character that is a terminator in one file is data-free when the ISA says otherwise (`~` as ISA16, `|` as terminator)', () => {
    const body = interchange(['GS*PO*A*B*20240101*1200*1*X*004010', 'REF*ZZ*A>B'], { component: '~', segment: '|' });
    const ref = tokenizeX12(body).segments.find((segment) => segment.id === 'REF');
    expect(ref?.elements).toEqual([['ZZ'], ['A', 'B']]);
  });

  it('header fields are read from their fixed places, ISA06 trimmed', () => {
    const result = tokenizeX12(interchange(simple, { sender: 'ACME' }));
    expect(result.header).toEqual({ sender: 'ACME', receiver: 'RECEIVER', control: '000000001', version: '00401' });
    expect(elementValue(result.segments[0], 16)).toBe('>');
  });
});

describe('leading BOM, whitespace and line breaks', () => {
  it('ignores a UTF-8 BOM and leading whitespace before ISA (positions count from the `I`)', () => {
    const body = `\uFEFF \r\n\t${interchange(simple)}`;
    expect(tokenizeX12(body).delimiters).toEqual({ element: '*', component: '>', segment: '~' });
    expect(ids(body)).toHaveLength(10);
  });

  it('reads a BOM given as raw UTF-8 bytes', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(`\n  ${interchange(simple)}`)]);
    expect(tokenizeX12(bytes).header.sender).toBe('SENDER');
  });

  it('CR/LF after a terminator is not part of the next segment, nor is indentation', () => {
    const body = interchange(simple).replaceAll('~', '~\r\n    ');
    const result = tokenizeX12(body);
    expect(result.segments.map((segment) => segment.id)).toEqual(['ISA', 'GS', 'ST', 'BEG', 'PO1', 'PID', 'CTT', 'SE', 'GE', 'IEA']);
    const se = result.segments.find((segment) => segment.id === 'SE');
    expect(se?.elements).toEqual([['6'], ['0001']]);
  });

  it('with a newline terminator, a CR before it is dropped (CRLF files)', () => {
    const body = interchange(simple, { segment: '\n' }).replaceAll('\n', '\r\n');
    // The ISA's own 106th character is now CR, so the terminator is CR and LF is dropped after it.
    const result = tokenizeX12(body);
    expect(result.delimiters.segment).toBe('\r');
    expect(result.segments.find((segment) => segment.id === 'SE')?.elements).toEqual([['6'], ['0001']]);
  });
});

describe('body-level errors (X12EnvelopeError)', () => {
  it('a second ISA makes the whole body an error', () => {
    const one = interchange(simple);
    expect(() => tokenizeX12(one + one)).toThrow(X12EnvelopeError);
    expect(() => tokenizeX12(`${one}\n${one}`)).toThrow(/more than one interchange/);
  });

  it('an ISA that is not 106 characters (a short field) is an error: the terminator cannot be read', () => {
    const shortSender = isaHeader().replace('SENDER         ', 'SENDER        ');
    expect(() => tokenizeX12(`${shortSender}GS*PO~`)).toThrow(X12EnvelopeError);
    expect(() => tokenizeX12(`${shortSender}GS*PO~`)).toThrow(/ISA segment is not 106 characters long \(ISA07 does not start at character 52\)/);
  });

  it('an ISA shorter than 106 characters in total is an error', () => {
    expect(() => tokenizeX12(isaHeader().slice(0, 100))).toThrow(/shorter than 106 characters/);
  });

  it('an element separator inside an ISA field is an error', () => {
    const body = isaHeader().replace('00*          ', '00*    *     ');
    expect(() => tokenizeX12(body)).toThrow(/element separator inside a field/);
  });

  it('a body that does not start with ISA is an error', () => {
    expect(() => tokenizeX12('GS*PO*A~')).toThrow(/does not start with an ISA segment/);
    expect(() => tokenizeX12('')).toThrow(X12EnvelopeError);
  });

  it('delimiters that are not distinct, or are letters, are an error', () => {
    expect(() => tokenizeX12(isaHeader({ component: '~', segment: '~' }))).toThrow(/not distinct/);
    expect(() => tokenizeX12(isaHeader({ component: 'A' }))).toThrow(/letter or digit/);
  });
});

describe('tolerated interchange oddities become warnings', () => {
  it('IEA02 that does not match ISA13, and IEA01 that does not count the groups', () => {
    const body = interchange([...simple.slice(0, -1), 'IEA*3*000000999']);
    expect(tokenizeX12(body).warnings).toEqual([
      "IEA02 '000000999' does not match ISA13 '000000001'",
      "IEA01 '3' does not match the 1 functional group(s)",
    ]);
  });

  it('a missing IEA and an unterminated last segment', () => {
    const body = interchange(simple.slice(0, -1)).slice(0, -1);
    expect(tokenizeX12(body).warnings).toEqual(['Last segment (GE) has no segment terminator', 'No IEA segment closes the interchange']);
  });

  it('a clean interchange has no warnings', () => {
    expect(tokenizeX12(interchange(simple)).warnings).toEqual([]);
  });
});

describe('bounds on one interchange (security review L1)', () => {
  it(`more than ${X12_LIMITS.segments} segments is an envelope error, raised while reading`, () => {
    const body = isaHeader() + 'MSG*x~'.repeat(X12_LIMITS.segments);
    expect(() => tokenizeX12(body)).toThrow(new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.segments} segments; send it in smaller interchanges`));
    expect(() => tokenizeX12(isaHeader() + 'MSG*x~'.repeat(X12_LIMITS.segments - 2))).not.toThrow();
  });

  it(`a segment of more than ${X12_LIMITS.elementsPerSegment} elements is an envelope error; exactly that many is read`, () => {
    const at = (n: number) => isaHeader() + `MSG${'*x'.repeat(n)}~`;
    expect(() => tokenizeX12(at(X12_LIMITS.elementsPerSegment + 1))).toThrow(/Segment 2 holds more than 1000 elements/);
    expect(tokenizeX12(at(X12_LIMITS.elementsPerSegment)).segments[1].elements).toHaveLength(X12_LIMITS.elementsPerSegment);
  });

  it(`more than ${X12_LIMITS.elements} elements in the whole interchange is an envelope error, raised while reading`, () => {
    // Each segment stays inside the per-segment cap; only their sum passes the interchange's.
    const full = `MSG${'*'.repeat(X12_LIMITS.elementsPerSegment)}~`;
    const segmentsAtCap = X12_LIMITS.elements / X12_LIMITS.elementsPerSegment;
    expect(() => tokenizeX12(isaHeader() + full.repeat(segmentsAtCap) + 'MSG*x~')).toThrow(
      new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.elements} elements; send it in smaller interchanges`),
    );
    // The fixed ISA is not counted: exactly the cap is read.
    expect(() => tokenizeX12(isaHeader() + full.repeat(segmentsAtCap))).not.toThrow();
  });

  it(`more than ${X12_LIMITS.transactions} transaction sets (ST) is an envelope error, raised before the rest of the body is read`, () => {
    const sets = (n: number) => Array.from({ length: n }, (_, i) => `ST*850*${i + 1}~SE*2*${i + 1}~`).join('');
    // A second interchange after the sets would be its own error, were the body read that far.
    expect(() => tokenizeX12(isaHeader() + sets(X12_LIMITS.transactions + 1) + isaHeader())).toThrow(
      new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.transactions} transaction sets; send them in smaller interchanges`),
    );
    expect(tokenizeX12(isaHeader() + sets(X12_LIMITS.transactions)).segments).toHaveLength(1 + 2 * X12_LIMITS.transactions);
  });

  it('readX12Head reads the sender from the fixed-width header without looking at the rest', () => {
    const head = readX12Head(isaHeader({ sender: 'ACMEBUYER' }) + '\u0000'.repeat(1000));
    expect(head.header.sender).toBe('ACMEBUYER');
    expect(head.delimiters).toEqual({ element: '*', component: '>', segment: '~' });
  });
});
