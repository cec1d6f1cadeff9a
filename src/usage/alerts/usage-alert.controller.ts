import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { MANAGERS, OrgAccess } from '../../accounts/auth/org-access.decorator.js';
import { bodyValidationPipe } from '../../accounts/dashboard/body-validation.pipe.js';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import { CreateUsageAlertDto } from './usage-alert.dto.js';
import {
  FiredUsageAlertListBody,
  UsageAlertBody,
  UsageAlertListBody,
} from './usage-alert.responses.js';
import { UsageAlertService } from './usage-alert.service.js';
import type { AlertRule } from './usage-alert.types.js';

/** Dashboard endpoints of usage alerts: owners and admins manage them and see their crossings. */
@ApiTags('usage')
@ApiAccountAuth()
@Controller('api/v1/orgs/:orgId')
@UseGuards(AccountAuthGuard)
export class UsageAlertController {
  constructor(private readonly alerts: UsageAlertService) {}

  @Get('alerts')
  @OrgAccess(MANAGERS)
  @ApiOperation({ summary: 'Usage alerts of the organization' })
  @ApiOkResponse({ type: UsageAlertListBody })
  @ApiErrors(403, 404)
  async list(@Param('orgId') orgId: string): Promise<{ data: AlertRule[] }> {
    return { data: await this.alerts.list(orgId) };
  }

  @Post('alerts')
  @OrgAccess(MANAGERS)
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Create a usage alert: a signed webhook once per period whose total reaches the threshold',
  })
  @ApiCreatedResponse({ type: UsageAlertBody })
  @ApiErrors(400, 403, 404, 409)
  create(
    @Param('orgId') orgId: string,
    @Body(bodyValidationPipe()) body: CreateUsageAlertDto,
  ): Promise<AlertRule> {
    return this.alerts.create(orgId, body);
  }

  @Delete('alerts/:alertId')
  @OrgAccess(MANAGERS)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a usage alert (its recorded crossings stay listed)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(403, 404)
  async delete(@Param('orgId') orgId: string, @Param('alertId') alertId: string): Promise<void> {
    await this.alerts.delete(orgId, alertId);
  }

  @Get('fired-alerts')
  @OrgAccess(MANAGERS)
  @ApiOperation({ summary: 'The latest 200 crossings of usage alerts, newest first' })
  @ApiOkResponse({ type: FiredUsageAlertListBody })
  @ApiErrors(403, 404)
  async fired(@Param('orgId') orgId: string) {
    const firings = await this.alerts.firings(orgId);
    return {
      data: firings.map((f) => ({
        firingId: f.firingId,
        alertId: f.alertId,
        periodStart: f.periodStart,
        periodEnd: f.periodEnd,
        total: f.total,
        firedAt: f.firedAt,
        payload: JSON.parse(f.payload) as Record<string, unknown>,
      })),
    };
  }
}
