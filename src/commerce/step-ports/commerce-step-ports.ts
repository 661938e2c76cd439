// Builds the commerce ports over a slice's store: what the service hands the engine as `ports`.
import type { StepStore } from '../../engine/step-store.js';
import type { CommercePorts } from '../ports/commerce-ports.js';
import { digitalGoodsPort } from './digital-goods-step-port.js';
import { pickupsPort } from './pickups-step-port.js';
import { purchasingPort } from './purchasing-step-port.js';
import { cataloguePort, orderLinesPort, settingsPort } from './shared-step-ports.js';
import { shipmentsPort } from './shipments-step-port.js';
import { stockPort } from './stock-step-port.js';

export function commerceStepPorts(store: StepStore): CommercePorts {
  return {
    settings: settingsPort(store),
    catalogue: cataloguePort(store),
    orderLines: orderLinesPort(store),
    digitalGoods: digitalGoodsPort(store),
    pickups: pickupsPort(store),
    purchasing: purchasingPort(store),
    shipments: shipmentsPort(store),
    stock: stockPort(store),
  };
}
