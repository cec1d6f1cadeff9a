// Command-line options of bench/usage-export.bench.mjs and the paths of its cached data set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: process.env.BENCH_EVENTS ?? '20000000' },
    // 1000: the p99 of n samples is their ceil(0.01 n)-th slowest, which a few stalls decide
    // when n is small (docs/benchmarks.md, "How many requests per row").
    iterations: { type: 'string', default: process.env.BENCH_ITERATIONS ?? '1000' },
    'pg-budget': { type: 'string', default: process.env.BENCH_PG_BUDGET ?? '15' },
    seed: { type: 'string', default: '42' },
    fresh: { type: 'boolean', default: false },
    'skip-pg': { type: 'boolean', default: false },
    'prepare-only': { type: 'boolean', default: false },
    uncached: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

export const EVENTS = Number(args.events);
export const ITERATIONS = Number(args.iterations);
export const PG_BUDGET_MS = Number(args['pg-budget']) * 1000;
export const SEED = Number(args.seed);
export const WARMUP = 10;
export const GROUP_BYS = ['product', 'feature', 'api_key', 'file_type', 'metadata'];
export const WINDOWS = [30, 365];
export const FRESH = args.fresh;
export const SKIP_PG = args['skip-pg'];
export const PREPARE_ONLY = args['prepare-only'];
/** The server without its result cache: every request runs the export's statements. */
export const UNCACHED = args.uncached;
export const OUT = args.out;

const cacheRoot = path.join(process.env.DOCPROC_CACHE || os.tmpdir(), 'docproc-bench-export');
export const caseDir = path.join(cacheRoot, `events-${EVENTS}-seed-${SEED}`);
export const dataDir = path.join(caseDir, 'docproc');
export const pgDir = path.join(caseDir, 'postgres');
export const csvDir = path.join(caseDir, 'csv');
export const markerFile = path.join(caseDir, 'dataset.json');

export const log = (message) => process.stderr.write(`[bench:export] ${message}\n`);
export const ms = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** A module of the built app (dist/), which the benchmark drives like main.ts does. */
export async function importDist(relative) {
  const file = path.join(root, 'dist', relative);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  return import(file);
}
