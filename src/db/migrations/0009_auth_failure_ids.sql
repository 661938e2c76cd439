-- Throttle rows get an id, so an attempt reserved before its credential is checked can be released again.
--
-- Security review M1: the throttles were check-then-record, so a parallel burst got more checks than
-- the limit. An attempt now inserts its failure row(s) under a per-key advisory lock before the
-- credential is checked (src/auth/failure-throttle.ts, `reserve`) and deletes exactly those rows by
-- id when the credential turns out right (`release`).
ALTER TABLE auth_failures ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
