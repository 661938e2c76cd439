// A priced order line: the check steps make before they use a line's unit price (pure, no database).

/** A line with its price filled; throws when the price step has not run. */
export function pricedLine<L extends { lineNo: number; sku: string; unitPriceMinor: number | null }>(line: L): L & { unitPriceMinor: number } {
  if (line.unitPriceMinor === null) throw new Error(`Line ${line.lineNo} (${line.sku}) has no price yet; run commerce.price first`);
  return line as L & { unitPriceMinor: number };
}
