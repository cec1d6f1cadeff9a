import { AccountsService } from '../accounts/accounts.service.js';
import { UsagePublishService } from '../usage/ingestion/kafka/usage-publish.service.js';
import { ApiKeyService } from '../accounts/keys/api-key.service.js';
import { MetadataKeyService } from '../usage/metadata/metadata-key.service.js';
import { UsageImportService } from '../usage/import/usage-import.service.js';
import { AdminCommand, defineCommand } from './admin-command.js';
import {
  AccountKeyCreateInput,
  AccountKeyRevokeInput,
  FileInput,
  MetadataKeyInput,
  MemberAddInput,
  NoInput,
  OrgCreateInput,
  OrgInput,
  ProcessingKeyCreateInput,
  ProcessingKeyRevokeInput,
  UserCreateInput,
  UserInput,
} from './admin-command.inputs.js';

const org = { flags: '--org <orgId>', field: 'orgId', description: 'organization id' };
const user = { flags: '--user <userId>', field: 'userId', description: 'user id' };

/**
 * Every admin command. Adding one here makes it a `docproc-admin` sub-command and an admin
 * HTTP command at once; its service must also be reachable from `AdminContextModule`.
 */
export const ADMIN_COMMANDS: AdminCommand[] = [
  defineCommand({
    name: 'org.create',
    description: 'Create an organization; prints {"orgId"}',
    options: [
      { flags: '--name <name>', field: 'name', description: 'display name', required: true },
    ],
    input: OrgCreateInput,
    run: async (services, input) => {
      const created = await services.get(AccountsService, { strict: false }).createOrg(input.name);
      return { orgId: created.orgId, name: created.name };
    },
  }),
  defineCommand({
    name: 'org.list',
    description: 'List organizations',
    options: [],
    input: NoInput,
    run: (services) => services.get(AccountsService, { strict: false }).listOrgs(),
  }),
  defineCommand({
    name: 'user.create',
    description: 'Create a user; prints {"userId"}',
    options: [{ flags: '--email <email>', field: 'email', description: 'email', required: true }],
    input: UserCreateInput,
    run: async (services, input) => {
      const created = await services
        .get(AccountsService, { strict: false })
        .createUser(input.email);
      return { userId: created.userId, email: created.email };
    },
  }),
  defineCommand({
    name: 'user.list',
    description: 'List users',
    options: [],
    input: NoInput,
    run: (services) => services.get(AccountsService, { strict: false }).listUsers(),
  }),
  defineCommand({
    name: 'user.orgs',
    description: 'List the organizations a user belongs to',
    options: [{ ...user, required: true }],
    input: UserInput,
    run: async (services, input) => {
      const accounts = services.get(AccountsService, { strict: false });
      await accounts.requireUser(input.userId);
      return accounts.orgsOfUser(input.userId);
    },
  }),
  defineCommand({
    name: 'member.add',
    description: 'Add a user to an organization (or change their role)',
    options: [
      { ...org, required: true },
      { ...user, required: true },
      { flags: '--role <role>', field: 'role', description: 'owner, admin or member (default)' },
    ],
    input: MemberAddInput,
    run: (services, input) =>
      services
        .get(AccountsService, { strict: false })
        .addMember(input.orgId, input.userId, input.role),
  }),
  defineCommand({
    name: 'account-key.create',
    description: 'Create a personal account API key; prints {"keyId","secret"} (shown once)',
    options: [
      { ...user, required: true },
      { ...org, description: 'default organization of the key (the user must belong to it)' },
      { flags: '--name <name>', field: 'name', description: 'label' },
    ],
    input: AccountKeyCreateInput,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createAccountKey(input.userId, { defaultOrgId: input.orgId, name: input.name }),
  }),
  defineCommand({
    name: 'account-key.list',
    description: 'List the account API keys of a user (no secrets)',
    options: [{ ...user, required: true }],
    input: UserInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireUser(input.userId);
      return services.get(ApiKeyService, { strict: false }).listAccountKeys(input.userId);
    },
  }),
  defineCommand({
    name: 'account-key.revoke',
    description: 'Revoke an account API key of a user',
    options: [
      { ...user, required: true },
      { flags: '--key <keyId>', field: 'keyId', description: 'key id (ak_...)', required: true },
    ],
    input: AccountKeyRevokeInput,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeAccountKey(input.userId, input.keyId),
  }),
  defineCommand({
    name: 'processing-key.create',
    description: 'Create a processing API key for an organization; prints {"keyId","secret"}',
    options: [
      { ...org, required: true },
      { flags: '--name <name>', field: 'name', description: 'label' },
    ],
    input: ProcessingKeyCreateInput,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createProcessingKey(input.orgId, { name: input.name }),
  }),
  defineCommand({
    name: 'processing-key.list',
    description: 'List the processing API keys of an organization (no secrets)',
    options: [{ ...org, required: true }],
    input: OrgInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(ApiKeyService, { strict: false }).listProcessingKeys(input.orgId);
    },
  }),
  defineCommand({
    name: 'processing-key.revoke',
    description: 'Revoke a processing API key',
    options: [
      { ...org, required: true },
      { flags: '--key <keyId>', field: 'keyId', description: 'key id (pk_...)', required: true },
    ],
    input: ProcessingKeyRevokeInput,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeProcessingKey(input.orgId, input.keyId),
  }),
  defineCommand({
    name: 'metadata-key.enable',
    description:
      'Enable an async-metadata key for usage grouping; refused when its values look like per-request identifiers',
    options: [
      { ...org, required: true },
      { flags: '--key <key>', field: 'key', description: 'metadata key', required: true },
    ],
    input: MetadataKeyInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).enable(input.orgId, input.key);
    },
  }),
  defineCommand({
    name: 'metadata-key.list',
    description: 'List the metadata keys of an organization: enabled, observed, rejected',
    options: [{ ...org, required: true }],
    input: OrgInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).list(input.orgId);
    },
  }),
  defineCommand({
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
    ],
    input: FileInput,
    run: (services, input) =>
      services.get(UsageImportService, { strict: false }).importFile(input.file),
  }),
  defineCommand({
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
    input: FileInput,
    run: (services, input) =>
      services.get(UsagePublishService, { strict: false }).publishFile(input.file),
  }),
];
