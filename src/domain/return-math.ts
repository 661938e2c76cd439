// Returns in minor units (contract 18): which units of an order are left to return, and what returning some refunds.
//
// Each kept line's share of the order total (tax included) is the total split in proportion to the
// line totals (`allocateMinor`, so the shares add up to the total exactly). A unit of a line refunds
// its share / qty rounded once; the line's last unit takes the rounding remainder, so a line
// returned in parts, over any number of returns, refunds exactly its share, and the whole order
// exactly its total.
import { allocateMinor, roundHalfUp } from './money.js';

/** A line of the order returned from, as the return rules read it. */
export interface ReturnableLine {
  lineNo: number;
  sku: string;
  name: string | null;
  /** The line's resolved seller; null = first party. */
  sellerId: string | null;
  qty: number;
  /** Unit price in minor units; null (never priced) counts as 0. */
  unitPriceMinor: number | null;
  /** Dropped after a partial acceptance: not returnable, no share of the total. */
  dropped: boolean;
}

/** Units of one line of the order that an earlier return (not ended cancelled) covers. */
export interface CoveredUnits {
  lineNo: number;
  qty: number;
}

/** One line of a return request (contract 18): `sellerId` names the seller when the SKU is on lines of several (null: first party). */
export interface ReturnRequestLine {
  sku: string;
  qty: number;
  sellerId?: string | null;
}

/** Units of one line of the order that a return gives back, and what they refund. */
export interface ReturnPart {
  lineNo: number;
  sku: string;
  name: string | null;
  sellerId: string | null;
  qty: number;
  unitPriceMinor: number;
  amountMinor: number;
}

export interface ReturnIssue {
  path: string;
  message: string;
}

/** What is left to return of one SKU and seller. */
export interface ReturnableUnits {
  sku: string;
  sellerId: string | null;
  name: string | null;
  qty: number;
}

const keep = (lines: readonly ReturnableLine[]) => lines.filter((l) => !l.dropped).sort((a, b) => a.lineNo - b.lineNo);
const lineTotal = (l: ReturnableLine) => (l.unitPriceMinor ?? 0) * l.qty;
const sellerName = (sellerId: string | null) => sellerId ?? 'first party';

/** Each kept line's share of `totalMinor` (lineNo -> minor units), in proportion to the line totals, adding up to the total. */
export function lineShares(lines: readonly ReturnableLine[], totalMinor: number): Map<number, number> {
  const kept = keep(lines);
  if (kept.length === 0) return new Map();
  const shares = allocateMinor(Math.max(totalMinor, 0), kept.map(lineTotal));
  return new Map(kept.map((l, i) => [l.lineNo, shares[i]]));
}

/**
 * What units `from` (inclusive) to `to` (exclusive) of a line of `qty` units worth `shareMinor` refund:
 * `roundHalfUp(share / qty)` each, and the last unit (when `to` reaches `qty`) also the remainder
 * `share - qty x unit`, so any split of the line's units adds up to its share.
 */
export function unitsRefund(shareMinor: number, qty: number, from: number, to: number): number {
  if (!Number.isInteger(qty) || qty <= 0 || !Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to > qty)
    throw new RangeError(`units ${from}..${to} of a line of ${qty}`);
  const unit = roundHalfUp(shareMinor / qty);
  return (to - from) * unit + (to === qty && to > from ? shareMinor - qty * unit : 0);
}

function coveredByLine(covered: readonly CoveredUnits[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const c of covered) out.set(c.lineNo, (out.get(c.lineNo) ?? 0) + c.qty);
  return out;
}

/** The kept lines of each SKU by seller ('' = first party), in line order. */
function bySkuAndSeller(lines: readonly ReturnableLine[]): Map<string, Map<string, ReturnableLine[]>> {
  const out = new Map<string, Map<string, ReturnableLine[]>>();
  for (const l of keep(lines)) {
    const sellers = out.get(l.sku) ?? new Map<string, ReturnableLine[]>();
    out.set(l.sku, sellers);
    const key = l.sellerId ?? '';
    sellers.set(key, [...(sellers.get(key) ?? []), l]);
  }
  return out;
}

/** What is left to return per SKU and seller (kept units less those earlier returns cover), in line order; none left: not listed. */
export function returnableUnits(lines: readonly ReturnableLine[], covered: readonly CoveredUnits[]): ReturnableUnits[] {
  const taken = coveredByLine(covered);
  const out: ReturnableUnits[] = [];
  for (const sellers of bySkuAndSeller(lines).values())
    for (const group of sellers.values()) {
      const qty = group.reduce((n, l) => n + Math.max(0, l.qty - (taken.get(l.lineNo) ?? 0)), 0);
      if (qty > 0) out.push({ sku: group[0].sku, sellerId: group[0].sellerId, name: group[0].name, qty });
    }
  return out;
}

/**
 * The parts of a return of `request` against the order's lines, the units earlier returns cover and
 * the order's total (minor units, tax included), or the issues that refuse it: a SKU not on the
 * kept lines, a SKU on lines of several sellers without `sellerId`, a seller with no line of the
 * SKU, the same SKU and seller twice, more units than are left. Units are taken from the SKU's
 * lines in line order.
 */
export function planReturn(
  lines: readonly ReturnableLine[],
  covered: readonly CoveredUnits[],
  request: readonly ReturnRequestLine[],
  totalMinor: number,
): { parts: ReturnPart[]; amountMinor: number } | { issues: ReturnIssue[] } {
  const groups = bySkuAndSeller(lines);
  const dropped = new Set(lines.filter((l) => l.dropped).map((l) => l.sku));
  const shares = lineShares(lines, totalMinor);
  const taken = coveredByLine(covered);
  const seen = new Map<string, number>();
  const issues: ReturnIssue[] = [];
  const parts: ReturnPart[] = [];
  request.forEach((r, i) => {
    const sellers = groups.get(r.sku);
    if (!sellers) {
      issues.push({ path: `lines.${i}.sku`, message: dropped.has(r.sku) ? `${r.sku} was dropped from the order: its seller did not accept it` : `${r.sku} is not on the order` });
      return;
    }
    let key: string;
    if (r.sellerId === undefined) {
      if (sellers.size > 1) {
        const names = [...sellers.values()].map((g) => sellerName(g[0].sellerId)).join(', ');
        issues.push({ path: `lines.${i}.sellerId`, message: `${r.sku} is on lines of several sellers (${names}): name the seller` });
        return;
      }
      key = [...sellers.keys()][0];
    } else {
      key = r.sellerId ?? '';
      if (!sellers.has(key)) {
        issues.push({ path: `lines.${i}.sellerId`, message: `No line of ${r.sku} is sold by ${sellerName(r.sellerId)}` });
        return;
      }
    }
    const seenAt = seen.get(`${r.sku}\u0000${key}`);
    if (seenAt !== undefined) {
      issues.push({ path: `lines.${i}`, message: `The same SKU and seller as lines.${seenAt}: give each once` });
      return;
    }
    seen.set(`${r.sku}\u0000${key}`, i);
    const group = sellers.get(key)!;
    const left = group.reduce((n, l) => n + Math.max(0, l.qty - (taken.get(l.lineNo) ?? 0)), 0);
    if (r.qty > left) {
      issues.push({ path: `lines.${i}.qty`, message: left === 0 ? `No unit of ${r.sku} is left to return` : `At most ${left} unit(s) of ${r.sku} left to return` });
      return;
    }
    let want = r.qty;
    for (const l of group) {
      if (want === 0) break;
      const from = Math.min(l.qty, taken.get(l.lineNo) ?? 0);
      const qty = Math.min(want, l.qty - from);
      if (qty <= 0) continue;
      want -= qty;
      parts.push({
        lineNo: l.lineNo,
        sku: l.sku,
        name: l.name,
        sellerId: l.sellerId,
        qty,
        unitPriceMinor: l.unitPriceMinor ?? 0,
        amountMinor: unitsRefund(shares.get(l.lineNo) ?? 0, l.qty, from, from + qty),
      });
    }
  });
  if (issues.length) return { issues };
  return { parts, amountMinor: parts.reduce((n, p) => n + p.amountMinor, 0) };
}
