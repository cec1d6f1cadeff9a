import { documentPassword, OperationBaseDto } from '../../requests/operation-requests.dto.js';
import { REQUEST_LIMITS } from '../../requests/request-limits.js';
import { Check, Required } from '../../requests/request-validation.js';
import { model, nullable, text } from '../../requests/field-checkers.js';

/** reductoai `PipelineSettings`: overrides of the pipeline's defaults for one run. */
class PipelineSettingsDto {
  @Check(nullable(documentPassword), { optional: true })
  document_password?: string | null;
}

/**
 * The body of `/pipeline` and `/pipeline_async` (reductoai PipelineRunParams and
 * PipelineRunJobParams): the document, the stored pipeline to run on it, and the queueing
 * and async fields every operation has.
 */
export class PipelineRunDto extends OperationBaseDto {
  @Required()
  @Check(text({ minLength: 1, maxLength: REQUEST_LIMITS.nameChars }))
  pipeline_id!: string;

  @Check(model(PipelineSettingsDto), { optional: true })
  settings?: PipelineSettingsDto;
}
