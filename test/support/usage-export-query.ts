import type { UsageExportQuery } from '../../src/usage/export/usage-export.query.js';

/** An export question over all of an org's usage by product, with what a test changes. */
export function exportQuery(overrides: Partial<UsageExportQuery> = {}): UsageExportQuery {
  return {
    orgId: null,
    startDate: '2026-11-01',
    endDate: '2026-11-30',
    groupBy: 'product',
    secondGroupBy: null,
    timeZone: 'UTC',
    metadataKey: null,
    metadataValues: [],
    products: [],
    features: [],
    apiKeys: [],
    fileTypes: [],
    ...overrides,
  };
}
