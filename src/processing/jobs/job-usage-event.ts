import {
  USAGE_EVENT_SOURCE_PROCESSING,
  USAGE_EVENT_TYPE,
  type UsageCloudEvent,
} from '../../usage/usage-event.js';
import type { Billing } from '../operations/operation.js';
import type { JobRecord } from '../core/job.types.js';

/** The job's usage CloudEvent: async metadata only when it is a JSON object. */
export function usageEvent(job: JobRecord, billing: Billing, credits: string): UsageCloudEvent {
  const metadata =
    job.isAsync &&
    typeof job.metadata === 'object' &&
    job.metadata !== null &&
    !Array.isArray(job.metadata)
      ? (job.metadata as Record<string, unknown>)
      : null;
  return {
    specversion: '1.0',
    id: `evt_${job.jobId}`,
    source: USAGE_EVENT_SOURCE_PROCESSING,
    type: USAGE_EVENT_TYPE,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    data: {
      orgId: job.orgId,
      apiKeyId: job.apiKeyId,
      product: billing.product,
      feature: billing.feature,
      fileType: billing.fileType,
      pages: billing.pages,
      credits,
      jobId: job.jobId,
      async: job.isAsync,
      metadata,
    },
  };
}
