import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { AccountsService } from '../../accounts/accounts.service.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import { MetadataKeyService } from '../metadata/metadata-key.service.js';
import {
  USAGE_EXPORT_READER,
  type UsageExportReader,
  type UsageExportRow,
} from '../core/usage-store.ports.js';
import type { UsageExportQuery } from './usage-export.query.js';
import { type KeyedExportQuery, UsageExportCache, exportCacheKey } from './usage-export.cache.js';
import { exportJson } from './usage-export.serializer.js';
import { refreshRange, spliceDates } from './usage-export.refresh.js';
import { UsageWatermarks } from '../usage-watermarks.js';

export interface ResolvedExport {
  orgId: string;
  query: UsageExportQuery;
}

/** Rules of the usage export that need the store: whose usage, and which metadata keys. */
@Injectable()
export class UsageExportService {
  /**
   * Misses being computed, by cache key and watermark: identical requests arriving together
   * (a dashboard burst) share one DuckDB statement instead of queueing one each on the
   * reader connections. Keyed with the watermark so a request after a commit never joins
   * an answer computed before it.
   */
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly accounts: AccountsService,
    private readonly metadataKeys: MetadataKeyService,
    @Inject(USAGE_EXPORT_READER) private readonly exports: UsageExportReader,
    private readonly cache: UsageExportCache,
    private readonly watermarks: UsageWatermarks,
  ) {}

  /** Decides the organization (spec rule 10: only the caller's own) and checks the metadata key. */
  async resolve(principal: AccountPrincipal, query: UsageExportQuery): Promise<ResolvedExport> {
    const orgId = await this.resolveOrg(principal, query.orgId);
    if (query.metadataKey !== null) await this.metadataKeys.assertUsable(orgId, query.metadataKey);
    return { orgId, query };
  }

  /**
   * The org of an export whose every fact this process holds in memory: the org `resolve`
   * would pick (a requested org is the caller's to check, as the route's guard does), its
   * metadata key known usable. Undefined for anything else, which `resolve` decides (store
   * reads and refusals included).
   */
  knownOrg(principal: AccountPrincipal, query: UsageExportQuery): string | undefined {
    const orgId = query.orgId ?? this.knownDefaultOrg(principal);
    if (orgId === undefined) return undefined;
    if (query.metadataKey !== null && !this.metadataKeys.knownUsable(orgId, query.metadataKey)) {
      return undefined;
    }
    return orgId;
  }

  /**
   * The org's answer to the query as `jsonBody` would serve it from the result cache (the
   * same key, cached at the org's current watermark); undefined on a miss, which `jsonBody`
   * computes.
   */
  cachedJsonBody(orgId: string, keyed: KeyedExportQuery): Buffer | undefined {
    return this.cache.get(keyed.cacheKey(orgId), this.watermarks.of(orgId));
  }

  /**
   * The JSON body, UTF-8 encoded. Served from the result cache while the org's ingestion
   * watermark has not moved since it was computed; the watermark is read before the query
   * runs, so an answer that raced a commit is stored under the older watermark and never
   * served again.
   */
  async jsonBody({ orgId, query }: ResolvedExport): Promise<Buffer> {
    const key = exportCacheKey(orgId, query);
    const watermark = this.watermarks.of(orgId);
    const cached = this.cache.get(key, watermark);
    if (cached !== undefined) return cached;
    const flightKey = `${watermark}\u0000${key}`;
    const pending = this.inFlight.get(flightKey);
    if (pending) return pending;
    const computed = this.compute(orgId, query, key, watermark);
    this.inFlight.set(flightKey, computed);
    try {
      return await computed;
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  private async compute(
    orgId: string,
    query: UsageExportQuery,
    key: string,
    watermark: string,
  ): Promise<Buffer> {
    const body = Buffer.from(exportJson(orgId, query, await this.currentData(orgId, query, key)));
    this.cache.set(key, watermark, body);
    return body;
  }

  /**
   * The `data` text as the store holds it now. An answer cached at an older watermark is
   * brought up to date when the UTC days changed since are known and few: only the local
   * dates they touch are read again (a year's export after today's usage reads about a
   * day). The rows kept are of dates nothing changed since; a commit racing this read has
   * a later watermark, so its days are read again by the next request.
   */
  private async currentData(orgId: string, query: UsageExportQuery, key: string): Promise<string> {
    const cached = this.cache.peek(key);
    const changed = cached && this.watermarks.changedSince(orgId, cached.watermark);
    if (cached && changed) {
      const range = refreshRange(query, changed);
      // The body is `<fields>"data":[<data>]}`; its fields are the same for this key.
      const dataStart = Buffer.byteLength(exportJson(orgId, query, '')) - 2;
      const data = cached.body.toString('utf8', dataStart, cached.body.length - 2);
      if (range === null) return data;
      if (range !== 'whole') {
        const fresh = await this.exports.jsonData(
          { ...query, startDate: range.from, endDate: range.to },
          orgId,
        );
        const spliced = spliceDates(data, range, fresh);
        if (spliced !== null) return spliced;
      }
    }
    return this.exports.jsonData(query, orgId);
  }

  stream({ orgId, query }: ResolvedExport): AsyncGenerator<UsageExportRow[]> {
    return this.exports.stream(query, orgId);
  }

  /** `resolveOrg`'s first choice, the key's default org, when its membership is in memory. */
  private knownDefaultOrg(principal: AccountPrincipal): string | undefined {
    const orgId = principal.defaultOrgId;
    return orgId !== null && this.accounts.knownRoleOf(principal.userId, orgId) !== undefined
      ? orgId
      : undefined;
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
