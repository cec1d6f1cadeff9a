import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PRODUCTS } from '../usage-event.js';
import { ALERT_MEASURES, ALERT_PERIODS } from './usage-alert.types.js';

/** Bodies of the usage-alert routes. */

@ApiSchema({ name: 'UsageAlert' })
export class UsageAlertBody {
  @ApiProperty({ example: 'al_0c2f...' })
  alertId!: string;

  @ApiProperty()
  orgId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: ALERT_MEASURES })
  measure!: string;

  @ApiProperty({ enum: ALERT_PERIODS })
  period!: string;

  @ApiProperty({ description: 'Exact decimal text', example: '1000' })
  threshold!: string;

  @ApiProperty({ type: String, nullable: true, description: `One of ${PRODUCTS.join(', ')}` })
  product!: string | null;

  @ApiProperty({ type: String, nullable: true })
  metadataKey!: string | null;

  @ApiProperty({ type: String, nullable: true })
  metadataValue!: string | null;

  @ApiProperty({ format: 'uri' })
  webhookUrl!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

@ApiSchema({ name: 'UsageAlertList' })
export class UsageAlertListBody {
  @ApiProperty({ type: [UsageAlertBody] })
  data!: UsageAlertBody[];
}

@ApiSchema({ name: 'FiredUsageAlert' })
export class FiredUsageAlertBody {
  @ApiProperty({ description: 'Also the webhook-id of its delivery, with a `msg_` prefix' })
  firingId!: string;

  @ApiProperty()
  alertId!: string;

  @ApiProperty({ format: 'date', description: 'First UTC day of the period it crossed in' })
  periodStart!: string;

  @ApiProperty({ format: 'date' })
  periodEnd!: string;

  @ApiProperty({ description: 'The period total when the crossing was recorded (exact text)' })
  total!: string;

  @ApiProperty({ format: 'date-time' })
  firedAt!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The webhook body' })
  payload!: Record<string, unknown>;
}

@ApiSchema({ name: 'FiredUsageAlertList' })
export class FiredUsageAlertListBody {
  @ApiProperty({ type: [FiredUsageAlertBody] })
  data!: FiredUsageAlertBody[];
}
