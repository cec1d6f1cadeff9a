import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';
import { ConfigError } from './config-error.js';
import { MAX_TIMER_MS } from './setting.js';
import { NOT_SETTINGS, renderConfigurationDoc, settingNames } from './configuration-doc.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Variable names read as `process.env.X`, `env.X`, `env['X']` (TS) or `${X:-...}` (shell). */
function variablesRead(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const pattern = file.endsWith('.sh')
    ? /\$\{([A-Z][A-Z0-9_]*):-/g
    : /\benv(?:\.|\[\s*['"`])([A-Z][A-Z0-9_]*)/g;
  return [...source.matchAll(pattern)].map((match) => match[1]);
}

describe('configuration reference', () => {
  it('docs/configuration.md is what npm run docs:config generates from the schema', () => {
    const committed = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
    expect(committed).toBe(renderConfigurationDoc());
  });

  it('every variable the code reads is in the schema (or named as not a setting)', () => {
    const files = [
      ...sourceFiles(path.join(ROOT, 'src')),
      // Scripts the deployment runs beside the server: the liveness probe, the build.
      path.join(ROOT, 'scripts', 'worker-liveness.sh'),
      path.join(ROOT, 'scripts', 'build-info.mjs'),
    ];
    const known = new Set([...settingNames(), ...Object.keys(NOT_SETTINGS)]);
    const unknown = files.flatMap((file) =>
      variablesRead(file)
        .filter((name) => !known.has(name))
        .map((name) => `${name} (${path.relative(ROOT, file)})`),
    );
    expect(unknown).toEqual([]);
    // The scan itself finds reads: a pattern that matched nothing would pass vacuously.
    expect(variablesRead(path.join(ROOT, 'scripts', 'worker-liveness.sh'))).toContain(
      'WORKER_STATE_FILE',
    );
  });

  it('names each variable once, SCREAMING_SNAKE_CASE', () => {
    const names = settingNames();
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
});

describe(loadConfig.name, () => {
  it('refuses a bad value with a message naming the variable, what it expects and what it got', () => {
    expect(() => loadConfig({ PORT: 'http' })).toThrow(
      new ConfigError('PORT', 'must be an integer 0 to 65535, got "http"'),
    );
    expect(() => loadConfig({ KAFKA_FETCH_MAX_WAIT_MS: '-1' })).toThrow(/KAFKA_FETCH_MAX_WAIT_MS/);
    expect(() => loadConfig({ WORKER_ENABLED: 'maybe' })).toThrow(
      /WORKER_ENABLED: must be true or false, got "maybe"/,
    );
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL: must be one of fatal/);
    expect(() => loadConfig({ KAFKA_BROKERS: 'localhost' })).toThrow(/KAFKA_BROKERS: each broker/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'example.com' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadConfig({ METADATA_KEY_MAX_DISTINCT_RATIO: '2' })).toThrow(
      /METADATA_KEY_MAX_DISTINCT_RATIO: must be a number from 0.01 to 1/,
    );
  });

  it('refuses a time limit longer than a Node timer can wait, which would fire after 1 ms', () => {
    const timeLimits = [
      'FETCH_TIMEOUT_MS',
      'FETCH_DEADLINE_MS',
      'WORKER_SHUTDOWN_GRACE_MS',
      'QUEUE_POLL_INTERVAL_MS',
      'WEBHOOK_RETRY_BASE_MS',
      'WEBHOOK_RETRY_MAX_MS',
      'WEBHOOK_TIMEOUT_MS',
      'OUTBOX_RELAY_INTERVAL_MS',
      'TASK_TIME_LIMIT_MS',
      'EXECUTOR_IDLE_MS',
    ];
    for (const name of timeLimits) {
      expect(() => loadConfig({ [name]: String(MAX_TIMER_MS + 1) })).toThrow(
        new RegExp(`${name}: must be an integer \\d+ to ${MAX_TIMER_MS}, got`),
      );
      expect(() => loadConfig({ [name]: String(MAX_TIMER_MS) })).not.toThrow();
    }
  });

  it('refuses link lifetimes and a retention past ten years, whose dates would overflow', () => {
    for (const name of [
      'PRESIGN_TTL_SECONDS',
      'RESULT_URL_TTL_SECONDS',
      'JOB_RESULT_RETENTION_SECONDS',
    ]) {
      expect(() => loadConfig({ [name]: '9007199254740991' })).toThrow(
        new RegExp(`${name}: must be an integer \\d+ to 315360000, got`),
      );
    }
  });

  it('refuses a DuckDB memory limit its start-up migrations do not fit in', () => {
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: '8MB' })).toThrow(
      /DUCKDB_MEMORY_LIMIT: must be a size such as 256MB, at least 12MB, got "8MB"/,
    );
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: '0MB' })).toThrow(/DUCKDB_MEMORY_LIMIT/);
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '12MB' }).duckdbMemoryLimit).toBe('12MB');
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '1GiB' }).duckdbMemoryLimit).toBe('1GiB');
    expect(loadConfig({ DUCKDB_CHECKPOINT_THRESHOLD: '0MB' }).duckdbCheckpointThreshold).toBe(
      '0MB',
    );
  });

  it('never echoes a refused secret or the credentials in a refused URL', () => {
    const refusals = {
      WEBHOOK_SIGNING_KEY: 'hunter2 is my signing key',
      ADMIN_TOKEN: 'hunter2',
      CLICKHOUSE_URL: 'ftp://default:hunter2@127.0.0.1:8123',
      REDIS_URL: 'redis//:hunter2@127.0.0.1:6379',
    };
    for (const [name, value] of Object.entries(refusals)) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain('hunter2');
    }
    expect(() => loadConfig({ ADMIN_TOKEN: 'hunter2' })).toThrow(
      /ADMIN_TOKEN: must be at least 16 characters, got a value of 7 characters \(not shown\)/,
    );
    expect(() => loadConfig({ REDIS_URL: 'redis//:hunter2@127.0.0.1:6379' })).toThrow(
      /got "redis\/\/\[REDACTED\]@127.0.0.1:6379"/,
    );
  });

  it('refuses a topic name Kafka would refuse', () => {
    expect(() => loadConfig({ KAFKA_USAGE_TOPIC: 'usage:v1' })).toThrow(
      /KAFKA_USAGE_TOPIC: must be a Kafka topic name/,
    );
    expect(() => loadConfig({ KAFKA_USAGE_TOPIC: '..' })).toThrow(/KAFKA_USAGE_TOPIC/);
    expect(() => loadConfig({ KAFKA_USAGE_TOPIC: 'u'.repeat(246) })).toThrow(/KAFKA_USAGE_TOPIC/);
    expect(() => loadConfig({ KAFKA_DLQ_TOPIC: 'dead letters' })).toThrow(/KAFKA_DLQ_TOPIC/);
    const config = loadConfig({ KAFKA_BROKERS: 'a:1', KAFKA_USAGE_TOPIC: 'team-a.usage_v1' });
    expect(config.kafka).toMatchObject({
      usageTopic: 'team-a.usage_v1',
      deadLetterTopic: 'team-a.usage_v1.dlq',
    });
  });

  it('reports every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'x', REDIS_URL: 'localhost:6379', JOB_MAX_ATTEMPTS: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('PORT');
    expect((error as Error).message).toMatch(
      /^Invalid environment variables: PORT: .*; JOB_MAX_ATTEMPTS: .*; REDIS_URL: must be redis/,
    );
  });

  it('checks settings that depend on each other', () => {
    expect(() => loadConfig({ ROLLOUT_RATIO_PARSE: '0.5' })).toThrow(
      /ROLLOUT_RATIO_PARSE: a rollout ratio above 0 needs the new queue system/,
    );
    expect(() => loadConfig({ AUTH_DISABLED: 'true' })).toThrow(/AUTH_DEFAULT_ORG_ID/);
  });

  it('derives defaults from other settings and converts units', () => {
    const config = loadConfig({
      PORT: '4000',
      DATA_DIR: '/srv/docproc',
      KAFKA_BROKERS: 'a:9092, b:9093',
      KAFKA_USAGE_TOPIC: 'usage',
      TERMINATION_GRACE_PERIOD_SECONDS: '12',
      USAGE_ROLLUP_CLUSTER_INTERVAL_MIN: '2',
    });
    expect(config.publicBaseUrl).toBe('http://localhost:4000');
    expect(config.databaseFile).toBe('/srv/docproc/docproc.duckdb');
    expect(config.kafka).toMatchObject({
      brokers: ['a:9092', 'b:9093'],
      deadLetterTopic: 'usage.dlq',
    });
    expect(config.processing.workerShutdownGraceMs).toBe(12_000);
    expect(config.usage.rollupClusterIntervalMs).toBe(120_000);
    expect(config.operations.redis).toBeNull();
    expect(loadConfig({}).kafka).toBeNull();
  });
});
