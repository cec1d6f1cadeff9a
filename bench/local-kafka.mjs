// Shared by the Kafka benchmarks (bench:ingest, bench:ingest-floor): their `--name value`
// options and the broker they run against.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `--events 2000000 --partitions 3` as `{ events: '2000000', partitions: '3' }`. */
export function benchArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv
      .join(' ')
      .split('--')
      .filter(Boolean)
      .map((pair) => pair.trim().split(/\s+/, 2)),
  );
}

/** KAFKA_BROKERS, or the broker `scripts/kafka.sh start` runs (started if need be). */
export function localBrokers() {
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS;
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/kafka.sh'), 'start'], {
    encoding: 'utf8',
  });
  return /KAFKA_BROKERS=(\S+)/.exec(out)[1];
}
