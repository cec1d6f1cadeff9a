import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { buildDist } from '../../support/child-app.js';
import { startServerProcess, type ServerProcess } from '../../support/server-process.mjs';
import { clickhouseQuery } from '../../support/clickhouse-ingest-processes.js';
import { exited, until } from '../../support/operations.js';
import { usageEvent } from '../../support/usage-events.js';
import { USAGE_STORES, usageStoreEnv } from '../../support/usage-stores.js';

/**
 * docproc-admin as a user runs it: the compiled CLI as a child process, against a real
 * DuckDB file, with no server (direct mode), with a server child process (HTTP mode), with
 * a hung server and with a foreign lock holder (refusal).
 */
// Every CLI run starts a Node process (about a second, more on a busy machine).
jest.setTimeout(90000);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let cliJs: string;
let mainJs: string;

interface CliRun {
  code: number;
  /** The signal that ended the CLI (its timeout's SIGTERM, or a crash), if one did. */
  signal: string | null;
  stdout: string;
  stderr: string;
  json: () => Record<string, unknown>;
}

function runCli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliJs, ...args],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env }, timeout: 60000 },
      (error, stdout, stderr) => {
        const failure = error as { code?: unknown; signal?: string | null } | null;
        const code = failure ? (failure.code as number) : 0;
        const signal = failure?.signal ?? null;
        resolve({ code, signal, stdout, stderr, json: () => JSON.parse(stdout) });
      },
    );
  });
}

/** Runs a command that must succeed and returns its JSON output. */
async function ok(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const run = await runCli(dataDir, args, env);
  if (run.code !== 0) {
    throw new Error(`${args.join(' ')} failed (${run.signal ?? run.code}): ${run.stderr}`);
  }
  expect(run.stderr).toBe('');
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return run.json();
}

/** The server once it has published its admin endpoint (admin.json), as the CLI finds it. */
async function startServer(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess(mainJs, dataDir);
  const adminFile = path.join(dataDir, 'admin.json');
  await until(
    () => fs.existsSync(adminFile) || server.child.exitCode !== null,
    `the server to publish ${adminFile}`,
    60_000,
  );
  if (server.child.exitCode !== null) throw new Error(`server exited early: ${server.stderr()}`);
  return server;
}

beforeAll(async () => {
  const buildDir = await buildDist('cli-e2e');
  cliJs = path.join(buildDir, 'src', 'cli.js');
  mainJs = path.join(buildDir, 'src', 'main.js');
}, 180000);

describe('docproc-admin', () => {
  let dataDir: string;
  let orgId: string;
  let userId: string;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cli-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('with no server (direct mode on the DuckDB file)', () => {
    it('creates an org, a user and a membership, printing JSON', async () => {
      orgId = String((await ok(dataDir, ['org', 'create', '--name', 'Acme'])).orgId);
      expect(orgId).toMatch(/^org_[0-9a-f]{16}$/);
      const user = await ok(dataDir, ['user', 'create', '--email', 'Ada@Example.com']);
      userId = String(user.userId);
      expect(user).toEqual({ userId: expect.stringMatching(/^usr_/), email: 'ada@example.com' });
      expect(await ok(dataDir, ['member', 'add', '--org', orgId, '--user', userId])).toMatchObject({
        orgId,
        userId,
        role: 'member',
      });
      expect(fs.existsSync(path.join(dataDir, 'docproc.duckdb'))).toBe(true);
    });

    it('creates keys with secrets shown once', async () => {
      const account = await ok(dataDir, [
        'account-key',
        'create',
        '--user',
        userId,
        '--org',
        orgId,
      ]);
      expect(account).toEqual({
        keyId: expect.stringMatching(/^ak_/),
        secret: expect.stringMatching(/^dpa_/),
      });
      const processing = await ok(dataDir, [
        'processing-key',
        'create',
        '--org',
        orgId,
        '--name',
        'ci',
      ]);
      expect(processing.secret).toMatch(/^dpk_/);
      const listed = await runCli(dataDir, ['processing-key', 'list', '--org', orgId]);
      expect(listed.json()).toEqual([
        expect.objectContaining({ keyId: processing.keyId, name: 'ci' }),
      ]);
      expect(listed.stdout).not.toContain(String(processing.secret));
    });

    it('lists orgs and users', async () => {
      expect(await ok(dataDir, ['org', 'list'])).toEqual([
        expect.objectContaining({ orgId, name: 'Acme' }),
      ]);
      expect(await ok(dataDir, ['user', 'list'])).toEqual([expect.objectContaining({ userId })]);
    });

    it('loads neither Nest, Swagger, class-validator, the queue and Kafka clients nor undici for an account command', async () => {
      // A resolve hook (node:module registerHooks, which sees both import and require)
      // records every module the CLI loads, and Node's own list adds its internal ones
      // (undici, behind fetch and node:http's lazy exports); written when the process exits.
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cli-loads-'));
      try {
        const hooks = path.join(scratch, 'record-loads.mjs');
        const loads = path.join(scratch, 'loads.txt');
        fs.writeFileSync(
          hooks,
          `import fs from 'node:fs';
           import { registerHooks } from 'node:module';
           const seen = new Set();
           registerHooks({ resolve(specifier, context, next) {
             const resolved = next(specifier, context);
             seen.add(resolved.url);
             return resolved;
           } });
           process.on('exit', () => fs.writeFileSync(${JSON.stringify(loads)},
             [...seen, ...process.moduleLoadList].join('\\n')));`,
        );
        const run = await new Promise<{ error: Error | null; stdout: string }>((resolve) =>
          execFile(
            process.execPath,
            ['--import', pathToFileURL(hooks).href, cliJs, 'org', 'list'],
            { env: { PATH: process.env.PATH, DATA_DIR: dataDir }, timeout: 60000 },
            (error, stdout) => resolve({ error, stdout }),
          ),
        );
        expect(run.error).toBeNull();
        expect(JSON.parse(run.stdout)).toEqual([expect.objectContaining({ orgId })]);
        const urls = fs.readFileSync(loads, 'utf8').split('\n');
        // The record is complete enough to see what the command does need.
        expect(urls.some((url) => url.includes('/node_modules/@duckdb/node-api/'))).toBe(true);
        expect(urls.some((url) => url.endsWith('/src/accounts/accounts.service.js'))).toBe(true);
        const heavy = urls.filter((url) =>
          /\/node_modules\/(@nestjs\/(core|swagger|platform-fastify)\/|@nestjs\/common\/index\.js$|class-validator\/|class-transformer\/|bullmq\/|ioredis\/|kafkajs\/)/.test(
            url,
          ),
        );
        expect(heavy).toEqual([]);
        expect(urls.filter((entry) => entry.includes('internal/deps/undici'))).toEqual([]);
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    });

    it.each([
      [
        ['user', 'create', '--email', 'not-an-email'],
        /"not-an-email" is not a valid email address/,
      ],
      [
        ['member', 'add', '--org', 'org_nope', '--user', 'usr_x'],
        /Organization org_nope does not exist/,
      ],
      [['account-key', 'create', '--user', 'usr_nope'], /User usr_nope does not exist/],
      [
        ['member', 'add', '--org', 'org_x', '--user', 'usr_x', '--role', 'god'],
        /role must be one of/,
      ],
    ])('fails with exit 1 and a clear message: %j', async (args, message) => {
      const run = await runCli(dataDir, args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^docproc-admin: /);
      expect(run.stderr).toMatch(message);
    });

    it('refuses an account key default org the user does not belong to', async () => {
      const other = String((await ok(dataDir, ['org', 'create', '--name', 'Other'])).orgId);
      const run = await runCli(dataDir, [
        'account-key',
        'create',
        '--user',
        userId,
        '--org',
        other,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not a member of organization/);
    });

    it.each([
      [['org', 'create']],
      [['org', 'explode']],
      [['org', 'create', '--name', 'x', '--bogus']],
    ])('exits 2 with usage on bad arguments: %j', async (args) => {
      const run = await runCli(dataDir, args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/error: /);
      expect(run.stderr).toMatch(/Usage: docproc-admin/);
    });

    it('ignores a stale admin.json whose process is gone', async () => {
      const gone = spawn(process.execPath, ['-e', '']);
      await exited(gone);
      const adminFile = path.join(dataDir, 'admin.json');
      fs.writeFileSync(
        adminFile,
        JSON.stringify({ url: 'http://127.0.0.1:9', token: 'x', pid: gone.pid }),
      );
      try {
        expect(await ok(dataDir, ['org', 'list'])).toHaveLength(2);
      } finally {
        fs.rmSync(adminFile);
      }
    });
  });

  describe('with the server running (HTTP mode)', () => {
    beforeAll(async () => {
      server = await startServer(dataDir);
    }, 90000);
    afterEach(() => {
      const child = server?.child;
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        throw new Error(
          `the server died (${child.signalCode ?? child.exitCode}); stderr: ${server!.stderr()}`,
        );
      }
    });

    it('runs commands through the server, which keeps the file lock, and sees earlier data', async () => {
      const orgs = (await ok(dataDir, ['org', 'list'])) as unknown as { orgId: string }[];
      expect(orgs.map((o) => o.orgId)).toContain(orgId);
      const created = await ok(dataDir, ['org', 'create', '--name', 'Made while serving']);
      const health = await fetch(`${server!.baseUrl}/health`);
      expect(health.status).toBe(200);
      // Read back whole: the server's reader may re-run the statement it prepared for the
      // first list, which could return the longer new name as garbage (DuckDbService).
      const listed = (await ok(dataDir, ['org', 'list'])) as unknown as { name: string }[];
      expect(listed.map((o) => o.name).sort()).toEqual(['Acme', 'Made while serving', 'Other']);
      expect(created.orgId).toMatch(/^org_/);
    });

    it('issues an account key the running server accepts on the dashboard API', async () => {
      const key = await ok(dataDir, ['account-key', 'create', '--user', userId, '--org', orgId]);
      const res = await fetch(`${server!.baseUrl}/api/v1/orgs`, {
        headers: { authorization: `Bearer ${String(key.secret)}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        data: [expect.objectContaining({ orgId, name: 'Acme', role: 'member' })],
      });
    });

    it('reports service errors from the server with the same messages', async () => {
      const run = await runCli(dataDir, ['member', 'add', '--org', 'org_nope', '--user', userId]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/Organization org_nope does not exist \(ORG_NOT_FOUND\)/);
      const email = await runCli(dataDir, ['user', 'create', '--email', 'nope']);
      expect(email.stderr).toMatch(/not a valid email address/);
    });

    it('refuses a ClickHouse backfill the server has no CLICKHOUSE_URL for, saying to stop it first', async () => {
      const run = await runCli(dataDir, ['usage', 'backfill', '--to', 'clickhouse']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /CLICKHOUSE_URL is not set .*stop the server.*CLICKHOUSE_NOT_CONFIGURED/,
      );
      expect(run.stderr).not.toMatch(/HTTP 500/);
    });

    it('refuses, without touching the file, while the server holds the lock but does not answer', async () => {
      server!.child.kill('SIGSTOP');
      try {
        const run = await runCli(dataDir, ['org', 'create', '--name', 'Never']);
        expect(run.code).toBe(3);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(/refusing to open .*docproc\.duckdb/);
        expect(run.stderr).toMatch(new RegExp(`docproc server \\(pid ${server!.child.pid}\\)`));
      } finally {
        server!.child.kill('SIGCONT');
      }
      const orgs = (await ok(dataDir, ['org', 'list'])) as unknown as { name: string }[];
      expect(orgs.map((o) => o.name)).not.toContain('Never');
    });

    it('refuses to compact the file while the server holds it, changing nothing', async () => {
      const file = path.join(dataDir, 'docproc.duckdb');
      const run = await runCli(dataDir, ['database', 'compact']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/refusing to compact .*docproc\.duckdb: .*stop the server/);
      expect(fs.existsSync(`${file}.before-compact`)).toBe(false);
      expect(fs.existsSync(`${file}.compacting`)).toBe(false);
    });

    it('removes admin.json on SIGTERM, after which the CLI opens the file directly', async () => {
      await server!.stop();
      // Nest's shutdown hooks clean up, then re-raise SIGTERM on themselves.
      expect(server!.child.signalCode ?? server!.child.exitCode).toMatch(/^(SIGTERM|0)$/);
      expect(server!.stderr()).not.toMatch(/error/i);
      server = undefined;
      expect(fs.existsSync(path.join(dataDir, 'admin.json'))).toBe(false);
      const orgs = (await ok(dataDir, ['org', 'list'])) as unknown as { name: string }[];
      expect(orgs.map((o) => o.name)).toContain('Made while serving');
    });

    it('compacts the file once the server is stopped, keeping every row and the former file', async () => {
      const file = path.join(dataDir, 'docproc.duckdb');
      const report = await ok(dataDir, ['database', 'compact']);
      expect(report).toMatchObject({ file, previousFile: `${file}.before-compact` });
      expect(fs.existsSync(`${file}.before-compact`)).toBe(true);
      const orgs = (await ok(dataDir, ['org', 'list'])) as unknown as { name: string }[];
      expect(orgs.map((o) => o.name).sort()).toEqual(['Acme', 'Made while serving', 'Other']);
      fs.rmSync(`${file}.before-compact`);
    });
  });

  describe('with a foreign process holding the file', () => {
    it('refuses and names the process', async () => {
      const holder = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { DuckDBInstance } from '@duckdb/node-api';
         const db = await DuckDBInstance.create(process.argv[1]);
         await db.connect();
         process.stdout.write('locked\\n');
         setInterval(() => {}, 1000);`,
          path.join(dataDir, 'docproc.duckdb'),
        ],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
        const run = await runCli(dataDir, ['org', 'list']);
        expect(run.code).toBe(3);
        expect(run.stderr).toMatch(
          new RegExp(`process ${holder.pid} holds it and is not a docproc server`),
        );
      } finally {
        holder.kill('SIGTERM');
        await exited(holder);
      }
    });
  });
});

describe.each(USAGE_STORES)(
  'docproc-admin metadata-key delete-tracking (direct mode, %s store)',
  (store) => {
    let dataDir: string;
    let env: Record<string, string>;

    beforeAll(() => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-cli-keys-'));
      env = usageStoreEnv(store);
    });
    afterAll(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** The org's rollup rows of `key` in the ClickHouse store. */
    const clickhouseRows = async (orgId: string, key: string) =>
      Number(
        await clickhouseQuery(
          `SELECT count() FROM ${env.CLICKHOUSE_DATABASE}.usage_daily_metadata
         WHERE org_id = '${orgId}' AND meta_key = '${key}'`,
        ),
      );

    it("deletes a key's tracking through the service's rule: refused again, its rows gone, unknown keys refused", async () => {
      const orgId = String((await ok(dataDir, ['org', 'create', '--name', 'Keys'], env)).orgId);
      const events = Array.from({ length: 6 }, (_, i) =>
        usageEvent({ orgId, async: true, metadata: { team: `t${i % 2}`, env: 'prod' } }),
      );
      const file = path.join(dataDir, 'events.ndjson');
      fs.writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      expect(await ok(dataDir, ['usage', 'import', '--file', file], env)).toMatchObject({
        accepted: 6,
      });
      const listed = async () =>
        (await ok(dataDir, ['metadata-key', 'list', '--org', orgId], env)) as unknown as {
          key: string;
          enabled: boolean;
          eventCount: number;
          trackingDeletedAt: string | null;
        }[];
      expect((await listed()).find((k) => k.key === 'team')).toMatchObject({
        eventCount: 6,
        trackingDeletedAt: null,
      });
      await ok(dataDir, ['metadata-key', 'enable', '--org', orgId, '--key', 'team'], env);
      if (store === 'clickhouse') expect(await clickhouseRows(orgId, 'team')).toBeGreaterThan(0);

      expect(
        await ok(
          dataDir,
          ['metadata-key', 'delete-tracking', '--org', orgId, '--key', 'team'],
          env,
        ),
      ).toEqual({ orgId, key: 'team', trackingDeleted: true });
      expect((await listed()).find((k) => k.key === 'team')).toMatchObject({
        enabled: false,
        trackingDeletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect((await listed()).find((k) => k.key === 'env')).toMatchObject({
        trackingDeletedAt: null,
      });
      const again = await runCli(
        dataDir,
        ['metadata-key', 'enable', '--org', orgId, '--key', 'team'],
        env,
      );
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/tracking was deleted.*METADATA_KEY_REJECTED/);
      if (store === 'clickhouse') {
        // Recorded in the store every ingest process reads, and the key's rows dropped there.
        const reason = await clickhouseQuery(
          `SELECT any(reason) FROM ${env.CLICKHOUSE_DATABASE}.metadata_key_rejections
         WHERE org_id = '${orgId}' AND meta_key = 'team'`,
        );
        expect(reason).toBe('had its usage tracking deleted');
        await until(
          async () => (await clickhouseRows(orgId, 'team')) === 0,
          'the rows of team to go',
        );
        expect(await clickhouseRows(orgId, 'env')).toBeGreaterThan(0);
      }

      if (store === 'clickhouse') {
        // Enabled here and never sent, the key holds its place in the store alone; deleting its
        // tracking frees it there and disables it in this file too.
        await ok(dataDir, ['metadata-key', 'enable', '--org', orgId, '--key', 'fresh'], env);
        await ok(
          dataDir,
          ['metadata-key', 'delete-tracking', '--org', orgId, '--key', 'fresh'],
          env,
        );
        expect((await listed()).find((k) => k.key === 'fresh')).toBeUndefined();
      }

      const never = await runCli(
        dataDir,
        ['metadata-key', 'delete-tracking', '--org', orgId, '--key', 'never-sent'],
        env,
      );
      expect(never.code).toBe(1);
      expect(never.stderr).toMatch(
        /not broken out by metadata key "never-sent".*METADATA_KEY_NOT_TRACKED/,
      );
    });
  },
);
