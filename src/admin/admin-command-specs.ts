import type { AdminCommandOption } from './admin-command.js';

const org = { flags: '--org <orgId>', field: 'orgId', description: 'organization id' };
const user = { flags: '--user <userId>', field: 'userId', description: 'user id' };

/** What the command line needs of an admin command: its name, help and options. */
export interface AdminCommandSpec {
  /** `group.action`, e.g. `org.create` for `docproc-admin org create`. */
  readonly name: string;
  readonly description: string;
  readonly options: readonly AdminCommandOption[];
}

/**
 * Every admin command's name, help and options: plain data, so `docproc-admin` parses its
 * arguments and sends a command to the running server without loading the services.
 * Each one's input DTO and service call are in admin-commands.ts (the compiler insists).
 */
export const ADMIN_COMMAND_SPECS = [
  {
    name: 'org.create',
    description: 'Create an organization; prints {"orgId"}',
    options: [
      { flags: '--name <name>', field: 'name', description: 'display name', required: true },
    ],
  },
  {
    name: 'org.list',
    description: 'List organizations',
    options: [],
  },
  {
    name: 'user.create',
    description: 'Create a user; prints {"userId"}',
    options: [{ flags: '--email <email>', field: 'email', description: 'email', required: true }],
  },
  {
    name: 'user.list',
    description: 'List users',
    options: [],
  },
  {
    name: 'user.orgs',
    description: 'List the organizations a user belongs to',
    options: [{ ...user, required: true }],
  },
  {
    name: 'member.add',
    description: 'Add a user to an organization (or change their role)',
    options: [
      { ...org, required: true },
      { ...user, required: true },
      { flags: '--role <role>', field: 'role', description: 'owner, admin or member (default)' },
    ],
  },
  {
    name: 'account-key.create',
    description: 'Create a personal account API key; prints {"keyId","secret"} (shown once)',
    options: [
      { ...user, required: true },
      { ...org, description: 'default organization of the key (the user must belong to it)' },
      { flags: '--name <name>', field: 'name', description: 'label' },
    ],
  },
  {
    name: 'account-key.list',
    description: 'List the account API keys of a user (no secrets)',
    options: [{ ...user, required: true }],
  },
  {
    name: 'account-key.revoke',
    description: 'Revoke an account API key of a user',
    options: [
      { ...user, required: true },
      { flags: '--key <keyId>', field: 'keyId', description: 'key id (ak_...)', required: true },
    ],
  },
  {
    name: 'processing-key.create',
    description: 'Create a processing API key for an organization; prints {"keyId","secret"}',
    options: [
      { ...org, required: true },
      { flags: '--name <name>', field: 'name', description: 'label' },
    ],
  },
  {
    name: 'processing-key.list',
    description: 'List the processing API keys of an organization (no secrets)',
    options: [{ ...org, required: true }],
  },
  {
    name: 'processing-key.revoke',
    description: 'Revoke a processing API key',
    options: [
      { ...org, required: true },
      { flags: '--key <keyId>', field: 'keyId', description: 'key id (pk_...)', required: true },
    ],
  },
  {
    name: 'metadata-key.enable',
    description:
      'Enable an async-metadata key for usage grouping; refused when its values look like per-request identifiers',
    options: [
      { ...org, required: true },
      { flags: '--key <key>', field: 'key', description: 'metadata key', required: true },
    ],
  },
  {
    name: 'metadata-key.delete-tracking',
    description:
      "Delete a metadata key's usage tracking: its usage figures are dropped, its place under " +
      'METADATA_KEYS_MAX_PER_ORG is freed, and usage is never broken out by it again (jobs keep ' +
      'it); refused when usage was never broken out by it',
    options: [
      { ...org, required: true },
      { flags: '--key <key>', field: 'key', description: 'metadata key', required: true },
    ],
  },
  {
    name: 'metadata-key.list',
    description: 'List the metadata keys of an organization: enabled, observed, rejected',
    options: [{ ...org, required: true }],
  },
  {
    name: 'usage.import',
    description:
      'Load usage events (CloudEvents, one per line) through ingestion; prints accepted/duplicate/rejected counts',
    options: [
      {
        flags: '--file <path>',
        field: 'file',
        description: 'NDJSON file',
        required: true,
        path: true,
      },
      {
        flags: '--allow-late',
        field: 'allowLate',
        description:
          'also load events older than USAGE_LATE_EVENT_WINDOW_DAYS (a backfill; never past USAGE_MAX_EVENT_AGE_DAYS)',
      },
    ],
  },
  {
    name: 'usage.publish',
    description:
      'Send an NDJSON file of usage CloudEvents to the Kafka usage topic (backfills; needs ' +
      'KAFKA_BROKERS); prints {"topic","published","unkeyed"}',
    options: [
      {
        flags: '--file <path>',
        field: 'file',
        description: 'NDJSON file, one CloudEvent per line',
        required: true,
        path: true,
      },
    ],
  },
  {
    name: 'usage.backfill',
    description:
      'Copy every usage event of the DuckDB store into the ClickHouse store at CLICKHOUSE_URL ' +
      '(same dedupe and rollups as ingestion; safe to run again); prints read/inserted/duplicate ' +
      "counts and both stores' totals",
    options: [
      {
        flags: '--to <store>',
        field: 'to',
        description: 'the target store: clickhouse',
        required: true,
      },
    ],
  },
] as const satisfies readonly AdminCommandSpec[];

export type AdminCommandName = (typeof ADMIN_COMMAND_SPECS)[number]['name'];
