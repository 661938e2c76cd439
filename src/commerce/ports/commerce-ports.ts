// The ports commerce steps receive (`ctx.ports`): added to the engine's StepPorts by declaration merging.
import type { CataloguePort } from './catalogue-port.js';
import type { CustomersPort } from './customers-port.js';
import type { DigitalGoodsPort } from './digital-goods-port.js';
import type { DocumentsPort } from './documents-port.js';
import type { InvoicesPort } from './invoices-port.js';
import type { NotificationsPort } from './notifications-port.js';
import type { OrderExtractorPort } from './order-extractor-port.js';
import type { OrderLinesPort } from './order-lines-port.js';
import type { PaymentsPort } from './payments-port.js';
import type { PayoutsPort } from './payouts-port.js';
import type { PeoplePort } from './people-port.js';
import type { PickupsPort } from './pickups-port.js';
import type { PurchasingPort } from './purchasing-port.js';
import type { ReturnsPort } from './returns-port.js';
import type { SellerOrdersPort } from './seller-orders-port.js';
import type { SettingsPort } from './settings-port.js';
import type { ShipmentsPort } from './shipments-port.js';
import type { StockPort } from './stock-port.js';

/** Every port the commerce plug-in gives steps; one interface per port, implemented over the slice's store in ../step-ports. */
export interface CommercePorts {
  settings: SettingsPort;
  catalogue: CataloguePort;
  orderLines: OrderLinesPort;
  customers: CustomersPort;
  digitalGoods: DigitalGoodsPort;
  documents: DocumentsPort;
  invoices: InvoicesPort;
  notifications: NotificationsPort;
  orderExtractor: OrderExtractorPort;
  payments: PaymentsPort;
  payouts: PayoutsPort;
  people: PeoplePort;
  pickups: PickupsPort;
  purchasing: PurchasingPort;
  returns: ReturnsPort;
  sellerOrders: SellerOrdersPort;
  shipments: ShipmentsPort;
  stock: StockPort;
}

declare module '../../engine/step-store.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the commerce ports join the engine's StepPorts.
  interface StepPorts extends CommercePorts {}
}
