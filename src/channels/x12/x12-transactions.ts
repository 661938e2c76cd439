// Splits a tokenized interchange into its transaction sets (ST..SE) and checks their envelope counts.
import { elementValue, type X12Interchange, type X12Segment } from './x12-tokenizer.js';

/** One transaction set, ST through SE inclusive. */
export interface X12Transaction {
  /** ST01, e.g. '850'. */
  type: string;
  /** ST02, the transaction set control number. */
  control: string;
  segments: X12Segment[];
  /** GS01 of the enclosing functional group, when there is one. */
  functionalId?: string;
  /** Set when the transaction's own envelope is broken (no SE, SE01 count wrong): it then fails. */
  error?: string;
}

/** Transactions in order, plus envelope oddities that are tolerated. */
export interface X12TransactionSplit {
  transactions: X12Transaction[];
  warnings: string[];
}

/** The functional identifier (GS01) each transaction type is expected under. */
const EXPECTED_GS01: Record<string, string> = { '850': 'PO' };

interface OpenGroup {
  functionalId: string;
  control: string;
  count: number;
  controls: Set<string>;
}

/**
 * Walks the segments once. GS/GE oddities (missing GE, GE01/GE02 mismatch, GS01 not matching
 * the transaction type, repeated ST02) become warnings; a transaction without SE, or whose SE01
 * is not its segment count (ST through SE), carries an `error`.
 */
export function splitTransactions(interchange: X12Interchange): X12TransactionSplit {
  const transactions: X12Transaction[] = [];
  const warnings: string[] = [];
  let group: OpenGroup | undefined;
  let open: X12Transaction | undefined;
  let stray = 0;

  const closeUnterminated = (): void => {
    if (!open) return;
    open.error = `Transaction set ${open.type} '${open.control}' has no SE segment`;
    transactions.push(open);
    open = undefined;
  };

  for (const segment of interchange.segments.slice(1)) {
    switch (segment.id) {
      case 'GS':
        closeUnterminated();
        if (group) warnings.push(`Functional group '${group.control}' has no GE segment`);
        group = { functionalId: elementValue(segment, 1), control: elementValue(segment, 6), count: 0, controls: new Set() };
        break;
      case 'GE':
        closeUnterminated();
        if (!group) {
          warnings.push('GE segment without a GS');
          break;
        }
        if (!/^\d+$/.test(elementValue(segment, 1)) || Number(elementValue(segment, 1)) !== group.count) {
          warnings.push(`GE01 '${elementValue(segment, 1)}' does not match the ${group.count} transaction set(s) of group '${group.control}'`);
        }
        if (elementValue(segment, 2) !== group.control) {
          warnings.push(`GE02 '${elementValue(segment, 2)}' does not match GS06 '${group.control}'`);
        }
        group = undefined;
        break;
      case 'ST': {
        closeUnterminated();
        const type = elementValue(segment, 1);
        const control = elementValue(segment, 2);
        open = { type, control, segments: [segment], functionalId: group?.functionalId };
        if (!group) {
          warnings.push(`Transaction set '${control}' is outside a functional group`);
          break;
        }
        group.count += 1;
        if (group.controls.has(control)) warnings.push(`Transaction set control number '${control}' repeats in group '${group.control}'`);
        group.controls.add(control);
        const expected = EXPECTED_GS01[type];
        if (expected && group.functionalId !== expected) {
          warnings.push(`GS01 '${group.functionalId}' is not '${expected}' for transaction set ${type} '${control}'`);
        }
        break;
      }
      case 'SE':
        if (!open) {
          warnings.push('SE segment without an ST');
          break;
        }
        open.segments.push(segment);
        open.error = checkSegmentCount(open, segment);
        if (elementValue(segment, 2) !== open.control) {
          warnings.push(`SE02 '${elementValue(segment, 2)}' does not match ST02 '${open.control}'`);
        }
        transactions.push(open);
        open = undefined;
        break;
      case 'IEA':
        closeUnterminated();
        if (group) warnings.push(`Functional group '${group.control}' has no GE segment`);
        group = undefined;
        break;
      default:
        if (open) open.segments.push(segment);
        else stray += 1;
    }
  }
  closeUnterminated();
  if (group) warnings.push(`Functional group '${group.control}' has no GE segment`);
  if (stray > 0) warnings.push(`${stray} segment(s) outside any transaction set were ignored`);
  return { transactions, warnings };
}

/** SE01 must be the number of segments from ST through SE inclusive. */
function checkSegmentCount(transaction: X12Transaction, se: X12Segment): string | undefined {
  const declared = elementValue(se, 1);
  const actual = transaction.segments.length;
  if (!/^\d+$/.test(declared)) return `SE01 '${declared}' is not a segment count`;
  if (Number(declared) !== actual) return `SE01 says ${Number(declared)} segments but the transaction set has ${actual} (ST through SE)`;
  return undefined;
}
