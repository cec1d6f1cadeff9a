-- The clustering pass as sorted runs (docs/decisions/0409-clustering-pass-bounded-by-what-changed.md).
-- Each quarter-hour rollup row names the sorted run that holds it: 2147483647 (the
-- default, the largest INTEGER) for rows appended since the last pass, a run number for
-- rows a pass wrote sorted by org. A pass sorts only the unsorted rows, with the newest
-- runs it merges, into one new run; `sorted_run >= n` then selects exactly the rows it
-- rewrites, and the column's zone maps skip every older run. Existing rows count as
-- unsorted: the first pass rewrites them once, as before.
ALTER TABLE usage_quarter_hour ADD COLUMN sorted_run INTEGER DEFAULT 2147483647;
ALTER TABLE usage_quarter_hour_metadata ADD COLUMN sorted_run INTEGER DEFAULT 2147483647;
-- A row without a run would be neither sorted nor found unsorted (DuckDB adds no column
-- with a constraint, so it is set after).
ALTER TABLE usage_quarter_hour ALTER COLUMN sorted_run SET NOT NULL;
ALTER TABLE usage_quarter_hour_metadata ALTER COLUMN sorted_run SET NOT NULL;

-- What the last passes left: per quarter-hour table, each sorted run and its rows; per
-- keyed narrow daily table, run 1 and the rows its last whole rewrite left (a table
-- without a row has never been rewritten here).
CREATE TABLE usage_rollup_runs (
  table_name VARCHAR NOT NULL,
  run INTEGER NOT NULL,
  row_count BIGINT NOT NULL,
  PRIMARY KEY (table_name, run)
);
