/**
 * The operationId of every operation of `/openapi.json`, by method and path: the name a
 * generated client gives the call. Kept here, not derived from controller and method names,
 * so renaming a class or moving a route between controllers does not rename a client's
 * method. Names follow the reductoai SDK where it has the call (`classify`, `parse`,
 * `getJob`, `cancelJob`, `runWebhook` for `client.webhook.run()`).
 */
import type { OpenAPIObject } from '@nestjs/swagger';

const OPERATION_IDS: Readonly<Record<string, string>> = {
  'POST /classify': 'classify',
  'POST /classify_async': 'classifyAsync',
  'POST /parse': 'parse',
  'POST /parse_async': 'parseAsync',
  'POST /extract': 'extract',
  'POST /extract_async': 'extractAsync',
  'POST /split': 'split',
  'POST /split_async': 'splitAsync',
  'POST /edit': 'edit',
  'POST /edit_async': 'editAsync',
  'POST /pipeline': 'pipeline',
  'POST /pipeline_async': 'pipelineAsync',
  'POST /pipelines': 'createPipeline',
  'GET /pipelines': 'listPipelines',
  'GET /pipelines/{pipeline_id}': 'getPipeline',
  'DELETE /pipelines/{pipeline_id}': 'deletePipeline',
  'POST /upload': 'upload',
  'PUT /upload/{fileId}': 'presignedUpload',
  'DELETE /upload/{fileId}': 'deleteUpload',
  'GET /job/{job_id}': 'getJob',
  'DELETE /job/{job_id}': 'deleteJob',
  'GET /job/{job_id}/result': 'getJobResult',
  'GET /job/{job_id}/document': 'getJobDocument',
  'GET /jobs': 'listJobs',
  'POST /cancel/{job_id}': 'cancelJob',
  'POST /configure_webhook': 'runWebhook',
  'POST /webhooks/endpoints': 'createWebhookEndpoint',
  'GET /webhooks/endpoints': 'listWebhookEndpoints',
  'DELETE /webhooks/endpoints/{endpoint_id}': 'deleteWebhookEndpoint',
  'GET /webhooks/secret': 'getWebhookSecret',
  'GET /webhooks/deliveries': 'listWebhookDeliveries',
  'GET /version': 'apiVersion',
  'GET /versions': 'listVersions',
  'GET /api/v1/orgs': 'listOrgs',
  'POST /api/v1/orgs/{orgId}/processing-keys': 'createProcessingKey',
  'GET /api/v1/orgs/{orgId}/processing-keys': 'listProcessingKeys',
  'DELETE /api/v1/orgs/{orgId}/processing-keys/{keyId}': 'revokeProcessingKey',
  'GET /api/v1/account-keys': 'listAccountKeys',
  'POST /api/v1/account-keys': 'createAccountKey',
  'DELETE /api/v1/account-keys/{keyId}': 'revokeAccountKey',
  'GET /api/v1/usage/export': 'exportUsage',
  'GET /api/v1/orgs/{orgId}/metadata-keys': 'listMetadataKeys',
  'POST /api/v1/orgs/{orgId}/metadata-keys': 'enableMetadataKey',
  'DELETE /api/v1/orgs/{orgId}/metadata-keys/{key}': 'disableMetadataKey',
  'DELETE /api/v1/orgs/{orgId}/metadata-keys/{key}/tracking': 'deleteMetadataKeyTracking',
  'GET /api/v1/orgs/{orgId}/alerts': 'listUsageAlerts',
  'POST /api/v1/orgs/{orgId}/alerts': 'createUsageAlert',
  'DELETE /api/v1/orgs/{orgId}/alerts/{alertId}': 'deleteUsageAlert',
  'GET /api/v1/orgs/{orgId}/fired-alerts': 'listFiredUsageAlerts',
  'GET /api/v1/orgs/{orgId}/revised-days': 'listRevisedUsageDays',
  'GET /health': 'health',
  'GET /ready': 'ready',
  'GET /metrics': 'metrics',
  'GET /queue_metrics': 'queueMetrics',
  'GET /drain_status': 'drainStatus',
  'GET /rollout': 'rolloutReport',
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Sets each operation's id from OPERATION_IDS; an operation missing from the table is an
 * error, so a new route cannot ship with Nest's `Controller_method` default.
 */
export function applyOperationIds(paths: OpenAPIObject['paths']): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const id = OPERATION_IDS[key];
      if (!id) throw new Error(`No operationId for ${key} in operation-ids.ts`);
      operation.operationId = id;
    }
  }
}
