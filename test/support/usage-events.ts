import { randomUUID } from 'node:crypto';
import { USAGE_SETTINGS } from '../../src/config/settings/usage.settings.js';
import type { NormalizerPolicy } from '../../src/config/usage.types.js';
import type { UsageCloudEvent, UsageEventData } from '../../src/usage/usage-event.js';

const DAY_MS = 86_400_000;

/**
 * The normalizer's policy with the settings' defaults (USAGE_MAX_FUTURE_SKEW_SEC,
 * USAGE_MAX_EVENT_AGE_DAYS, USAGE_LATE_EVENT_WINDOW_DAYS), as a server started without them
 * applies it. Read here rather than in the normalizer, whose thread never loads the settings.
 */
export const DEFAULT_NORMALIZER_POLICY: NormalizerPolicy = {
  maxFutureSkewMs: USAGE_SETTINGS.normalizer.maxFutureSkewMs.read({}),
  maxAgeMs: USAGE_SETTINGS.normalizer.maxAgeMs.read({}),
  lateWindowMs: USAGE_SETTINGS.normalizer.lateWindowMs.read({}),
};

/**
 * The instant a spec file counts its days from, read once when the file loads: the events it
 * places `daysBack` days ago and the dates it expects of them (`daysAgo`) name the same UTC
 * day even when a run crosses midnight between the two. Never later than the service's clock,
 * so no such event is in its future; a check of what the service takes as today reads the
 * service's answer instead.
 */
export const SPEC_NOW = Date.now();

/** The UTC date (yyyy-mm-dd) `days` days before `now` (the spec's own instant by default). */
export function daysAgo(days: number, now: Date | number = SPEC_NOW): string {
  return new Date(new Date(now).getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A valid usage CloudEvent; `daysBack` places it that many days before the spec's instant, a
 * minute earlier unless that would leave the day `daysAgo(daysBack)` names.
 */
export function usageEvent(
  data: Partial<UsageEventData> & { orgId: string },
  options: { id?: string; daysBack?: number; time?: string } = {},
): UsageCloudEvent {
  const instant = SPEC_NOW - (options.daysBack ?? 0) * DAY_MS;
  const dayStart = Math.floor(instant / DAY_MS) * DAY_MS;
  const time = options.time ?? new Date(Math.max(dayStart, instant - 60_000)).toISOString();
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

/** A message value the consumer refuses, with the dead-letter reason it must get. */
export interface RefusedValue {
  value: string | Buffer | null;
  reason: string;
}

/**
 * One refused value of every kind the normalizer and the org check tell apart, for `orgId`
 * (an existing org, so only the value itself is wrong), in a fixed order: broken JSON, a
 * missing field, wrong type, unknown product, negative credits, invalid time, unknown org,
 * a time too far ahead, a time past the late-event window (90 days by default), a time too
 * old for any path, and a tombstone.
 */
export function refusedValues(orgId: string): RefusedValue[] {
  const base = usageEvent({ orgId }, { id: 'dlq-bad' });
  const withData = (data: Record<string, unknown>, id: string) =>
    JSON.stringify({ ...base, id, data: { ...base.data, ...data } });
  const noOrg: Record<string, unknown> = { ...base.data };
  delete noOrg.orgId;
  return [
    { value: '{"specversion":"1.0", "id": ', reason: 'malformed_json' },
    { value: JSON.stringify({ ...base, id: 'b-missing', data: noOrg }), reason: 'missing_field' },
    { value: withData({ pages: 'many' }, 'b-type'), reason: 'wrong_type' },
    { value: withData({ product: 'teleport' }, 'b-product'), reason: 'unknown_product' },
    { value: withData({ credits: '-1.5' }, 'b-negative'), reason: 'negative_credits' },
    { value: JSON.stringify({ ...base, id: 'b-time', time: 'yesterday' }), reason: 'invalid_time' },
    { value: withData({ orgId: 'org_does_not_exist' }, 'b-org'), reason: 'unknown_org' },
    {
      value: JSON.stringify({
        ...base,
        id: 'b-future',
        time: new Date(Date.now() + DAY_MS).toISOString(),
      }),
      reason: 'time_skew',
    },
    {
      value: JSON.stringify({
        ...base,
        id: 'b-late',
        time: new Date(Date.now() - 100 * DAY_MS).toISOString(),
      }),
      reason: 'late_event',
    },
    {
      value: JSON.stringify({
        ...base,
        id: 'b-ancient',
        time: new Date(Date.now() - 800 * DAY_MS).toISOString(),
      }),
      reason: 'time_skew',
    },
    { value: null, reason: 'invalid_envelope' },
  ];
}
