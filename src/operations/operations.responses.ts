import {
  ApiExtraModels,
  ApiProperty,
  type ApiPropertyOptions,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';

/** Bodies of the operational endpoints (health, readiness, queues, drain, rollout). */

@ApiSchema({ name: 'Health' })
export class HealthBody {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

@ApiSchema({ name: 'ReadinessCheck' })
class ReadinessCheckBody {
  @ApiProperty()
  ready!: boolean;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Why, or what it does' })
  detail!: Record<string, unknown>;
}

@ApiExtraModels(ReadinessCheckBody)
@ApiSchema({ name: 'Readiness' })
export class ReadinessBody {
  @ApiProperty({ enum: ['ready'] })
  status!: 'ready';

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ReadinessCheckBody) },
  })
  checks!: Record<string, ReadinessCheckBody>;
}

const laneDepths: ApiPropertyOptions = {
  type: 'object',
  description: 'Queued and running tasks per lane (`priority`, `standard`, `batch`)',
  additionalProperties: {
    type: 'object',
    properties: { queued: { type: 'integer' }, running: { type: 'integer' } },
    required: ['queued', 'running'],
  },
};

@ApiSchema({ name: 'QueueDepth' })
class QueueDepthBody {
  @ApiProperty({ enum: ['cpu', 'io'] })
  queue!: string;

  @ApiProperty({ type: 'integer', description: 'Queued plus running' })
  active!: number;

  @ApiProperty(laneDepths)
  lanes!: Record<string, unknown>;
}

@ApiSchema({ name: 'CombinedQueueDepth', description: 'Both queue systems together' })
class CombinedDepthBody extends QueueDepthBody {
  @ApiProperty({ type: QueueDepthBody })
  legacy!: QueueDepthBody;

  @ApiProperty({ type: QueueDepthBody, nullable: true, description: 'null without REDIS_URL' })
  new_queue!: QueueDepthBody | null;
}

@ApiExtraModels(CombinedDepthBody)
@ApiSchema({ name: 'QueueMetrics' })
export class QueueMetricsBody {
  @ApiProperty({ type: 'integer', description: 'Queued plus running jobs on the cpu queue' })
  queue_cpu_active_queue_length!: number;

  @ApiProperty({ type: 'integer', description: 'Queued plus running jobs on the io queue' })
  queue_io_active_queue_length!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(CombinedDepthBody) },
  })
  queues!: Record<string, CombinedDepthBody>;
}

@ApiSchema({ name: 'DrainStatus' })
export class DrainStatusBody {
  @ApiProperty({ description: 'True when the legacy database queue has no work left' })
  drained!: boolean;

  @ApiProperty({ type: 'integer' })
  legacy_active_tasks!: number;
}

@ApiSchema({ name: 'LegacyWorkers' })
class LegacyWorkersBody {
  @ApiProperty()
  worker_enabled!: boolean;

  @ApiProperty({ type: 'integer' })
  priority_count!: number;

  @ApiProperty()
  gpu_worker_enabled!: boolean;

  @ApiProperty()
  enabled!: boolean;
}

@ApiSchema({ name: 'Rollout' })
export class RolloutBody {
  @ApiProperty({ description: 'True when REDIS_URL is set in this process' })
  new_queue_configured!: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
    description: 'Effective share of each operation routed to the new queue system',
  })
  ratios!: Record<string, number>;

  @ApiProperty()
  all_ratios_one!: boolean;

  @ApiProperty({ type: LegacyWorkersBody })
  legacy_workers!: LegacyWorkersBody;
}
