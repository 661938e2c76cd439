-- Commerce bookkeeping written by the built-in commerce steps: payments, stock, fulfilment,
-- seller orders, payouts, purchase orders and notifications. Amounts are integer minor units
-- of `currency`; every timestamp is epoch milliseconds from the service Clock (no SQL now()).

-- A card authorization; capture takes part of it and releases the rest, a void drops it.
CREATE TABLE payment_authorizations (
  id              text PRIMARY KEY,
  order_id        text NOT NULL REFERENCES orders (id),
  generation      integer NOT NULL,
  node_id         text NOT NULL,
  amount_minor    bigint NOT NULL CHECK (amount_minor >= 0),
  currency        text NOT NULL,
  status          text NOT NULL CHECK (status IN ('authorized', 'captured', 'voided')),
  captured_minor  bigint NOT NULL DEFAULT 0 CHECK (captured_minor >= 0),
  released_minor  bigint NOT NULL DEFAULT 0 CHECK (released_minor >= 0),
  gateway_ref     text NOT NULL,
  created_at      bigint NOT NULL,
  captured_at     bigint,
  voided_at       bigint,
  CHECK (captured_minor + released_minor <= amount_minor)
);
CREATE INDEX payment_authorizations_order_idx ON payment_authorizations (order_id, created_at);

-- Money taken: a capture of an authorization, or a direct charge (POS, subscription period).
CREATE TABLE payment_charges (
  id                text PRIMARY KEY,
  order_id          text NOT NULL REFERENCES orders (id),
  generation        integer NOT NULL,
  node_id           text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('capture', 'charge')),
  authorization_id  text REFERENCES payment_authorizations (id),
  amount_minor      bigint NOT NULL CHECK (amount_minor >= 0),
  currency          text NOT NULL,
  method            text NOT NULL,
  gateway_ref       text NOT NULL,
  created_at        bigint NOT NULL
);
CREATE INDEX payment_charges_order_idx ON payment_charges (order_id, created_at);

-- Money given back; only `succeeded` refunds count for payouts.
CREATE TABLE refunds (
  id            text PRIMARY KEY,
  order_id      text NOT NULL REFERENCES orders (id),
  node_id       text NOT NULL,
  charge_id     text REFERENCES payment_charges (id),
  amount_minor  bigint NOT NULL CHECK (amount_minor > 0),
  currency      text NOT NULL,
  status        text NOT NULL CHECK (status IN ('succeeded', 'failed')),
  reason        text,
  gateway_ref   text NOT NULL,
  created_at    bigint NOT NULL
);
CREATE INDEX refunds_order_idx ON refunds (order_id);

-- On-account invoices (b2b terms); a cancel or rollback reverses an open one.
CREATE TABLE invoices (
  id            text PRIMARY KEY,
  number        text NOT NULL UNIQUE,
  order_id      text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id       text NOT NULL,
  customer_id   text,
  amount_minor  bigint NOT NULL CHECK (amount_minor >= 0),
  currency      text NOT NULL,
  terms_days    integer NOT NULL,
  status        text NOT NULL CHECK (status IN ('open', 'paid', 'reversed')),
  issued_at     bigint NOT NULL,
  due_at        bigint NOT NULL,
  reversed_at   bigint
);
CREATE INDEX invoices_order_idx ON invoices (order_id);
CREATE INDEX invoices_customer_open_idx ON invoices (customer_id) WHERE status = 'open';
CREATE SEQUENCE invoice_number_seq START 1001;

-- Units held for an order at a location: reserved (counts in stock_levels.reserved), released,
-- or consumed (left the building: shipped or handed over; restocked when its shipment is cancelled).
CREATE TABLE stock_reservations (
  id           text PRIMARY KEY,
  order_id     text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id      text NOT NULL,
  line_no      integer NOT NULL,
  sku          text NOT NULL,
  location_id  text NOT NULL,
  qty          integer NOT NULL CHECK (qty > 0),
  status       text NOT NULL CHECK (status IN ('reserved', 'released', 'consumed', 'restocked')),
  shipment_id  text,
  pickup_id    text,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX stock_reservations_order_idx ON stock_reservations (order_id, status);

-- Carrier shipments, one per order and ship-from location.
CREATE TABLE shipments (
  id               text PRIMARY KEY,
  order_id         text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id          text NOT NULL,
  location_id      text NOT NULL,
  carrier          text NOT NULL,
  service          text NOT NULL,
  tracking_number  text NOT NULL,
  ship_to          jsonb,
  lines            jsonb NOT NULL,
  status           text NOT NULL CHECK (status IN ('shipped', 'cancelled')),
  created_at       bigint NOT NULL,
  cancelled_at     bigint
);
CREATE INDEX shipments_order_idx ON shipments (order_id);

-- Store pickups: staged at a store, then handed over (or cancelled).
CREATE TABLE pickups (
  id              text PRIMARY KEY,
  order_id        text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id         text NOT NULL,
  location_id     text NOT NULL,
  code            text NOT NULL,
  lines           jsonb NOT NULL,
  status          text NOT NULL CHECK (status IN ('staged', 'handed_over', 'cancelled')),
  staged_at       bigint NOT NULL,
  handed_over_at  bigint,
  cancelled_at    bigint
);
CREATE INDEX pickups_order_idx ON pickups (order_id);

-- Codes issued for digital lines (gift cards, licences); revoked on cancel.
CREATE TABLE digital_codes (
  id          text PRIMARY KEY,
  order_id    text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id     text NOT NULL,
  line_no     integer NOT NULL,
  sku         text NOT NULL,
  code        text NOT NULL UNIQUE,
  status      text NOT NULL CHECK (status IN ('issued', 'revoked')),
  issued_at   bigint NOT NULL,
  revoked_at  bigint
);
CREATE INDEX digital_codes_order_idx ON digital_codes (order_id);

-- One seller order per order and seller (first party: seller_id NULL), spec "Seller order".
CREATE TABLE seller_orders (
  id              text PRIMARY KEY,
  order_id        text NOT NULL REFERENCES orders (id),
  seller_id       text REFERENCES sellers (id),
  lines           jsonb NOT NULL,
  subtotal_minor  bigint NOT NULL CHECK (subtotal_minor >= 0),
  currency        text NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'cancelled')),
  reason          text,
  created_at      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  CONSTRAINT seller_orders_one_per_seller UNIQUE NULLS NOT DISTINCT (order_id, seller_id)
);
CREATE INDEX seller_orders_seller_idx ON seller_orders (seller_id, created_at DESC);

-- Payouts to accepted third-party sellers, spec "Payout".
CREATE TABLE payouts (
  id                text PRIMARY KEY,
  order_id          text NOT NULL REFERENCES orders (id),
  seller_id         text NOT NULL REFERENCES sellers (id),
  seller_order_id   text NOT NULL REFERENCES seller_orders (id),
  gross_minor       bigint NOT NULL,
  refunded_minor    bigint NOT NULL,
  commission_rate   numeric(7,6) NOT NULL,
  commission_minor  bigint NOT NULL,
  net_minor         bigint NOT NULL,
  currency          text NOT NULL,
  status            text NOT NULL CHECK (status IN ('scheduled', 'reversed', 'paid')),
  scheduled_at      bigint NOT NULL,
  paid_at           bigint,
  reversed_at       bigint,
  CONSTRAINT payouts_one_per_seller UNIQUE (order_id, seller_id)
);
CREATE INDEX payouts_seller_idx ON payouts (seller_id, scheduled_at DESC);

-- Purchase orders to suppliers (procurement, replenishment) and the goods received against them.
CREATE TABLE purchase_orders (
  id            text PRIMARY KEY,
  number        text NOT NULL UNIQUE,
  order_id      text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id       text NOT NULL,
  supplier      text NOT NULL,
  location_id   text,
  lines         jsonb NOT NULL,
  amount_minor  bigint NOT NULL,
  currency      text NOT NULL,
  status        text NOT NULL CHECK (status IN ('issued', 'received', 'cancelled')),
  issued_at     bigint NOT NULL,
  received_at   bigint,
  cancelled_at  bigint
);
CREATE INDEX purchase_orders_order_idx ON purchase_orders (order_id);
CREATE SEQUENCE purchase_order_number_seq START 5001;

-- Stock added by goods receipts; reversed (taken back off the shelf count) on undo.
CREATE TABLE stock_receipts (
  id           text PRIMARY KEY,
  order_id     text NOT NULL REFERENCES orders (id),
  generation   integer NOT NULL,
  node_id      text NOT NULL,
  sku          text NOT NULL,
  location_id  text NOT NULL,
  qty          integer NOT NULL CHECK (qty > 0),
  status       text NOT NULL CHECK (status IN ('received', 'reversed')),
  created_at   bigint NOT NULL,
  reversed_at  bigint
);
CREATE INDEX stock_receipts_order_idx ON stock_receipts (order_id);

-- Messages the notify step addressed (sellers, the buyer, operations), kept as the outgoing message log.
CREATE TABLE notifications (
  id          text PRIMARY KEY,
  order_id    text NOT NULL REFERENCES orders (id),
  node_id     text NOT NULL,
  audience    text NOT NULL CHECK (audience IN ('seller', 'customer', 'operations')),
  recipient   text NOT NULL,
  subject     text NOT NULL,
  body        text NOT NULL,
  status      text NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
  created_at  bigint NOT NULL,
  sent_at     bigint
);
CREATE INDEX notifications_order_idx ON notifications (order_id);
CREATE INDEX notifications_queued_idx ON notifications (created_at) WHERE status = 'queued';
