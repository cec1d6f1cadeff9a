import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

// Jest loads this file (and the teardown) as CommonJS outside the module mapper, so it
// imports nothing relative; the teardown only calls the `stop` this setup leaves behind.

const run = promisify(execFile);

type ServiceName = 'kafka' | 'redis' | 'clickhouse' | 'clickhouse-shards';

/** A service this run started: the script's variables (ports) that select its instance. */
interface OwnedService {
  name: ServiceName;
  env: Record<string, string>;
}

declare global {
  /** Set by global setup, called by global teardown (same process). */
  var __docprocStopTestServices: (() => Promise<void>) | undefined;
}

/** Runs `scripts/<name>.sh <command>`; returns the `export X=Y` lines it printed as a map. */
async function serviceScript(
  root: string,
  name: ServiceName,
  command: string,
  env: Record<string, string> = {},
): Promise<Record<string, string>> {
  const pending = run('bash', [path.join(root, 'scripts', `${name}.sh`), command], {
    env: { ...process.env, ...env },
  });
  // Progress (such as the first download of Kafka) goes to the developer's terminal.
  pending.child.stderr?.pipe(process.stderr);
  const { stdout } = await pending;
  const exported: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) exported[match[1]] = match[2];
  }
  return exported;
}

async function isRunning(root: string, name: ServiceName): Promise<boolean> {
  return serviceScript(root, name, 'status').then(
    () => true,
    () => false,
  );
}

/**
 * Distinct free loopback ports, so concurrent test runs on one machine never share a broker.
 * (test/support/free-port.mjs does the same for the specs; this file cannot import it.)
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** What a service script says when a port it was given was bound by another process first. */
const PORT_TAKEN =
  /EADDRINUSE|address already in use|BindException|in use by another process|already serves another/i;

/** The script's variables that put an instance of `name` on `ports`. */
function portEnv(name: ServiceName, ports: number[]): Record<string, string> {
  switch (name) {
    case 'kafka':
      return { KAFKA_PORT: String(ports[0]), KAFKA_CONTROLLER_PORT: String(ports[1]) };
    case 'clickhouse':
      return { CLICKHOUSE_HTTP_PORT: String(ports[0]), CLICKHOUSE_TCP_PORT: String(ports[1]) };
    case 'clickhouse-shards':
      return { CLICKHOUSE_SHARD_PORTS: ports.join(' ') };
    case 'redis':
      return { REDIS_PORT: String(ports[0]) };
  }
}

/** The variable that gives the specs each service's address, and the script's it is set from. */
const SPEC_VARIABLES: Record<ServiceName, { spec: string; script: string }> = {
  kafka: { spec: 'TEST_KAFKA_BROKERS', script: 'KAFKA_BROKERS' },
  redis: { spec: 'TEST_REDIS_URL', script: 'REDIS_URL' },
  clickhouse: { spec: 'TEST_CLICKHOUSE_URL', script: 'CLICKHOUSE_URL' },
  'clickhouse-shards': { spec: 'TEST_CLICKHOUSE_SHARD_URLS', script: 'CLICKHOUSE_SHARD_URLS' },
};

const PORT_COUNT: Record<ServiceName, number> = {
  kafka: 2,
  clickhouse: 2,
  'clickhouse-shards': 4,
  redis: 1,
};

/**
 * A developer's own instance (`scripts/kafka.sh start`, `scripts/redis.sh start`) is reused
 * and left running, which makes repeated runs fast, unless DOCPROC_TEST_OWN_SERVICES=1
 * (`scripts/test-all.sh`); otherwise this run gets a private instance on free ports that
 * teardown removes. Free ports can be taken by another process before the service binds
 * them: a start that fails so is made again on new ones. Returns the service's exported
 * variables.
 */
async function provide(
  root: string,
  name: ServiceName,
  owned: OwnedService[],
): Promise<Record<string, string>> {
  if (process.env.DOCPROC_TEST_OWN_SERVICES !== '1' && (await isRunning(root, name))) {
    return serviceScript(root, name, 'env');
  }
  for (let attempt = 1; ; attempt++) {
    const service = { name, env: portEnv(name, await freePorts(PORT_COUNT[name])) };
    // Recorded before starting, so a start that fails half-way is still cleaned up.
    owned.push(service);
    try {
      return await serviceScript(root, name, 'start', service.env);
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      if (!PORT_TAKEN.test(stderr) || attempt >= 5) throw error;
      owned.splice(owned.indexOf(service), 1);
      await serviceScript(root, name, stopCommand(service), service.env).catch(() => undefined);
    }
  }
}

function stopCommand(service: OwnedService): string {
  return service.name === 'redis' ? 'stop' : 'reset';
}

/**
 * If jest dies before its teardown (killed, crashed), this detached watcher stops what the
 * run started once the jest process is gone. Returns the watcher's pid.
 */
function watchForOrphans(root: string, owned: OwnedService[]): number | undefined {
  if (owned.length === 0) return undefined;
  const stops = owned
    .map((s) => {
      const vars = Object.entries(s.env).map(([k, v]) => `${k}=${v}`);
      const script = path.join(root, 'scripts', `${s.name}.sh`);
      return `${vars.join(' ')} bash '${script}' ${stopCommand(s)}`;
    })
    .join('; ');
  const watcher = spawn(
    'bash',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${stops}`],
    { detached: true, stdio: 'ignore' },
  );
  watcher.unref();
  return watcher.pid;
}

/**
 * Jest global setup: the real Kafka broker, Redis, ClickHouse server and two-shard ClickHouse
 * cluster the integration specs use. `scripts/test-all.sh` (CI) starts them itself and passes
 * TEST_KAFKA_BROKERS, TEST_REDIS_URL, TEST_CLICKHOUSE_URL and TEST_CLICKHOUSE_SHARD_URLS; when a developer runs jest directly without them, they are provided here
 * and the workers inherit the variables. DOCPROC_TEST_SERVICES=none (or a list such as
 * `redis`) limits this for quick unit-only runs; specs needing a missing service then fail
 * with a message saying so.
 */
export default async function globalSetup(
  _globalConfig: unknown,
  projectConfig: { rootDir: string },
): Promise<void> {
  const root = projectConfig.rootDir;
  const wanted = (
    process.env.DOCPROC_TEST_SERVICES ?? 'kafka,redis,clickhouse,clickhouse-shards'
  ).split(',');
  const owned: OwnedService[] = [];
  const tasks: Promise<void>[] = [];
  for (const name of Object.keys(SPEC_VARIABLES) as ServiceName[]) {
    const { spec, script } = SPEC_VARIABLES[name];
    if (!wanted.includes(name) || process.env[spec]) continue;
    tasks.push(
      provide(root, name, owned).then((out) => {
        process.env[spec] = out[script];
      }),
    );
  }
  const settled = await Promise.allSettled(tasks);
  const watcherPid = watchForOrphans(root, owned);
  globalThis.__docprocStopTestServices = async () => {
    if (watcherPid !== undefined) {
      try {
        process.kill(watcherPid);
      } catch {
        // already gone
      }
    }
    await Promise.all(owned.map((s) => serviceScript(root, s.name, stopCommand(s), s.env)));
  };
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
