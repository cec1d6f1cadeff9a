import fs from 'node:fs';
import type { SeededAccount } from './accounts.js';
import { ChildApp } from './child-app.js';
import { seededChildSetup } from './seeded-child.js';
import { kafkaAppEnv } from './usage-kafka.js';
import { freshClickHouseDatabase, testClickHouseUrl } from './usage-stores.js';

/** How long starting the processes may take (a build, a topic, seeding, two servers). */
export const INGEST_PROCESSES_START_MS = 420_000;

export interface ClickHouseIngestProcesses {
  topic: string;
  /** The consumer group both processes join. */
  group: string;
  /** The ClickHouse database they share, made for this spec. */
  database: string;
  orgs: SeededAccount[];
  processes: ChildApp[];
  /** Each process's Kafka client id (KAFKA_CLIENT_ID), which names its member of the group. */
  clientIds: string[];
  /** Kills the processes and removes their data dirs and the database. */
  close(): Promise<void>;
}

/** A statement on the test ClickHouse server over HTTP; its text answer, trimmed. */
export async function clickhouseQuery(sql: string): Promise<string> {
  const res = await fetch(testClickHouseUrl(), { method: 'POST', body: sql });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`ClickHouse ${res.status}: ${text}`);
  return text.trim();
}

/**
 * Two docproc servers in one Kafka consumer group writing to one fresh ClickHouse database,
 * started: the set-up of the specs of several ingest processes (docs/scaling.md). Accounts
 * stay in DuckDB, one file per process, so each process gets a copy of the seeded one.
 */
export async function startClickHouseIngestProcesses(
  name: string,
  orgNames: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<ClickHouseIngestProcesses> {
  const setup = await seededChildSetup(name, orgNames);
  const dataDirs = [setup.dataDir, `${setup.dataDir}-second`];
  fs.cpSync(setup.dataDir, dataDirs[1], { recursive: true });
  const database = freshClickHouseDatabase();
  const env = kafkaAppEnv(setup.topic, {
    LOG_LEVEL: 'error',
    USAGE_STORE: 'clickhouse',
    CLICKHOUSE_URL: testClickHouseUrl(),
    CLICKHOUSE_DATABASE: database,
    ...extraEnv,
  });
  const processes: ChildApp[] = [];
  const clientIds = dataDirs.map((_dir, i) => `docproc-ingest-${i}`);
  for (const [i, dataDir] of dataDirs.entries()) {
    processes.push(
      new ChildApp(setup.buildDir, {
        ...env,
        DATA_DIR: dataDir,
        KAFKA_CLIENT_ID: clientIds[i],
      }),
    );
  }
  const close = async () => {
    for (const child of processes) await child.stop('SIGKILL');
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    await clickhouseQuery(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
  };
  try {
    for (const child of processes) await child.start();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    topic: setup.topic,
    group: env.KAFKA_CONSUMER_GROUP,
    database,
    orgs: setup.orgs,
    processes,
    clientIds,
    close,
  };
}
