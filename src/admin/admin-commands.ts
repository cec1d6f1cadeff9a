import { AccountsService } from '../accounts/accounts.service.js';
import { UsagePublishService } from '../usage/ingestion/kafka/usage-publish.service.js';
import { ApiKeyService } from '../accounts/keys/api-key.service.js';
import { MetadataKeyService } from '../usage/metadata/metadata-key.service.js';
import { UsageImportService } from '../usage/import/usage-import.service.js';
import { AdminCommand, type AdminCommandHandler, defineHandler } from './admin-command.js';
import { ADMIN_COMMAND_SPECS, type AdminCommandName } from './admin-command-specs.js';
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

/**
 * What each admin command does: its input DTO and its service call. Adding a command is an
 * entry in ADMIN_COMMAND_SPECS and one here; it is then a `docproc-admin` sub-command and
 * an admin HTTP command at once. Its service must also be reachable from `AdminContextModule`.
 */
const HANDLERS: { [Name in AdminCommandName]: AdminCommandHandler } = {
  'org.create': defineHandler({
    input: OrgCreateInput,
    run: async (services, input) => {
      const created = await services.get(AccountsService, { strict: false }).createOrg(input.name);
      return { orgId: created.orgId, name: created.name };
    },
  }),
  'org.list': defineHandler({
    input: NoInput,
    run: (services) => services.get(AccountsService, { strict: false }).listOrgs(),
  }),
  'user.create': defineHandler({
    input: UserCreateInput,
    run: async (services, input) => {
      const created = await services
        .get(AccountsService, { strict: false })
        .createUser(input.email);
      return { userId: created.userId, email: created.email };
    },
  }),
  'user.list': defineHandler({
    input: NoInput,
    run: (services) => services.get(AccountsService, { strict: false }).listUsers(),
  }),
  'user.orgs': defineHandler({
    input: UserInput,
    run: async (services, input) => {
      const accounts = services.get(AccountsService, { strict: false });
      await accounts.requireUser(input.userId);
      return accounts.orgsOfUser(input.userId);
    },
  }),
  'member.add': defineHandler({
    input: MemberAddInput,
    run: (services, input) =>
      services
        .get(AccountsService, { strict: false })
        .addMember(input.orgId, input.userId, input.role),
  }),
  'account-key.create': defineHandler({
    input: AccountKeyCreateInput,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createAccountKey(input.userId, { defaultOrgId: input.orgId, name: input.name }),
  }),
  'account-key.list': defineHandler({
    input: UserInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireUser(input.userId);
      return services.get(ApiKeyService, { strict: false }).listAccountKeys(input.userId);
    },
  }),
  'account-key.revoke': defineHandler({
    input: AccountKeyRevokeInput,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeAccountKey(input.userId, input.keyId),
  }),
  'processing-key.create': defineHandler({
    input: ProcessingKeyCreateInput,
    run: (services, input) =>
      services
        .get(ApiKeyService, { strict: false })
        .createProcessingKey(input.orgId, { name: input.name }),
  }),
  'processing-key.list': defineHandler({
    input: OrgInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(ApiKeyService, { strict: false }).listProcessingKeys(input.orgId);
    },
  }),
  'processing-key.revoke': defineHandler({
    input: ProcessingKeyRevokeInput,
    run: (services, input) =>
      services.get(ApiKeyService, { strict: false }).revokeProcessingKey(input.orgId, input.keyId),
  }),
  'metadata-key.enable': defineHandler({
    input: MetadataKeyInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).enable(input.orgId, input.key);
    },
  }),
  'metadata-key.list': defineHandler({
    input: OrgInput,
    run: async (services, input) => {
      await services.get(AccountsService, { strict: false }).requireOrg(input.orgId);
      return services.get(MetadataKeyService, { strict: false }).list(input.orgId);
    },
  }),
  'usage.import': defineHandler({
    input: FileInput,
    run: (services, input) =>
      services.get(UsageImportService, { strict: false }).importFile(input.file),
  }),
  'usage.publish': defineHandler({
    input: FileInput,
    run: (services, input) =>
      services.get(UsagePublishService, { strict: false }).publishFile(input.file),
  }),
};

export const ADMIN_COMMANDS: AdminCommand[] = ADMIN_COMMAND_SPECS.map((spec) => ({
  ...spec,
  options: [...spec.options],
  ...HANDLERS[spec.name],
}));
