// A bare kafkajs consumer draining a topic, timed: the floor that bench:ingest and
// bench:ingest-floor compare the service with.
import { performance } from 'node:perf_hooks';

/**
 * Drains `total` messages of `topic` with a fresh consumer group on the service's fetch
 * settings (`settings` = the loaded config's `kafka.consumer`), calling `handle(value, now)`
 * on each value. Timed from the first batch, so group join and the first fetch are not
 * counted. `sample()` is read at the start and the end of that span (e.g. another process's
 * CPU) and returned as `samples`.
 */
export async function drainTimed(
  kafka,
  { topic, groupId, total, partitions, settings, handle, sample = () => null },
) {
  const { minBytes, maxBytes, maxBytesPerPartition, maxWaitTimeInMs } = settings;
  const consumer = kafka.consumer({
    groupId,
    minBytes,
    maxBytes,
    maxBytesPerPartition,
    maxWaitTimeInMs,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const now = new Date();
  let seen = 0;
  let startSample;
  let started;
  let cpu0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  await consumer.run({
    partitionsConsumedConcurrently: partitions,
    eachBatch: async ({ batch }) => {
      if (started === undefined) {
        startSample = sample();
        started = performance.now();
        cpu0 = process.cpuUsage();
      }
      for (const message of batch.messages) handle(message.value, now);
      seen += batch.messages.length;
      if (seen >= total) done();
    },
  });
  await finished;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const endSample = sample();
  await consumer.disconnect();
  return {
    events: seen,
    seconds,
    cpuMicros: cpu.user + cpu.system,
    samples: [startSample, endSample],
  };
}
