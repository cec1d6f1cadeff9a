import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';

interface Link {
  /** operationId of the operation the link leads to. */
  to: string;
  parameters?: Record<string, string>;
  requestBody?: Record<string, string>;
  description: string;
}

/** An operation's successful answer, and where its values lead: create -> read -> delete. */
const LINKS: Record<string, { status: string; links: Record<string, Link> }> = {
  createProcessingKey: {
    status: '201',
    links: {
      ListProcessingKeys: {
        to: 'listProcessingKeys',
        parameters: { orgId: '$request.path.orgId' },
        description: 'The key is listed with its organization',
      },
      RevokeProcessingKey: {
        to: 'revokeProcessingKey',
        parameters: { orgId: '$request.path.orgId', keyId: '$response.body#/keyId' },
        description: 'Revoke the key just created',
      },
    },
  },
  createAccountKey: {
    status: '201',
    links: {
      RevokeAccountKey: {
        to: 'revokeAccountKey',
        parameters: { keyId: '$response.body#/keyId' },
        description: 'Revoke the account key just created',
      },
    },
  },
  enableMetadataKey: {
    status: '201',
    links: {
      ListMetadataKeys: {
        to: 'listMetadataKeys',
        parameters: { orgId: '$request.path.orgId' },
        description: 'The key is listed as enabled',
      },
      DisableMetadataKey: {
        to: 'disableMetadataKey',
        parameters: { orgId: '$request.path.orgId', key: '$response.body#/key' },
        description: 'Disable the key just enabled',
      },
    },
  },
  createUsageAlert: {
    status: '201',
    links: {
      ListUsageAlerts: {
        to: 'listUsageAlerts',
        parameters: { orgId: '$request.path.orgId' },
        description: 'The alert is listed with its organization',
      },
      DeleteUsageAlert: {
        to: 'deleteUsageAlert',
        parameters: { orgId: '$request.path.orgId', alertId: '$response.body#/alertId' },
        description: 'Delete the alert just created',
      },
    },
  },
  listOrgs: {
    status: '200',
    links: {
      CreateUsageAlertInFirstOrg: {
        to: 'createUsageAlert',
        parameters: { orgId: '$response.body#/data/0/orgId' },
        description: 'A usage alert of the first organization listed',
      },
      ListFiredUsageAlertsOfFirstOrg: {
        to: 'listFiredUsageAlerts',
        parameters: { orgId: '$response.body#/data/0/orgId' },
        description: 'The crossings of usage alerts of the first organization listed',
      },
      ListProcessingKeysOfFirstOrg: {
        to: 'listProcessingKeys',
        parameters: { orgId: '$response.body#/data/0/orgId' },
        description: 'The processing keys of the first organization listed',
      },
      CreateProcessingKeyInFirstOrg: {
        to: 'createProcessingKey',
        parameters: { orgId: '$response.body#/data/0/orgId' },
        description: 'A processing key in the first organization listed',
      },
      EnableMetadataKeyInFirstOrg: {
        to: 'enableMetadataKey',
        parameters: { orgId: '$response.body#/data/0/orgId' },
        description: 'A metadata key of the first organization listed',
      },
    },
  },
  createWebhookEndpoint: {
    status: '201',
    links: {
      DeleteWebhookEndpoint: {
        to: 'deleteWebhookEndpoint',
        parameters: { endpoint_id: '$response.body#/endpoint_id' },
        description: 'Delete the endpoint just created',
      },
    },
  },
  createPipeline: {
    status: '201',
    links: {
      GetPipeline: {
        to: 'getPipeline',
        parameters: { pipeline_id: '$response.body#/pipeline_id' },
        description: 'Read the pipeline just stored',
      },
      RunPipeline: {
        to: 'pipelineAsync',
        requestBody: { pipeline_id: '$response.body#/pipeline_id' },
        description: 'Run the pipeline just stored on a document',
      },
      DeletePipeline: {
        to: 'deletePipeline',
        parameters: { pipeline_id: '$response.body#/pipeline_id' },
        description: 'Delete the pipeline just stored',
      },
    },
  },
  upload: {
    status: '200',
    links: {
      ParseUploadedFile: {
        to: 'parseAsync',
        requestBody: { input: '$response.body#/file_id' },
        description: 'Parse the uploaded file (its `file_id` is a document input)',
      },
      ClassifyUploadedFile: {
        to: 'classifyAsync',
        requestBody: { input: '$response.body#/file_id' },
        description: 'Classify the uploaded file',
      },
    },
  },
};

/** Every async submission answers a job id, which the job operations take. */
const JOB_LINKS: Record<string, Link> = {
  GetJob: {
    to: 'getJob',
    parameters: { job_id: '$response.body#/job_id' },
    description: 'Poll the job',
  },
  CancelJob: {
    to: 'cancelJob',
    parameters: { job_id: '$response.body#/job_id' },
    description: 'Cancel the job',
  },
  DeleteJob: {
    to: 'deleteJob',
    parameters: { job_id: '$response.body#/job_id' },
    description: 'Delete the job and its result',
  },
};
const ASYNC_SUBMISSIONS = [
  'classifyAsync',
  'parseAsync',
  'extractAsync',
  'splitAsync',
  'editAsync',
  'pipelineAsync',
];

/**
 * OpenAPI `links` from the responses of create operations to the operations that read and
 * delete what they created, so a client (or a stateful fuzzer) can chain them. Call after
 * the operation ids are set; a link to an operation the document lacks is left out.
 */
export function applyLinks(document: OpenAPIObject): void {
  const operations = new Map<string, OperationObject>();
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.post, item.put, item.delete, item.patch]) {
      if (operation?.operationId) operations.set(operation.operationId, operation);
    }
  }
  const table: Record<string, { status: string; links: Record<string, Link> }> = { ...LINKS };
  for (const id of ASYNC_SUBMISSIONS) table[id] = { status: '200', links: JOB_LINKS };
  for (const [from, { status, links }] of Object.entries(table)) {
    const response = operations.get(from)?.responses[status];
    if (!response || '$ref' in response) continue;
    const declared: Record<string, object> = {};
    for (const [name, link] of Object.entries(links)) {
      if (!operations.has(link.to)) continue;
      declared[name] = {
        operationId: link.to,
        description: link.description,
        ...(link.parameters && { parameters: link.parameters }),
        ...(link.requestBody && { requestBody: link.requestBody }),
      };
    }
    response.links = { ...response.links, ...declared };
  }
}
