// The synthetic rollup rows both clustering benches write: the clustered tables, their
// order and keys, and rows shaped like the export bench's store.

// Rows per event of each table in the export bench's 2 M-event store (docs/benchmarks.md):
// quarter-hour 1,940,407 and quarter-hour metadata 2,844,504 measured; the narrow daily
// rollups are estimated (one row per org, dimension or key, day and value).
export const ROWS_PER_EVENT = {
  usage_quarter_hour: 0.97,
  usage_quarter_hour_metadata: 1.42,
  usage_daily_dimension: 0.15,
  usage_daily_metadata_value: 0.25,
};
const ORGS = 1000;
const NOW_QUARTER = Math.floor(Date.now() / 900_000);
/** `n` row numbers `i`, each with an org drawn skewed toward the first orgs, as usage is. */
const skewedOrgs = (n) =>
  `(SELECT i, 'org_' || lpad(CAST(CAST(floor(${ORGS} * pow(random(), 3)) AS INT) AS VARCHAR), 6, '0') AS org
    FROM range(${n}) t(i))`;

/** The clustered tables and their order, as the server's clustering pass. */
export const ROLLUP_TABLES = {
  usage_daily_dimension: {
    order: 'org_key, dimension, day, value',
    primaryKey: 'org_id, dimension, day, value',
    rows: (n, seed, days) => `
      SELECT md5_number_upper(org), org, ['product','feature','api_key','file_type'][1 + i % 4],
             CAST(current_date - CAST((i // 4) % ${days} AS INTEGER) AS DATE), 'v' || i || '_${seed}', 1.5, 1
      FROM ${skewedOrgs(n)}`,
  },
  usage_daily_metadata_value: {
    order: 'org_key, meta_key, day, meta_value',
    primaryKey: 'org_id, meta_key, day, meta_value',
    rows: (n, seed, days) => `
      SELECT md5_number_upper(org), org, 'team', CAST(current_date - CAST(i % ${days} AS INTEGER) AS DATE),
             'v' || i || '_${seed}', 2.25, 1
      FROM ${skewedOrgs(n)}`,
  },
  usage_quarter_hour: {
    order: 'org_key, quarter',
    keys: 'org_key, org_id, quarter, product, feature, api_key_id, file_type',
    rows: (n, _seed, days) => `
      SELECT md5_number_upper(org), org, ${NOW_QUARTER} - CAST(floor(random() * ${days * 96}) AS INT),
             ['classify','parse','extract'][1 + i % 3], 'f' || (i % 2), 'pk_' || (i % 7),
             ['pdf','png'][1 + i % 2], 1.125, 1
      FROM ${skewedOrgs(n)}`,
  },
  usage_quarter_hour_metadata: {
    order: 'org_key, meta_key, quarter',
    keys: 'org_key, org_id, meta_key, quarter, meta_value, product, feature, api_key_id, file_type',
    rows: (n, _seed, days) => `
      SELECT md5_number_upper(org), org, 'team', ${NOW_QUARTER} - CAST(floor(random() * ${days * 96}) AS INT),
             ['risk','ops','eng'][1 + i % 3], ['classify','parse','extract'][1 + i % 3],
             'f' || (i % 2), 'pk_' || (i % 7), ['pdf','png'][1 + i % 2], 0.5, 1
      FROM ${skewedOrgs(n)}`,
  },
};

/** The read both benches time: one org's last year by day and product. */
export const orgYearByDaySql = (org) => `
  SELECT quarter // 96 AS d, product, sum(credits), sum(request_count)
  FROM usage_quarter_hour
  WHERE org_key = md5_number_upper('${org}') AND org_id = '${org}'
    AND quarter >= ${NOW_QUARTER - 365 * 96}
  GROUP BY ALL`;
