import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { AccountsService } from '../../accounts/accounts.service.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageExportRepository, UsageExportRow } from './usage-export.repository.js';
import type { UsageExportQuery } from './usage-export.query.js';

export interface ResolvedExport {
  orgId: string;
  query: UsageExportQuery;
}

/** Rules of the usage export that need the store: whose usage, and which metadata keys. */
@Injectable()
export class UsageExportService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly metadataKeys: MetadataKeyService,
    private readonly exports: UsageExportRepository,
  ) {}

  /** Decides the organization (spec rule 10: only the caller's own) and checks the metadata key. */
  async resolve(principal: AccountPrincipal, query: UsageExportQuery): Promise<ResolvedExport> {
    const orgId = await this.resolveOrg(principal, query.orgId);
    if (query.metadataKey !== null) await this.metadataKeys.assertUsable(orgId, query.metadataKey);
    return { orgId, query };
  }

  /** The `data` array of the JSON body, as JSON text. */
  jsonData({ orgId, query }: ResolvedExport): Promise<string> {
    return this.exports.jsonData(query, orgId);
  }

  stream({ orgId, query }: ResolvedExport): AsyncGenerator<UsageExportRow[]> {
    return this.exports.stream(query, orgId);
  }

  private async resolveOrg(principal: AccountPrincipal, requested: string | null): Promise<string> {
    // A requested org was checked by the route's OrgRoleGuard (the caller is a member).
    if (requested !== null) return requested;
    if (
      principal.defaultOrgId !== null &&
      (await this.accounts.isMember(principal.userId, principal.defaultOrgId))
    ) {
      return principal.defaultOrgId;
    }
    const orgs = await this.accounts.orgsOfUser(principal.userId);
    if (orgs.length === 1) return orgs[0].orgId;
    if (orgs.length === 0) {
      throw ApiError.forbidden('NO_ORGANIZATION', 'This account belongs to no organization');
    }
    throw ApiError.badRequest(
      'ORG_ID_REQUIRED',
      `This account belongs to ${orgs.length} organizations; pass orgId to choose one`,
      { parameter: 'orgId', organizations: orgs.map((o) => o.orgId) },
    );
  }
}
