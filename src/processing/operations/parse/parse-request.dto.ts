import {
  anyObject,
  FormattingDto,
  OperationBaseDto,
  ParseSettingsDto,
  RetrievalDto,
} from '../../requests/operation-requests.dto.js';
import { Check, model } from '../../requests/request-validation.js';

/** The body of `/parse` and `/parse_async`. */
export class ParseConfigDto extends OperationBaseDto {
  @Check(anyObject, { optional: true })
  enhance?: Record<string, unknown>;

  @Check(model(FormattingDto), { optional: true })
  formatting?: FormattingDto;

  @Check(model(RetrievalDto), { optional: true })
  retrieval?: RetrievalDto;

  @Check(model(ParseSettingsDto), { optional: true })
  settings?: ParseSettingsDto;

  @Check(anyObject, { optional: true })
  spreadsheet?: Record<string, unknown>;
}
