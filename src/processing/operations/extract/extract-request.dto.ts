import {
  ExtractSettingsDto,
  InstructionsDto,
  INSTRUCTIONS_TO_SEND,
  OperationBaseDto,
  ParseOptionsDto,
} from '../../requests/operation-requests.dto.js';
import { Check, Required } from '../../requests/request-validation.js';
import { model } from '../../requests/field-checkers.js';

/** The body of `/extract` and `/extract_async`. */
export class ExtractConfigDto extends OperationBaseDto {
  @Required(INSTRUCTIONS_TO_SEND)
  @Check(model(InstructionsDto))
  instructions!: InstructionsDto;

  @Check(model(ParseOptionsDto), { optional: true })
  parsing?: ParseOptionsDto;

  @Check(model(ExtractSettingsDto), { optional: true })
  settings?: ExtractSettingsDto;
}
