-- Dedupe without an index of all history. The primary key on `event_key` was an in-memory
-- ART index of every event ever stored (~51 bytes each): memory grew with history and a
-- DuckDB memory limit below it stopped ingestion. Without it, a write dedupes by an
-- anti-join against the stored (day, event_key) of only the UTC days its events fall on;
-- the table is appended roughly in event-day order and rewritten here in that order, so
-- zone maps on `day` skip every other day's row groups
-- (docs/decisions/0062-dedupe-by-event-day-without-an-index.md). DuckDB cannot drop a
-- constraint, so the table is copied.
CREATE TABLE usage_events_by_day (
  event_key UHUGEINT NOT NULL,
  source VARCHAR NOT NULL,
  event_id VARCHAR NOT NULL,
  org_id VARCHAR NOT NULL,
  event_time TIMESTAMPTZ NOT NULL,
  day DATE NOT NULL,
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  api_key_id VARCHAR NOT NULL,
  file_type VARCHAR NOT NULL,
  pages INTEGER NOT NULL,
  credits DECIMAL(18, 6) NOT NULL,
  job_id VARCHAR,
  is_async BOOLEAN NOT NULL,
  metadata_json VARCHAR,
  metadata MAP(VARCHAR, VARCHAR),
  batch_id BIGINT NOT NULL,
  ingested_at TIMESTAMPTZ NOT NULL
);

INSERT INTO usage_events_by_day SELECT * FROM usage_events ORDER BY day, event_key;
DROP TABLE usage_events;
ALTER TABLE usage_events_by_day RENAME TO usage_events;
