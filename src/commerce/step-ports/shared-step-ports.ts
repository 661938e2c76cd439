// The shared ports over a slice's store: workspace settings, catalogue, and the order's lines and totals.
import type { StepStore } from '../../engine/step-store.js';
import { catalogueSkus, locationsById, productsBySku, sellersById } from '../catalogue-repo.js';
import { appendLines, dropLines, readOrderLines, setLineLocation, setLinePrices, setLineSellers } from '../order-lines-repo.js';
import { readCommerceSettings } from '../workspace-settings.js';
import type { CataloguePort } from '../ports/catalogue-port.js';
import type { OrderLinesPort } from '../ports/order-lines-port.js';
import type { SettingsPort } from '../ports/settings-port.js';

export function settingsPort(store: StepStore): SettingsPort {
  return { read: () => readCommerceSettings(store.reader) };
}

export function cataloguePort(store: StepStore): CataloguePort {
  return {
    productsBySku: (skus) => productsBySku(store.reader, skus),
    sellersById: (ids) => sellersById(store.reader, ids),
    locationsById: () => locationsById(store.reader),
    skus: () => catalogueSkus(store.reader),
  };
}

export function orderLinesPort(store: StepStore): OrderLinesPort {
  return {
    read: (orderId, opts) => readOrderLines(store.reader, orderId, opts),
    setPrices: (orderId, prices) => setLinePrices(store.writer, orderId, prices),
    setSellers: (orderId, sellers) => setLineSellers(store.writer, orderId, sellers),
    setLocation: (orderId, lineNo, locationId) => setLineLocation(store.writer, orderId, lineNo, locationId),
    drop: (orderId, lineNos) => dropLines(store.writer, orderId, lineNos),
    append: (orderId, lines) => appendLines(store.writer, orderId, lines),
    setTotals: (orderId, { subtotal, tax, total }) => store.order.change(orderId, { subtotal, tax, total }),
  };
}
