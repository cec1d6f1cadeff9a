import { httpUrlChecker } from '../requests/shared-fields.dto.js';
import { Check, list, nullable, Required, str } from '../requests/request-validation.js';

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
