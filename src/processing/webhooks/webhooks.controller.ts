import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { CreateWebhookEndpointDto } from './webhook-endpoint.dto.js';
import { WebhookEndpoint } from '../../usage/webhook-endpoints.contract.js';
import { WebhooksService } from './webhooks.service.js';
import { ApiPageQuery, readPageQuery } from '../core/list-page.js';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import { ApiJsonBody } from '../requests/request-schema.js';
import {
  DeletedEndpointBody,
  WebhookDeliveryListBody,
  WebhookEndpointBody,
  WebhookEndpointListBody,
  WebhookSecretBody,
} from './webhook.responses.js';

function presentEndpoint(endpoint: WebhookEndpoint, withSecret: boolean) {
  return {
    endpoint_id: endpoint.endpointId,
    url: endpoint.url,
    channels: endpoint.channels,
    description: endpoint.description,
    created_at: endpoint.createdAt.toISOString(),
    ...(withSecret ? { secret: endpoint.secret } : {}),
  };
}

/** Hosted webhook endpoints, the direct-mode signing secret, and delivery attempts. */
@ApiTags('webhooks')
@ApiProcessingAuth()
@Controller('webhooks')
@UseGuards(ProcessingAuthGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('endpoints')
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a hosted webhook endpoint (its secret is returned once)' })
  @ApiJsonBody(CreateWebhookEndpointDto)
  @ApiCreatedResponse({ type: WebhookEndpointBody })
  @ApiValidationError()
  @ApiErrors(400)
  async create(
    @Body(new ValidatedBodyPipe(CreateWebhookEndpointDto)) body: CreateWebhookEndpointDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    const endpoint = await this.webhooks.createEndpoint(
      principal.orgId,
      body.url,
      body.channels,
      body.description,
    );
    return presentEndpoint(endpoint, true);
  }

  @Get('endpoints')
  @ApiOperation({ summary: 'List the hosted webhook endpoints' })
  @ApiOkResponse({ type: WebhookEndpointListBody })
  async list(@CurrentPrincipal() principal: ProcessingPrincipal) {
    const endpoints = await this.webhooks.listEndpoints(principal.orgId);
    return { endpoints: endpoints.map((e) => presentEndpoint(e, false)) };
  }

  @Delete('endpoints/:endpoint_id')
  @ApiOperation({ summary: 'Delete a hosted webhook endpoint' })
  @ApiOkResponse({ type: DeletedEndpointBody })
  @ApiErrors(404)
  async remove(
    @Param('endpoint_id') endpointId: string,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    await this.webhooks.deleteEndpoint(principal.orgId, endpointId);
    return { endpoint_id: endpointId, deleted: true };
  }

  /** The secret that signs direct-mode (`async.webhook.url`) deliveries of this organization. */
  @Get('secret')
  @ApiOperation({ summary: 'The secret that signs direct-mode deliveries' })
  @ApiOkResponse({ type: WebhookSecretBody })
  async secret(@CurrentPrincipal() principal: ProcessingPrincipal) {
    return { secret: await this.webhooks.orgSecret(principal.orgId) };
  }

  @Get('deliveries')
  @ApiOperation({
    summary: 'Webhook deliveries and every attempt, newest first',
    description: 'At most `limit` deliveries: `next_cursor` asks for the rest.',
  })
  @ApiQuery({ name: 'job_id', required: false, schema: { type: 'string' } })
  @ApiPageQuery()
  @ApiOkResponse({ type: WebhookDeliveryListBody })
  @ApiValidationError()
  @ApiErrors(400)
  async deliveries(
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    const { deliveries, nextCursor } = await this.webhooks.deliveries(principal.orgId, {
      jobId: typeof query.job_id === 'string' && query.job_id !== '' ? query.job_id : null,
      ...readPageQuery(query),
    });
    return {
      next_cursor: nextCursor,
      deliveries: deliveries.map((d) => ({
        delivery_id: d.deliveryId,
        job_id: d.jobId,
        mode: d.mode,
        endpoint_id: d.endpointId,
        url: d.url,
        message_id: d.messageId,
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
        last_status_code: d.lastStatusCode,
        last_error: d.lastError,
        created_at: d.createdAt.toISOString(),
        delivered_at: d.deliveredAt?.toISOString() ?? null,
        attempt_log: d.attemptLog.map((a) => ({
          attempt: a.attempt,
          attempted_at: a.attemptedAt.toISOString(),
          status_code: a.statusCode,
          error: a.error,
          duration_ms: a.durationMs,
        })),
      })),
    };
  }
}
