import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** Bodies of the hosted webhook endpoint, secret and delivery routes. */

@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointBody {
  @ApiProperty()
  endpoint_id!: string;

  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty({ type: [String], description: 'Empty: every channel' })
  channels!: string[];

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiPropertyOptional({ description: 'Signing secret; returned only when created' })
  secret?: string;
}

@ApiSchema({ name: 'WebhookEndpointList' })
export class WebhookEndpointListBody {
  @ApiProperty({ type: [WebhookEndpointBody] })
  endpoints!: WebhookEndpointBody[];
}

@ApiSchema({ name: 'DeletedWebhookEndpoint' })
export class DeletedEndpointBody {
  @ApiProperty()
  endpoint_id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

@ApiSchema({ name: 'WebhookSecret' })
export class WebhookSecretBody {
  @ApiProperty({ description: 'Signs direct-mode deliveries (Standard Webhooks)' })
  secret!: string;
}

@ApiSchema({ name: 'WebhookAttempt' })
class WebhookAttemptBody {
  @ApiProperty({ type: 'integer' })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  attempted_at!: string;

  @ApiProperty({ type: 'integer', nullable: true })
  status_code!: number | null;

  @ApiProperty({ type: String, nullable: true })
  error!: string | null;

  @ApiProperty({ type: 'integer' })
  duration_ms!: number;
}

@ApiSchema({ name: 'WebhookDelivery' })
class WebhookDeliveryBody {
  @ApiProperty()
  delivery_id!: string;

  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: ['direct', 'hosted'] })
  mode!: string;

  @ApiProperty({ type: String, nullable: true })
  endpoint_id!: string | null;

  @ApiProperty()
  url!: string;

  @ApiProperty({ description: 'The `webhook-id` header: the same for every endpoint and retry' })
  message_id!: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'skipped'] })
  status!: string;

  @ApiProperty({ type: 'integer' })
  attempts!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  next_attempt_at!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  last_status_code!: number | null;

  @ApiProperty({ type: String, nullable: true })
  last_error!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  delivered_at!: string | null;

  @ApiProperty({ type: [WebhookAttemptBody] })
  attempt_log!: WebhookAttemptBody[];
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListBody {
  @ApiProperty({ type: [WebhookDeliveryBody], description: 'Newest first' })
  deliveries!: WebhookDeliveryBody[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page' })
  next_cursor!: string | null;
}
