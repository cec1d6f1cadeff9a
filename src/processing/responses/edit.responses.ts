import { ApiExtraModels, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ModelVersionUsedBody, modelVersions, responseType } from './result.responses.js';
import { BoundingBoxBody } from './operation.responses.js';

/** The edit response: the reductoai SDK's EditResponse plus docproc's per-field report. */

@ApiSchema({ name: 'EditWidget' })
class EditWidgetBody {
  @ApiProperty({ type: BoundingBoxBody })
  bbox!: BoundingBoxBody;

  @ApiProperty({ description: 'What the widget asks for (its caption, tooltip or name)' })
  description!: string;

  @ApiProperty({ enum: ['text', 'checkbox', 'radio', 'dropdown', 'barcode'] })
  type!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The value written, if any' })
  value!: string | null;
}

@ApiSchema({ name: 'EditFilledField' })
class EditFilledFieldBody {
  @ApiProperty({ description: 'The field as the document names it' })
  field!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ description: 'What was written ("checked" for a tick box)' })
  value!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The instruction it came from (null for a form_schema value)',
  })
  instruction!: string | null;

  @ApiProperty({ minimum: 0, maximum: 1 })
  confidence!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  page!: number | null;

  @ApiProperty({ required: false, description: 'False when the text was wider than its box' })
  fits?: boolean;

  @ApiProperty({ type: 'integer', required: false, description: 'Where the full text went' })
  overflow_page?: number;
}

@ApiSchema({ name: 'EditUnfilledField' })
class EditUnfilledFieldBody {
  @ApiProperty()
  field!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: 'integer', nullable: true })
  page!: number | null;
}

@ApiSchema({ name: 'EditReport' })
class EditReportBody {
  @ApiProperty({ type: [EditFilledFieldBody] })
  filled!: EditFilledFieldBody[];

  @ApiProperty({ type: [String], description: 'Instructions that named no field' })
  unmatched_instructions!: string[];

  @ApiProperty({ type: [EditUnfilledFieldBody], description: 'Fields no instruction filled' })
  unfilled_fields!: EditUnfilledFieldBody[];
}

@ApiSchema({ name: 'EditUsage' })
class EditUsageBody {
  @ApiProperty({ type: 'integer' })
  num_pages!: number;

  @ApiProperty({ type: 'integer', description: 'Fields written' })
  num_fields!: number;

  @ApiProperty()
  credits!: number;
}

@ApiExtraModels(ModelVersionUsedBody)
@ApiSchema({ name: 'EditResponse' })
export class EditResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty(responseType('edit'))
  response_type?: 'edit';

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Signed URL of the edited document (null once retention dropped it)',
  })
  document_url!: string | null;

  @ApiProperty({ type: [EditWidgetBody], nullable: true, description: 'PDF widgets' })
  form_schema!: EditWidgetBody[] | null;

  @ApiProperty({ type: EditReportBody })
  report!: EditReportBody;

  @ApiProperty({ type: EditUsageBody })
  usage!: EditUsageBody;

  @ApiProperty(modelVersions)
  model_versions!: Record<string, ModelVersionUsedBody>;
}
