import { ApiError } from '../../common/api-error.js';
import { truncateCodePoints } from '../core/metadata-values.js';
import { DEFAULT_TIME_ZONE, offsetAt, offsetSegments, parseTimeZone } from '../core/time-zone.js';
import {
  GROUP_BY_VALUES,
  type GroupBy,
  type UsageExportQuery,
} from '../core/usage-export-query.types.js';

export { GROUP_BY_VALUES, type GroupBy, type UsageExportQuery };

/** Dimensions one export can group by at once (`groupBy` repeated or a comma list). */
export const MAX_GROUP_BY = 2;
/**
 * The default period: from this many days before endDate through endDate, both included
 * (the service spec: startDate "30 days before today", endDate "today"). The dashboard's
 * "Last N days" presets follow the same rule (`lastDays` in its usage-query.js), so its
 * "Last 30 days" shows what an export without dates answers.
 */
export const DEFAULT_PERIOD_DAYS = 30;
export const MAX_PERIOD_DAYS = 366;

/** The query parameters parseUsageExportQuery reads, for the API description. */
export const USAGE_EXPORT_PARAMETERS: {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  repeatable?: boolean;
  maxItems?: number;
}[] = [
  {
    name: 'startDate',
    description: `Start of the period (UTC day, inclusive); default ${DEFAULT_PERIOD_DAYS} days before endDate`,
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'endDate',
    description: `End of the period (inclusive; at most ${MAX_PERIOD_DAYS} days); default today`,
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'groupBy',
    description:
      'Grouping dimension. Up to two, repeated (`groupBy=product&groupBy=api_key`) or as a ' +
      'comma list (`groupBy=product,api_key`): each row then carries the second value as ' +
      '`subgroup`',
    schema: { type: 'string', enum: [...GROUP_BY_VALUES], default: 'product' },
    repeatable: true,
    maxItems: MAX_GROUP_BY,
  },
  {
    name: 'timeZone',
    description:
      'IANA time zone (e.g. America/New_York): days, startDate and endDate are local days ' +
      'of this zone (23 or 25 hours at DST changes)',
    schema: { type: 'string', default: DEFAULT_TIME_ZONE, example: 'Europe/Berlin' },
  },
  {
    name: 'metadataKey',
    description:
      'Async metadata key, enabled for the organization first; required with ' +
      '`groupBy=metadata` or `metadataValue`',
    schema: { type: 'string', minLength: 1 },
  },
  {
    name: 'metadataValue',
    description: 'Only jobs with these values of metadataKey (compared as text, 256 characters)',
    schema: { type: 'string' },
    repeatable: true,
  },
  {
    name: 'orgId',
    description:
      "Organization; default the account key's default organization (required when the " +
      'account belongs to several)',
    schema: { type: 'string' },
  },
  {
    name: 'product',
    description: 'Only these products',
    schema: { type: 'string' },
    repeatable: true,
  },
  {
    name: 'feature',
    description: 'Only these features',
    schema: { type: 'string' },
    repeatable: true,
  },
  {
    name: 'apiKey',
    description: 'Only these API key ids',
    schema: { type: 'string' },
    repeatable: true,
  },
  {
    name: 'fileType',
    description: 'Only these file types',
    schema: { type: 'string' },
    repeatable: true,
  },
];

/** A query string as Fastify parses it: one value, or a list for a repeated name. */
export type RawQuery = Record<string, string | string[] | undefined>;

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) {
    throw ApiError.badRequest('INVALID_PARAMETER', `${name} may be given only once`, {
      parameter: name,
    });
  }
  return value;
}

function repeated(query: RawQuery, name: string): string[] {
  const value = query[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function parseDay(name: string, text: string): number {
  const match = ISO_DATE.exec(text);
  const [year, month, day] = match ? [1, 2, 3].map((i) => Number(match[i])) : [NaN, NaN, NaN];
  const epoch = Date.UTC(year, month - 1, day);
  // Date.UTC rolls over (Feb 30 is Mar 2) and maps years 0-99 to 1900-1999: a real calendar
  // date reads back the same fields. (Cheaper than formatting it again: on every export.)
  const date = new Date(epoch);
  if (
    !match ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    throw ApiError.badRequest(
      'INVALID_DATE',
      `${name} must be a calendar date in yyyy-mm-dd form, got "${text}"`,
      {
        parameter: name,
      },
    );
  }
  return epoch;
}

const toDay = (epoch: number): string => new Date(epoch).toISOString().slice(0, 10);

/**
 * The grouping dimensions, in order: `groupBy` repeated, each a value or a comma list
 * (docs/decisions/0261-two-grouping-dimensions.md). Default `product`.
 */
function parseGroupBy(texts: string[]): GroupBy[] {
  const names = texts.flatMap((text) => text.split(',')).map((name) => name.trim());
  if (names.length === 0) return ['product'];
  const invalid = (message: string) =>
    ApiError.badRequest('INVALID_GROUP_BY', message, { parameter: 'groupBy' });
  for (const name of names) {
    if (!(GROUP_BY_VALUES as readonly string[]).includes(name)) {
      throw invalid(`groupBy must be one of ${GROUP_BY_VALUES.join(', ')}, got "${name}"`);
    }
  }
  if (names.length > MAX_GROUP_BY) {
    throw invalid(`groupBy takes at most ${MAX_GROUP_BY} dimensions, got ${names.length}`);
  }
  if (names.length === 2 && names[0] === names[1]) {
    throw invalid(`groupBy names ${names[0]} twice`);
  }
  return names as GroupBy[];
}

/**
 * Whether `parseUsageExportQuery` reads the clock for this query: only a missing `endDate`
 * defaults from today (and `startDate` from `endDate`). Any other query parses to the same
 * result on every day, so a parse of it may be kept and reused.
 */
export function readsToday(query: RawQuery): boolean {
  return query.endDate === undefined;
}

/**
 * Validates the export's query string. Defaults: endDate = today (in `timeZone`, UTC by default); startDate = 30
 * days before endDate. Ranges are inclusive and at most 366 days.
 */
export function parseUsageExportQuery(query: RawQuery, today: Date = new Date()): UsageExportQuery {
  const dimensions = parseGroupBy(repeated(query, 'groupBy'));
  const groupBy = dimensions[0];
  const secondGroupBy: GroupBy | null = dimensions[1] ?? null;
  const timeZoneText = single(query, 'timeZone');
  const timeZone =
    timeZoneText === undefined || timeZoneText === ''
      ? DEFAULT_TIME_ZONE
      : parseTimeZone(timeZoneText);

  const endText = single(query, 'endDate');
  const end =
    endText !== undefined
      ? parseDay('endDate', endText)
      : // Today in the zone: its local date at this instant.
        Date.parse(
          new Date(today.getTime() + offsetAt(timeZone, today.getTime()) * 1000)
            .toISOString()
            .slice(0, 10),
        );
  const startText = single(query, 'startDate');
  const start =
    startText !== undefined ? parseDay('startDate', startText) : end - DEFAULT_PERIOD_DAYS * DAY_MS;
  if (start > end) {
    throw ApiError.badRequest(
      'INVALID_DATE_RANGE',
      `startDate ${toDay(start)} is after endDate ${toDay(end)}`,
      { parameter: 'startDate' },
    );
  }
  const days = (end - start) / DAY_MS + 1;
  if (days > MAX_PERIOD_DAYS) {
    throw ApiError.badRequest(
      'DATE_RANGE_TOO_LONG',
      `the period covers ${days} days; at most ${MAX_PERIOD_DAYS} days can be exported at once`,
      { parameter: 'startDate' },
    );
  }

  const metadataKey = single(query, 'metadataKey') ?? null;
  const metadataValues = repeated(query, 'metadataValue').map((v) => truncateCodePoints(v));
  if (metadataKey === null && (groupBy === 'metadata' || secondGroupBy === 'metadata')) {
    throw ApiError.badRequest('METADATA_KEY_REQUIRED', 'groupBy=metadata requires metadataKey', {
      parameter: 'metadataKey',
    });
  }
  if (metadataKey === null && metadataValues.length > 0) {
    throw ApiError.badRequest('METADATA_KEY_REQUIRED', 'metadataValue requires metadataKey', {
      parameter: 'metadataKey',
    });
  }
  if (metadataKey !== null && metadataKey.length === 0) {
    throw ApiError.badRequest('METADATA_KEY_REQUIRED', 'metadataKey must not be empty', {
      parameter: 'metadataKey',
    });
  }

  const orgId = single(query, 'orgId');
  const [startDate, endDate] = [toDay(start), toDay(end)];
  // A zone whose offsets in the period the buckets cannot follow is refused here, as a 400.
  if (timeZone !== DEFAULT_TIME_ZONE) offsetSegments(timeZone, startDate, endDate);
  return {
    orgId: orgId === undefined || orgId === '' ? null : orgId,
    startDate,
    endDate,
    groupBy,
    secondGroupBy,
    timeZone,
    metadataKey,
    metadataValues,
    products: repeated(query, 'product'),
    features: repeated(query, 'feature'),
    apiKeys: repeated(query, 'apiKey'),
    fileTypes: repeated(query, 'fileType'),
  };
}
