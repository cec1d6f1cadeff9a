/**
 * The rooms of src/ and the one direction they import in (docs/architecture.md draws it).
 * `npm run lint:architecture` checks it in the test command; a new arrow upwards fails it.
 *
 *   main.ts worker.ts cli.ts app.*      (entry points: may import anything)
 *   cli -> admin -> operations -> processing -> documents
 *                                  processing -> usage (its contracts only) -> accounts
 *   accounts -> database -> common -> config
 */
const FLOORS = require('./.dependency-cruiser.floors.cjs');

const room = (name) => `^src/${name}/`;
const onlyFrom = (name, allowed) => ({
  name: `${name}-imports-one-way`,
  comment: `src/${name} may import only ${allowed.join(', ')} among the rooms of src/`,
  severity: 'error',
  from: { path: room(name) },
  to: {
    path: '^src/',
    pathNot: [room(name), ...allowed.map(room)],
  },
});

// What each room may import: the rooms below it, built upwards: a room's list is the room
// beneath it plus everything that one may import.
const CONFIG = [];
const COMMON = ['config'];
const DATABASE = ['common', ...COMMON];
const ACCOUNTS = ['database', ...DATABASE];
const USAGE = ['accounts', ...ACCOUNTS];
const DOCUMENTS = ['common', ...COMMON];
const PROCESSING = ['documents', 'usage', ...USAGE];
const OPERATIONS = ['processing', ...PROCESSING];
const ADMIN = ['operations', ...OPERATIONS];

/** Inside a plane: each sub-room imports only the sub-rooms on the floors below its own. */
const importsDown = (plane, floors) => {
  const all = floors.flat();
  return floors.flatMap((floor, level) =>
    floor.map((name) => ({
      name: `${plane}-${name}-imports-down`,
      comment: `src/${plane}/${name} may import only ${
        floors.slice(0, level).flat().join(', ') || 'none'
      } among the sub-rooms of src/${plane} (.dependency-cruiser.floors.cjs)`,
      severity: 'error',
      from: { path: `^src/${plane}/${name}/` },
      to: {
        path: `^src/${plane}/(${all.join('|')})/`,
        pathNot: `^src/${plane}/(${[name, ...floors.slice(0, level).flat()].join('|')})/`,
      },
    })),
  );
};

module.exports = {
  forbidden: [
    ...Object.entries(FLOORS).flatMap(([plane, floors]) => importsDown(plane, floors)),
    {
      name: 'no-circular',
      comment: 'Modules of src/ form no import cycle (type-only imports are erased at build time)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    onlyFrom('config', CONFIG),
    onlyFrom('common', COMMON),
    onlyFrom('database', DATABASE),
    onlyFrom('accounts', ACCOUNTS),
    onlyFrom('usage', USAGE),
    onlyFrom('documents', DOCUMENTS),
    onlyFrom('dashboard', ['accounts', 'common', ...COMMON]),
    onlyFrom('processing', PROCESSING),
    onlyFrom('operations', OPERATIONS),
    onlyFrom('admin', ADMIN),
    {
      name: 'processing-reads-usage-contract-only',
      comment:
        'processing knows the usage plane only by its contracts (src/usage/usage-event.ts, src/usage/usage-alerts.contract.ts, src/usage/webhook-endpoints.contract.ts)',
      severity: 'error',
      // processing.module.ts is the plane's composition root: it imports UsageModule so Nest
      // can inject the usage event sink, and nothing else of usage.
      from: { path: room('processing'), pathNot: '^src/processing/processing\\.module\\.ts$' },
      to: {
        path: room('usage'),
        pathNot:
          '^src/usage/(usage-event|usage-alerts\\.contract|webhook-endpoints\\.contract)\\.ts$',
      },
    },
    {
      name: 'operations-reads-queue-status-only',
      comment:
        'operations reads the queues through src/processing/queue/queue-status.ts only (its module file, the composition root, also wires ProcessingModule and the Redis results consumer)',
      severity: 'error',
      from: { path: room('operations'), pathNot: '^src/operations/operations\\.module\\.ts$' },
      to: { path: room('processing'), pathNot: '^src/processing/queue/queue-status\\.ts$' },
    },
    {
      name: 'documents-without-nest',
      comment: 'the engines are plain functions run by executors: no Nest, no HTTP, no queue',
      severity: 'error',
      from: { path: room('documents') },
      to: { path: 'node_modules/(@nestjs|fastify|bullmq|ioredis|kafkajs|@duckdb)/' },
    },
    {
      name: 'tests-not-imported-by-source',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '(^test/|\\.spec\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
