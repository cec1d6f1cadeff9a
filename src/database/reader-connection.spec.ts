import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDBInstance } from '@duckdb/node-api';
import { leastBusy, ReaderConnection } from './reader-connection.js';

describe(ReaderConnection.name, () => {
  let instance: DuckDBInstance;
  let reader: ReaderConnection;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    const setup = await instance.connect();
    await setup.run('CREATE TABLE t AS SELECT range AS n FROM range(100)');
    setup.closeSync();
    reader = new ReaderConnection(await instance.connect());
  });

  afterAll(() => {
    reader.close();
    instance.closeSync();
  });

  it('keeps bind and execute together when calls on one statement interleave', async () => {
    const sql = 'SELECT n FROM t WHERE n = $1';
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => reader.all<{ n: bigint }>(sql, [i])),
    );
    expect(results.map((rows) => Number(rows[0].n))).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('sees a table replaced under a cached statement (the rollup clustering pass does that)', async () => {
    const sql = 'SELECT count(*) AS c FROM t WHERE n >= $1';
    expect(Number((await reader.all<{ c: bigint }>(sql, [0]))[0].c)).toBe(100);
    const writer = await instance.connect();
    await writer.run('CREATE TABLE t2 AS SELECT range AS n FROM range(7)');
    await writer.run('DROP TABLE t');
    await writer.run('ALTER TABLE t2 RENAME TO t');
    writer.closeSync();
    expect(Number((await reader.all<{ c: bigint }>(sql, [0]))[0].c)).toBe(7);
  });

  it('runs statements without parameters after parameterized ones', async () => {
    const sql = 'SELECT 41 + 1 AS answer';
    expect(await reader.all(sql)).toEqual([{ answer: 42 }]);
    expect(await reader.all(sql)).toEqual([{ answer: 42 }]);
  });

  it('stays correct past its statement limit (least recently used ones are dropped)', async () => {
    for (let i = 0; i < 200; i++) {
      const rows = await reader.all<{ v: number }>(`SELECT ${i} AS v`);
      expect(rows[0].v).toBe(i);
    }
  });

  it('reports a bad statement and keeps working', async () => {
    await expect(reader.all('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    expect(await reader.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('counts the statements running or waiting on it, failed ones included', async () => {
    expect(reader.pending).toBe(0);
    const first = reader.all('SELECT 1 AS one');
    const failing = reader.all('SELECT * FROM no_such_table');
    expect(reader.pending).toBe(2);
    await first;
    await expect(failing).rejects.toThrow(/no_such_table/);
    expect(reader.pending).toBe(0);
  });
});

describe(leastBusy.name, () => {
  const readers = (...pending: number[]) => pending.map((n, id) => ({ id, pending: n }));

  it('takes the connection with the fewest statements, wherever the turn starts', () => {
    for (let start = 0; start < 6; start++) {
      expect(leastBusy(readers(2, 0, 1), start).id).toBe(1);
    }
  });

  it('takes turns among equally busy connections', () => {
    const pool = readers(0, 0, 0);
    expect([0, 1, 2, 3].map((start) => leastBusy(pool, start).id)).toEqual([0, 1, 2, 0]);
    expect([0, 1, 2].map((start) => leastBusy(readers(1, 0, 0), start).id)).toEqual([1, 1, 2]);
  });
});
