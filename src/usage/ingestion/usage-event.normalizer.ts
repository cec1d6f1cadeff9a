import type { NormalizerPolicy } from '../../config/usage.types.js';
import { PRODUCTS, Product, USAGE_EVENT_TYPE } from '../usage-event.js';
import { parseCredits } from '../core/decimal-credits.js';
import { groupableEntries } from '../core/metadata-values.js';
import type { NormalizationResult, RejectionReason } from './normalized-usage-event.js';

/** The policy of an operator's backfill: past the late-event window, still within the maximum age. */
export function backfillPolicy(policy: NormalizerPolicy): NormalizerPolicy {
  return { ...policy, lateWindowMs: policy.maxAgeMs };
}

export type { NormalizerPolicy } from '../../config/usage.types.js';

const MAX_ID_LENGTH = 256;
/** Versions of one event (corrections) are 32-bit integers in both stores. */
const MAX_VERSION = 2_147_483_647;
const MAX_LABEL_LENGTH = 128;
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * Parses an RFC 3339 timestamp, refusing impossible calendar values that Date would roll
 * over. Computed from the matched fields (no second parse of the text): it runs for every
 * ingested event.
 */
function parseRfc3339(text: string): Date | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const offsetHours = Number(m[9]);
    const offsetMins = Number(m[10]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (m[8].startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  // Date keeps milliseconds: further fraction digits are truncated, as Date.parse does.
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000 + 1e-6) : 0;
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  if (year < 100) instant.setUTCFullYear(year); // Date.UTC reads 0-99 as 1900-1999
  instant.setTime(instant.getTime() - offsetMinutes * 60_000);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

class Refusal extends Error {
  constructor(
    readonly reason: RejectionReason,
    detail: string,
  ) {
    super(detail);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(
  obj: Record<string, unknown>,
  field: string,
  path: string,
  max: number,
): string {
  const value = obj[field];
  if (value === undefined || value === null)
    throw new Refusal('missing_field', `${path}${field} is required`);
  if (typeof value !== 'string')
    throw new Refusal('wrong_type', `${path}${field} must be a string`);
  if (value.trim() === '') throw new Refusal('missing_field', `${path}${field} must not be empty`);
  if (value.length > max)
    throw new Refusal('wrong_type', `${path}${field} is longer than ${max} characters`);
  return value;
}

/**
 * Validates and normalizes one usage CloudEvent. Shared by the Kafka consumer, the
 * in-process bus and `docproc-admin usage import`, so every path applies the same rules.
 * Org existence is checked by the caller (it needs the store).
 */
export function normalizeUsageEvent(
  raw: unknown,
  now: Date,
  policy: NormalizerPolicy,
): NormalizationResult {
  try {
    return { ok: true, event: normalizeOrThrow(parsePayload(raw), now, policy) };
  } catch (error) {
    if (error instanceof Refusal)
      return { ok: false, rejection: { reason: error.reason, detail: error.message } };
    throw error;
  }
}

function parsePayload(raw: unknown): unknown {
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return raw;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refusal('malformed_json', `not valid JSON: ${(error as Error).message}`);
  }
}

function normalizeOrThrow(payload: unknown, now: Date, policy: NormalizerPolicy) {
  if (!isObject(payload)) throw new Refusal('invalid_envelope', 'event must be a JSON object');
  if (payload.specversion !== '1.0')
    throw new Refusal('invalid_envelope', 'specversion must be "1.0"');
  const eventId = requireString(payload, 'id', '', MAX_ID_LENGTH);
  const source = requireString(payload, 'source', '', MAX_ID_LENGTH);
  if (payload.type !== USAGE_EVENT_TYPE) {
    throw new Refusal(
      'unsupported_type',
      `type must be "${USAGE_EVENT_TYPE}", got ${JSON.stringify(payload.type)}`,
    );
  }
  const time = requireString(payload, 'time', '', 64);
  const instant = parseRfc3339(time);
  if (!instant) {
    throw new Refusal('invalid_time', `time must be an RFC 3339 timestamp, got "${time}"`);
  }
  if (instant.getTime() - now.getTime() > policy.maxFutureSkewMs) {
    throw new Refusal(
      'time_skew',
      `time ${time} is more than ${policy.maxFutureSkewMs / 1000}s in the future`,
    );
  }
  if (now.getTime() - instant.getTime() > policy.maxAgeMs) {
    throw new Refusal(
      'time_skew',
      `time ${time} is older than ${Math.round(policy.maxAgeMs / 86_400_000)} days`,
    );
  }
  if (now.getTime() - instant.getTime() > policy.lateWindowMs) {
    throw new Refusal(
      'late_event',
      `time ${time} is older than the late-event window of ${Math.round(policy.lateWindowMs / 86_400_000)} days; ` +
        'only an operator backfill (docproc-admin usage import --allow-late) loads it',
    );
  }

  const data = payload.data;
  if (data === undefined || data === null) throw new Refusal('missing_field', 'data is required');
  if (!isObject(data)) throw new Refusal('wrong_type', 'data must be an object');
  const orgId = requireString(data, 'orgId', 'data.', MAX_ID_LENGTH);
  const apiKeyId = requireString(data, 'apiKeyId', 'data.', MAX_ID_LENGTH);
  const product = requireString(data, 'product', 'data.', MAX_LABEL_LENGTH);
  if (!(PRODUCTS as readonly string[]).includes(product)) {
    throw new Refusal(
      'unknown_product',
      `data.product "${product}" is not one of ${PRODUCTS.join(', ')}`,
    );
  }
  const feature = requireString(data, 'feature', 'data.', MAX_LABEL_LENGTH);
  const fileType = requireString(data, 'fileType', 'data.', MAX_LABEL_LENGTH);
  if (data.pages === undefined || data.pages === null)
    throw new Refusal('missing_field', 'data.pages is required');
  if (
    typeof data.pages !== 'number' ||
    !Number.isInteger(data.pages) ||
    data.pages < 0 ||
    data.pages > 1e6
  ) {
    throw new Refusal('wrong_type', 'data.pages must be a non-negative integer');
  }
  if (data.credits === undefined || data.credits === null) {
    throw new Refusal('missing_field', 'data.credits is required');
  }
  const credits = parseCredits(data.credits);
  if (!credits.ok)
    throw new Refusal(credits.negative ? 'negative_credits' : 'invalid_credits', credits.detail);
  if (typeof data.async !== 'boolean') {
    throw new Refusal(
      data.async === undefined ? 'missing_field' : 'wrong_type',
      'data.async must be a boolean',
    );
  }
  const version = data.version ?? 1;
  if (
    typeof version !== 'number' ||
    !Number.isInteger(version) ||
    version < 1 ||
    version > MAX_VERSION
  ) {
    throw new Refusal('wrong_type', `data.version must be an integer from 1 to ${MAX_VERSION}`);
  }
  const jobId = data.jobId;
  if (jobId !== undefined && jobId !== null && typeof jobId !== 'string') {
    throw new Refusal('wrong_type', 'data.jobId must be a string');
  }
  // Only async requests carry metadata, and only a JSON object is groupable; other values
  // are meaningful to webhooks alone. Sync usage therefore lands in the `unknown` group.
  const metadata = data.async && isObject(data.metadata) ? data.metadata : null;

  const eventTime = instant.toISOString();
  return {
    source,
    eventId,
    orgId,
    eventTime,
    eventTimeMs: instant.getTime(),
    day: eventTime.slice(0, 10),
    product: product as Product,
    feature,
    apiKeyId,
    fileType,
    pages: data.pages,
    version,
    credits: credits.value,
    jobId: typeof jobId === 'string' ? jobId : null,
    isAsync: data.async,
    metadataJson: metadata ? JSON.stringify(metadata) : null,
    metadata: metadata ? groupableEntries(metadata) : {},
  };
}
