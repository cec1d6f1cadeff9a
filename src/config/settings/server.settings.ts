import path from 'node:path';
import { DEFAULT_DATA_DIR, dataDirOf } from '../data-dir.js';
import { bool, byteSize, filePath, int, list, oneOf, optionalText, text } from '../setting.js';
import { MiB, numberOr } from './shared.js';

/* The HTTP server, its storage (data directory, DuckDB file) and authentication. */

const ORG_ID = {
  regex: /^[A-Za-z0-9_-]{1,64}$/,
  message: 'must be 1 to 64 letters, digits, "_" or "-"',
};

export const SERVER_SETTINGS = {
  port: int('PORT', { default: 3000, min: 0, max: 65535 }, 'TCP port of the HTTP server.'),
  host: text(
    'HOST',
    { default: '0.0.0.0' },
    'Address the HTTP server listens on (`127.0.0.1` keeps it to this machine).',
  ),
  requestTimeoutMs: int(
    'REQUEST_TIMEOUT_MS',
    { default: 300_000, min: 0, max: 86_400_000, unit: 'ms' },
    'Time a client has to send a whole request, headers and body (an upload included); past it the request is answered 408 `REQUEST_TIMEOUT`, the connection closed and a partly received upload removed. 0 waits for ever (a client trickling bytes then holds its connection and file). At the default a 100 MiB upload needs about 350 KB/s.',
  ),
  shutdownDrainMs: int(
    'SHUTDOWN_DRAIN_MS',
    { default: 15_000, min: 0, max: 3_600_000, unit: 'ms' },
    'At shutdown, how long sync requests in flight may wait for their job (new jobs are refused with 503 `SHUTTING_DOWN` meanwhile; those still waiting then get 503 `SHUTTING_DOWN` with their `job_id`), and then how long requests still being received or answered keep their connection once the server stopped listening; then their connections are closed. Idle keep-alive connections are closed at once.',
  ),
  dataDir: filePath(
    'DATA_DIR',
    { default: DEFAULT_DATA_DIR, defaultText: `\`${DEFAULT_DATA_DIR}\``, type: 'directory' },
    'Where the DuckDB file, uploaded files (`blobs/`) and the admin endpoint file live. The admin CLI uses the same variable.',
  ),
  dataDirMinFreeBytes: int(
    'DATA_DIR_MIN_FREE_MB',
    { default: 256, min: 0, max: 1_048_576, unit: 'MiB', scale: MiB },
    'Free space kept on the volumes of `DATA_DIR` and `DATABASE_FILE`: below it new uploads and jobs are refused with 503 `STORAGE_FULL` (`Retry-After`) and `/ready` fails its `storage` check, while work already accepted finishes, so DuckDB never runs out of space mid-write (a full volume can leave its log unreadable until space is freed). 0 turns the reserve off.',
  ),
  databaseFile: filePath(
    'DATABASE_FILE',
    {
      default: (env) => path.join(dataDirOf(env), 'docproc.duckdb'),
      defaultText: '`$DATA_DIR/docproc.duckdb`',
    },
    'The DuckDB database file (one read-write process per file).',
  ),
  duckdbCheckpointThreshold: byteSize(
    'DUCKDB_CHECKPOINT_THRESHOLD',
    '64MB',
    "WAL size between DuckDB checkpoints (DuckDB's `checkpoint_threshold`); the table data it stands for stays in memory until the checkpoint, a few times this size.",
  ),
  duckdbMemoryLimit: byteSize(
    'DUCKDB_MEMORY_LIMIT',
    '256MB',
    'Cap on DuckDB\'s buffer pool (DuckDB\'s own default is 80 % of RAM); beyond it DuckDB spills to disk or fails the statement, and a failure that leaves the store unusable fails `/ready` and restarts the process. Payloads (job results, uploads) are files, not rows, so the pool holds metadata, the queue and the usage store; the usage store holds no index over events (since migration 022), so the limit bounds memory whatever the history; table blocks it does not hold are read again from the file (usually from the OS page cache). Raise it when the usage rollups of the orgs exported most are larger (docs/operations.md, "Memory"). Below 12MB the migrations at start do not fit.',
    { min: '12MB' },
  ),
  duckdbThreads: int(
    'DUCKDB_THREADS',
    { default: 1, min: 0, max: 1024, defaultText: '1' },
    "Threads each DuckDB statement may use (DuckDB's `threads`); 0 is DuckDB's own, one per core. With 1, a statement runs on the thread that issued it and concurrent statements (export readers, the writer) still run side by side; draining a Kafka backlog on a 2-core server it took a fifth to a third off the ingestion's CPU per event against one per core (docs/decisions/0399-one-duckdb-thread-by-default.md). A machine serving large exports on idle cores may give a single statement more.",
  ),
  heapGrowingPercent: int(
    'HEAP_GROWING_PERCENT',
    { default: 20, min: 0, max: 400 },
    'How far (in %) the JS heap may grow past its live size before V8 collects it fully (`--heap-growing-percent`); 0 keeps V8\'s own factor. 20 kept a usage consumer draining a backlog ~100 MB lower at its peak than V8\'s factor, for a few percent more CPU per event (docs/benchmarks.md, "Kafka ingestion within 512 MB by default").',
  ),
  logLevel: oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'info',
    'Level of the JSON (pino) log on stdout.',
  ),
  publicBaseUrl: text(
    'PUBLIC_BASE_URL',
    {
      default: (env) => `http://localhost:${numberOr(env, 'PORT', 3000)}`,
      defaultText: '`http://localhost:$PORT`',
      pattern: {
        regex: /^https?:\/\/[^\s/]+(\/\S*)?$/,
        message: 'must be an absolute http(s) URL',
      },
      type: 'URL',
    },
    'Address clients reach this service at; used in presigned upload URLs and `force_url_result` links.',
  ),
  adminToken: optionalText(
    'ADMIN_TOKEN',
    {
      pattern: { regex: /^.{16,}$/, message: 'must be at least 16 characters' },
      type: 'secret',
      secret: true,
      defaultText: 'generated per `DATA_DIR`',
    },
    'Bearer token of the local admin endpoint the CLI talks to (written to `DATA_DIR/admin.json`, mode 0600).',
  ),
  authDisabled: bool(
    'AUTH_DISABLED',
    false,
    'Trusted single-tenant installs: processing requests without a key are accepted and billed to `AUTH_DEFAULT_ORG_ID` (a key that is sent must still be valid). The dashboard API always needs a key.',
  ),
  defaultOrgId: optionalText(
    'AUTH_DEFAULT_ORG_ID',
    { pattern: ORG_ID, type: 'organization id' },
    'The organization keyless requests are billed to; required when `AUTH_DISABLED=true`, created at start if missing.',
  ),
  frozenModelSnapshots: list(
    'FROZEN_MODEL_SNAPSHOTS',
    {
      item: { regex: /^[a-z_]+:[A-Za-z0-9._-]+$/, message: 'each entry must be family:version' },
      type: 'list of family:version',
      map: (entry) => {
        const [family, version] = entry.split(':');
        return { family, version };
      },
    },
    'Removed model versions kept pinnable from frozen snapshots (on-prem and private-network deployments only), e.g. `layout_model:layout-v2`.',
  ),
} as const;
