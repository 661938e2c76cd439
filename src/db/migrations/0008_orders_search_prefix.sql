-- Order search: btree prefix indexes on every database, for `q` needles the trigram index cannot serve.
--
-- pg_trgm takes no trigram from a needle without three letters or digits in a row (`q=a`,
-- `q=ex`, `q=___`), so `%q%` on the trigram index scanned the whole index and rechecked every
-- order (security review M3). Such needles are now prefix searches (src/app/orders/order-search.ts,
-- searchModeFor) on these indexes, which migration 0006 built only when pg_trgm was missing.
-- Same names and expressions as there, so a database without pg_trgm keeps what it has.
CREATE INDEX IF NOT EXISTS orders_search_id_prefix_idx ON orders (lower(id) text_pattern_ops);
CREATE INDEX IF NOT EXISTS orders_search_title_prefix_idx ON orders (lower(title) text_pattern_ops);
CREATE INDEX IF NOT EXISTS orders_search_customer_prefix_idx ON orders (lower(customer_id) text_pattern_ops);
CREATE INDEX IF NOT EXISTS orders_search_email_prefix_idx ON orders (lower(contact_email) text_pattern_ops);
CREATE INDEX IF NOT EXISTS orders_search_external_prefix_idx ON orders (lower(external_id) text_pattern_ops);

-- Statistics on the new expressions, so the planner can tell a common prefix (walk the
-- newest-first index, stop after one page) from a rare one (collect the few matches).
ANALYZE orders;
