import { formatCredits } from '../ingestion/decimal-credits.js';
import type { UsageExportRow } from './usage-export.repository.js';
import type { UsageExportQuery } from './usage-export.query.js';

/**
 * The JSON body around the `data` array, which the repository renders as JSON text so
 * that `credits` go on the wire as the exact decimal (a JSON number literal) instead of
 * passing through binary floating point.
 */
export function exportJson(orgId: string, query: UsageExportQuery, dataJson: string): string {
  return (
    `{"orgId":${JSON.stringify(orgId)},"startDate":"${query.startDate}","endDate":"${query.endDate}",` +
    `"groupBy":"${query.groupBy}","data":[${dataJson}]}`
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
