import { Controller, Header, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProcessingAuth } from '../../common/openapi/api-responses.js';

/**
 * The reductoai SDK's `client.webhook.run()` ("Webhook Portal"): where the hosted webhook
 * endpoints of the caller's organization are configured. docproc's portal is its hosted
 * endpoints resource, managed with the same processing key (see
 * docs/decisions/0058-sdk-compatibility-routes-and-fields.md).
 */
@ApiTags('webhooks')
@ApiProcessingAuth()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class ConfigureWebhookController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Post('configure_webhook')
  @HttpCode(200)
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'Where hosted webhook endpoints are configured (SDK webhook.run)' })
  @ApiOkResponse({
    schema: { type: 'string', format: 'uri', description: 'URL of `/webhooks/endpoints`' },
  })
  portal(): string {
    // A JSON string, as the SDK declares (`APIPromise<string>`).
    return JSON.stringify(`${this.config.publicBaseUrl}/webhooks/endpoints`);
  }
}
