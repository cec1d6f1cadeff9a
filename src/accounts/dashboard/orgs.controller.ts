import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import {
  CreatedProcessingKeyBody,
  MemberOrganizationListBody,
  ProcessingKeyBody,
  ProcessingKeyListBody,
} from './dashboard.responses.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountsService } from '../accounts.service.js';
import { MANAGERS, MEMBERS, OrgAccess } from '../auth/org-access.decorator.js';
import type { CreatedKey, MemberOrganization, ProcessingKeySummary } from '../accounts.types.js';
import { AccountAuthGuard } from '../auth/account-auth.guard.js';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { ApiKeyService } from '../keys/api-key.service.js';
import type { AccountPrincipal } from '../principal.js';
import { bodyValidationPipe } from './body-validation.pipe.js';
import { CreateProcessingKeyDto } from './processing-key.dto.js';
import { labelOrNull } from '../../common/visible-text.js';

/** The account dashboard's view of the caller's organizations and their processing keys. */
@ApiTags('account')
@ApiAccountAuth()
@Controller('api/v1/orgs')
@UseGuards(AccountAuthGuard)
export class OrgsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeyService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's organizations and roles" })
  @ApiOkResponse({ type: MemberOrganizationListBody })
  async list(
    @CurrentPrincipal() principal: AccountPrincipal,
  ): Promise<{ data: MemberOrganization[] }> {
    return { data: await this.accounts.orgsOfUser(principal.userId) };
  }

  @Post(':orgId/processing-keys')
  @OrgAccess(MANAGERS)
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a processing key of an organization (secret shown once)' })
  @ApiCreatedResponse({ type: CreatedProcessingKeyBody })
  @ApiErrors(400, 403, 404)
  async createProcessingKey(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Param('orgId') orgId: string,
    @Body(bodyValidationPipe()) body: CreateProcessingKeyDto,
  ): Promise<CreatedKey & { orgId: string; name: string | null }> {
    const created = await this.keys.createProcessingKey(orgId, {
      name: body.name,
      createdByUserId: principal.userId,
    });
    return { ...created, orgId, name: labelOrNull(body.name) };
  }

  @Get(':orgId/processing-keys')
  @OrgAccess(MEMBERS)
  @ApiOperation({ summary: "An organization's processing keys" })
  @ApiOkResponse({ type: ProcessingKeyListBody })
  @ApiErrors(403, 404)
  async listProcessingKeys(
    @Param('orgId') orgId: string,
  ): Promise<{ data: ProcessingKeySummary[] }> {
    return { data: await this.keys.listProcessingKeys(orgId) };
  }

  @Delete(':orgId/processing-keys/:keyId')
  @OrgAccess(MANAGERS)
  @ApiOperation({ summary: 'Revoke a processing key' })
  @ApiOkResponse({ type: ProcessingKeyBody })
  @ApiErrors(403, 404)
  async revokeProcessingKey(
    @Param('orgId') orgId: string,
    @Param('keyId') keyId: string,
  ): Promise<ProcessingKeySummary> {
    return this.keys.revokeProcessingKey(orgId, keyId);
  }
}
