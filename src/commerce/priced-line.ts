// An order line whose price step has run: the unit price is known; pure.

/** The line with its price filled (an `OrderLineRow` as the lines port reads it); throws when the price step has not run. */
export function pricedLine<L extends { lineNo: number; sku: string; unitPriceMinor: number | null }>(line: L): L & { unitPriceMinor: number } {
  if (line.unitPriceMinor === null) throw new Error(`Line ${line.lineNo} (${line.sku}) has no price yet; run commerce.price first`);
  return line as L & { unitPriceMinor: number };
}
