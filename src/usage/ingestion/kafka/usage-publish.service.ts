import fs from 'node:fs';
import readline from 'node:readline';
import { Injectable } from '@nestjs/common';
import { KafkaClients } from './kafka-clients.service.js';

export interface PublishReport {
  topic: string;
  /** Messages acknowledged by the broker. */
  published: number;
  /** Of those, lines without a string `data.orgId` (sent unkeyed; the consumer will dead-letter them). */
  unkeyed: number;
}

const BATCH_SIZE = 2_000;

/**
 * Backfills: sends an NDJSON file of usage CloudEvents to the usage topic, line for line,
 * through the idempotent producer. It does not validate: the consumer is the one place
 * that does, and refused lines end in the dead-letter topic with a reason.
 */
@Injectable()
export class UsagePublishService {
  constructor(private readonly clients: KafkaClients) {}

  async publishFile(path: string): Promise<PublishReport> {
    const producer = this.clients.producer();
    const report: PublishReport = { topic: producer.topic, published: 0, unkeyed: 0 };
    let batch: string[] = [];
    const flush = async () => {
      const keys = await this.clients.toUsageTopic(
        (usage) => usage.publishRaw(batch),
        `${report.published} lines were published before this batch; run the file again once it exists (the consumer counts each event once)`,
      );
      report.published += batch.length;
      report.unkeyed += keys.filter((k) => k === null).length;
      batch = [];
    };
    const lines = readline.createInterface({
      input: fs.createReadStream(path),
      crlfDelay: Infinity,
    });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      batch.push(line);
      if (batch.length >= BATCH_SIZE) await flush();
    }
    if (batch.length > 0) await flush();
    return report;
  }
}
