// Port `digitalGoods` in a simulation: codes issued into memory (never delivered) and revoked on undo.
import { newCommerceId, newHumanCode } from '../../domain/commerce-ids.js';
import type { IssuedCode } from '../digital-codes-repo.js';
import type { DigitalGoodsPort } from '../ports/digital-goods-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedDigitalGoodsPort(ledger: SimulatedLedger): DigitalGoodsPort {
  return {
    issue: (codes) => {
      const issued: IssuedCode[] = [];
      for (const line of codes.lines)
        for (let unit = 0; unit < line.qty; unit++) {
          const code = newHumanCode(4, 4);
          ledger.insert(ledger.digitalCodes, { id: newCommerceId('dc'), orderId: codes.orderId, generation: codes.generation, nodeId: codes.nodeId, lineNo: line.lineNo, sku: line.sku, code, status: 'issued' });
          issued.push({ lineNo: line.lineNo, sku: line.sku, code });
        }
      return Promise.resolve(issued);
    },
    revoke: (orderId, generation, nodeId) => {
      for (const c of ledger.digitalCodes)
        if (c.orderId === orderId && c.generation === generation && c.nodeId === nodeId && c.status === 'issued') ledger.patch(c, { status: 'revoked' });
      return Promise.resolve();
    },
  };
}
