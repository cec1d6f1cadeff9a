import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SeededAccount } from '../support/accounts.js';
import { ChildApp } from '../support/child-app.js';
import { produce } from '../support/kafka.js';
import { seededChildSetup } from '../support/seeded-child.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { kafkaAppEnv, waitFor, usageMessagesOf } from '../support/usage-kafka.js';

let dataDir: string;
let topic: string;
let acme: SeededAccount;
let writer: ChildApp;
let replica: ChildApp;

const QUERIES = ['groupBy=product', 'groupBy=api_key', 'groupBy=file_type&product=parse'];

async function exportText(app: ChildApp, query: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${app.baseUrl}/api/v1/usage/export?${query}`, {
    headers: { authorization: `Bearer ${acme.accountKey}` },
  });
  return { status: res.status, body: await res.text() };
}

async function requests(app: ChildApp, query = 'groupBy=product'): Promise<number> {
  const body = JSON.parse((await exportText(app, query)).body) as {
    data: { requestCount: number }[];
  };
  return body.data.reduce((n, r) => n + r.requestCount, 0);
}

// Building, seeding and starting two child processes took over 4 minutes on a loaded machine.
beforeAll(async () => {
  const { buildDir, ...setup } = await seededChildSetup('usage-replica', ['Acme']);
  ({ topic, dataDir } = setup);
  [acme] = setup.orgs;
  const snapshotDir = path.join(dataDir, 'snapshots');
  writer = new ChildApp(
    buildDir,
    kafkaAppEnv(topic, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      USAGE_SNAPSHOT_INTERVAL_SEC: '1',
      USAGE_SNAPSHOT_DIR: snapshotDir,
    }),
  );
  // The replica has a data directory of its own: it never opens the writer's DuckDB file.
  replica = new ChildApp(buildDir, {
    DATA_DIR: path.join(dataDir, 'replica'),
    LOG_LEVEL: 'error',
    DOCPROC_MODE: 'export-replica',
    USAGE_SNAPSHOT_DIR: snapshotDir,
  });
  await writer.start();
  await replica.start();
}, 480_000);

afterAll(async () => {
  await replica?.stop('SIGTERM');
  await writer?.stop('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('export read replica', () => {
  it("answers the export byte for byte as the writer does, and follows the writer's new usage", async () => {
    const first = usageEventMix([acme.orgId], 400, { seed: 7, prefix: 'replica1' });
    await produce(topic, usageMessagesOf(first));
    await waitFor(
      'the writer to ingest the first events',
      async () => (await requests(writer)) > 0,
      60_000,
    );
    const writerTotal = await requests(writer);
    await waitFor(
      'the replica to serve the same usage',
      async () => (await requests(replica)) === writerTotal,
      30_000,
    );
    for (const query of QUERIES) {
      const [w, r] = [await exportText(writer, query), await exportText(replica, query)];
      expect(r.status).toBe(200);
      expect(r.body).toBe(w.body);
    }

    // New usage reaches the replica within the snapshot interval (plus copy and polling).
    const second = usageEventMix([acme.orgId], 200, { seed: 8, prefix: 'replica2' });
    await produce(topic, usageMessagesOf(second));
    await waitFor(
      'the writer to ingest the second events',
      async () => (await requests(writer)) > writerTotal,
      60_000,
    );
    await waitFor(
      'the replica to catch up',
      async () => (await requests(replica)) === (await requests(writer)),
      30_000,
    );
    expect((await exportText(replica, QUERIES[1])).body).toBe(
      (await exportText(writer, QUERIES[1])).body,
    );
  });

  it('refuses what a read-only replica cannot do and still authenticates', async () => {
    const unauthenticated = await fetch(`${replica.baseUrl}/api/v1/usage/export`);
    expect(unauthenticated.status).toBe(401);
    const health = await fetch(`${replica.baseUrl}/health`);
    expect(health.status).toBe(200);
    // The account API's writes are not mounted on a replica.
    const res = await fetch(`${replica.baseUrl}/api/v1/orgs/${acme.orgId}/metadata-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.accountKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'team' }),
    });
    expect(res.status).toBe(404);
    // Those it mounts for reading refuse changes with a code that says why.
    const create = await fetch(`${replica.baseUrl}/api/v1/account-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.accountKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from a replica' }),
    });
    expect(create.status).toBe(503);
    expect(((await create.json()) as { error: { code: string } }).error.code).toBe(
      'READ_ONLY_REPLICA',
    );
  });
});
