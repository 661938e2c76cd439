// X12 tokenizer: reads the delimiters from the fixed-width ISA header and splits one interchange into segments.
import { X12EnvelopeError } from './x12-envelope-error.js';

export { X12EnvelopeError } from './x12-envelope-error.js';

/** The three delimiters an interchange declares in its ISA header. */
export interface X12Delimiters {
  /** 4th character of the ISA. */
  element: string;
  /** ISA16, the 105th character. */
  component: string;
  /** 106th character of the ISA. */
  segment: string;
}

/**
 * One segment. `elements[0]` is XX01; each element is the list of its components (a simple
 * element has one). ISA elements are kept whole: ISA16 is the component separator itself.
 */
export interface X12Segment {
  id: string;
  elements: string[][];
  /** 0-based position of the segment in the interchange (ISA is 0). */
  index: number;
}

/** The interchange header fields the adapter uses. */
export interface X12InterchangeHeader {
  /** ISA06 with its padding trimmed. */
  sender: string;
  /** ISA08 with its padding trimmed. */
  receiver: string;
  /** ISA13. */
  control: string;
  /** ISA12. */
  version: string;
}

/** A tokenized interchange: every segment from ISA on, plus tolerated envelope oddities. */
export interface X12Interchange {
  delimiters: X12Delimiters;
  header: X12InterchangeHeader;
  segments: X12Segment[];
  warnings: string[];
}

/** The ISA is fixed width: ISA01..ISA16 are 2,10,2,10,2,15,2,15,6,4,1,5,9,1,1,1 characters. */
const ISA_WIDTHS = [2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1];
/** Offsets of the 16 element separators that precede ISA01..ISA16 (3, 6, 17, ... 103). */
const ISA_SEPARATOR_OFFSETS = ISA_WIDTHS.reduce<number[]>((offsets, width, i) => {
  offsets.push(i === 0 ? 3 : offsets[i - 1] + 1 + ISA_WIDTHS[i - 1]);
  return offsets;
}, []);
const ISA_LENGTH = 106;
const WHITESPACE = new Set([' ', '\t', '\r', '\n', '\f', '\v', '\uFEFF', '\u00A0']);
const LINE_BREAK = new Set(['\r', '\n']);

/**
 * Bounds on what one interchange may hold (security review L1), counted while reading, before any
 * array grows past them: a 5 MiB body of separators would otherwise become millions of arrays
 * (about 40 bytes each). Real interchanges stay far inside them: the largest shared fixture has
 * 186 segments, 589 elements, 16 elements in one segment and 3 transaction sets.
 * - `segments`: 100,000 segments, a few hundred times the largest real purchase-order batch.
 * - `elementsPerSegment`: 1,000; the widest 850 segments (PO1 with many qualifier pairs) carry a few dozen.
 * - `elements`: 1,000,000 in all (10 per segment at the segment cap; 850 segments average under 5),
 *   which bounds the parsed arrays to tens of MiB whatever the shape of the body.
 * - `transactions`: 500 ST..SE sets. Each one is an order started, one after another, while the partner
 *   waits for the answer; real interchanges carry a few to a few dozen purchase orders, and a partner
 *   with more sends several interchanges. Counted at each ST, so the body past the cap is never read.
 */
export const X12_LIMITS = { segments: 100_000, elementsPerSegment: 1_000, elements: 1_000_000, transactions: 500 } as const;

/** The ISA header alone: where it starts, the delimiters it declares, its fields. */
export interface X12Head {
  start: number;
  delimiters: X12Delimiters;
  isa: X12Segment;
  header: X12InterchangeHeader;
}

/**
 * Reads only the fixed-width ISA header (106 characters) of `text`: enough to know the sender and
 * check it against the partner list before the rest of the body is tokenized. Throws
 * `X12EnvelopeError` when there is no readable ISA.
 */
export function readX12Head(text: string): X12Head {
  const start = skipLeadingWhitespace(text);
  if (text.slice(start, start + 3) !== 'ISA') {
    throw new X12EnvelopeError('Body does not start with an ISA segment');
  }
  const delimiters = readDelimiters(text, start);
  const isa: X12Segment = { id: 'ISA', elements: splitIsa(text.slice(start, start + ISA_LENGTH - 1), delimiters), index: 0 };
  const header: X12InterchangeHeader = {
    sender: elementValue(isa, 6),
    receiver: elementValue(isa, 8),
    control: elementValue(isa, 13),
    version: elementValue(isa, 12),
  };
  return { start, delimiters, isa, header };
}

/** The text of an X12 body: bytes are read as UTF-8 (invalid sequences become U+FFFD). */
export function x12Text(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
}

/**
 * Tokenizes exactly one X12 interchange. Throws `X12EnvelopeError` when the body cannot be
 * read as one interchange or passes `X12_LIMITS`; envelope oddities that do not stop reading go
 * to `warnings`.
 */
export function tokenizeX12(body: string | Uint8Array): X12Interchange {
  const text = x12Text(body);
  const { start, delimiters, isa, header } = readX12Head(text);
  const warnings: string[] = [];
  const segments: X12Segment[] = [isa];
  // Segment by segment with indexOf, so nothing is split before the caps have been checked.
  // The fixed ISA is not counted against `elements`.
  let elements = 0;
  let transactions = 0;
  let from = start + ISA_LENGTH;
  while (from <= text.length) {
    const end = text.indexOf(delimiters.segment, from);
    const last = end < 0;
    const piece = trimSegment(text.slice(from, last ? text.length : end), delimiters);
    from = last ? text.length + 1 : end + 1;
    if (piece === '') continue;
    if (segments.length >= X12_LIMITS.segments) {
      throw new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.segments} segments; send it in smaller interchanges`);
    }
    // Separators are counted, stopping just past the per-segment cap, before anything is split.
    const count = countSeparators(piece, delimiters.element, X12_LIMITS.elementsPerSegment + 1);
    if (count > X12_LIMITS.elementsPerSegment) {
      throw new X12EnvelopeError(`Segment ${segments.length + 1} holds more than ${X12_LIMITS.elementsPerSegment} elements`);
    }
    elements += count;
    if (elements > X12_LIMITS.elements) {
      throw new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.elements} elements; send it in smaller interchanges`);
    }
    const parts = piece.split(delimiters.element);
    const segment: X12Segment = {
      id: parts[0].trim(),
      elements: parts.slice(1).map((element) => element.split(delimiters.component)),
      index: segments.length,
    };
    if (segment.id === 'ISA') {
      throw new X12EnvelopeError(`Body holds more than one interchange: a second ISA at segment ${segment.index + 1}`);
    }
    if (segment.id === 'ST' && ++transactions > X12_LIMITS.transactions) {
      throw new X12EnvelopeError(`Interchange holds more than ${X12_LIMITS.transactions} transaction sets; send them in smaller interchanges`);
    }
    if (last) warnings.push(`Last segment (${segment.id}) has no segment terminator`);
    segments.push(segment);
  }
  warnings.push(...checkTrailer(segments, header));
  return { delimiters, header, segments, warnings };
}

/** How many times `separator` occurs in `text` (the number of elements after the segment id), counting no further than `stopAt`. */
function countSeparators(text: string, separator: string, stopAt: number): number {
  let count = 0;
  for (let at = text.indexOf(separator); at >= 0 && count < stopAt; at = text.indexOf(separator, at + 1)) count += 1;
  return count;
}

/** XXnn of a segment as a simple value: the first component, trimmed; '' when absent. */
export function elementValue(segment: X12Segment, position: number): string {
  return (segment.elements[position - 1]?.[0] ?? '').trim();
}

/** Index of the first character after a leading BOM and whitespace. */
function skipLeadingWhitespace(text: string): number {
  let i = 0;
  while (i < text.length && WHITESPACE.has(text[i])) i += 1;
  return i;
}

/** Reads the delimiters from the 106-character ISA, checking that every field sits at its fixed place. */
function readDelimiters(text: string, start: number): X12Delimiters {
  if (text.length - start < ISA_LENGTH) {
    throw new X12EnvelopeError('ISA segment is shorter than 106 characters, so the segment terminator cannot be read');
  }
  const element = text[start + 3];
  const header = text.slice(start, start + ISA_LENGTH - 2);
  ISA_SEPARATOR_OFFSETS.forEach((offset, i) => {
    if (header[offset] !== element) {
      throw new X12EnvelopeError(
        `ISA segment is not 106 characters long (ISA${String(i + 1).padStart(2, '0')} does not start at character ${offset + 2}), so the segment terminator cannot be read`,
      );
    }
  });
  if (header.split(element).length !== ISA_WIDTHS.length + 1) {
    throw new X12EnvelopeError('ISA segment holds the element separator inside a field, so it is not a valid 106-character header');
  }
  const delimiters: X12Delimiters = { element, component: text[start + 104], segment: text[start + 105] };
  checkDelimiters(delimiters);
  return delimiters;
}

/** Delimiters must differ from each other and from data characters (letters, digits, spaces). */
function checkDelimiters({ element, component, segment }: X12Delimiters): void {
  const named: [string, string][] = [['element separator', element], ['component separator (ISA16)', component], ['segment terminator', segment]];
  for (const [name, char] of named) {
    if (/[A-Za-z0-9]/.test(char)) throw new X12EnvelopeError(`ISA ${name} '${char}' is a letter or digit`);
    if (WHITESPACE.has(char) && !(name === 'segment terminator' && LINE_BREAK.has(char))) {
      throw new X12EnvelopeError(`ISA ${name} is a whitespace character`);
    }
  }
  if (element === component || element === segment || component === segment) {
    throw new X12EnvelopeError('ISA delimiters are not distinct (element separator, ISA16 and segment terminator must differ)');
  }
}

/** ISA elements, kept whole (not split on ISA16). */
function splitIsa(header: string, delimiters: X12Delimiters): string[][] {
  return header.split(delimiters.element).slice(1).map((element) => [element]);
}

/** Drops indentation and the CR/LF that follows a terminator, and a CR/LF left before one. */
function trimSegment(raw: string, { element, component }: X12Delimiters): string {
  let from = 0;
  while (from < raw.length && WHITESPACE.has(raw[from]) && raw[from] !== element && raw[from] !== component) from += 1;
  let to = raw.length;
  while (to > from && LINE_BREAK.has(raw[to - 1]) && raw[to - 1] !== element && raw[to - 1] !== component) to -= 1;
  return raw.slice(from, to);
}

/** IEA checks that are tolerated as warnings: missing or repeated IEA, IEA01/IEA02 mismatches, trailing segments. */
function checkTrailer(segments: X12Segment[], header: X12InterchangeHeader): string[] {
  const warnings: string[] = [];
  const ieaAt = segments.findIndex((segment) => segment.id === 'IEA');
  if (ieaAt < 0) return ['No IEA segment closes the interchange'];
  const iea = segments[ieaAt];
  const groups = segments.filter((segment) => segment.id === 'GS').length;
  if (elementValue(iea, 2) !== header.control) {
    warnings.push(`IEA02 '${elementValue(iea, 2)}' does not match ISA13 '${header.control}'`);
  }
  if (!/^\d+$/.test(elementValue(iea, 1)) || Number(elementValue(iea, 1)) !== groups) {
    warnings.push(`IEA01 '${elementValue(iea, 1)}' does not match the ${groups} functional group(s)`);
  }
  const after = segments.length - ieaAt - 1;
  if (after > 0) warnings.push(`${after} segment(s) after IEA`);
  return warnings;
}
