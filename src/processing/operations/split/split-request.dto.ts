import {
  longText,
  OperationBaseDto,
  ParseOptionsDto,
  SplitAlphaDto,
  type SplitCategoryDto,
  splitDescription,
  SplitSettingsDto,
} from '../../requests/operation-requests.dto.js';
import { Check, Required } from '../../requests/request-validation.js';
import { model } from '../../requests/field-checkers.js';

/** The body of `/split` and `/split_async`. */
export class SplitConfigDto extends OperationBaseDto {
  @Required()
  @Check(splitDescription)
  split_description!: SplitCategoryDto[];

  @Check(model(ParseOptionsDto), { optional: true })
  parsing?: ParseOptionsDto;

  @Check(model(SplitSettingsDto), { optional: true })
  settings?: SplitSettingsDto;

  @Check(longText, { optional: true })
  split_rules?: string;

  /** Spec "Versioning": the deep split pin lives here, at the top level. */
  @Check(model(SplitAlphaDto), { optional: true })
  alpha?: SplitAlphaDto;
}
