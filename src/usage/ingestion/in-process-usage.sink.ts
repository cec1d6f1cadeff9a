import { Injectable, Logger } from '@nestjs/common';
import type { UsageCloudEvent, UsageEventSink } from '../usage-event.js';
import { UsageIngestService } from './usage-ingest.service.js';

/**
 * The embedded mode's usage bus: events go straight through the same ingestion code the
 * Kafka consumer uses. A refused event is an internal defect here (the processing plane
 * made it), so it is logged loudly rather than dead-lettered.
 */
@Injectable()
export class InProcessUsageSink implements UsageEventSink {
  private readonly logger = new Logger(InProcessUsageSink.name);

  constructor(private readonly ingest: UsageIngestService) {}

  async publish(events: UsageCloudEvent[]): Promise<void> {
    const outcome = await this.ingest.ingest(events);
    for (const { index, rejection } of outcome.rejected) {
      this.logger.error(
        { eventId: events[index].id, ...rejection },
        'usage event refused by ingestion',
      );
    }
  }
}
