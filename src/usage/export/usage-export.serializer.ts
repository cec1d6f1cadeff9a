import { formatCredits } from '../ingestion/decimal-credits.js';
import type { UsageExportRow } from './usage-export.repository.js';
import type { UsageExportQuery } from './usage-export.query.js';

/**
 * The JSON body, written by hand so that `credits` go on the wire as the exact decimal
 * (a JSON number literal) instead of passing through binary floating point.
 */
export function exportJson(orgId: string, query: UsageExportQuery, rows: UsageExportRow[]): string {
  const data = rows
    .map(
      (r) =>
        `{"date":${JSON.stringify(r.date)},"group":${JSON.stringify(r.group)},` +
        `"credits":${formatCredits(r.credits)},"requestCount":${r.requestCount}}`,
    )
    .join(',');
  return (
    `{"orgId":${JSON.stringify(orgId)},"startDate":"${query.startDate}","endDate":"${query.endDate}",` +
    `"groupBy":"${query.groupBy}","data":[${data}]}`
  );
}

export const CSV_HEADER = 'date,group,credits,requestCount\r\n';

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, and quotes are doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Spreadsheet programs execute cells that start with =, +, - or @; a group value is
 * customer-controlled metadata, so such cells are prefixed with a single quote.
 */
export function csvText(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

export function csvRow(r: UsageExportRow): string {
  return `${r.date},${csvText(r.group)},${formatCredits(r.credits)},${r.requestCount}\r\n`;
}

export function csvFileName(orgId: string, query: UsageExportQuery): string {
  const safeOrg = orgId.replace(/[^\w.-]/g, '_');
  return `usage_${safeOrg}_${query.startDate}_${query.endDate}_by_${query.groupBy}.csv`;
}
