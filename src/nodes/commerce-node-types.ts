// The commerce node types (one module each), registered in the catalogue next to the generic ones.
import type { NodeTypeDef } from '../engine/node-type.js';
import { aiExtractOrder } from './ai-extract-order.js';
import { commerceAuthorizePayment } from './commerce-authorize-payment.js';
import { commerceCapturePayment } from './commerce-capture-payment.js';
import { commerceCharge } from './commerce-charge.js';
import { commerceDeliverDigital } from './commerce-deliver-digital.js';
import { commerceFraudScore } from './commerce-fraud-score.js';
import { commerceHandover } from './commerce-handover.js';
import { commerceInvoice } from './commerce-invoice.js';
import { commerceNotify } from './commerce-notify.js';
import { commercePayout } from './commerce-payout.js';
import { commercePickupReady } from './commerce-pickup-ready.js';
import { commercePolicy } from './commerce-policy.js';
import { commercePrice } from './commerce-price.js';
import { commercePurchaseOrder } from './commerce-purchase-order.js';
import { commerceReceiveStock } from './commerce-receive-stock.js';
import { commerceRefund } from './commerce-refund.js';
import { commerceReserveStock } from './commerce-reserve-stock.js';
import { commerceRestock } from './commerce-restock.js';
import { commerceReturnWindow } from './commerce-return-window.js';
import { commerceReturnsCheck } from './commerce-returns-check.js';
import { commerceRouteFulfillment } from './commerce-route-fulfillment.js';
import { commerceSellerAccept } from './commerce-seller-accept.js';
import { commerceShip } from './commerce-ship.js';
import { commerceSplitBySeller } from './commerce-split-by-seller.js';

export const commerceNodeTypes: readonly NodeTypeDef[] = [
  aiExtractOrder,
  commerceFraudScore,
  commercePrice,
  commercePolicy,
  commerceAuthorizePayment,
  commerceSplitBySeller,
  commerceNotify,
  commerceSellerAccept,
  commerceReserveStock,
  commerceRouteFulfillment,
  commerceShip,
  commerceCapturePayment,
  commerceCharge,
  commerceInvoice,
  commercePickupReady,
  commerceHandover,
  commerceDeliverDigital,
  commerceRefund,
  commerceReturnWindow,
  commerceReturnsCheck,
  commercePayout,
  commerceRestock,
  commercePurchaseOrder,
  commerceReceiveStock,
];
