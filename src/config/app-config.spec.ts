import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';
import { ConfigError } from './config-error.js';

describe('DuckDB settings', () => {
  it("bounds DuckDB's buffer pool and the data kept between checkpoints by default", () => {
    const config = loadConfig({});
    expect(config.duckdbMemoryLimit).toBe('256MB');
    expect(config.duckdbCheckpointThreshold).toBe('64MB');
  });

  it('reads a memory limit and refuses one that is not a size, naming the variable', () => {
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '1GB' }).duckdbMemoryLimit).toBe('1GB');
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: 'lots' })).toThrow(/DUCKDB_MEMORY_LIMIT/);
  });
});

describe('Kafka consumer settings', () => {
  it('lets as many partition batches wait for the writer as the topic has partitions', () => {
    const kafka = loadConfig({ KAFKA_BROKERS: '127.0.0.1:9092' }).kafka!;
    expect(kafka.consumer.partitionsConsumedConcurrently).toBe(kafka.topicPartitions);
  });
});
