// Port `orderLines` in a simulation: the simulated order's lines in memory (prices, sellers, locations, dropped, appended) and its totals.
import type { OrderLineRow } from '../order-lines-repo.js';
import type { OrderLinesPort } from '../ports/order-lines-port.js';
import type { SliceOrder } from '../../engine/step-store.js';
import type { SimLine, SimulatedLedger } from './simulated-ledger.js';

/** A line as readOrderLines answers it (a copy: a step never holds the ledger's row). */
function toLine(l: SimLine): OrderLineRow {
  return { lineNo: l.lineNo, sku: l.sku, name: l.name, qty: l.qty, unitPriceMinor: l.unitPriceMinor, sellerId: l.sellerId, locationId: l.locationId, dropped: l.dropped };
}

/** `order` is the simulated order's facts as the run holds them (the totals a step sets go there). */
export function simulatedOrderLinesPort(ledger: SimulatedLedger, order: SliceOrder): OrderLinesPort {
  const byNo = (orderId: string, lineNo: number) => ledger.linesOf(orderId).find((l) => l.lineNo === lineNo);
  return {
    read: (orderId, opts) =>
      Promise.resolve(
        ledger
          .linesOf(orderId)
          .filter((l) => opts?.includeDropped || !l.dropped)
          .sort((a, b) => a.lineNo - b.lineNo)
          .map(toLine),
      ),
    setPrices: (orderId, prices) => {
      for (const p of prices) {
        const line = byNo(orderId, p.lineNo);
        if (line) ledger.patch(line, { unitPriceMinor: p.unitPriceMinor });
      }
      return Promise.resolve();
    },
    setSellers: (orderId, sellers) => {
      for (const s of sellers) {
        const line = byNo(orderId, s.lineNo);
        if (line) ledger.patch(line, { sellerId: s.sellerId });
      }
      return Promise.resolve();
    },
    setLocation: (orderId, lineNo, locationId) => {
      const line = byNo(orderId, lineNo);
      if (line) ledger.patch(line, { locationId });
      return Promise.resolve();
    },
    drop: (orderId, lineNos) => {
      for (const line of ledger.linesOf(orderId)) if (lineNos.includes(line.lineNo)) ledger.patch(line, { dropped: true });
      return Promise.resolve();
    },
    append: (orderId, lines) => {
      if (orderId !== ledger.orderId) return Promise.resolve();
      let next = ledger.lines.reduce((max, l) => Math.max(max, l.lineNo), 0);
      for (const l of lines)
        ledger.insert(ledger.lines, { orderId, lineNo: ++next, sku: l.sku, name: l.name, qty: l.qty, unitPriceMinor: l.unitPriceMinor, sellerId: null, locationId: null, dropped: false });
      return Promise.resolve();
    },
    setTotals: (orderId, { subtotal, tax, total }) => order.change(orderId, { subtotal, tax, total }),
  };
}
