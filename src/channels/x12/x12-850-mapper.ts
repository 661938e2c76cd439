// Maps each X12 850 purchase order of one interchange to a signed-inbound order body (spec "EDI 850 adapter").
import type { ChannelOrderBody, ChannelOrderLine, ChannelShipTo } from '../channel-order-body.js';
import { x12DateToIso } from './x12-date.js';
import { X12EnvelopeError } from './x12-envelope-error.js';
import { elementValue, tokenizeX12, type X12Interchange, type X12Segment } from './x12-tokenizer.js';
import { splitTransactions, type X12Transaction } from './x12-transactions.js';

/** One transaction's outcome; `control` is ST02, `poNumber` BEG03 when it could be read. */
export type X12850Result =
  | { control: string; poNumber?: string; ok: true; order: ChannelOrderBody }
  | { control: string; poNumber?: string; ok: false; error: string };

/** Everything one EDI request yields: the sender (ISA06), one result per transaction, tolerated oddities. */
export interface X12850Mapping {
  sender: string;
  results: X12850Result[];
  warnings: string[];
}

/** `meta.edi` of an EDI order. */
export interface X12850Meta {
  sender: string;
  poNumber: string;
  control: string;
  date?: string;
}

/** Product id qualifiers that give a SKU, in priority order (not position order). */
export const SKU_QUALIFIERS = ['VP', 'SK', 'BP', 'IN'] as const;

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Tokenizes `body` and maps every transaction set. Throws `X12EnvelopeError` for body-level
 * problems (no readable ISA, two interchanges, empty sender, a cap of `X12_LIMITS` passed, no
 * transaction set at all).
 */
export function mapX12850(body: string | Uint8Array): X12850Mapping {
  const interchange = tokenizeX12(body);
  const sender = interchange.header.sender;
  if (sender === '') throw new X12EnvelopeError('ISA06 (interchange sender id) is empty');
  const split = splitTransactions(interchange);
  if (split.transactions.length === 0) throw new X12EnvelopeError('Interchange holds no transaction set (ST..SE)');
  const allowedControls = declaredControls(interchange);
  return {
    sender,
    results: split.transactions.map((transaction) => mapTransaction(transaction, sender, allowedControls)),
    warnings: [...interchange.warnings, ...split.warnings],
  };
}

/**
 * C0 control characters and DEL, which no purchase order field carries and PostgreSQL cannot store
 * (NUL) or shows as garbage (security review L2). TAB, CR and LF are left alone (line breaks around
 * segments are trimmed; inside a field they are odd but harmless and storable), and so are the
 * interchange's own delimiters, which real interchanges often take from the control range
 * (0x1C-0x1F). C1 controls (U+0080-U+009F) are storable UTF-8 and are kept as text.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * A UTF-16 surrogate standing alone: not Unicode text, so it cannot be stored faithfully (the JSON of
 * `meta` would carry an escape PostgreSQL refuses). The HTTP route cannot produce one, since bytes
 * are decoded as UTF-8 with U+FFFD for invalid sequences; a caller handing `mapX12850` a string can.
 */
const isLoneSurrogate = (ch: string): boolean => ch.length === 1 && ch >= '\uD800' && ch <= '\uDFFF';

/** The control characters this interchange declares as delimiters (element, ISA16, segment, ISA11 repetition). */
function declaredControls(interchange: X12Interchange): Set<string> {
  const { element, component, segment } = interchange.delimiters;
  const repetition = elementValue(interchange.segments[0], 11);
  return new Set([element, component, segment, ...(repetition.length === 1 ? [repetition] : [])].filter((c) => CONTROL.test(c)));
}

/** The first character of a transaction that is refused (a control character that is no delimiter, a lone surrogate), with its segment. */
function unacceptedCharacterIn(transaction: X12Transaction, allowed: Set<string>): { segment: string; code: string; surrogate: boolean } | null {
  // Code point by code point, so a surrogate pair arrives whole and only a lone half is seen alone.
  for (const segment of transaction.segments)
    for (const element of segment.elements)
      for (const component of element)
        for (const ch of component) {
          const surrogate = isLoneSurrogate(ch);
          if (surrogate || (CONTROL.test(ch) && !allowed.has(ch)))
            return { segment: segment.id, code: `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, surrogate };
        }
  return null;
}

/** Thrown inside the mapping of one transaction; caught into an `ok: false` result. */
class TransactionError extends Error {}

/** Maps one transaction set, turning its first problem into an `ok: false` result. */
function mapTransaction(transaction: X12Transaction, sender: string, allowedControls: Set<string>): X12850Result {
  const { control } = transaction;
  const bad = unacceptedCharacterIn(transaction, allowedControls);
  if (bad?.surrogate) return { control, ok: false, error: `Segment ${bad.segment} holds an unpaired surrogate (${bad.code}), which is not Unicode text; it is not accepted` };
  if (bad) return { control, ok: false, error: `Segment ${bad.segment} holds a control character (${bad.code}); control characters are not accepted` };
  if (transaction.type !== '850') {
    return { control, ok: false, error: `Transaction set ${transaction.type || '(no ST01)'} is not an 850` };
  }
  const beg = transaction.segments.find((segment) => segment.id === 'BEG');
  const poNumber = beg ? elementValue(beg, 3) || undefined : undefined;
  if (transaction.error) return { control, poNumber, ok: false, error: transaction.error };
  if (!beg || !poNumber) return { control, ok: false, error: 'BEG03 (purchase order number) is missing' };
  try {
    const order = buildOrder(transaction, sender, poNumber, beg);
    return { control, poNumber, ok: true, order };
  } catch (error) {
    if (error instanceof TransactionError) return { control, poNumber, ok: false, error: error.message };
    throw error;
  }
}

/** Builds the order body of a structurally sound 850. */
function buildOrder(transaction: X12Transaction, sender: string, poNumber: string, beg: X12Segment): ChannelOrderBody {
  const body = transaction.segments.slice(1, -1);
  const po1s = body.filter((segment) => segment.id === 'PO1');
  checkLineCount(body, po1s.length);
  if (po1s.length === 0) throw new TransactionError('Purchase order has no PO1 line items');

  const rawDate = elementValue(beg, 5);
  const date = rawDate === '' ? undefined : x12DateToIso(rawDate);
  if (rawDate !== '' && !date) throw new TransactionError(`BEG05 '${rawDate}' is not a date (CCYYMMDD)`);

  const header = body.slice(0, body.findIndex((segment) => segment.id === 'PO1'));
  const cur = header.find((segment) => segment.id === 'CUR');
  const currency = (cur ? elementValue(cur, 2) : '').toUpperCase() || 'USD';
  const shipTo = readShipTo(header);
  const meta: X12850Meta = { sender, poNumber, control: transaction.control, ...(date ? { date } : {}) };
  return {
    model: 'b2b',
    channel: 'edi',
    externalId: `${sender}:${poNumber}`,
    title: `PO ${poNumber}`,
    currency,
    lines: readLines(body),
    source: 'x12-850',
    ...(shipTo ? { shipTo } : {}),
    meta: { edi: meta },
  };
}

/** CTT01, when present, must be the number of PO1 segments. */
function checkLineCount(body: X12Segment[], po1Count: number): void {
  const ctt = body.find((segment) => segment.id === 'CTT');
  if (!ctt) return;
  const declared = elementValue(ctt, 1);
  if (!/^\d+$/.test(declared)) throw new TransactionError(`CTT01 '${declared}' is not a line item count`);
  if (Number(declared) !== po1Count) {
    throw new TransactionError(`CTT01 says ${Number(declared)} line items but the transaction set has ${po1Count} PO1 segment(s)`);
  }
}

/** One line per PO1; PID05 of the first PID after a PO1 names it. */
function readLines(body: X12Segment[]): ChannelOrderLine[] {
  const lines: ChannelOrderLine[] = [];
  let current: ChannelOrderLine | undefined;
  for (const segment of body) {
    if (segment.id === 'PO1') {
      current = readLine(segment, lines.length + 1);
      lines.push(current);
    } else if (segment.id === 'PID' && current && current.name === undefined && elementValue(segment, 5) !== '') {
      current.name = elementValue(segment, 5);
    } else if (segment.id === 'CTT' || segment.id === 'AMT') {
      current = undefined;
    }
  }
  return lines;
}

/** PO102 quantity (positive), PO104 unit price (optional), SKU from the PO106/PO107... pairs. */
function readLine(po1: X12Segment, ordinal: number): ChannelOrderLine {
  const lineId = elementValue(po1, 1);
  const label = `PO1 line ${ordinal}${lineId ? ` (PO101 '${lineId}')` : ''}`;
  const rawQty = elementValue(po1, 2);
  const qty = DECIMAL.test(rawQty) ? Number(rawQty) : Number.NaN;
  if (!(qty > 0) || !Number.isFinite(qty)) throw new TransactionError(`${label}: quantity PO102 '${rawQty}' is not a positive number`);
  const rawPrice = elementValue(po1, 4);
  let unitPrice: number | undefined;
  if (rawPrice !== '') {
    unitPrice = DECIMAL.test(rawPrice) ? Number(rawPrice) : Number.NaN;
    if (!(unitPrice >= 0) || !Number.isFinite(unitPrice)) {
      throw new TransactionError(`${label}: unit price PO104 '${rawPrice}' is not a non-negative number`);
    }
  }
  const sku = readSku(po1);
  if (sku === undefined) throw new TransactionError(`${label} has none of the product id qualifiers ${SKU_QUALIFIERS.join(', ')}`);
  return { sku, qty, ...(unitPrice !== undefined ? { unitPrice } : {}) };
}

/** The value of the highest-priority qualifier among VP, SK, BP, IN in PO106/107, PO108/109, ... */
function readSku(po1: X12Segment): string | undefined {
  const byQualifier = new Map<string, string>();
  for (let position = 6; position < po1.elements.length + 1; position += 2) {
    const qualifier = elementValue(po1, position).toUpperCase();
    const id = elementValue(po1, position + 1);
    if (qualifier !== '' && id !== '' && !byQualifier.has(qualifier)) byQualifier.set(qualifier, id);
  }
  for (const qualifier of SKU_QUALIFIERS) {
    const sku = byQualifier.get(qualifier);
    if (sku !== undefined) return sku;
  }
  return undefined;
}

/**
 * The header-level N1*ST loop: N102 name, N301/N302 street, N401 city, N402 region,
 * N403 postal code, N404 country (US when absent). Omitted unless street, city and postal code exist.
 */
function readShipTo(header: X12Segment[]): ChannelShipTo | undefined {
  const start = header.findIndex((segment) => segment.id === 'N1' && elementValue(segment, 1).toUpperCase() === 'ST');
  if (start < 0) return undefined;
  const end = header.findIndex((segment, i) => i > start && segment.id === 'N1');
  const loop = header.slice(start, end < 0 ? undefined : end);
  const n3 = loop.find((segment) => segment.id === 'N3');
  const n4 = loop.find((segment) => segment.id === 'N4');
  const line1 = n3 ? elementValue(n3, 1) : '';
  const city = n4 ? elementValue(n4, 1) : '';
  const postalCode = n4 ? elementValue(n4, 3) : '';
  if (!n3 || !n4 || line1 === '' || city === '' || postalCode === '') return undefined;
  const name = elementValue(loop[0], 2);
  const line2 = elementValue(n3, 2);
  const region = elementValue(n4, 2);
  return {
    ...(name ? { name } : {}),
    line1,
    ...(line2 ? { line2 } : {}),
    city,
    ...(region ? { region } : {}),
    postalCode,
    country: elementValue(n4, 4) || 'US',
  };
}
