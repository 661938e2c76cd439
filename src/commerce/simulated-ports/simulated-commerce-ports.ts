// The commerce ports of a simulation: every port of src/commerce/ports over one in-memory ledger, as a simulated world for the engine.
import type { SimulatedWorld } from '../../engine/simulation/simulated-world.js';
import type { SliceOrder } from '../../engine/step-store.js';
import type { CommercePorts } from '../ports/commerce-ports.js';
import type { CommerceSnapshot, SimulatedOrderData } from './commerce-snapshot.js';
import { SimulatedLedger } from './simulated-ledger.js';
import { simulatedCataloguePort } from './simulated-catalogue-port.js';
import { simulatedCustomersPort } from './simulated-customers-port.js';
import { simulatedDigitalGoodsPort } from './simulated-digital-goods-port.js';
import { simulatedDocumentsPort } from './simulated-documents-port.js';
import { simulatedInvoicesPort } from './simulated-invoices-port.js';
import { simulatedNotificationsPort } from './simulated-notifications-port.js';
import { simulatedOrderExtractorPort } from './simulated-order-extractor-port.js';
import { simulatedOrderLinesPort } from './simulated-order-lines-port.js';
import { simulatedPaymentsPort } from './simulated-payments-port.js';
import { simulatedPayoutsPort } from './simulated-payouts-port.js';
import { simulatedPeoplePort } from './simulated-people-port.js';
import { simulatedPickupsPort } from './simulated-pickups-port.js';
import { simulatedPurchasingPort } from './simulated-purchasing-port.js';
import { simulatedSellerOrdersPort } from './simulated-seller-orders-port.js';
import { simulatedSettingsPort } from './simulated-settings-port.js';
import { simulatedShipmentsPort } from './simulated-shipments-port.js';
import { simulatedStockPort } from './simulated-stock-port.js';

/** The ports over `ledger`; `order` holds the simulated order's facts (what `orderLines.setTotals` changes). */
export function simulatedCommercePorts(ledger: SimulatedLedger, order: SliceOrder): CommercePorts {
  return {
    settings: simulatedSettingsPort(ledger),
    catalogue: simulatedCataloguePort(ledger),
    orderLines: simulatedOrderLinesPort(ledger, order),
    customers: simulatedCustomersPort(ledger),
    digitalGoods: simulatedDigitalGoodsPort(ledger),
    documents: simulatedDocumentsPort(ledger),
    invoices: simulatedInvoicesPort(ledger),
    notifications: simulatedNotificationsPort(ledger),
    orderExtractor: simulatedOrderExtractorPort,
    payments: simulatedPaymentsPort(ledger),
    payouts: simulatedPayoutsPort(ledger),
    people: simulatedPeoplePort(ledger),
    pickups: simulatedPickupsPort(ledger),
    purchasing: simulatedPurchasingPort(ledger),
    // A simulated order has no returns (nothing of it survives to be returned); a refund names no other order.
    returns: { openOf: () => Promise.resolve([]), summaryOf: () => Promise.resolve(null) },
    sellerOrders: simulatedSellerOrdersPort(ledger),
    shipments: simulatedShipmentsPort(ledger),
    stock: simulatedStockPort(ledger),
  };
}

/** A simulated world over a fresh ledger copied from the snapshot: the ports, and each body's writes taken back when it throws. */
export function simulatedCommerceWorld(snapshot: CommerceSnapshot, order: SimulatedOrderData): SimulatedWorld & { ledger: SimulatedLedger } {
  const ledger = new SimulatedLedger(snapshot, order);
  return { ledger, ports: (facts) => simulatedCommercePorts(ledger, facts), atomically: (body) => ledger.atomically(body) };
}
