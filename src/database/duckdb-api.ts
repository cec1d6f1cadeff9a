import { createRequire } from 'node:module';
import type * as DuckDbApi from '@duckdb/node-api';

/**
 * `@duckdb/node-api`'s values (classes, type constants, `listValue`), loaded with
 * `require`: imported as ESM, Node passes each of the package's ~180 CommonJS files through
 * the ESM loader, which doubled its load time (0.24 s of CPU instead of 0.12 s), a quarter
 * of docproc-admin's budget for a command
 * (docs/decisions/0088-admin-cli-direct-path-without-nest.md). Every value of the package
 * comes from here, so there is one copy of its classes; its types are imported as types.
 */
export const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDbApi;
