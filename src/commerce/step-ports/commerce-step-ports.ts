// Builds the commerce ports over a slice's store: what the service hands the engine as `ports`.
import type { StepStore } from '../../engine/step-store.js';
import type { CommercePorts } from '../ports/commerce-ports.js';
import { cataloguePort, orderLinesPort, settingsPort } from './shared-step-ports.js';
import { customersPort } from './customers-step-port.js';
import { digitalGoodsPort } from './digital-goods-step-port.js';
import { documentsPort } from './documents-step-port.js';
import { invoicesPort } from './invoices-step-port.js';
import { noOrderExtractor } from './order-extractor-step-port.js';
import { notificationsPort } from './notifications-step-port.js';
import { paymentsPort } from './payments-step-port.js';
import { payoutsPort } from './payouts-step-port.js';
import { peoplePort } from './people-step-port.js';
import { pickupsPort } from './pickups-step-port.js';
import { purchasingPort } from './purchasing-step-port.js';
import { returnsPort } from './returns-step-port.js';
import { sellerOrdersPort } from './seller-orders-step-port.js';
import { shipmentsPort } from './shipments-step-port.js';
import { stockPort } from './stock-step-port.js';

export function commerceStepPorts(store: StepStore): CommercePorts {
  return {
    settings: settingsPort(store),
    catalogue: cataloguePort(store),
    orderLines: orderLinesPort(store),
    customers: customersPort(store),
    digitalGoods: digitalGoodsPort(store),
    documents: documentsPort(store),
    invoices: invoicesPort(store),
    notifications: notificationsPort(store),
    orderExtractor: noOrderExtractor,
    payments: paymentsPort(store),
    payouts: payoutsPort(store),
    people: peoplePort(store),
    pickups: pickupsPort(store),
    purchasing: purchasingPort(store),
    returns: returnsPort(store),
    sellerOrders: sellerOrdersPort(store),
    shipments: shipmentsPort(store),
    stock: stockPort(store),
  };
}
