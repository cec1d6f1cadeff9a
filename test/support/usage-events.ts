import { randomUUID } from 'node:crypto';
import type { UsageCloudEvent, UsageEventData } from '../../src/usage/usage-event.js';

const DAY_MS = 86_400_000;

export function daysAgo(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

/** A valid usage CloudEvent; `daysBack` places it that many days before now (UTC noon-ish). */
export function usageEvent(
  data: Partial<UsageEventData> & { orgId: string },
  options: { id?: string; daysBack?: number; time?: string } = {},
): UsageCloudEvent {
  const now = Date.now();
  const time =
    options.time ?? new Date(now - (options.daysBack ?? 0) * DAY_MS - 60_000).toISOString();
  return {
    specversion: '1.0',
    id: options.id ?? `evt_${randomUUID()}`,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time,
    data: {
      apiKeyId: 'pk_test',
      product: 'classify',
      feature: 'classify',
      fileType: 'pdf',
      pages: 1,
      credits: '1',
      async: false,
      ...data,
    },
  };
}
