-- Foundation: service settings, the workspace and its catalogue, stock and customers.
-- Every timestamp is epoch milliseconds from the service Clock (no SQL now()).

CREATE TABLE service_settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at bigint NOT NULL
);

CREATE TABLE workspace (
  id                    smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  name                  text NOT NULL,
  exchange_rates        jsonb NOT NULL,
  tax_rate              numeric(9,6) NOT NULL,
  return_window_days    integer NOT NULL,
  fraud_threshold       numeric(5,2) NOT NULL,
  order_routes          jsonb NOT NULL,
  edi_partners          jsonb NOT NULL,
  platform_name         text,
  platform_secret       text,
  source                text NOT NULL,
  updated_at            bigint NOT NULL
);

CREATE TABLE locations (
  id         text PRIMARY KEY,
  name       text NOT NULL,
  kind       text NOT NULL,
  latitude   double precision NOT NULL,
  longitude  double precision NOT NULL,
  updated_at bigint NOT NULL
);

CREATE TABLE sellers (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  commission  numeric(7,6) NOT NULL CHECK (commission >= 0 AND commission <= 1),
  auto_accept boolean NOT NULL,
  active      boolean NOT NULL,
  updated_at  bigint NOT NULL
);

CREATE TABLE products (
  sku            text PRIMARY KEY,
  name           text NOT NULL,
  price_minor    bigint NOT NULL CHECK (price_minor >= 0),  -- USD cents
  seller_id      text REFERENCES sellers (id),
  reorder_point  integer NOT NULL,
  reorder_qty    integer,
  digital        boolean NOT NULL,
  updated_at     bigint NOT NULL
);

CREATE TABLE stock_levels (
  sku         text NOT NULL REFERENCES products (sku),
  location_id text NOT NULL REFERENCES locations (id),
  on_hand     integer NOT NULL CHECK (on_hand >= 0),
  reserved    integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  updated_at  bigint NOT NULL,
  PRIMARY KEY (sku, location_id)
);

CREATE TABLE customers (
  id                 text PRIMARY KEY,
  email              text NOT NULL,
  name               text,
  credit_limit_minor bigint,
  updated_at         bigint NOT NULL
);
CREATE INDEX customers_email_lower ON customers (lower(email));
