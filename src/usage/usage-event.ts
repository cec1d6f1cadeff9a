/**
 * The usage-event contract (Kafka topic `docproc.usage.v1`, key = orgId): CloudEvents 1.0
 * in structured JSON mode. Every billable request, sync or async, ends in exactly one.
 * Dedupe key: (source, id).
 */
export const USAGE_EVENT_TYPE = 'docproc.usage.v1';
export const USAGE_EVENT_SOURCE_PROCESSING = 'docproc/processing';

export const PRODUCTS = [
  'classify',
  'parse',
  'extract',
  'split',
  'edit',
  'pipeline',
  'upload',
] as const;
export type Product = (typeof PRODUCTS)[number];

export interface UsageEventData {
  orgId: string;
  apiKeyId: string;
  product: Product;
  feature: string;
  fileType: string;
  pages: number;
  /** Decimal string (or number) with at most 6 fractional digits; stored as DECIMAL(18,6). */
  credits: string | number;
  jobId?: string | null;
  async: boolean;
  /**
   * 1 when absent. The same event (source, id) sent again with a higher version corrects
   * it: the stored one is replaced and every figure moves by the difference; a lower or
   * equal version is a duplicate (docs/decisions/0274-usage-corrections-by-version.md).
   */
  version?: number;
  /** `async.metadata` of an async request when it is a JSON object; absent/null for sync. */
  metadata?: Record<string, unknown> | null;
}

export interface UsageCloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: typeof USAGE_EVENT_TYPE;
  time: string;
  datacontenttype?: 'application/json';
  data: UsageEventData;
}

/** Where the processing plane hands its usage events: Kafka, or the in-process bus. */
export interface UsageEventSink {
  publish(events: UsageCloudEvent[]): Promise<void>;
}

export const USAGE_EVENT_SINK = Symbol('USAGE_EVENT_SINK');
