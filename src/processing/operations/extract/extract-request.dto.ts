import {
  ExtractSettingsDto,
  InstructionsDto,
  OperationBaseDto,
  ParseOptionsDto,
} from '../../requests/operation-requests.dto.js';
import { Check, model, Required } from '../../requests/request-validation.js';

/** The body of `/extract` and `/extract_async`. */
export class ExtractConfigDto extends OperationBaseDto {
  @Required()
  @Check(model(InstructionsDto))
  instructions!: InstructionsDto;

  @Check(model(ParseOptionsDto), { optional: true })
  parsing?: ParseOptionsDto;

  @Check(model(ExtractSettingsDto), { optional: true })
  settings?: ExtractSettingsDto;
}
