import { httpUrlChecker } from '../requests/shared-fields.dto.js';
import { Check, Required } from '../requests/request-validation.js';
import { list, nullable, str } from '../requests/field-checkers.js';

export class CreateWebhookEndpointDto {
  /** Same URL rule as a direct webhook's `url`. */
  @Required()
  @Check(httpUrlChecker)
  url!: string;

  /** Channels this endpoint receives; empty receives every channel. */
  @Check(list(str))
  channels: string[] = [];

  @Check(nullable(str))
  description: string | null = null;
}
