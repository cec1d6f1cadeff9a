-- Stored pipelines: a named sequence of steps (parse options, then extract, split or
-- classify) per organization, run by /pipeline and /pipeline_async. The definition is the
-- validated JSON of POST /pipelines (bounded in size); a job running one keeps its own copy.
CREATE TABLE pipelines (
  pipeline_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  definition VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX pipelines_by_org ON pipelines (org_id, created_at);

-- A pipeline bills each of its steps at the price of the operation it runs, under its own
-- product: the usage event of a pipeline job carries product `pipeline`.
INSERT INTO price_table VALUES
  ('pipeline', 'parse', 1),
  ('pipeline', 'extract', 2),
  ('pipeline', 'deep_extract', 4),
  ('pipeline', 'split', 1),
  ('pipeline', 'deep_split', 2),
  ('pipeline', 'classify', 0.5),
  ('pipeline', 'deep_classify', 1.5);
