import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { UsageExportQuery } from './usage-export.query.js';

/**
 * A cached body, encoded once (UTF-8), and the org's watermark it was computed at. A
 * repeated answer sends these bytes as they are: a string body was encoded into a new copy
 * on every send (the young generation's collections then ran every few hundred cached
 * answers, each a stall of a millisecond or more in a sub-millisecond answer's tail).
 */
export interface CachedExport {
  readonly watermark: string;
  readonly body: Buffer;
}

/**
 * Export bodies by (org, normalized query), valid while the org's ingestion watermark is
 * the one they were computed at (`UsageWatermarks`): dashboards repeat the same queries,
 * and a repeated answer is a map lookup instead of a DuckDB statement. Bounded by
 * `USAGE_EXPORT_CACHE_MB` of encoded bodies (0 turns it off); least recently used goes first.
 * Checks that depend on the caller (membership, metadata keys) run before the lookup. An
 * entry of an older watermark stays until replaced: the service brings it up to date.
 */
@Injectable()
export class UsageExportCache {
  private readonly entries = new Map<string, CachedExport>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.maxBytes = config.usage.exportCacheBytes;
  }

  /** The cached body when it was computed at `watermark`. */
  get(key: string, watermark: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.watermark !== watermark) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** The entry of the key whatever its watermark (its recency unchanged). */
  peek(key: string): CachedExport | undefined {
    return this.entries.get(key);
  }

  set(key: string, watermark: string, body: Buffer): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    if (body.length > this.maxBytes / 8) return;
    this.entries.set(key, { watermark, body });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The cache key: the org and every parameter that shapes the answer, dates already
 * resolved (a default `endDate` is today's date, so the key moves with the day). Filter
 * lists are sets, so their order does not matter.
 */
export function exportCacheKey(orgId: string, q: UsageExportQuery): string {
  const set = (values: string[]) => JSON.stringify([...new Set(values)].sort());
  return [
    orgId,
    q.startDate,
    q.endDate,
    q.groupBy,
    q.secondGroupBy ?? '',
    q.timeZone,
    q.metadataKey ?? '',
    set(q.metadataValues),
    set(q.products),
    set(q.features),
    set(q.apiKeys),
    set(q.fileTypes),
  ].join('\u0000');
}

/**
 * A parsed query and its cache key for the org it was last asked for: a repeated export of
 * the same query string reuses the key instead of building it again (filter sets sorted,
 * joined). One org is remembered, not a list: a query string names its org, or the key's
 * default org stands in, which is one org per caller.
 */
export class KeyedExportQuery {
  private lastOrgId: string | null = null;
  private lastKey = '';

  constructor(readonly query: UsageExportQuery) {}

  cacheKey(orgId: string): string {
    if (orgId !== this.lastOrgId) {
      this.lastKey = exportCacheKey(orgId, this.query);
      this.lastOrgId = orgId;
    }
    return this.lastKey;
  }
}
