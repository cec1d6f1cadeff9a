// The PostgreSQL 15 baseline: a private cluster (initdb + pg_ctl, run as the `postgres`
// user when we are root), loaded with COPY from the CSV files DuckDB wrote, in two
// physical designs a team would pick:
//   raw     - the events table with a btree on (org_id, day) and the groupable metadata as
//             jsonb; every export aggregates events.
//   rollups - docproc's two full daily rollup tables, with the same primary keys.
//   narrow  - those plus the narrow rollups of migration 021, read the way docproc reads them.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PORT_TAKEN, PortTaken } from '../../test/support/free-port.mjs';

const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';

/** Settings for this 24 GB / 2-core machine; fsync is off because only reads are measured. */
export const PG_SETTINGS = {
  shared_buffers: '6GB',
  effective_cache_size: '16GB',
  work_mem: '64MB',
  maintenance_work_mem: '2GB',
  max_worker_processes: '4',
  max_parallel_workers: '2',
  max_parallel_workers_per_gather: '2',
  max_parallel_maintenance_workers: '2',
  random_page_cost: '1.1',
  effective_io_concurrency: '200',
  jit: 'off',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_wal_size: '8GB',
  checkpoint_timeout: '30min',
};

function asPostgres(args) {
  const isRoot = process.getuid?.() === 0;
  const [cmd, ...rest] = isRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  return execFileSync(cmd, rest, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

export function postgresVersion() {
  return execFileSync(path.join(PG_BIN, 'postgres'), ['--version']).toString().trim();
}

/**
 * initdb once per data directory (no locale: byte order, like DuckDB's), then start on
 * `port`; throws PortTaken when another process holds it (see `onFreePorts`).
 */
export function startCluster(dir, port) {
  const data = path.join(dir, 'data');
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    asPostgres([
      path.join(PG_BIN, 'initdb'),
      '-D',
      data,
      '--no-locale',
      '-E',
      'UTF8',
      '--auth=trust',
      '-U',
      'postgres',
    ]);
  }
  const log = path.join(dir, 'postgres.log');
  const logBefore = fs.existsSync(log) ? fs.statSync(log).size : 0;
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    ...Object.entries(PG_SETTINGS).map(([k, v]) => `-c ${k}=${v}`),
  ].join(' ');
  try {
    asPostgres([
      path.join(PG_BIN, 'pg_ctl'),
      '-D',
      data,
      '-l',
      log,
      '-o',
      options,
      '-w',
      '-t',
      '120',
      'start',
    ]);
  } catch (error) {
    // The postmaster says why it stopped in its log, which this start appended to.
    const said = fs.existsSync(log) ? fs.readFileSync(log).subarray(logBefore).toString() : '';
    const taken = said.split('\n').find((line) => PORT_TAKEN.test(line));
    if (taken !== undefined) throw new PortTaken(taken);
    throw error;
  }
  return {
    connection: { host: '127.0.0.1', port, user: 'postgres', database: 'postgres' },
    stop() {
      spawnSync(
        process.getuid?.() === 0 ? 'runuser' : path.join(PG_BIN, 'pg_ctl'),
        process.getuid?.() === 0
          ? ['-u', 'postgres', '--', path.join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'fast', 'stop']
          : ['-D', data, '-m', 'fast', 'stop'],
        { stdio: 'ignore' },
      );
    },
  };
}

const SCHEMA = `
  DROP TABLE IF EXISTS usage_events, usage_daily, usage_daily_metadata;
  CREATE TABLE usage_events (
    source text NOT NULL, event_id text NOT NULL, org_id text NOT NULL, event_time timestamptz NOT NULL,
    day date NOT NULL, product text NOT NULL, feature text NOT NULL, api_key_id text NOT NULL,
    file_type text NOT NULL, pages integer NOT NULL, credits numeric(18, 6) NOT NULL, job_id text,
    is_async boolean NOT NULL, metadata jsonb
  );
  CREATE TABLE usage_daily (
    org_id text NOT NULL, day date NOT NULL, product text NOT NULL, feature text NOT NULL,
    api_key_id text NOT NULL, file_type text NOT NULL, credits numeric(38, 6) NOT NULL,
    request_count bigint NOT NULL
  );
  CREATE TABLE usage_daily_metadata (
    org_id text NOT NULL, meta_key text NOT NULL, day date NOT NULL, meta_value text NOT NULL,
    product text NOT NULL, feature text NOT NULL, api_key_id text NOT NULL, file_type text NOT NULL,
    credits numeric(38, 6) NOT NULL, request_count bigint NOT NULL
  );`;

// The narrow rollups of migration 021, built with the same SQL from the full ones.
const NARROW_ROLLUPS = [
  'DROP TABLE IF EXISTS usage_daily_dimension, usage_daily_metadata_value',
  `CREATE TABLE usage_daily_dimension AS
   SELECT org_id, dimension, day, value, sum(credits)::numeric(38, 6) AS credits,
          sum(request_count)::bigint AS request_count
   FROM (
     SELECT org_id, day, credits, request_count,
            unnest(ARRAY['product', 'feature', 'api_key', 'file_type']) AS dimension,
            unnest(ARRAY[product, feature, api_key_id, file_type]) AS value
     FROM usage_daily
   ) s
   GROUP BY org_id, dimension, day, value ORDER BY day`,
  `CREATE TABLE usage_daily_metadata_value AS
   SELECT org_id, meta_key, day, meta_value, sum(credits)::numeric(38, 6) AS credits,
          sum(request_count)::bigint AS request_count
   FROM usage_daily_metadata GROUP BY org_id, meta_key, day, meta_value ORDER BY day`,
  'ALTER TABLE usage_daily_dimension ADD PRIMARY KEY (org_id, dimension, day, value)',
  'ALTER TABLE usage_daily_metadata_value ADD PRIMARY KEY (org_id, meta_key, day, meta_value)',
  // Same physical order as docproc's clustered narrow rollups.
  'CLUSTER usage_daily_dimension USING usage_daily_dimension_pkey',
  'CLUSTER usage_daily_metadata_value USING usage_daily_metadata_value_pkey',
  'VACUUM (ANALYZE) usage_daily_dimension',
  'VACUUM (ANALYZE) usage_daily_metadata_value',
];

/** Adds the narrow rollups to a loaded cluster when they are missing. */
export async function ensureNarrowRollups(connection) {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const found = await client.query(
      "SELECT to_regclass('usage_daily_metadata_value') IS NOT NULL AS present",
    );
    if (found.rows[0].present) return null;
    const start = performance.now();
    for (const sql of NARROW_ROLLUPS) await client.query(sql);
    return Math.round(performance.now() - start);
  } finally {
    await client.end();
  }
}

const INDEXES = [
  'CREATE INDEX usage_events_org_day ON usage_events (org_id, day)',
  'ALTER TABLE usage_daily ADD PRIMARY KEY (org_id, day, product, feature, api_key_id, file_type)',
  `ALTER TABLE usage_daily_metadata ADD PRIMARY KEY
     (org_id, meta_key, day, meta_value, product, feature, api_key_id, file_type)`,
];

/** COPY the CSV files in, build the indexes after loading (fastest), VACUUM ANALYZE. */
export async function loadPostgres(connection, files) {
  const timings = {};
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query(SCHEMA);
    let start = performance.now();
    for (const [table, file] of Object.entries(files)) {
      fs.chmodSync(file, 0o644);
      await client.query(`COPY ${table} FROM '${file}' (FORMAT csv)`);
    }
    timings.pgCopy = Math.round(performance.now() - start);
    start = performance.now();
    for (const sql of INDEXES) await client.query(sql);
    timings.pgIndexes = Math.round(performance.now() - start);
    start = performance.now();
    await client.query('VACUUM (ANALYZE)');
    timings.pgVacuumAnalyze = Math.round(performance.now() - start);
    const size = await client.query(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS s',
    );
    timings.pgDatabaseSize = size.rows[0].s;
  } finally {
    await client.end();
  }
  return timings;
}

/** Reads every table and index into shared buffers, so both systems start warm. */
export async function prewarm(connection) {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    for (const rel of [
      'usage_events',
      'usage_events_org_day',
      'usage_daily',
      'usage_daily_pkey',
      'usage_daily_metadata',
      'usage_daily_metadata_pkey',
      'usage_daily_dimension',
      'usage_daily_dimension_pkey',
      'usage_daily_metadata_value',
      'usage_daily_metadata_value_pkey',
    ]) {
      await client.query('SELECT pg_prewarm($1)', [rel]);
    }
  } finally {
    await client.end();
  }
}

const DIMENSION = {
  product: 'product',
  feature: 'feature',
  api_key: 'api_key_id',
  file_type: 'file_type',
};
const FINAL = `SELECT to_char(day, 'YYYY-MM-DD') AS date, grp, sum(credits)::text AS credits,
         sum(request_count) AS request_count`;
const FINAL_GROUP = 'GROUP BY day, grp HAVING sum(request_count) > 0 ORDER BY day, grp';

/**
 * The export's queries for PostgreSQL, the same shapes as docproc's buildExportSql.
 * `question`: a groupBy (one dimension, UTC days) or a scenario ({ dimensions, timeZone }).
 * Parameters: $1 org, $2 start day, $3 end day, then the metadata key (when grouping by
 * metadata), then the time zone (when not UTC). Null when the variant cannot answer: the
 * narrow rollups hold one dimension of UTC days, the daily rollups UTC days only.
 */
export function pgExportSql(variant, question) {
  const { dimensions, timeZone } =
    typeof question === 'string' ? { dimensions: [question], timeZone: 'UTC' } : question;
  const [groupBy] = dimensions;
  const local = timeZone !== 'UTC';
  const metadata = dimensions.includes('metadata');
  if (dimensions.length === 1 && !local && variant !== 'raw') {
    return singleDimensionSql(variant, groupBy);
  }
  if (variant === 'narrow' || (variant === 'rollups' && local)) return null;
  const aliases = ['grp', 'grp2'].slice(0, dimensions.length);
  const column = (d) => (d === 'metadata' ? 'meta_value' : DIMENSION[d]);
  const groups = dimensions.map((d, i) => `${column(d)} AS ${aliases[i]}`).join(', ');
  const ordered = ['day', ...aliases].join(', ');
  if (variant === 'raw') {
    const zone = metadata ? '$5' : '$4';
    const day = local ? `(event_time AT TIME ZONE ${zone})::date` : 'day';
    // The btree on (org_id, day) narrows to the UTC days around the local period.
    const near = local
      ? 'day >= $2::date - 1 AND day <= $3::date + 1'
      : 'day >= $2::date AND day <= $3::date';
    const values = dimensions
      .map((d, i) =>
        d === 'metadata'
          ? `coalesce(metadata->>$4, 'unknown') AS ${aliases[i]}`
          : `${DIMENSION[d]} AS ${aliases[i]}`,
      )
      .join(', ');
    return `SELECT to_char(day, 'YYYY-MM-DD') AS date, ${aliases.join(', ')}, sum(credits)::text AS credits,
           count(*) AS request_count
      FROM (SELECT ${day} AS day, ${values}, credits FROM usage_events WHERE org_id = $1 AND ${near}) e
      WHERE day >= $2::date AND day <= $3::date
      GROUP BY ${ordered} ORDER BY ${ordered}`;
  }
  const period = 'org_id = $1 AND day >= $2::date AND day <= $3::date';
  const final = (rows) => `SELECT to_char(day, 'YYYY-MM-DD') AS date, ${aliases.join(', ')},
      sum(credits)::text AS credits, sum(request_count) AS request_count
    FROM (${rows}) s GROUP BY ${ordered} HAVING sum(request_count) > 0 ORDER BY ${ordered}`;
  if (!metadata) {
    return final(`SELECT day, ${groups}, credits, request_count FROM usage_daily WHERE ${period}`);
  }
  const position = dimensions.indexOf('metadata');
  const others = aliases.filter((_, i) => i !== position);
  const otherColumns = dimensions
    .filter((d) => d !== 'metadata')
    .map((d, i) => `${DIMENSION[d]} AS ${others[i]}`);
  const keys = ['day', ...others].join(', ');
  const unknownColumns = aliases
    .map((a, i) => (i === position ? `'unknown' AS ${a}` : `t.${a}`))
    .join(', ');
  return `WITH carried AS (
      SELECT day, ${groups}, credits, request_count FROM usage_daily_metadata WHERE ${period} AND meta_key = $4
    ), total AS (
      SELECT ${['day', ...otherColumns].join(', ')}, sum(credits) AS credits, sum(request_count) AS request_count
      FROM usage_daily WHERE ${period} GROUP BY ${keys}
    ), carried_total AS (
      SELECT ${keys}, sum(credits) AS credits, sum(request_count) AS request_count FROM carried GROUP BY ${keys}
    ), unknown AS (
      SELECT t.day, ${unknownColumns}, t.credits - coalesce(c.credits, 0) AS credits,
             t.request_count - coalesce(c.request_count, 0) AS request_count
      FROM total t LEFT JOIN carried_total c USING (${keys})
    )
    ${final('SELECT * FROM carried UNION ALL SELECT * FROM unknown')}`;
}

/** One dimension of UTC days from the narrow or the daily rollups (the original statements). */
function singleDimensionSql(variant, groupBy) {
  if (variant === 'narrow') {
    if (groupBy !== 'metadata') {
      return `${FINAL} FROM (SELECT day, value AS grp, credits, request_count FROM usage_daily_dimension
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date AND dimension = '${groupBy}') s ${FINAL_GROUP}`;
    }
    return `WITH carried AS (
        SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata_value
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date AND meta_key = $4
      ), total AS (
        SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM usage_daily_dimension
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date AND dimension = 'product' GROUP BY day
      ), carried_total AS (
        SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM carried GROUP BY day
      ), unknown AS (
        SELECT t.day, 'unknown' AS grp, t.credits - coalesce(c.credits, 0) AS credits,
               t.request_count - coalesce(c.request_count, 0) AS request_count
        FROM total t LEFT JOIN carried_total c USING (day)
      )
      ${FINAL} FROM (SELECT * FROM carried UNION ALL SELECT * FROM unknown) s ${FINAL_GROUP}`;
  }
  if (variant === 'rollups') {
    if (groupBy !== 'metadata') {
      return `${FINAL} FROM (SELECT day, ${DIMENSION[groupBy]} AS grp, credits, request_count FROM usage_daily
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date) s ${FINAL_GROUP}`;
    }
    return `WITH carried AS (
        SELECT day, meta_value AS grp, credits, request_count FROM usage_daily_metadata
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date AND meta_key = $4
      ), total AS (
        SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM usage_daily
        WHERE org_id = $1 AND day >= $2::date AND day <= $3::date GROUP BY day
      ), carried_total AS (
        SELECT day, sum(credits) AS credits, sum(request_count) AS request_count FROM carried GROUP BY day
      ), unknown AS (
        SELECT t.day, 'unknown' AS grp, t.credits - coalesce(c.credits, 0) AS credits,
               t.request_count - coalesce(c.request_count, 0) AS request_count
        FROM total t LEFT JOIN carried_total c USING (day)
      )
      ${FINAL} FROM (SELECT * FROM carried UNION ALL SELECT * FROM unknown) s ${FINAL_GROUP}`;
  }
  return null;
}
