// Port `digitalGoods` over a slice's store: the digital codes repository, writing through the writer.
import type { StepStore } from '../../engine/step-store.js';
import { issueDigitalCodes, revokeDigitalCodes } from '../digital-codes-repo.js';
import type { DigitalGoodsPort } from '../ports/digital-goods-port.js';

export function digitalGoodsPort(store: StepStore): DigitalGoodsPort {
  return {
    issue: (codes, now) => issueDigitalCodes(store.writer, codes, now),
    revoke: (orderId, generation, nodeId, now) => revokeDigitalCodes(store.writer, orderId, generation, nodeId, now),
  };
}
