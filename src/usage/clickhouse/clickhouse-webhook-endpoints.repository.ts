import { Injectable } from '@nestjs/common';
import type { SharedWebhookEndpointStore, WebhookEndpoint } from '../webhook-endpoints.contract.js';
import { ClickHouseService } from './clickhouse.service.js';
import { deleteRevisioned, VISIBLE_WHEN_DONE } from './revisioned-rows.js';

const FIELDS = 'endpoint_id, org_id, url, channels, secret, description, created_ms';

interface EndpointRow {
  endpoint_id: string;
  org_id: string;
  url: string;
  channels: string[];
  secret: string;
  description: string | null;
  /** Epoch milliseconds (UInt64, as text). */
  created_ms: string;
}

/**
 * Hosted webhook endpoints in the ClickHouse store, read by every process
 * (docs/decisions/0425-hosted-webhook-endpoints-in-the-shared-store.md). Each read goes
 * to the server: a job's completion reads its org's endpoints once, a delivery its
 * endpoint's secret once, so an endpoint deleted through one process receives nothing
 * more from any other.
 */
@Injectable()
export class ClickHouseWebhookEndpointsRepository implements SharedWebhookEndpointStore {
  constructor(private readonly clickhouse: ClickHouseService) {}

  async insertEndpoint(endpoint: Omit<WebhookEndpoint, 'createdAt'>): Promise<void> {
    await this.insert({ ...endpoint, createdAt: new Date() }, false);
  }

  async adoptEndpoints(endpoints: readonly WebhookEndpoint[]): Promise<number> {
    let adopted = 0;
    for (const endpoint of endpoints) if (await this.insert(endpoint, true)) adopted++;
    return adopted;
  }

  /** Adds `endpoint`; `unlessKnown`: only when no row of its id exists (true when added). */
  private async insert(endpoint: WebhookEndpoint, unlessKnown: boolean): Promise<boolean> {
    const db = this.clickhouse.database;
    if (unlessKnown) {
      const [known] = await this.clickhouse.rows<{ n: string }>(
        `SELECT count() AS n FROM ${db}.webhook_endpoints WHERE endpoint_id = {endpoint:String}`,
        { endpoint: endpoint.endpointId },
      );
      if (Number(known.n) > 0) return false;
    }
    await this.clickhouse.command(
      `INSERT INTO ${db}.webhook_endpoints (${FIELDS}, revision, deleted)
       SELECT {endpoint:String}, {org:String}, {url:String}, {channels:Array(String)},
              {secret:String}, {description:Nullable(String)}, {created:UInt64}, 1, 0`,
      {
        endpoint: endpoint.endpointId,
        org: endpoint.orgId,
        url: endpoint.url,
        channels: endpoint.channels,
        secret: endpoint.secret,
        description: endpoint.description,
        created: endpoint.createdAt.getTime(),
      },
      VISIBLE_WHEN_DONE,
    );
    return true;
  }

  listEndpoints(orgId: string): Promise<WebhookEndpoint[]> {
    return this.current('org_id = {org:String}', { org: orgId });
  }

  async findEndpoint(endpointId: string): Promise<WebhookEndpoint | null> {
    const [endpoint] = await this.current('endpoint_id = {endpoint:String}', {
      endpoint: endpointId,
    });
    return endpoint ?? null;
  }

  deleteEndpoint(orgId: string, endpointId: string): Promise<boolean> {
    return deleteRevisioned(
      this.clickhouse,
      'webhook_endpoints',
      FIELDS,
      'org_id = {org:String} AND endpoint_id = {endpoint:String}',
      { org: orgId, endpoint: endpointId },
    );
  }

  /**
   * The endpoints `where` selects that are not deleted (a deletion: a second row, same
   * fields). Filtered in a subquery: ClickHouse would read the outer aliases in a WHERE.
   */
  private async current(where: string, params: Record<string, string>): Promise<WebhookEndpoint[]> {
    const rows = await this.clickhouse.rows<EndpointRow>(
      `SELECT endpoint_id, any(org_id) AS org_id, any(url) AS url, any(channels) AS channels,
              any(secret) AS secret, any(description) AS description,
              toString(any(created_ms)) AS created_ms
       FROM (SELECT * FROM ${this.clickhouse.database}.webhook_endpoints WHERE ${where})
       GROUP BY endpoint_id
       HAVING max(deleted) = 0
       ORDER BY created_ms, endpoint_id`,
      params,
    );
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      orgId: row.org_id,
      url: row.url,
      channels: row.channels,
      secret: row.secret,
      description: row.description,
      createdAt: new Date(Number(row.created_ms)),
    }));
  }
}
