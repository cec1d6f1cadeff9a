import { Injectable } from '@nestjs/common';
import { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { PageCursor } from '../core/list-page.js';
import type {
  WebhookEndpoint,
  WebhookEndpointStore,
} from '../../usage/webhook-endpoints.contract.js';

type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface WebhookDelivery {
  deliveryId: string;
  orgId: string;
  jobId: string;
  mode: 'direct' | 'hosted';
  endpointId: string | null;
  url: string;
  messageId: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export interface WebhookAttempt {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface EndpointRow {
  endpoint_id: string;
  org_id: string;
  url: string;
  channels: string;
  secret: string;
  description: string | null;
  created_at: Date;
}

interface DeliveryRow {
  delivery_id: string;
  org_id: string;
  job_id: string;
  mode: string;
  endpoint_id: string | null;
  url: string;
  message_id: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

const ENDPOINT_COLUMNS = `endpoint_id, org_id, url, CAST(channels AS VARCHAR) AS channels, secret, description, created_at`;
const DELIVERY_COLUMNS = `delivery_id, org_id, job_id, mode, endpoint_id, url, message_id,
  CAST(payload AS VARCHAR) AS payload, status, attempts, next_attempt_at, last_status_code, last_error,
  created_at, delivered_at`;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    endpointId: row.endpoint_id,
    orgId: row.org_id,
    url: row.url,
    channels: JSON.parse(row.channels) as string[],
    secret: row.secret,
    description: row.description,
    createdAt: row.created_at,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    deliveryId: row.delivery_id,
    orgId: row.org_id,
    jobId: row.job_id,
    mode: row.mode as WebhookDelivery['mode'],
    endpointId: row.endpoint_id,
    url: row.url,
    messageId: row.message_id,
    payload: row.payload,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

@Injectable()
export class WebhooksRepository implements WebhookEndpointStore {
  constructor(private readonly db: DuckDbService) {}

  async insertEndpoint(endpoint: Omit<WebhookEndpoint, 'createdAt'>): Promise<void> {
    await this.db.run(
      `INSERT INTO webhook_endpoints (endpoint_id, org_id, url, channels, secret, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())`,
      [
        endpoint.endpointId,
        endpoint.orgId,
        endpoint.url,
        JSON.stringify(endpoint.channels),
        endpoint.secret,
        endpoint.description,
      ],
    );
  }

  async listEndpoints(orgId: string, tx?: Transaction): Promise<WebhookEndpoint[]> {
    const sql = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 ORDER BY created_at, endpoint_id`;
    const rows = tx
      ? await tx.all<EndpointRow>(sql, [orgId])
      : await this.db.all<EndpointRow>(sql, [orgId]);
    return rows.map(toEndpoint);
  }

  /** Every org's endpoints: what this file kept before the shared store took them over. */
  async allEndpoints(): Promise<WebhookEndpoint[]> {
    const rows = await this.db.all<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, endpoint_id`,
    );
    return rows.map(toEndpoint);
  }

  async findEndpoint(endpointId: string): Promise<WebhookEndpoint | null> {
    const rows = await this.db.all<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = $1`,
      [endpointId],
    );
    return rows.length ? toEndpoint(rows[0]) : null;
  }

  async deleteEndpoint(orgId: string, endpointId: string): Promise<boolean> {
    const rows = await this.db.transaction((tx) =>
      tx.all(
        `DELETE FROM webhook_endpoints WHERE org_id = $1 AND endpoint_id = $2 RETURNING endpoint_id`,
        [orgId, endpointId],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The org's signing secret, created with `candidate` on first use. Read first: every
   * delivery asks, and the insert would wait its turn on the shared writer connection.
   */
  async orgSecret(orgId: string, candidate: string): Promise<string> {
    const select = `SELECT secret FROM webhook_org_secrets WHERE org_id = $1`;
    const existing = await this.db.all<{ secret: string }>(select, [orgId]);
    if (existing.length) return existing[0].secret;
    await this.db.run(
      `INSERT INTO webhook_org_secrets (org_id, secret, created_at) VALUES ($1, $2, now())
       ON CONFLICT (org_id) DO NOTHING`,
      [orgId, candidate],
    );
    return (await this.db.all<{ secret: string }>(select, [orgId]))[0].secret;
  }

  async insertDelivery(
    tx: Transaction,
    d: Pick<
      WebhookDelivery,
      | 'deliveryId'
      | 'orgId'
      | 'jobId'
      | 'mode'
      | 'endpointId'
      | 'url'
      | 'messageId'
      | 'payload'
      | 'status'
      | 'lastError'
    >,
  ): Promise<void> {
    await tx.run(
      `INSERT INTO webhook_deliveries (delivery_id, org_id, job_id, mode, endpoint_id, url, message_id,
         payload, status, last_error, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $9 = 'pending' THEN now() END, now())`,
      [
        d.deliveryId,
        d.orgId,
        d.jobId,
        d.mode,
        d.endpointId,
        d.url,
        d.messageId,
        d.payload,
        d.status,
        d.lastError,
      ],
    );
  }

  /**
   * Pending deliveries with no queued or running `kind` task in the database queue: what a
   * crash between a job's outcome commit and the queuing of its deliveries leaves behind.
   */
  async pendingWithoutTask(kind: string): Promise<string[]> {
    const rows = await this.db.all<{ delivery_id: string }>(
      `SELECT d.delivery_id FROM webhook_deliveries d
       WHERE d.status = 'pending' AND NOT EXISTS (
         SELECT 1 FROM queue_tasks t
         WHERE t.kind = $1 AND t.state IN ('queued', 'running')
           AND json_extract_string(t.payload, '$.deliveryId') = d.delivery_id)
       ORDER BY d.created_at`,
      [kind],
    );
    return rows.map((r) => r.delivery_id);
  }

  async findDelivery(deliveryId: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE delivery_id = $1`,
      [deliveryId],
    );
    return rows.length ? toDelivery(rows[0]) : null;
  }

  /**
   * Up to `limit` deliveries of the organization (of one job when `jobId`), newest first,
   * after `after`: the page before ended there.
   */
  async listDeliveries(
    orgId: string,
    jobId: string | null,
    limit: number,
    after: PageCursor | null,
  ): Promise<(WebhookDelivery & { createdAtMicros: bigint })[]> {
    const rows = await this.db.all<DeliveryRow & { created_us: bigint }>(
      `SELECT ${DELIVERY_COLUMNS}, epoch_us(created_at) AS created_us FROM webhook_deliveries
       WHERE org_id = $1 AND ($2 = '' OR job_id = $2)
         AND (CAST($3 AS BIGINT) IS NULL OR epoch_us(created_at) < CAST($3 AS BIGINT)
           OR (epoch_us(created_at) = CAST($3 AS BIGINT) AND delivery_id < $4))
       ORDER BY created_at DESC, delivery_id DESC LIMIT $5`,
      [orgId, jobId ?? '', after ? after.createdAtMicros.toString() : null, after?.id ?? '', limit],
    );
    return rows.map((row) => ({ ...toDelivery(row), createdAtMicros: BigInt(row.created_us) }));
  }

  async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
    const byDelivery = new Map<string, WebhookAttempt[]>();
    if (!deliveryIds.length) return byDelivery;
    const rows = await this.db.all<{
      delivery_id: string;
      attempt: number;
      attempted_at: Date;
      status_code: number | null;
      error: string | null;
      duration_ms: number;
    }>(
      `SELECT delivery_id, attempt, attempted_at, status_code, error, duration_ms FROM webhook_attempts
       WHERE delivery_id IN (SELECT unnest(CAST($1 AS VARCHAR[]))) ORDER BY delivery_id, attempt`,
      [JSON.stringify(deliveryIds)],
    );
    for (const row of rows) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push({
        attempt: Number(row.attempt),
        attemptedAt: row.attempted_at,
        statusCode: row.status_code === null ? null : Number(row.status_code),
        error: row.error,
        durationMs: Number(row.duration_ms),
      });
      byDelivery.set(row.delivery_id, list);
    }
    return byDelivery;
  }

  /** Records one attempt and the delivery's new state, in the caller's transaction. */
  async recordAttempt(
    tx: Transaction,
    deliveryId: string,
    attempt: WebhookAttempt,
    status: DeliveryStatus,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await tx.run(
      `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms)
       VALUES ($1, $2, CAST($3 AS TIMESTAMPTZ), $4, $5, $6)`,
      [
        deliveryId,
        attempt.attempt,
        attempt.attemptedAt.toISOString(),
        attempt.statusCode,
        attempt.error,
        attempt.durationMs,
      ],
    );
    await tx.run(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, last_status_code = $4, last_error = $5,
         next_attempt_at = CAST($6 AS TIMESTAMPTZ),
         delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END
       WHERE delivery_id = $1`,
      [
        deliveryId,
        status,
        attempt.attempt,
        attempt.statusCode,
        attempt.error,
        nextAttemptAt?.toISOString() ?? null,
      ],
    );
  }
}
