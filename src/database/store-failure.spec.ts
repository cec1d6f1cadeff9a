import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiError } from '../common/api-error.js';
import { loadConfig } from '../config/app-config.js';
import { DuckDbService } from './duckdb.service.js';
import { isStoreFailure } from './store-failure.js';

describe('a store that runs out of memory', () => {
  let dir: string;
  let db: DuckDbService;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-store-failure-'));
    db = new DuckDbService(loadConfig({ DATA_DIR: dir, DUCKDB_MEMORY_LIMIT: '12MB' }));
    await db.open();
  });
  afterEach(() => {
    db.onApplicationShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails readiness at once, tells its listener once, and answers later statements with 503', async () => {
    const heard: Error[] = [];
    db.onFatalFailure((error) => heard.push(error));
    expect(db.readiness().ready).toBe(true);

    const error = await db
      .all(`SELECT list(repeat('x', 1000) || i) AS big FROM range(200000) t(i)`)
      .catch((e: unknown) => e);

    expect(isStoreFailure(error)).toBe(true);
    expect(heard).toHaveLength(1);
    expect(heard[0].message).toMatch(/Out of Memory|could not allocate/);
    expect(db.readiness()).toEqual({
      ready: false,
      detail: { error: expect.stringMatching(/Out of Memory|could not allocate/) },
    });
    // Once failed, any statement error reaches the client as a 503, naming no internals.
    const later = await db.all('SELECT * FROM missing_table').catch((e: unknown) => e);
    expect(later).toBeInstanceOf(ApiError);
    expect((later as ApiError).getStatus()).toBe(503);
    expect((later as ApiError).getResponse()).toEqual({
      error: { code: 'STORE_UNAVAILABLE', message: expect.stringContaining('restarting') },
    });
    await db.run('CREATE TABLE t (x INTEGER)').catch(() => undefined);
    expect(heard).toHaveLength(1);
  });

  it('leaves ordinary errors alone', async () => {
    const error = await db.all('SELECT * FROM missing_table').catch((e: unknown) => e);
    expect(isStoreFailure(error)).toBe(false);
    expect(db.readiness().ready).toBe(true);
  });
});
