import { formatCredits } from '../core/decimal-credits.js';
import type { UsageExportRow } from './usage-export.repository.js';
import type { UsageExportQuery } from './usage-export.query.js';
import { DEFAULT_TIME_ZONE } from '../core/time-zone.js';

/**
 * The JSON body around the `data` array, which the repository renders as JSON text so
 * that `credits` go on the wire as the exact decimal (a JSON number literal) instead of
 * passing through binary floating point.
 */
export function exportJson(orgId: string, query: UsageExportQuery, dataJson: string): string {
  // A zone other than UTC is named in the answer; a UTC answer is exactly the spec's shape.
  const zone =
    query.timeZone === DEFAULT_TIME_ZONE ? '' : `"timeZone":${JSON.stringify(query.timeZone)},`;
  return (
    `{"orgId":${JSON.stringify(orgId)},"startDate":"${query.startDate}","endDate":"${query.endDate}",` +
    `"groupBy":"${groupByText(query)}",${zone}"data":[${dataJson}]}`
  );
}

/** `product`, or the two dimensions as a comma list (`product,api_key`). */
export function groupByText(query: UsageExportQuery): string {
  return query.secondGroupBy === null ? query.groupBy : `${query.groupBy},${query.secondGroupBy}`;
}

export function csvHeader(query: UsageExportQuery): string {
  return query.secondGroupBy === null
    ? 'date,group,credits,requestCount\r\n'
    : 'date,group,subgroup,credits,requestCount\r\n';
}

/**
 * RFC 4180: a field with a comma, quote, CR or LF is quoted and its quotes doubled. A
 * semicolon or a tab is quoted too: spreadsheets in locales whose list separator is `;` (or
 * that sniff tabs) would otherwise split the field.
 */
export function csvField(value: string): string {
  return /[",;\t\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A cell a spreadsheet would read as a formula: one starting with =, +, -, @, a tab or a
 * carriage return, also after leading whitespace (spreadsheets trim it before deciding).
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/u;

/**
 * OWASP CSV injection guard: a group value is customer-controlled metadata, so a cell that
 * could start a formula is prefixed with a single quote, then quoted as RFC 4180 requires.
 */
export function csvText(value: string): string {
  return csvField(FORMULA_START.test(value) ? `'${value}` : value);
}

export function csvRow(r: UsageExportRow): string {
  const subgroup = r.subgroup === undefined ? '' : `${csvText(r.subgroup)},`;
  return `${r.date},${csvText(r.group)},${subgroup}${formatCredits(r.credits)},${r.requestCount}\r\n`;
}

export function csvFileName(orgId: string, query: UsageExportQuery): string {
  const safeOrg = orgId.replace(/[^\w.-]/g, '_');
  return `usage_${safeOrg}_${query.startDate}_${query.endDate}_by_${groupByText(query).replace(',', '_')}.csv`;
}
