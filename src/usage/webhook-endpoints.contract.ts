import type { Transaction } from '../database/duckdb.service.js';

/**
 * Hosted webhook endpoints kept in the shared usage store (USAGE_STORE=clickhouse), so that
 * every process of a deployment delivers a job's webhooks to the same endpoints, signed with
 * the same secrets, whichever process took the endpoint's request
 * (docs/decisions/0425-hosted-webhook-endpoints-in-the-shared-store.md). Provided as null
 * with the DuckDB store: the processing plane's own DuckDB file keeps them then. The
 * processing plane knows this store by this contract only.
 */
export interface WebhookEndpoint {
  endpointId: string;
  orgId: string;
  url: string;
  channels: string[];
  secret: string;
  description: string | null;
  createdAt: Date;
}

/** Where hosted webhook endpoints are kept: one process's DuckDB, or the shared store. */
export interface WebhookEndpointStore {
  insertEndpoint(endpoint: Omit<WebhookEndpoint, 'createdAt'>): Promise<void>;
  /**
   * The org's endpoints, oldest first. `tx`: a transaction open on this process's DuckDB file
   * (a job's completion): a store kept in that file reads through it, so the endpoints and the
   * deliveries written for them are of one snapshot; a store elsewhere has no use for it.
   */
  listEndpoints(orgId: string, tx?: Transaction): Promise<WebhookEndpoint[]>;
  findEndpoint(endpointId: string): Promise<WebhookEndpoint | null>;
  /** False when the org has no such endpoint (or it was deleted already). */
  deleteEndpoint(orgId: string, endpointId: string): Promise<boolean>;
}

/** The shared store: also takes in the endpoints a process kept before it was shared. */
export interface SharedWebhookEndpointStore extends WebhookEndpointStore {
  /**
   * Adds each of `endpoints` the store has never held (deleted ones stay deleted); the
   * number added. Processes that adopt the same endpoint at once each add the same row.
   */
  adoptEndpoints(endpoints: readonly WebhookEndpoint[]): Promise<number>;
}

/** The shared store's endpoints (a SharedWebhookEndpointStore), or null with the DuckDB store. */
export const SHARED_WEBHOOK_ENDPOINTS = Symbol('SHARED_WEBHOOK_ENDPOINTS');
