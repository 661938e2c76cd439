-- A new order's row is written once (issue 37): its first slice inserts it with the slice's outcome, at the end of
-- the transaction that also wrote its lines, origin, idempotency key and whatever its first steps wrote. So every
-- foreign key to orders (id) is checked at COMMIT (DEFERRABLE INITIALLY DEFERRED) instead of at each statement: the
-- check is the same, only later; a reference to an order that does not exist still fails the transaction.
DO $$
DECLARE fk record;
BEGIN
  FOR fk IN
    SELECT c.conname, c.conrelid::regclass AS tbl FROM pg_constraint c
     WHERE c.contype = 'f' AND c.confrelid = 'orders'::regclass AND NOT c.condeferrable
  LOOP
    EXECUTE format('ALTER TABLE %s ALTER CONSTRAINT %I DEFERRABLE INITIALLY DEFERRED', fk.tbl, fk.conname);
  END LOOP;
END $$;
