import { afterEach, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The samples of one metric family on /metrics, by their label text. */
async function samples(baseUrl: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

describe('DuckDB memory on /metrics', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('shows DUCKDB_MEMORY_LIMIT beside what DuckDB holds, so an alert can fire before the indexes outgrow it', async () => {
    t = await startTestApp({ DUCKDB_MEMORY_LIMIT: '192MB' });
    const limit = await samples(t.baseUrl, 'docproc_duckdb_memory_limit_bytes');
    // DuckDB prints the limit as "183.1 MiB": the gauge is within its rounding of 192 MB.
    expect(Math.abs((limit.get('') ?? 0) - 192e6)).toBeLessThan(0.001 * 192e6);
    const held = await samples(t.baseUrl, 'docproc_duckdb_memory_bytes');
    expect([...held.keys()].some((labels) => labels.includes('component='))).toBe(true);
  });

  it('bounds DuckDB to 256 MB by default, not to its own 80 % of RAM', async () => {
    t = await startTestApp();
    const limit = (await samples(t.baseUrl, 'docproc_duckdb_memory_limit_bytes')).get('') ?? 0;
    expect(Math.abs(limit - 256e6)).toBeLessThan(0.001 * 256e6);
  });
});
