import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedAccount, type SeededAccount } from './accounts.js';
import { buildDist } from './child-app.js';
import { createTestTopic } from './kafka.js';
import { startTestApp } from './test-app.js';

export interface SeededChildSetup {
  /** The compiled server (`dist/<name>`) a ChildApp runs. */
  buildDir: string;
  /** A fresh usage topic (3 partitions) named after `name`. */
  topic: string;
  /** A data directory of its own, whose DuckDB file holds `orgs`. */
  dataDir: string;
  orgs: SeededAccount[];
}

/**
 * What a spec of the real server over Kafka needs before its first child starts: the build,
 * a topic, and orgs seeded in process before the child owns the DuckDB file (one writer
 * process per file). The caller removes `dataDir`.
 */
export async function seededChildSetup(
  name: string,
  orgNames: readonly string[],
): Promise<SeededChildSetup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `docproc-${name}-`));
  const [buildDir, topic] = await Promise.all([buildDist(name), createTestTopic(name, 3)]);
  const seeding = await startTestApp({ DATA_DIR: dataDir });
  const orgs: SeededAccount[] = [];
  for (const orgName of orgNames) orgs.push(await seedAccount(seeding.app, orgName));
  await seeding.close();
  return { buildDir, topic, dataDir, orgs };
}
