import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A CommonJS package loaded when it is first used rather than when its importer is: for
 * packages only some configurations need (Redis' queue clients without `REDIS_URL`,
 * ClickHouse's with the DuckDB store, the HTTP client before the first URL input or
 * webhook), whose loaded code would otherwise
 * stay in every process's heap (docs/benchmarks.md, "Ingestion: what the Node side of the
 * process holds"). Node's module cache keeps one copy, shared with any static import of the
 * same package; its types are imported as types.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}
