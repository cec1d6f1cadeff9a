import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ModelVersionUsedBody,
  modelVersions,
  PageUsageBody,
  responseType,
} from './result.responses.js';

/** Bodies of the stored pipeline routes and of a pipeline run (reductoai PipelineResponse). */

const anyObject = { type: 'object', additionalProperties: true } as const;

@ApiSchema({ name: 'Pipeline', description: 'A stored pipeline: its definition, as created' })
export class PipelineBody {
  @ApiProperty({ example: 'pl_5f0c…' })
  pipeline_id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiPropertyOptional({ ...anyObject, description: 'Parse options of the first step' })
  parse?: Record<string, unknown>;

  @ApiProperty({
    type: 'array',
    items: anyObject,
    description: 'Steps after the parse: each one of extract, split or classify',
  })
  steps!: Record<string, unknown>[];

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

@ApiSchema({ name: 'PipelineList' })
export class PipelineListBody {
  @ApiProperty({ type: [PipelineBody], description: 'Oldest first' })
  pipelines!: PipelineBody[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page' })
  next_cursor!: string | null;
}

@ApiSchema({ name: 'DeletedPipeline' })
export class DeletedPipelineBody {
  @ApiProperty()
  pipeline_id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

@ApiSchema({ name: 'PipelineResult' })
class PipelineResultBody {
  @ApiProperty({
    ...anyObject,
    description: "The parse step: a ParseResponse whose job_id is the pipeline's",
  })
  parse!: Record<string, unknown>;

  @ApiProperty({
    ...anyObject,
    nullable: true,
    description:
      'The extract step (or the extract of the category classify chose, with `category`): an ExtractResponse without job_id',
  })
  extract!: Record<string, unknown> | null;

  @ApiProperty({ ...anyObject, nullable: true, description: 'The split step: a SplitResponse' })
  split!: Record<string, unknown> | null;

  @ApiProperty({
    ...anyObject,
    nullable: true,
    description: 'The classify step: a ClassifyResponse',
  })
  classify!: Record<string, unknown> | null;
}

@ApiSchema({ name: 'PipelineUsage' })
class PipelineUsageBody extends PageUsageBody {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Credits of each step, by feature (parse, extract, split, classify, deep_*)',
  })
  credit_breakdown!: Record<string, number>;
}

@ApiExtraModels(ModelVersionUsedBody)
@ApiSchema({ name: 'PipelineResponse' })
export class PipelineResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty(responseType('pipeline'))
  response_type?: 'pipeline';

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiProperty({ type: PipelineResultBody })
  result!: PipelineResultBody;

  @ApiProperty({ type: PipelineUsageBody, description: 'Pages read; credits of every step' })
  usage!: PipelineUsageBody;

  @ApiProperty(modelVersions)
  model_versions!: Record<string, ModelVersionUsedBody>;
}
