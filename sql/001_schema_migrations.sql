-- Bookkeeping for the migration runner; every later file is applied once and recorded here.
CREATE TABLE IF NOT EXISTS schema_migrations (
  version VARCHAR PRIMARY KEY,
  name VARCHAR NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
