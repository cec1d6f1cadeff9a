import type { AppConfig } from '../config/app-config.js';
import type { AccountsService } from './accounts.service.js';
import type { Organization } from './accounts.types.js';

/**
 * Keyless requests of an auth-disabled deployment count against the org its configuration
 * names, so that org is created on first start (of the server, or of docproc-admin on the
 * file). Null when auth is on.
 */
export async function ensureDefaultOrg(
  config: AppConfig,
  accounts: AccountsService,
): Promise<Organization | null> {
  if (!config.authDisabled || !config.defaultOrgId) return null;
  return accounts.ensureOrg(config.defaultOrgId, 'Default organization');
}
