-- Ports with real adapters (issue 20, docs/integrations.md): the payment gateway and the carrier may be
-- HTTP services named in the workspace file instead of the in-database ledger.

-- The workspace file's `adapters`, as applied: { payments?: { url, secret, timeoutMs }, carrier?: {...} };
-- an absent port keeps the ledger.
ALTER TABLE workspace ADD COLUMN adapters jsonb NOT NULL DEFAULT '{}'::jsonb;

-- A refund made by an undo (rollback of a capture or charge) is recorded in the order's transaction
-- before the gateway is asked; its answer goes to the timeline only, so the gateway's id is not known here.
ALTER TABLE refunds ALTER COLUMN gateway_ref DROP NOT NULL;

-- The carrier's own id of a shipment booked over HTTP (null for the in-database carrier): what a cancel names.
ALTER TABLE shipments ADD COLUMN carrier_ref text;
