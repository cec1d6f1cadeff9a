import { Injectable } from '@nestjs/common';
import { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { UsageCloudEvent } from '../../usage/usage-event.js';

@Injectable()
export class UsageOutboxRepository {
  constructor(private readonly db: DuckDbService) {}

  /** Credits for `pages` pages from the price table, as an exact decimal string. */
  async credits(tx: Transaction, product: string, feature: string, pages: number): Promise<string> {
    const rows = await tx.all<{ credits: string }>(
      `SELECT CAST(CAST(credits_per_page * CAST($3 AS BIGINT) AS DECIMAL(18, 6)) AS VARCHAR) AS credits
       FROM price_table WHERE product = $1 AND feature = $2`,
      [product, feature, pages],
    );
    if (!rows.length) throw new Error(`no price for ${product}/${feature}`);
    return rows[0].credits;
  }

  /**
   * Several charges under one product: each one's credits and their sum, as exact decimal
   * strings (the sum is computed in DECIMAL, so it equals the parts to the last digit).
   */
  async creditsOfCharges(
    tx: Transaction,
    product: string,
    charges: readonly { feature: string; pages: number }[],
  ): Promise<{ total: string; each: string[] }> {
    const rows = await tx.all<{ credits: string | null; total: string | null }>(
      `SELECT CAST(CAST(p.credits_per_page * c.pages AS DECIMAL(18, 6)) AS VARCHAR) AS credits,
              CAST(CAST(SUM(p.credits_per_page * c.pages) OVER () AS DECIMAL(18, 6)) AS VARCHAR) AS total
       FROM (SELECT unnest(CAST($2 AS VARCHAR[])) AS feature,
                    unnest(CAST($3 AS BIGINT[])) AS pages,
                    unnest(CAST($4 AS INTEGER[])) AS position) AS c
       LEFT JOIN price_table AS p ON p.product = $1 AND p.feature = c.feature
       ORDER BY c.position`,
      [
        product,
        JSON.stringify(charges.map((c) => c.feature)),
        JSON.stringify(charges.map((c) => c.pages)),
        JSON.stringify(charges.map((_, position) => position)),
      ],
    );
    if (rows.length !== charges.length || rows.some((row) => row.credits === null)) {
      throw new Error(`no price for one of ${product}/${charges.map((c) => c.feature).join(',')}`);
    }
    return { total: rows[0]?.total ?? '0.000000', each: rows.map((row) => row.credits!) };
  }

  async insert(tx: Transaction, event: UsageCloudEvent): Promise<void> {
    await tx.run(
      `INSERT INTO usage_outbox (event_id, job_id, org_id, event, created_at) VALUES ($1, $2, $3, $4, now())`,
      [event.id, event.data.jobId ?? '', event.data.orgId, JSON.stringify(event)],
    );
  }

  async unsent(limit: number): Promise<UsageCloudEvent[]> {
    const rows = await this.db.all<{ event: string }>(
      `SELECT CAST(event AS VARCHAR) AS event FROM usage_outbox WHERE sent_at IS NULL
       ORDER BY created_at, event_id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => JSON.parse(r.event) as UsageCloudEvent);
  }

  async markSent(eventIds: string[]): Promise<void> {
    if (!eventIds.length) return;
    await this.db.run(
      `UPDATE usage_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL
       WHERE event_id IN (SELECT unnest(CAST($1 AS VARCHAR[])))`,
      [JSON.stringify(eventIds)],
    );
  }

  async markFailed(eventIds: string[], error: string): Promise<void> {
    if (!eventIds.length) return;
    await this.db.run(
      `UPDATE usage_outbox SET attempts = attempts + 1, last_error = $2
       WHERE event_id IN (SELECT unnest(CAST($1 AS VARCHAR[])))`,
      [JSON.stringify(eventIds), error.slice(0, 1000)],
    );
  }

  /** Unsent events and the age of the oldest one (seconds; 0 when none). */
  async backlogStats(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const rows = await this.db.all<{ n: bigint; age: number | null }>(
      `SELECT count(*) AS n,
         CAST(epoch(now()) - epoch(min(created_at)) AS DOUBLE) AS age
       FROM usage_outbox WHERE sent_at IS NULL`,
    );
    return { count: Number(rows[0].n), oldestAgeSeconds: Math.max(0, rows[0].age ?? 0) };
  }

  async backlog(): Promise<number> {
    const rows = await this.db.all<{ n: bigint }>(
      `SELECT count(*) AS n FROM usage_outbox WHERE sent_at IS NULL`,
    );
    return Number(rows[0].n);
  }
}
