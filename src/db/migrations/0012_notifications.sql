-- Notifications leave the service (docs/notifications.md): sellers get an email address, and every
-- notification row becomes its own delivery log (channel, attempts, last error). Times are epoch ms from the Clock.

-- Where `commerce.notify` with `to: seller` writes (workspace file `sellers[].email`); null = no email.
ALTER TABLE sellers ADD COLUMN email text;

-- An approval whose assignee is an email address notifies that person when it opens.
ALTER TABLE notifications DROP CONSTRAINT notifications_audience_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_audience_check
  CHECK (audience IN ('seller', 'customer', 'operations', 'approver'));

-- queued: no channel took it (none configured, or no address); pending: attempts under way; sent; failed: retries ran out.
ALTER TABLE notifications DROP CONSTRAINT notifications_status_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_status_check
  CHECK (status IN ('queued', 'pending', 'sent', 'failed'));

ALTER TABLE notifications
  -- The email address the recipient is reached at (a seller's workspace email, the buyer's, the assignee's); null = none.
  ADD COLUMN address         text,
  -- The channel that carries it, chosen when the order's commit is dispatched; null while queued.
  ADD COLUMN channel         text CHECK (channel IN ('email', 'webhook')),
  ADD COLUMN attempts        integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error      text,
  ADD COLUMN last_attempt_at bigint,
  ADD COLUMN updated_at      bigint;


-- The notifications table is its own transactional outbox: a row committed with the order's change is handed to a
-- channel once, after the commit, by the notifications dispatcher (dispatched_at set in that transaction). Rows from
-- before this migration count as dispatched: they were never meant to be sent and are not sent late.
ALTER TABLE notifications ADD COLUMN dispatched_at bigint;
UPDATE notifications SET dispatched_at = created_at;
CREATE INDEX notifications_undispatched_idx ON notifications (created_at, id) WHERE dispatched_at IS NULL;
