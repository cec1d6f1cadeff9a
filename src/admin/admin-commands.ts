import { AccountsService } from '../accounts/accounts.service.js';
import { ApiKeyService } from '../accounts/keys/api-key.service.js';
import { MetadataKeyService } from '../usage/metadata/metadata-key.service.js';
import { HttpStatus } from '../common/nest-decorators.js';
import { ApiError } from '../common/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { AdminCommand, type AdminCommandHandler, defineHandler } from './admin-command.js';
import { ADMIN_COMMAND_SPECS, type AdminCommandName } from './admin-command-specs.js';
import {
  ACCOUNT_KEY_CREATE_INPUT,
  ACCOUNT_KEY_REVOKE_INPUT,
  BACKFILL_INPUT,
  FILE_INPUT,
  USAGE_IMPORT_INPUT,
  MEMBER_ADD_INPUT,
  METADATA_KEY_INPUT,
  NO_INPUT,
  ORG_CREATE_INPUT,
  ORG_INPUT,
  PROCESSING_KEY_CREATE_INPUT,
  PROCESSING_KEY_REVOKE_INPUT,
  USER_CREATE_INPUT,
  USER_INPUT,
} from './admin-command.inputs.js';

/**
 * What each admin command does: its input rules and its service call. Adding a command is an
 * entry in ADMIN_COMMAND_SPECS and one here; it is then a `docproc-admin` sub-command and
 * an admin HTTP command at once. Its service must also be reachable from `AdminContextModule`
 * and, unless the command is marked `usagePlane`, from `AdminAccountsContext`.
 */
const HANDLERS: { [Name in AdminCommandName]: AdminCommandHandler } = {
  'org.create': defineHandler({
    input: ORG_CREATE_INPUT,
    run: async (services, input) => {
      const created = await services.get(AccountsService, { strict: false }).createOrg(input.name);
      return { orgId: created.orgId, name: created.name };
    },
  }),
  'org.list': defineHandler({
    input: NO_INPUT,
    run: (services) => services.get(AccountsService, { strict: false }).listOrgs(),
  }),
  'user.create': defineHandler({
    input: USER_CREATE_INPUT,
    run: async (services, input) => {
      const created = await services
        .get(AccountsService, { strict: false })
        .createUser(input.email);
      return { userId: created.userId, email: created.email };
    },
  }),
  'user.list': defineHandler({
    input: NO_INPUT,
    run: (services) => services.get(AccountsService, { strict: false }).listUsers(),
  }),
  'user.orgs': defineHandler({
    input: USER_INPUT,
    run: async (services, input) => {
      const accounts = services.get(AccountsService, { strict: false });
      await accounts.requireUser(input.userId);
      return accounts.orgsOfUser(input.userId);
    },
  }),
  'member.add': defineHandler({
    input: MEMBER_ADD_INPUT,
    run: (services, input) =>
      services
        .get(AccountsService, { strict: false })
        .addMember(input.orgId, input.userId, input.role),
  }),
  'account-key.create': defineHandler({
    input: ACCOUNT_KEY_CREATE_INPUT,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createAccountKey(input.userId, { defaultOrgId: input.orgId, name: input.name }),
  }),
  'account-key.list': defineHandler({
    input: USER_INPUT,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireUser(input.userId);
      return services.get(ApiKeyService, { strict: false }).listAccountKeys(input.userId);
    },
  }),
  'account-key.revoke': defineHandler({
    input: ACCOUNT_KEY_REVOKE_INPUT,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeAccountKey(input.userId, input.keyId),
  }),
  'processing-key.create': defineHandler({
    input: PROCESSING_KEY_CREATE_INPUT,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createProcessingKey(input.orgId, { name: input.name }),
  }),
  'processing-key.list': defineHandler({
    input: ORG_INPUT,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(ApiKeyService, { strict: false }).listProcessingKeys(input.orgId);
    },
  }),
  'processing-key.revoke': defineHandler({
    input: PROCESSING_KEY_REVOKE_INPUT,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeProcessingKey(input.orgId, input.keyId),
  }),
  'metadata-key.enable': defineHandler({
    input: METADATA_KEY_INPUT,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).enable(input.orgId, input.key);
    },
  }),
  'metadata-key.delete-tracking': defineHandler({
    input: METADATA_KEY_INPUT,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      await services
        .get(MetadataKeyService, { strict: false })
        .deleteTracking(input.orgId, input.key);
      return { orgId: input.orgId, key: input.key, trackingDeleted: true };
    },
  }),
  'metadata-key.list': defineHandler({
    input: ORG_INPUT,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).list(input.orgId);
    },
  }),
  // The usage plane's services are imported when their command runs: loading them (the
  // ingestion code, kafkajs) would cost every other command of docproc-admin its time.
  'usage.import': defineHandler({
    input: USAGE_IMPORT_INPUT,
    usagePlane: true,
    run: async (services, input) => {
      const { UsageImportService } = await import('../usage/import/usage-import.service.js');
      return services
        .get(UsageImportService, { strict: false })
        .importFile(input.file, input.allowLate === true);
    },
  }),
  'usage.publish': defineHandler({
    input: FILE_INPUT,
    usagePlane: true,
    run: async (services, input) => {
      // Refused before the file is read: without brokers there is nowhere to publish to.
      if (services.get<AppConfig>(APP_CONFIG, { strict: false }).kafka === null) {
        throw new ApiError(
          HttpStatus.CONFLICT,
          'KAFKA_NOT_CONFIGURED',
          'KAFKA_BROKERS is not set for the process running the publish; a running server publishes with its own settings (docs/operations.md)',
        );
      }
      const { UsagePublishService } =
        await import('../usage/ingestion/kafka/usage-publish.service.js');
      return services.get(UsagePublishService, { strict: false }).publishFile(input.file);
    },
  }),
  'usage.backfill': defineHandler({
    input: BACKFILL_INPUT,
    usagePlane: true,
    run: async (services) => {
      // The process that runs the command backfills with its own settings: a running server
      // takes it over the admin endpoint, and the CLI's CLICKHOUSE_URL never reaches it.
      if (
        services.get<AppConfig>(APP_CONFIG, { strict: false }).usage.store.clickhouseUrl === null
      ) {
        throw new ApiError(
          HttpStatus.CONFLICT,
          'CLICKHOUSE_NOT_CONFIGURED',
          'CLICKHOUSE_URL is not set for the process running the backfill; a running server runs it with its own settings, so stop the server and run the backfill with CLICKHOUSE_URL set (docs/operations.md)',
        );
      }
      const { UsageBackfillService } = await import('../usage/import/usage-backfill.service.js');
      return services.get(UsageBackfillService, { strict: false }).toClickHouse();
    },
  }),
};

export const ADMIN_COMMANDS: AdminCommand[] = ADMIN_COMMAND_SPECS.map((spec) => ({
  ...spec,
  options: [...spec.options],
  ...HANDLERS[spec.name],
}));

const BY_NAME = new Map(ADMIN_COMMANDS.map((command) => [command.name, command]));

/** The admin command of this name; 404 `UNKNOWN_COMMAND` when there is none. */
export function findAdminCommand(name: string): AdminCommand {
  const command = BY_NAME.get(name);
  if (!command) throw ApiError.notFound('UNKNOWN_COMMAND', `No admin command "${name}"`);
  return command;
}
