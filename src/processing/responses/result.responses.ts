import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';

/**
 * Response bodies of the operations that return results (classify, parse, extract, split),
 * after the reductoai SDK's types. The same object is a sync response and a job's `result`.
 */

/** `force_url_result`: the result is fetched from a signed, expiring URL (no key needed). */
@ApiSchema({ name: 'URLResult' })
export class UrlResultBody {
  @ApiProperty({ enum: ['url'] })
  type!: 'url';

  @ApiProperty({ format: 'uri', description: 'GET it for the full response; expires' })
  url!: string;

  @ApiProperty({ description: 'The job id' })
  result_id!: string;
}

@ApiSchema({ name: 'ModelVersionUsed' })
export class ModelVersionUsedBody {
  @ApiProperty({ example: 'layout-v3' })
  version!: string;

  @ApiProperty({ enum: ['alpha', 'default', 'deprecated'] })
  stage!: string;

  @ApiProperty({ description: 'Whether the request pinned this version' })
  pinned!: boolean;

  @ApiPropertyOptional({ enum: [true], description: 'Present on frozen on-prem snapshots' })
  frozen_snapshot?: true;
}

export const modelVersions = {
  type: 'object',
  additionalProperties: { $ref: getSchemaPath(ModelVersionUsedBody) },
  description: 'Model version used, by model family',
} as const;

/** One of several shapes; `anyOf`, as the shapes share fields and carry no discriminator. */
export const either = (...classes: (abstract new () => unknown)[]) => ({
  anyOf: classes.map((cls) => ({ $ref: getSchemaPath(cls) })),
});

@ApiSchema({ name: 'PageUsage' })
export class PageUsageBody {
  @ApiProperty({ type: 'integer' })
  num_pages!: number;

  @ApiProperty()
  credits!: number;
}

/** `{job_id}` of every `*_async` submission. */
@ApiSchema({ name: 'AsyncJobResponse' })
export class AsyncJobResponseBody {
  @ApiProperty({ description: 'Poll with `GET /job/{job_id}`' })
  job_id!: string;
}

/**
 * `response_type`, the tag the reductoai SDK tells responses apart by. Optional: results
 * stored before it was added are read without it.
 */
export function responseType(tag: string) {
  return {
    enum: [tag],
    required: false,
    description: `\`${tag}\`; absent from results stored by versions that did not send it`,
  } as const;
}
