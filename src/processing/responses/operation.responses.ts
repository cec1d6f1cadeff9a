import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  either,
  ModelVersionUsedBody,
  modelVersions,
  PageUsageBody,
  responseType,
  UrlResultBody,
} from './result.responses.js';

/** Parse, extract and split responses (sync bodies and their jobs' `result`). */
// ---- parse --------------------------------------------------------------------------------

@ApiSchema({ name: 'BoundingBox' })
export class BoundingBoxBody {
  @ApiProperty({ description: 'Fraction of the page width' })
  left!: number;

  @ApiProperty({ description: 'Fraction of the page height' })
  top!: number;

  @ApiProperty()
  width!: number;

  @ApiProperty()
  height!: number;

  @ApiProperty({ type: 'integer', description: '1-indexed' })
  page!: number;
}

@ApiSchema({ name: 'TableCells' })
class TableCellsBody {
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  rows!: string[][];
}

@ApiSchema({ name: 'ParseBlock' })
class ParseBlockBody {
  @ApiProperty({ example: 'Title' })
  type!: string;

  @ApiProperty({ type: BoundingBoxBody })
  bbox!: BoundingBoxBody;

  @ApiProperty()
  content!: string;

  @ApiProperty({ enum: ['high', 'low'] })
  confidence!: string;

  @ApiPropertyOptional({ type: TableCellsBody, nullable: true })
  extra?: TableCellsBody | null;
}

@ApiSchema({ name: 'ParseChunk' })
class ParseChunkBody {
  @ApiProperty({ description: 'Markdown of the blocks' })
  content!: string;

  @ApiProperty()
  embed!: string;

  @ApiProperty({ type: 'null' })
  enriched!: null;

  @ApiProperty({ enum: [false] })
  enrichment_success!: false;

  @ApiProperty({ type: [ParseBlockBody] })
  blocks!: ParseBlockBody[];
}

@ApiSchema({ name: 'OcrText' })
class OcrTextBody {
  @ApiProperty()
  text!: string;

  @ApiProperty({ type: BoundingBoxBody })
  bbox!: BoundingBoxBody;

  @ApiProperty({ type: Number, nullable: true })
  confidence!: number | null;
}

@ApiSchema({ name: 'OcrData' })
class OcrDataBody {
  @ApiProperty({ type: [OcrTextBody] })
  lines!: OcrTextBody[];

  @ApiProperty({ type: [OcrTextBody] })
  words!: OcrTextBody[];
}

@ApiSchema({ name: 'ParseFullResult' })
class ParseFullResultBody {
  @ApiProperty({ enum: ['full'] })
  type!: 'full';

  @ApiProperty({ type: [ParseChunkBody] })
  chunks!: ParseChunkBody[];

  @ApiProperty({ type: OcrDataBody, nullable: true, description: 'With `return_ocr_data`' })
  ocr!: OcrDataBody | null;
}

@ApiExtraModels(ParseFullResultBody, UrlResultBody, ModelVersionUsedBody)
@ApiSchema({ name: 'ParseResponse' })
export class ParseResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty(responseType('parse'))
  response_type?: 'parse';

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiProperty(either(ParseFullResultBody, UrlResultBody))
  result!: unknown;

  @ApiProperty({ type: PageUsageBody })
  usage!: PageUsageBody;

  @ApiProperty(modelVersions)
  model_versions!: Record<string, ModelVersionUsedBody>;

  @ApiProperty({ type: 'null' })
  pdf_url!: null;

  @ApiProperty({ type: 'null' })
  studio_link!: null;
}

// ---- extract ------------------------------------------------------------------------------

@ApiSchema({ name: 'ExtractUsage' })
class ExtractUsageBody extends PageUsageBody {
  @ApiProperty({ type: 'integer' })
  num_fields!: number;
}

@ApiExtraModels(UrlResultBody, ModelVersionUsedBody)
@ApiSchema({ name: 'ExtractResponse' })
export class ExtractResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty(responseType('v3_extract'))
  response_type?: 'v3_extract';

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiProperty({
    anyOf: [
      {
        type: 'object',
        additionalProperties: true,
        description:
          'Values in the shape of `instructions.schema`; with citations each leaf is ' +
          '`{value, citations: [{content, bbox}]}`',
      },
      { $ref: getSchemaPath(UrlResultBody) },
    ],
  })
  result!: unknown;

  @ApiProperty({ type: ExtractUsageBody })
  usage!: ExtractUsageBody;

  @ApiProperty(modelVersions)
  model_versions!: Record<string, ModelVersionUsedBody>;

  @ApiProperty({ type: 'null' })
  studio_link!: null;
}

// ---- split --------------------------------------------------------------------------------

@ApiSchema({ name: 'SplitPartition' })
class SplitPartitionBody {
  @ApiProperty()
  name!: string;

  @ApiProperty({ type: [Number] })
  pages!: number[];

  @ApiProperty({ enum: ['high', 'low'] })
  conf!: string;
}

@ApiSchema({ name: 'SplitSection' })
class SplitSectionBody {
  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'array', items: { type: 'integer' }, description: '1-indexed pages' })
  pages!: number[];

  @ApiProperty({ enum: ['high', 'low'] })
  conf!: string;

  @ApiProperty({ type: [SplitPartitionBody], nullable: true })
  partitions!: SplitPartitionBody[] | null;
}

@ApiSchema({ name: 'SplitResult' })
class SplitResultBody {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'integer' } },
    nullable: true,
  })
  section_mapping!: Record<string, number[]> | null;

  @ApiProperty({ type: [SplitSectionBody] })
  splits!: SplitSectionBody[];
}

@ApiSchema({ name: 'DeepSplitPage' })
class DeepSplitPageBody {
  @ApiProperty({ type: 'integer' })
  page_number!: number;

  @ApiProperty()
  evidence!: string;

  @ApiProperty({ enum: ['high', 'medium', 'low'] })
  confidence!: string;
}

@ApiSchema({ name: 'DeepSplitPartition' })
class DeepSplitPartitionBody {
  @ApiProperty()
  name!: string;

  @ApiProperty({ type: [DeepSplitPageBody] })
  pages!: DeepSplitPageBody[];
}

@ApiSchema({ name: 'DeepSplitSection' })
class DeepSplitSectionBody {
  @ApiProperty()
  name!: string;

  @ApiProperty({ type: [DeepSplitPageBody] })
  pages!: DeepSplitPageBody[];

  @ApiProperty({ type: [DeepSplitPartitionBody], nullable: true })
  partitions!: DeepSplitPartitionBody[] | null;
}

@ApiSchema({ name: 'DeepSplitResult', description: 'With `settings.deep_split`' })
class DeepSplitResultBody {
  @ApiProperty({ type: [DeepSplitSectionBody] })
  splits!: DeepSplitSectionBody[];
}

@ApiExtraModels(SplitResultBody, DeepSplitResultBody, UrlResultBody, ModelVersionUsedBody)
@ApiSchema({ name: 'SplitResponse' })
export class SplitResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty(responseType('split'))
  response_type?: 'split';

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiProperty(either(SplitResultBody, DeepSplitResultBody, UrlResultBody))
  result!: unknown;

  @ApiProperty({ type: PageUsageBody })
  usage!: PageUsageBody;

  @ApiProperty(modelVersions)
  model_versions!: Record<string, ModelVersionUsedBody>;
}
