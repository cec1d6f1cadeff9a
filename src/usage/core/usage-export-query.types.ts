/** What an export can be asked for, validated by export/usage-export.query.ts; read by both stores. */
export const GROUP_BY_VALUES = ['product', 'feature', 'api_key', 'file_type', 'metadata'] as const;
export type GroupBy = (typeof GROUP_BY_VALUES)[number];

/** The export's parameters after validation; dates are yyyy-mm-dd (local days of `timeZone`, inclusive). */
export interface UsageExportQuery {
  orgId: string | null;
  startDate: string;
  endDate: string;
  groupBy: GroupBy;
  /** A second grouping dimension: each row then carries both values (`group`, `subgroup`). */
  secondGroupBy: GroupBy | null;
  /** IANA name; days are local days of this zone. */
  timeZone: string;
  metadataKey: string | null;
  metadataValues: string[];
  products: string[];
  features: string[];
  apiKeys: string[];
  fileTypes: string[];
}
