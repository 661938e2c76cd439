-- Reference data (workspace settings, products, sellers) carries a version that every write to it changes, so run
-- slices can keep what they read of it in memory per version (src/db/reference-cache.ts, docs/performance.md).
-- The number comes from a sequence, so a rolled-back write never hands its number to another write; the epoch
-- tells apart two databases (or one recreated) whose sequences gave the same number.
CREATE SEQUENCE reference_version_seq;
CREATE TABLE reference_version (
  id      smallint PRIMARY KEY CHECK (id = 1),
  epoch   text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
  version bigint NOT NULL
);
INSERT INTO reference_version (id, version) VALUES (1, nextval('reference_version_seq'));

CREATE FUNCTION bump_reference_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reference_version SET version = nextval('reference_version_seq') WHERE id = 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER workspace_reference_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspace
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER products_reference_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER sellers_reference_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sellers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
