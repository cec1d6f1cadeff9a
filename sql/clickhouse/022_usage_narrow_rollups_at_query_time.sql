-- The narrow daily rollups (one dimension per row; a metadata value without the other
-- dimensions) are answered from usage_daily and usage_daily_metadata at query time
-- (docs/decisions/0377-*): their four materialized views ran on every stored block, one of
-- them fanning each event out to four rows, for tables an export can sum from the full
-- rollups of the same days. Views first: a view left over a dropped table fails the insert.
DROP TABLE IF EXISTS {database}.usage_daily_dimension_mv;

DROP TABLE IF EXISTS {database}.usage_daily_dimension_retraction_mv;

DROP TABLE IF EXISTS {database}.usage_daily_metadata_value_mv;

DROP TABLE IF EXISTS {database}.usage_daily_metadata_value_retraction_mv;

DROP TABLE IF EXISTS {database}.usage_daily_dimension;

DROP TABLE IF EXISTS {database}.usage_daily_metadata_value;
