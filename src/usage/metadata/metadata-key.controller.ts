import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiSchema,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import { MetadataKeyStatusBody, MetadataKeyStatusListBody } from '../usage.responses.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { MANAGERS, MEMBERS, OrgAccess } from '../../accounts/auth/org-access.decorator.js';
import { bodyValidationPipe } from '../../accounts/dashboard/body-validation.pipe.js';
import { MetadataKeyService } from './metadata-key.service.js';
import { VISIBLE_TEXT_PATTERN_MARK } from '../../common/visible-text.js';
import type { MetadataKeyStatus } from './metadata-key.repository.js';

@ApiSchema({ name: 'EnableMetadataKey' })
export class EnableMetadataKeyDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    pattern: VISIBLE_TEXT_PATTERN_MARK,
    description: 'A key of `async.metadata`, holding a visible character',
  })
  @IsString()
  @Length(1, 256)
  key!: string;
}

/** Dashboard endpoints: which async-metadata keys an org can group its usage by. */
@ApiTags('usage')
@ApiAccountAuth()
@Controller('api/v1/orgs/:orgId/metadata-keys')
@UseGuards(AccountAuthGuard)
export class MetadataKeyController {
  constructor(private readonly metadataKeys: MetadataKeyService) {}

  @Get()
  @OrgAccess(MEMBERS)
  @ApiOperation({ summary: 'Async metadata keys seen or enabled for grouping' })
  @ApiOkResponse({ type: MetadataKeyStatusListBody })
  @ApiErrors(403, 404)
  async list(@Param('orgId') orgId: string) {
    return this.metadataKeys.listWithCap(orgId);
  }

  @Post()
  @OrgAccess(MANAGERS)
  @ApiOperation({ summary: 'Enable a metadata key for usage grouping' })
  @ApiCreatedResponse({ type: MetadataKeyStatusBody })
  @ApiErrors(400, 403, 404)
  async enable(
    @Param('orgId') orgId: string,
    @Body(bodyValidationPipe()) body: EnableMetadataKeyDto,
  ): Promise<MetadataKeyStatus> {
    return this.metadataKeys.enable(orgId, body.key);
  }

  @Delete(':key')
  @OrgAccess(MANAGERS)
  @HttpCode(204)
  @ApiOperation({ summary: 'Disable a metadata key' })
  @ApiNoContentResponse({ description: 'Disabled' })
  @ApiErrors(403, 404)
  async disable(@Param('orgId') orgId: string, @Param('key') key: string): Promise<void> {
    await this.metadataKeys.disable(orgId, key);
  }

  @Delete(':key/tracking')
  @OrgAccess(MANAGERS)
  @HttpCode(204)
  @ApiOperation({
    summary: "Delete a metadata key's usage tracking",
    description:
      "Frees the key's place under the organization's limit on metadata keys: its usage rollups are dropped, it is disabled, and usage is not broken out by it again (jobs and webhooks keep it in their metadata). Cannot be undone.",
  })
  @ApiNoContentResponse({ description: 'Tracking deleted' })
  @ApiErrors(403, 404)
  async deleteTracking(@Param('orgId') orgId: string, @Param('key') key: string): Promise<void> {
    await this.metadataKeys.deleteTracking(orgId, key);
  }
}
