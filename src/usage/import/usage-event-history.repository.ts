import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/** One stored event as the DuckDB store keeps it (the source of truth of its rollups). */
export interface StoredUsageEvent {
  source: string;
  event_id: string;
  org_id: string;
  event_time: string;
  product: string;
  feature: string;
  api_key_id: string;
  file_type: string;
  pages: number;
  credits: string;
  job_id: string | null;
  is_async: boolean;
  metadata_json: string | null;
  version: number;
}

/** Reads the DuckDB store's events table whole, for moving a store to another engine. */
@Injectable()
export class UsageEventHistoryRepository {
  constructor(private readonly db: DuckDbService) {}

  /** Every stored event, in (day, key) order, in chunks; credits as exact decimal text. */
  events(): AsyncGenerator<StoredUsageEvent[]> {
    return this.db.stream<StoredUsageEvent>(
      `SELECT source, event_id, org_id,
              strftime(event_time AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS event_time,
              product, feature, api_key_id, file_type, pages, CAST(credits AS VARCHAR) AS credits,
              job_id, is_async, metadata_json, version
       FROM usage_events ORDER BY day, event_key`,
    );
  }

  /** Events and credits of the whole store, to check a copy against. */
  async totals(): Promise<{ events: number; credits: string }> {
    const [row] = await this.db.all<{ events: bigint; credits: string | null }>(
      'SELECT count(*) AS events, CAST(sum(credits) AS VARCHAR) AS credits FROM usage_events',
    );
    return { events: Number(row.events), credits: row.credits ?? '0' };
  }
}
