import { Logger } from '@nestjs/common';
import { Kafka, logLevel, type LogEntry } from 'kafkajs';

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
