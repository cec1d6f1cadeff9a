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

/** The account dashboard's view of the caller's organizations and their processing keys. */
@Controller('api/v1/orgs')
@UseGuards(AccountAuthGuard)
export class OrgsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeyService,
  ) {}

  @Get()
  async list(
    @CurrentPrincipal() principal: AccountPrincipal,
  ): Promise<{ data: MemberOrganization[] }> {
    return { data: await this.accounts.orgsOfUser(principal.userId) };
  }

  @Post(':orgId/processing-keys')
  @OrgAccess(MANAGERS)
  @HttpCode(201)
  async createProcessingKey(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Param('orgId') orgId: string,
    @Body(bodyValidationPipe()) body: CreateProcessingKeyDto,
  ): Promise<CreatedKey & { orgId: string; name: string | null }> {
    const created = await this.keys.createProcessingKey(orgId, {
      name: body.name,
      createdByUserId: principal.userId,
    });
    return { ...created, orgId, name: body.name?.trim() || null };
  }

  @Get(':orgId/processing-keys')
  @OrgAccess(MEMBERS)
  async listProcessingKeys(
    @Param('orgId') orgId: string,
  ): Promise<{ data: ProcessingKeySummary[] }> {
    return { data: await this.keys.listProcessingKeys(orgId) };
  }

  @Delete(':orgId/processing-keys/:keyId')
  @OrgAccess(MANAGERS)
  async revokeProcessingKey(
    @Param('orgId') orgId: string,
    @Param('keyId') keyId: string,
  ): Promise<ProcessingKeySummary> {
    return this.keys.revokeProcessingKey(orgId, keyId);
  }
}
