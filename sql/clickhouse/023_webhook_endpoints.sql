-- Hosted webhook endpoints in the shared store (docs/decisions/0425-*): with several
-- processes, the endpoints an org registered through one of them must receive the jobs
-- every other one finishes, signed with the same secret. As the alert rules: the row of the
-- highest `revision` counts, and a deletion is a second row with `deleted` = 1.
CREATE TABLE IF NOT EXISTS {database}.webhook_endpoints (
  endpoint_id String,
  org_id String,
  url String,
  channels Array(String),
  secret String,
  description Nullable(String),
  created_ms UInt64,
  revision UInt64,
  deleted UInt8
) ENGINE = ReplacingMergeTree(revision) ORDER BY (org_id, endpoint_id);
