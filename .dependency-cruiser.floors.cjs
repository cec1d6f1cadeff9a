/**
 * The floors of each plane's sub-rooms (src/<plane>/<room>/), lowest first. A sub-room
 * imports only sub-rooms on floors below its own (never one beside it), so no cycle can form
 * between them; the lowest floor imports no sub-room of its plane. `.dependency-cruiser.cjs`
 * turns this into rules; docs/architecture.md shows it (test/architecture/sub-rooms.spec.ts
 * checks both, and that every sub-room is on a floor).
 */
module.exports = {
  config: [['settings']],
  common: [['health', 'http', 'logging', 'metrics', 'openapi']],
  accounts: [['keys'], ['auth'], ['dashboard']],
  dashboard: [['assets']],
  usage: [
    ['core'],
    ['metadata'],
    ['alerts', 'export'],
    ['ingestion', 'replica'],
    ['clickhouse'],
    ['import'],
  ],
  documents: [
    ['encoder', 'readers', 'versions'],
    ['parse'],
    ['classify'],
    ['extract'],
    ['edit', 'split'],
    ['pipeline'],
    ['executors'],
  ],
  processing: [
    ['core', 'requests', 'responses'],
    ['operations'],
    ['queue', 'upload', 'versions'],
    ['admission', 'inputs', 'outbox'],
    ['webhooks'],
    ['jobs'],
    ['classify-jobs', 'document-operations', 'storage'],
    ['pipelines', 'worker'],
  ],
  operations: [['health', 'preflight', 'queue-metrics', 'upgrade', 'watchdog']],
};
