import { Logger } from '@nestjs/common';
import { Kafka, logLevel, type ConsumerConfig, type LogEntry } from 'kafkajs';
import type { KafkaConfig } from '../../../config/app-config.js';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
}

/**
 * A kafkajs client whose log lines go through the Nest logger (so pino formats them).
 * kafkajs INFO is chatty (every join and commit), so it is logged at debug level.
 */
export function createKafka(options: KafkaClientOptions, logger = new Logger('kafkajs')): Kafka {
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    // Local brokers come up in seconds; reconnecting forever is the consumer's job, not the client's.
    connectionTimeout: 5_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 300, retries: 8, maxRetryTime: 10_000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        const { message, ...extra } = log;
        const line = `${namespace}: ${message}`;
        if (level === logLevel.ERROR) logger.error(extra, line);
        else if (level === logLevel.WARN) logger.warn(extra, line);
        else logger.debug(extra, line);
      },
  });
}

/** The usage consumer's kafkajs options, from the settings. */
export function usageConsumerOptions(config: KafkaConfig): ConsumerConfig {
  const tuning = config.consumer;
  return {
    groupId: config.consumerGroup,
    minBytes: tuning.minBytes,
    maxBytes: tuning.maxBytes,
    maxBytesPerPartition: tuning.maxBytesPerPartition,
    maxWaitTimeInMs: tuning.maxWaitTimeInMs,
    sessionTimeout: tuning.sessionTimeoutMs,
    heartbeatInterval: Math.min(3_000, Math.floor(tuning.sessionTimeoutMs / 3)),
    // Retries of one failing batch in place; after them kafkajs restarts the consumer
    // (restartOnFailure defaults to true) and refetches from the committed offset.
    retry: { initialRetryTime: 500, retries: 5, maxRetryTime: 10_000 },
  };
}
