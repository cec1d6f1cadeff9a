import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DrainStatusBody, QueueMetricsBody, RolloutBody } from '../operations.responses.js';
import { Controller, Get } from '@nestjs/common';
import { QUEUES, type QueueName } from '../../config/queue.types.js';
import {
  QueueStatus,
  type CombinedDepth,
  type RolloutReport,
} from '../../processing/queue/queue-status.js';

/**
 * The self-hosted operational endpoints (unauthenticated like `/health` and `/metrics`:
 * serve them on an internal network only).
 */
@ApiTags('operations (self-hosted)')
@Controller()
export class QueueOperationsController {
  constructor(private readonly queues: QueueStatus) {}

  /** Queued plus running jobs per queue, both queue systems together, with per-lane detail. */
  @Get('queue_metrics')
  @ApiOperation({ summary: 'Queued plus running jobs per queue, with per-lane detail' })
  @ApiOkResponse({ type: QueueMetricsBody })
  async queueMetrics(): Promise<Record<string, unknown>> {
    const read = await Promise.all(QUEUES.map((q) => this.queues.depth(q)));
    const byQueue = Object.fromEntries(read.map((d) => [d.queue, d])) as Record<
      QueueName,
      CombinedDepth
    >;
    return {
      queue_cpu_active_queue_length: byQueue.cpu.active,
      queue_io_active_queue_length: byQueue.io.active,
      queues: byQueue,
    };
  }

  /** True when the legacy database queue has no queued or running worker task. */
  @Get('drain_status')
  @ApiOperation({ summary: 'Whether the legacy database queue has drained' })
  @ApiOkResponse({ type: DrainStatusBody })
  async drainStatus(): Promise<{ drained: boolean; legacy_active_tasks: number }> {
    const active = await this.queues.legacyActiveTasks();
    return { drained: active === 0, legacy_active_tasks: active };
  }

  /** The rollout ratios this running process routes by, and its legacy worker roles. */
  @Get('rollout')
  @ApiOperation({ summary: 'The rollout ratios this process routes by' })
  @ApiOkResponse({ type: RolloutBody })
  report(): RolloutReport {
    return this.queues.rolloutReport();
  }
}
