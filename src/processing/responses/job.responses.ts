import { ApiExtraModels, ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { ClassifyResponseBody } from './classify.responses.js';
import {
  ExtractResponseBody,
  ParseResponseBody,
  SplitResponseBody,
} from './operation.responses.js';
import { EditResponseBody } from './edit.responses.js';
import { PipelineResponseBody } from './pipeline.responses.js';

/** Bodies of the job routes (reductoai SDK `job.get/getAll/cancel`). */

/** Any operation's response: a job's `result`, and what a `force_url_result` URL serves. */
export const OPERATION_RESPONSE = {
  anyOf: [
    { $ref: getSchemaPath(ClassifyResponseBody) },
    { $ref: getSchemaPath(ParseResponseBody) },
    { $ref: getSchemaPath(ExtractResponseBody) },
    { $ref: getSchemaPath(SplitResponseBody) },
    { $ref: getSchemaPath(EditResponseBody) },
    { $ref: getSchemaPath(PipelineResponseBody) },
  ],
};

@ApiExtraModels(
  ClassifyResponseBody,
  ParseResponseBody,
  ExtractResponseBody,
  SplitResponseBody,
  EditResponseBody,
  PipelineResponseBody,
)
@ApiSchema({ name: 'Job' })
export class JobBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty({
    enum: ['Pending', 'Idle', 'Completed', 'Failed'],
    description: '`Idle`: queued where no worker of this deployment claims it',
  })
  status!: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  progress!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed or has no result' })
  reason!: string | null;

  @ApiProperty({
    anyOf: [...OPERATION_RESPONSE.anyOf, { type: 'null' }],
    description: 'The operation response, once Completed (null after the retention period)',
  })
  result!: unknown;

  @ApiProperty({ enum: ['Classify', 'Parse', 'Extract', 'Split', 'Edit', 'Pipeline'] })
  type!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Seconds, once finished' })
  duration!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  num_pages!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  total_pages!: number | null;
}

@ApiSchema({ name: 'JobListItem' })
class JobListItemBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: ['Pending', 'Idle', 'InProgress', 'Completed', 'Failed', 'Cancelled'] })
  status!: string;

  @ApiProperty({ enum: ['Classify', 'Parse', 'Extract', 'Split', 'Edit', 'Pipeline'] })
  type!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: Number, nullable: true })
  duration!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  num_pages!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  total_pages!: number | null;

  @ApiProperty({ description: 'The request as JSON; empty with exclude_configs' })
  raw_config!: string;
}

@ApiSchema({ name: 'JobList' })
export class JobListBody {
  @ApiProperty({ type: [JobListItemBody], description: 'Newest first' })
  jobs!: JobListItemBody[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page' })
  next_cursor!: string | null;
}

@ApiSchema({ name: 'CancelJobResponse' })
export class CancelJobBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: ['Cancelled', 'Cancelling'] })
  status!: string;
}

@ApiSchema({ name: 'DeleteJobResponse' })
export class DeleteJobBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}
